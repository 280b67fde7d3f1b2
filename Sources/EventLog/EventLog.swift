import Foundation
import ScrollEngine

/// An event log, version 1 (docs/event-log-and-trace.md): a header and one SDL2 event per line.
public struct EventLog: Equatable, Sendable {
    public var display: Size
    public var source: String?
    public var records: [Record]
    /// One line per unknown event type that was skipped.
    public var warnings: [String] = []

    public init(display: Size, source: String? = nil, records: [Record] = []) {
        self.display = display
        self.source = source
        self.records = records
    }

    public struct Record: Equatable, Sendable {
        /// Milliseconds since the start of the log.
        public var timestamp: Double
        public var event: Event
        public init(timestamp: Double, event: Event) {
            self.timestamp = timestamp
            self.event = event
        }
    }

    public enum FingerPhase: String, Sendable {
        case down = "SDL_FINGERDOWN"
        case motion = "SDL_FINGERMOTION"
        case up = "SDL_FINGERUP"
    }

    /// The SDL2 events the format carries, with SDL's field names.
    public enum Event: Equatable, Sendable {
        /// `x`, `y` normalised 0...1 to the touch device; `dx`, `dy` normalised deltas.
        case finger(
            FingerPhase, touchId: Int64, fingerId: Int64, x: Double, y: Double, dx: Double, dy: Double,
            pressure: Double)
        /// Pixels of the header's display.
        case mouseMotion(x: Double, y: Double, xrel: Double, yrel: Double, state: Int)
        case mouseButton(down: Bool, button: Int, clicks: Int, x: Double, y: Double)
        case mouseWheel(x: Int, y: Int, preciseX: Double, preciseY: Double)
        /// `key` as `SDL_GetKeyName` names it.
        case key(down: Bool, key: String, repeat: Bool)
        case window(event: String, data1: Int, data2: Int)
        case quit
        /// `SDL_RENDER_TARGETS_RESET` (`device` false: the render targets' contents are lost) or
        /// `SDL_RENDER_DEVICE_RESET` (true: every texture is).
        case renderReset(device: Bool)
        /// `KIOSK_TOUCH_DEVICE_REMOVED` (an addition): the touch device `touchId` went away with fingers down
        /// (unplugged, or the panel powered off). SDL says nothing then; the kiosk notices and records it.
        case touchDeviceRemoved(touchId: Int64)
        /// `KIOSK_TOUCH_LIFT_LOST` (an addition): finger `fingerId` of touch device `touchId` is no longer on the
        /// panel, as the kernel keeps its fingers, and SDL never said it lifted (it lost the lift with events the
        /// kernel dropped in a long frame). The kiosk notices and records it; the finger is cancelled.
        case touchLiftLost(touchId: Int64, fingerId: Int64)
        /// `KIOSK_HEADSET` (an addition): a headphone jack reported a plug put in (`plugged`) or pulled out, as the
        /// kernel's input switch `SW_HEADPHONE_INSERT` says it.
        case headset(plugged: Bool)
    }
}

/// A log that cannot be read: `LOG:LINE: what`.
public struct EventLogError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String
    public var description: String { "\(file):\(line): \(message)" }
}

