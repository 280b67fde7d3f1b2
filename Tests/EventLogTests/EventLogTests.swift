import EventLog
import Kiosk
import ScrollEngine
import Testing
import TouchInput

@Suite struct EventLogTests {
    static let header = #"{"kioskEventLog": 1, "display": {"w": 800, "h": 480}, "source": "test"}"#

    @Test func readsTheContractsExample() throws {
        let text = """
            {"kioskEventLog": 1, "display": {"w": 800, "h": 480}, "source": "Atmel maXTouch Touchscreen"}
            {"timestamp": 0.0, "type": "SDL_FINGERDOWN", "touchId": 1, "fingerId": 3, "x": 0.43, "y": 0.51, "dx": 0, "dy": 0, "pressure": 1}
            {"timestamp": 96.0, "type": "SDL_FINGERUP", "touchId": 1, "fingerId": 3, "x": 0.43, "y": 0.51, "dx": 0, "dy": 0, "pressure": 1}
            """
        let log = try EventLog.parse(text, file: "tap.jsonl")
        #expect(log.display == Size(width: 800, height: 480))
        #expect(log.source == "Atmel maXTouch Touchscreen")
        #expect(log.records.count == 2)
        #expect(
            log.records[1]
                == .init(
                    timestamp: 96,
                    event: .finger(.up, touchId: 1, fingerId: 3, x: 0.43, y: 0.51, dx: 0, dy: 0, pressure: 1)))
        let touches = log.touches(in: Size(width: 1000, height: 1000))
        #expect(touches.map(\.kind) == [.down, .up])
        expectPoint(touches[0].position, Point(x: 430, y: 510))
    }

    func expectPoint(_ a: Point, _ b: Point, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9, "\(a) != \(b)", sourceLocation: sourceLocation)
    }

    @Test func everyEventTypeRoundTrips() throws {
        var log = EventLog(display: Size(width: 1280, height: 800), source: "round \"trip\"")
        let events: [EventLog.Event] = [
            .finger(.down, touchId: 1, fingerId: 0, x: 0.25, y: 0.75, dx: 0, dy: 0, pressure: 1),
            .finger(.motion, touchId: 1, fingerId: 0, x: 0.3, y: 0.7, dx: 0.05, dy: -0.05, pressure: 0.5),
            .finger(.up, touchId: 1, fingerId: 0, x: 0.3, y: 0.7, dx: 0, dy: 0, pressure: 0),
            .mouseMotion(x: 10, y: 20, xrel: 1, yrel: -2, state: 1),
            .mouseButton(down: true, button: 1, clicks: 2, x: 10, y: 20),
            .mouseButton(down: false, button: 3, clicks: 1, x: 11, y: 21),
            .mouseWheel(x: 0, y: -1, preciseX: 0, preciseY: -1.5),
            .key(down: true, key: "PageDown", repeat: false),
            .key(down: false, key: "Escape", repeat: true),
            .window(event: "SDL_WINDOWEVENT_SIZE_CHANGED", data1: 1024, data2: 768),
            .quit,
            .renderReset(device: true),
            .touchDeviceRemoved(touchId: 7),
            .touchLiftLost(touchId: 7, fingerId: 41),
            .headset(plugged: true),
        ]
        for (i, e) in events.enumerated() { log.records.append(.init(timestamp: Double(i) * 16.5, event: e)) }
        let again = try EventLog.parse(log.encoded(), file: "x.jsonl")
        #expect(again == log)
    }

    /// Each malformed line names the file, its line and what is wrong.
    @Test(arguments: [
        ("", "bad.jsonl:1: empty log: no header"),
        (#"{"display": {"w": 1, "h": 1}}"#, "bad.jsonl:1: missing header"),
        (#"{"kioskEventLog": 2, "display": {"w": 1, "h": 1}}"#, "bad.jsonl:1: kioskEventLog: version 2"),
        (#"{"kioskEventLog": 1}"#, "bad.jsonl:1: missing field display"),
        (
            #"{"kioskEventLog": 1, "display": {"w": "wide", "h": 1}}"#,
            "bad.jsonl:1: display.w: expected a number, found a string"
        ),
        (header + "\nnot json", "bad.jsonl:2: not valid JSON"),
        (header + "\n[1, 2]", "bad.jsonl:2: expected a JSON object, found an array"),
        (header + "\n" + #"{"type": "SDL_QUIT"}"#, "bad.jsonl:2: missing field timestamp"),
        (header + "\n" + #"{"timestamp": 1}"#, "bad.jsonl:2: missing field type"),
        (
            header + "\n"
                + #"{"timestamp": 1, "type": "SDL_FINGERDOWN", "touchId": 1, "fingerId": 1.5, "x": 0, "y": 0}"#,
            "bad.jsonl:2: fingerId: expected an integer"
        ),
        (
            header + "\n"
                + #"{"timestamp": 1, "type": "SDL_FINGERDOWN", "touchId": 1, "fingerId": 1, "x": "0", "y": 0}"#,
            "bad.jsonl:2: x: expected a number, found a string"
        ),
        (
            header + "\n" + #"{"timestamp": 1, "type": "SDL_FINGERUP", "touchId": 1, "fingerId": 1, "y": 0}"#,
            "bad.jsonl:2: missing field x"
        ),
        (
            header + "\n" + #"{"timestamp": 5, "type": "SDL_QUIT"}"# + "\n" + #"{"timestamp": 4, "type": "SDL_QUIT"}"#,
            "bad.jsonl:3: timestamp: 4.0 goes backwards"
        ),
        (
            header + "\n" + #"{"timestamp": 1, "type": "SDL_KEYDOWN", "key": 5}"#,
            "bad.jsonl:2: key: expected a string, found a number"
        ),
        (
            header + "\n" + #"{"timestamp": 1, "type": "SDL_KEYDOWN", "key": "a", "repeat": "no"}"#,
            "bad.jsonl:2: repeat: expected a boolean"
        ),
    ])
    func malformedLines(text: String, message: String) {
        do {
            _ = try EventLog.parse(text, file: "bad.jsonl")
            Issue.record("parsed: \(text)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test func unknownTypesAreSkippedWithOneWarningEach() throws {
        let text = [
            Self.header, #"{"timestamp": 1, "type": "SDL_JOYAXISMOTION", "axis": 1}"#,
            #"{"timestamp": 2, "type": "SDL_JOYAXISMOTION", "axis": 2}"#, #"{"timestamp": 3, "type": "SDL_QUIT"}"#,
            "",
        ].joined(separator: "\n")
        let log = try EventLog.parse(text, file: "u.jsonl")
        #expect(log.records == [.init(timestamp: 3, event: .quit)])
        #expect(log.warnings == ["u.jsonl:2: unknown event type SDL_JOYAXISMOTION skipped"])
    }

    /// 50 000 made-up types: the first five named, the rest counted in one line.
    @Test func manyUnknownTypesAreCountedNotFlooded() throws {
        let lines = (0..<50_000).map { #"{"timestamp": \#($0), "type": "SDL_MADE_UP_\#($0)"}"# }
        let log = try EventLog.parse(([Self.header] + lines + [""]).joined(separator: "\n"), file: "u.jsonl")
        #expect(log.warnings.count == 6)
        #expect(log.warnings[4] == "u.jsonl:6: unknown event type SDL_MADE_UP_4 skipped")
        #expect(log.warnings[5] == "u.jsonl: 49995 more unknown event types skipped (not listed)")
    }

    @Test func fingerRulesOfTheReplayer() throws {
        let text = [
            Self.header,
            #"{"timestamp": 0, "type": "SDL_FINGERUP", "touchId": 1, "fingerId": 9, "x": 0.5, "y": 0.5}"#,
            #"{"timestamp": 1, "type": "SDL_FINGERDOWN", "touchId": 1, "fingerId": 2, "x": 0.5, "y": 0.5}"#,
            #"{"timestamp": 5, "type": "SDL_FINGERDOWN", "touchId": 2, "fingerId": 2, "x": 0.1, "y": 0.5}"#,
            #"{"timestamp": 9, "type": "SDL_FINGERMOTION", "touchId": 1, "fingerId": 2, "x": 0.6, "y": 0.5}"#,
        ].joined(separator: "\n")
        let touches = try EventLog.parse(text, file: "f.jsonl").touches(in: Size(width: 100, height: 100))
        // The stray up is dropped; two devices' finger 2 are different fingers; both are lifted at the end.
        #expect(touches.map(\.kind) == [.down, .down, .move, .up, .up])
        #expect(Set(touches.prefix(2).map(\.finger)).count == 2)
        #expect(touches.suffix(2).allSatisfy { $0.timestamp == 9 })
    }
}

/// The strict JSON reader: what JSONDecoder took silently is an error, and what it took is still taken.
@Suite struct StrictJSONTests {
    @Test(arguments: [
        (#"{"a": 1, "a": 2}"#, "a"),
        (#"{"b": {"c": [1, {"d": 1, "d": 1}]}}"#, "b.c[1].d"),
    ])
    func aKeyGivenTwiceIsAnError(text: String, path: String) {
        guard case .failure(let e) = JSONValue.parseStrictly(Substring(text)) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(e.isDuplicateKey)
        #expect(e.path == path)
    }

    @Test(arguments: [
        "[1,]", "{\"a\" 1}", "01", "1e400", "\"\u{01}\"", "[" + String(repeating: "[", count: 600), "tru",
        "\"\\ud800\"",
    ])
    func notJSON(text: String) {
        #expect(JSONValue.parse(Substring(text)) == nil, "\(text.prefix(20))")
    }

    @Test func valuesAsJSONDecoderReadThem() {
        let text =
            #" {"s": "a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "n": -1.5e3, "z": 0, "t": true, "f": false, "x": null, "l": [[], {}]} "#
        #expect(
            JSONValue.parse(Substring(text))
                == .object([
                    "s": .string("a\"\\/\u{08}\u{0C}\n\r\té😀"), "n": .number(-1500), "z": .number(0), "t": .bool(true),
                    "f": .bool(false), "x": .null, "l": .array([.array([]), .object([:])]),
                ]))
    }

    @Test func crlfLogsReadAsLFLogs() throws {
        let lf = """
            {"kioskEventLog": 1, "display": {"w": 10, "h": 10}}
            {"timestamp": 1, "type": "SDL_QUIT"}

            """
        let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try EventLog.parse(crlf, file: "a") == EventLog.parse(lf, file: "a"))
        #expect(try EventLog.parse(crlf, file: "a").records.count == 1)
    }
}
