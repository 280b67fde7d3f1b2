import ScrollEngine

/// Reads a log one line at a time, with every check of `EventLog.parse`, holding nothing but the header and the
/// warnings: a replay streams a log of any length in the memory of one line.
public struct EventLogReader: Sendable {
    public let file: String
    /// The header's display (zero until the header is read).
    public private(set) var display: Size = .zero
    public private(set) var source: String?
    /// One line per unknown event type skipped, the first few; then one with a count (at `finish`).
    public private(set) var warnings: [String] = []
    /// The line read last (1-based).
    public private(set) var lineNumber = 0
    private var sawHeader = false
    private var lastTimestamp = -Double.infinity
    private var unknownTypes: Set<String> = []
    private var unlistedUnknown = 0

    public init(file: String) { self.file = file }

    /// Reads the next line (without its "\n"; a "\r" before it and a byte-order mark at the file's start are
    /// dropped): its record, or nil for the header, a blank line or an unknown event type.
    public mutating func read(_ rawLine: Substring) throws(EventLogError) -> EventLog.Record? {
        lineNumber += 1
        var line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
        // A byte-order mark before the header (an editor's UTF-8 with BOM), as the manifest and the rows accept it.
        if lineNumber == 1, line.first == "\u{FEFF}" { line = line.dropFirst() }
        if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return nil }
        let file = file
        let lineNumber = lineNumber
        func fail(_ message: String) -> EventLogError {
            EventLogError(file: file, line: lineNumber, message: message)
        }
        let value: JSONValue
        switch JSONValue.parseStrictly(line) {
        case .success(let v): value = v
        case .failure(let e):
            throw fail(e.isDuplicateKey ? "not valid JSON (\(e.path) is given twice)" : "not valid JSON (\(e.message))")
        }
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
            self.display = Size(width: w, height: h)
            source = try fields.optionalString("source")
            return nil
        }
        let timestamp = try fields.number("timestamp", limit: .infinity)
        guard (0...EventLog.maximumTimestamp).contains(timestamp) else {
            throw fail(
                "timestamp: \(JSONValue.short(timestamp)) is outside 0 to \(Int(EventLog.maximumTimestamp)) ms (a log covers a week at most)"
            )
        }
        guard timestamp >= lastTimestamp else {
            throw fail("timestamp: \(timestamp) goes backwards (previous \(lastTimestamp))")
        }
        lastTimestamp = timestamp
        let type = try fields.string("type")
        guard let event = try EventLog.event(type: type, fields: fields) else {
            // Each unknown type said once, the first few; past them only counted (50 000 made-up types are one
            // line, not 50 000).
            if unknownTypes.insert(type).inserted {
                if unknownTypes.count <= EventLog.unknownTypesShown {
                    warnings.append("\(file):\(lineNumber): unknown event type \(type) skipped")
                } else {
                    unlistedUnknown += 1
                }
            }
            return nil
        }
        return EventLog.Record(timestamp: timestamp, event: event)
    }

    /// After the last line: a log without a header is an error; the count of unknown types not listed is added to
    /// the warnings.
    public mutating func finish() throws(EventLogError) {
        guard sawHeader else { throw EventLogError(file: file, line: 1, message: "empty log: no header") }
        if unlistedUnknown > 0 {
            warnings.append("\(file): \(unlistedUnknown) more unknown event types skipped (not listed)")
            unlistedUnknown = 0
        }
    }
}
