import ScrollEngine

extension EventLog {
    /// The log as text in the same format, one event per line: what `--record` writes.
    public func encoded() -> String {
        var out = "{\"kioskEventLog\": 1, \"display\": {\"w\": \(json(display.width)), \"h\": \(json(display.height))}"
        if let source { out += ", \"source\": \(jsonString(source))" }
        out += "}\n"
        for record in records { out += Self.line(record) + "\n" }
        return out
    }

    /// One record as a JSON line.
    public static func line(_ r: Record) -> String {
        var s = "{\"timestamp\": \(json(r.timestamp)), \"type\": "
        switch r.event {
        case .finger(let phase, let touchId, let fingerId, let x, let y, let dx, let dy, let pressure):
            s +=
                "\"\(phase.rawValue)\", \"touchId\": \(touchId), \"fingerId\": \(fingerId), \"x\": \(json(x)), "
                + "\"y\": \(json(y)), \"dx\": \(json(dx)), \"dy\": \(json(dy)), \"pressure\": \(json(pressure))"
        case .mouseMotion(let x, let y, let xrel, let yrel, let state):
            s +=
                "\"SDL_MOUSEMOTION\", \"x\": \(json(x)), \"y\": \(json(y)), \"xrel\": \(json(xrel)), "
                + "\"yrel\": \(json(yrel)), \"state\": \(state)"
        case .mouseButton(let down, let button, let clicks, let x, let y):
            s +=
                "\"\(down ? "SDL_MOUSEBUTTONDOWN" : "SDL_MOUSEBUTTONUP")\", \"button\": \(button), "
                + "\"clicks\": \(clicks), \"x\": \(json(x)), \"y\": \(json(y))"
        case .mouseWheel(let x, let y, let px, let py):
            s += "\"SDL_MOUSEWHEEL\", \"x\": \(x), \"y\": \(y), \"preciseX\": \(json(px)), \"preciseY\": \(json(py))"
        case .key(let down, let key, let isRepeat):
            s += "\"\(down ? "SDL_KEYDOWN" : "SDL_KEYUP")\", \"key\": \(jsonString(key)), \"repeat\": \(isRepeat)"
        case .window(let event, let data1, let data2):
            s += "\"SDL_WINDOWEVENT\", \"event\": \(jsonString(event)), \"data1\": \(data1), \"data2\": \(data2)"
        case .quit:
            s += "\"SDL_QUIT\""
        case .renderReset(let device):
            s += device ? "\"SDL_RENDER_DEVICE_RESET\"" : "\"SDL_RENDER_TARGETS_RESET\""
        case .touchDeviceRemoved(let touchId):
            s += "\"KIOSK_TOUCH_DEVICE_REMOVED\", \"touchId\": \(touchId)"
        case .touchLiftLost(let touchId, let fingerId):
            s += "\"KIOSK_TOUCH_LIFT_LOST\", \"touchId\": \(touchId), \"fingerId\": \(fingerId)"
        case .headset(let plugged):
            s += "\"KIOSK_HEADSET\", \"plugged\": \(plugged)"
        }
        return s + "}"
    }
}

/// A number as JSON: integers without a fraction, others in Swift's shortest round-tripping form.
func json(_ v: Double) -> String {
    guard v.isFinite else { return "0" }
    if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) + ".0" }
    return "\(v)"
}

/// A string as JSON, escaped.
public func jsonString(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case let c where c.value < 0x20:
            let hex = String(c.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
