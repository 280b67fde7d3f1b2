import Foundation
import ScrollEngine

/// An event log, version 1 (shared/design/event-log.md): a header and one SDL2 event per line.
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
        var log = EventLog(display: .zero)
        var sawHeader = false
        var lastTimestamp = -Double.infinity
        var unknownTypes: Set<String> = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            func fail(_ message: String) -> EventLogError {
                EventLogError(file: file, line: lineNumber, message: message)
            }
            guard let value = JSONValue.parse(line) else { throw fail("not valid JSON") }
            guard case .object(let object) = value else {
                throw fail("expected a JSON object, found \(value.typeName)")
            }
            let fields = Fields(object: object, fail: fail)
            if !sawHeader {
                sawHeader = true
                guard object["kioskEventLog"] != nil else {
                    throw fail("missing header: the first line must be {\"kioskEventLog\": 1, \"display\": ...}")
                }
                let version = try fields.number("kioskEventLog")
                guard version == 1 else { throw fail("kioskEventLog: version \(version) is not supported (only 1)") }
                guard case .object(let display)? = object["display"] else {
                    throw fail(object["display"] == nil ? "missing field display" : "display: expected an object")
                }
                let d = Fields(object: display, fail: fail, prefix: "display.")
                let w = try d.number("w")
                let h = try d.number("h")
                guard w > 0, h > 0 else { throw fail("display: w and h must be positive") }
                log.display = Size(width: w, height: h)
                log.source = try fields.optionalString("source")
                continue
            }
            let timestamp = try fields.number("timestamp")
            guard timestamp >= lastTimestamp else {
                throw fail("timestamp: \(timestamp) goes backwards (previous \(lastTimestamp))")
            }
            lastTimestamp = timestamp
            let type = try fields.string("type")
            guard let event = try Self.event(type: type, fields: fields) else {
                if unknownTypes.insert(type).inserted {
                    log.warnings.append("\(file):\(lineNumber): unknown event type \(type) skipped")
                }
                continue
            }
            log.records.append(Record(timestamp: timestamp, event: event))
        }
        guard sawHeader else { throw EventLogError(file: file, line: 1, message: "empty log: no header") }
        return log
    }

    static func event(type: String, fields f: Fields) throws(EventLogError) -> Event? {
        if let phase = FingerPhase(rawValue: type) {
            return .finger(
                phase, touchId: try f.integer("touchId"), fingerId: try f.integer("fingerId"), x: try f.number("x"),
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
            return .window(
                event: try f.string("event"), data1: Int(try f.optionalInteger("data1") ?? 0),
                data2: Int(try f.optionalInteger("data2") ?? 0))
        case "SDL_QUIT":
            return .quit
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

    func number(_ name: String) throws(EventLogError) -> Double {
        guard let v = object[name] else { throw fail("missing field \(prefix)\(name)") }
        guard case .number(let n) = v, n.isFinite else {
            throw fail("\(prefix)\(name): expected a number, found \(v.typeName)")
        }
        return n
    }

    func optionalNumber(_ name: String) throws(EventLogError) -> Double? {
        object[name] == nil ? nil : try number(name)
    }

    func integer(_ name: String) throws(EventLogError) -> Int64 {
        let n = try number(name)
        guard n == n.rounded(), abs(n) < 9.2e18 else { throw fail("\(prefix)\(name): expected an integer, found \(n)") }
        return Int64(n)
    }

    func optionalInteger(_ name: String) throws(EventLogError) -> Int64? {
        object[name] == nil ? nil : try integer(name)
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