extension EventLog {
    /// Reads a whole log. Any malformed line is an error naming the file, the line and the field: nothing is
    /// replayed from a log that fails. Unknown event types are skipped with one warning per type.
    public static func parse(_ text: String, file: String) throws(EventLogError) -> EventLog {
        var reader = EventLogReader(file: file)
        var records: [Record] = []
        // "\r\n" is one Character in Swift: a CRLF log splits on it as on "\n".
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            if let record = try reader.read(line) { records.append(record) }
        }
        try reader.finish()
        var log = EventLog(display: reader.display, source: reader.source, records: records)
        log.warnings = reader.warnings
        return log
    }

    /// How many unknown event types a log's warnings name; the rest are counted.
    public static let unknownTypesShown = 5

    /// The latest timestamp a log may have: a week, in ms (a headless replay runs every frame up to it).
    public static let maximumTimestamp = 7 * 24 * 3_600_000.0
    /// The largest window side a replayed size event may give: the largest texture SDL's renderers make.
    public static let maximumWindowSide: Int64 = 16384

    static func event(type: String, fields f: Fields) throws(EventLogError) -> Event? {
        if let phase = FingerPhase(rawValue: type) {
            return .finger(
                phase, touchId: try f.integer("touchId", limit: Fields.idLimit),
                fingerId: try f.integer("fingerId", limit: Fields.idLimit), x: try f.number("x"),
                y: try f.number("y"), dx: try f.optionalNumber("dx") ?? 0, dy: try f.optionalNumber("dy") ?? 0,
                pressure: try f.optionalNumber("pressure") ?? 1)
        }
        switch type {
        case "SDL_MOUSEMOTION":
            return .mouseMotion(
                x: try f.number("x"), y: try f.number("y"), xrel: try f.optionalNumber("xrel") ?? 0,
                yrel: try f.optionalNumber("yrel") ?? 0, state: Int(try f.optionalInteger("state") ?? 0))
        case "SDL_MOUSEBUTTONDOWN", "SDL_MOUSEBUTTONUP":
            return .mouseButton(
                down: type == "SDL_MOUSEBUTTONDOWN", button: Int(try f.integer("button")),
                clicks: Int(try f.optionalInteger("clicks") ?? 1), x: try f.number("x"), y: try f.number("y"))
        case "SDL_MOUSEWHEEL":
            let x = Int(try f.integer("x"))
            let y = Int(try f.integer("y"))
            return .mouseWheel(
                x: x, y: y, preciseX: try f.optionalNumber("preciseX") ?? Double(x),
                preciseY: try f.optionalNumber("preciseY") ?? Double(y))
        case "SDL_KEYDOWN", "SDL_KEYUP":
            return .key(down: type == "SDL_KEYDOWN", key: try f.string("key"), repeat: try f.optionalFlag("repeat"))
        case "SDL_WINDOWEVENT":
            let name = try f.string("event")
            let data1 = try f.optionalInteger("data1", limit: Fields.idLimit) ?? 0
            let data2 = try f.optionalInteger("data2", limit: Fields.idLimit) ?? 0
            // SDL's fields are 32-bit; a size must be one a window and its textures can have.
            let isSize = name == "SDL_WINDOWEVENT_SIZE_CHANGED" || name == "SDL_WINDOWEVENT_RESIZED"
            let range: ClosedRange<Int64> = isSize ? 1...Self.maximumWindowSide : Int64(Int32.min)...Int64(Int32.max)
            for (field, value) in [("data1", data1), ("data2", data2)] where !range.contains(value) {
                throw f.fail(
                    isSize
                        ? "\(field): \(value) is not a window size (1 to \(Self.maximumWindowSide) pixels)"
                        : "\(field): \(value) is outside SDL's 32-bit range")
            }
            return .window(event: name, data1: Int(data1), data2: Int(data2))
        case "SDL_QUIT":
            return .quit
        case "SDL_RENDER_TARGETS_RESET", "SDL_RENDER_DEVICE_RESET":
            return .renderReset(device: type == "SDL_RENDER_DEVICE_RESET")
        case "KIOSK_TOUCH_DEVICE_REMOVED":
            return .touchDeviceRemoved(touchId: try f.integer("touchId", limit: Fields.idLimit))
        case "KIOSK_TOUCH_LIFT_LOST":
            return .touchLiftLost(
                touchId: try f.integer("touchId", limit: Fields.idLimit),
                fingerId: try f.integer("fingerId", limit: Fields.idLimit))
        case "KIOSK_HEADSET":
            return .headset(plugged: try f.optionalFlag("plugged"))
        default:
            return nil
        }
    }
}

/// Typed access to one line's fields, with errors that name the field.
struct Fields {
    let object: [String: JSONValue]
    let fail: (String) -> EventLogError
    var prefix = ""

    func number(_ name: String, limit: Double = Self.maximumMagnitude) throws(EventLogError) -> Double {
        guard let v = object[name] else { throw fail("missing field \(prefix)\(name)") }
        guard case .number(let n) = v, n.isFinite else {
            throw fail("\(prefix)\(name): expected a number, found \(v.typeName)")
        }
        guard abs(n) <= limit else {
            throw fail("\(prefix)\(name): \(JSONValue.short(n)) is out of range (at most \(Int(limit)) either way)")
        }
        return n
    }

    /// No field of a log means anything beyond this (pixels, ms, ids, steps): a larger one is a broken log, and
    /// would overflow what it is converted to.
    static let maximumMagnitude = 1e9

    /// Touch and finger ids are SDL's 64-bit numbers, whatever their size.
    static let idLimit = 9.2e18

    func optionalNumber(_ name: String) throws(EventLogError) -> Double? {
        object[name] == nil ? nil : try number(name)
    }

    func integer(_ name: String, limit: Double = Self.maximumMagnitude) throws(EventLogError) -> Int64 {
        let n = try number(name, limit: limit)
        guard n == n.rounded() else { throw fail("\(prefix)\(name): expected an integer, found \(n)") }
        return Int64(n)
    }

    func optionalInteger(_ name: String, limit: Double = Self.maximumMagnitude) throws(EventLogError) -> Int64? {
        object[name] == nil ? nil : try integer(name, limit: limit)
    }

    func string(_ name: String) throws(EventLogError) -> String {
        guard let v = object[name] else { throw fail("missing field \(prefix)\(name)") }
        guard case .string(let s) = v else { throw fail("\(prefix)\(name): expected a string, found \(v.typeName)") }
        return s
    }

    func optionalString(_ name: String) throws(EventLogError) -> String? {
        object[name] == nil ? nil : try string(name)
    }

    /// A boolean, or SDL's 0/1 byte.
    func optionalFlag(_ name: String) throws(EventLogError) -> Bool {
        switch object[name] {
        case nil: return false
        case .bool(let b)?: return b
        case .number(let n)?: return n != 0
        case let v?: throw fail("\(prefix)\(name): expected a boolean, found \(v.typeName)")
        }
    }
}
