import CSDL2
import EventLog

/// SDL's event as the event log writes it, or nil for events the kiosk does not use.
func logEvent(_ e: SDL_Event) -> EventLog.Event? {
    switch SDL_EventType(e.type) {
    case SDL_FINGERDOWN, SDL_FINGERMOTION, SDL_FINGERUP:
        let f = e.tfinger
        let phase: EventLog.FingerPhase =
            e.type == SDL_FINGERDOWN.rawValue ? .down : e.type == SDL_FINGERUP.rawValue ? .up : .motion
        return .finger(
            phase, touchId: Int64(f.touchId), fingerId: Int64(f.fingerId), x: Double(f.x), y: Double(f.y),
            dx: Double(f.dx), dy: Double(f.dy), pressure: Double(f.pressure))
    case SDL_MOUSEMOTION:
        let m = e.motion
        guard m.which != kiosk_touch_mouse_id() else { return nil }
        return .mouseMotion(
            x: Double(m.x), y: Double(m.y), xrel: Double(m.xrel), yrel: Double(m.yrel), state: Int(m.state))
    case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP:
        let b = e.button
        guard b.which != kiosk_touch_mouse_id() else { return nil }
        return .mouseButton(
            down: e.type == SDL_MOUSEBUTTONDOWN.rawValue, button: Int(b.button), clicks: Int(b.clicks), x: Double(b.x),
            y: Double(b.y))
    case SDL_MOUSEWHEEL:
        let w = e.wheel
        guard w.which != kiosk_touch_mouse_id() else { return nil }
        let flip: Int32 = w.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1
        return .mouseWheel(
            x: Int(w.x * flip), y: Int(w.y * flip), preciseX: Double(w.preciseX) * Double(flip),
            preciseY: Double(w.preciseY) * Double(flip))
    case SDL_KEYDOWN, SDL_KEYUP:
        let k = e.key
        return .key(
            down: e.type == SDL_KEYDOWN.rawValue, key: String(cString: SDL_GetKeyName(k.keysym.sym)),
            repeat: k.repeat != 0)
    case SDL_WINDOWEVENT:
        let w = e.window
        guard let name = windowEventNames[Int(w.event)] else { return nil }
        return .window(event: name, data1: Int(w.data1), data2: Int(w.data2))
    case SDL_QUIT:
        return .quit
    case SDL_RENDER_TARGETS_RESET, SDL_RENDER_DEVICE_RESET:
        return .renderReset(device: e.type == SDL_RENDER_DEVICE_RESET.rawValue)
    default:
        return nil
    }
}

/// SDL_WindowEventID's names, by value (SDL_video.h, SDL 2.26).
let windowEventNames: [Int: String] = [
    1: "SDL_WINDOWEVENT_SHOWN", 2: "SDL_WINDOWEVENT_HIDDEN", 3: "SDL_WINDOWEVENT_EXPOSED", 4: "SDL_WINDOWEVENT_MOVED",
    5: "SDL_WINDOWEVENT_RESIZED", 6: "SDL_WINDOWEVENT_SIZE_CHANGED", 7: "SDL_WINDOWEVENT_MINIMIZED",
    8: "SDL_WINDOWEVENT_MAXIMIZED", 9: "SDL_WINDOWEVENT_RESTORED", 10: "SDL_WINDOWEVENT_ENTER",
    11: "SDL_WINDOWEVENT_LEAVE", 12: "SDL_WINDOWEVENT_FOCUS_GAINED", 13: "SDL_WINDOWEVENT_FOCUS_LOST",
    14: "SDL_WINDOWEVENT_CLOSE",
]
