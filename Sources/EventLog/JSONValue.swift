import Foundation

/// Any JSON value, decoded without losing the difference between a number, a boolean and a string.
public enum JSONValue: Equatable, Sendable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// Parses one JSON text; nil when it is not valid JSON (or a key is given twice in an object).
    public static func parse(_ text: Substring) -> JSONValue? {
        try? parseStrictly(text).get()
    }

    /// Parses one JSON text (RFC 8259) strictly: a key given twice in one object is an error (which value would
    /// count?), as are a number beyond a double's range and nesting deeper than `maximumDepth`.
    public static func parseStrictly(_ text: Substring) -> Result<JSONValue, JSONSyntaxError> {
        if let r = text.utf8.withContiguousStorageIfAvailable({ parse(bytes: $0) }) { return r }
        return Array(text.utf8).withUnsafeBufferPointer { parse(bytes: $0) }
    }

    /// The same, of UTF-8 `bytes` (a line of a file read as bytes, not made a string first).
    public static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONSyntaxError> {
        var p = JSONParser(bytes: bytes)
        do throws(JSONSyntaxError) {
            // A byte-order mark, as Windows' editors write one: accepted, as the CSV reader accepts it.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                p.i = 3
                p.lineStart = 3
            }
            p.skipSpace()
            let v = try p.value(depth: 0)
            p.skipSpace()
            guard p.i == bytes.count else { throw p.error("text after the JSON value") }
            return .success(v)
        } catch {
            return .failure(error)
        }
    }

    /// A number as a file writes it, for messages: whole numbers without ".0".
    public static func short(_ n: Double) -> String {
        n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
    }

    /// Deeper nesting is refused (the parser recurses; JSONDecoder's limit too).
    public static let maximumDepth = 512

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Why a text is not JSON: what, on which line, and where in the value (`scenes[2].id`).
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var path: String
    /// A key given twice in one object (the text is otherwise JSON).
    public var isDuplicateKey = false
    /// The character on its line (1 first) where the text stops being JSON.
    public var column = 0
    public var description: String { "line \(line)\(column > 0 ? ", column \(column)" : ""): \(message)" }
}

/// A recursive-descent JSON reader over UTF-8 bytes.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0
    var line = 1
    /// Where the current line begins.
    var lineStart = 0
    var path: [String] = []

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func error(_ message: String) -> JSONSyntaxError {
        var joined = ""
        for part in path { joined += part.hasPrefix("[") || joined.isEmpty ? part : "." + part }
        var e = JSONSyntaxError(message: message + hint, line: line, path: joined)
        // Characters, not bytes: a UTF-8 continuation byte does not begin one.
        e.column = 1 + bytes[lineStart..<min(i, bytes.count)].filter { $0 & 0xC0 != 0x80 }.count
        return e
    }

    /// What the mistakes people make most look like where the text stops being JSON: a word processor's or a
    /// phone's curly quotes.
    var hint: String {
        guard i + 2 < bytes.count, bytes[i] == 0xE2, bytes[i + 1] == 0x80, (0x98...0x9D).contains(bytes[i + 2])
        else { return "" }
        return " (a curly quote, as a word processor or a phone writes them: JSON needs straight ones, \")"
    }

    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x0A:
                line += 1
                lineStart = i + 1
            case 0x20, 0x09, 0x0D: break
            default: return
            }
            i += 1
        }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
        guard peek == byte else { throw error("expected \(what)") }
        i += 1
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw error("nested deeper than \(JSONValue.maximumDepth) levels") }
        guard let c = peek else { throw error("the text ends where a value should be") }
        switch c {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character")
        }
    }

    mutating func literal(_ word: StaticString, _ v: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw error("unexpected character") }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw error("unexpected character") }
        i += n
        return v
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        i += 1
        var o: [String: JSONValue] = [:]
        skipSpace()
        if peek == UInt8(ascii: "}") {
            i += 1
            return .object(o)
        }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let key = try string()
            skipSpace()
            try expect(UInt8(ascii: ":"), "':' after a key")
            skipSpace()
            path.append(key)
            guard o[key] == nil else {
                var e = error("the key is given twice (a key may appear once in an object)")
                e.isDuplicateKey = true
                throw e
            }
            o[key] = try value(depth: depth + 1)
            path.removeLast()
            skipSpace()
            if peek == UInt8(ascii: ",") {
                i += 1
                skipSpace()
                if peek == UInt8(ascii: "}") {
                    throw error("a comma after the last member: JSON allows none, remove it")
                }
                continue
            }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            return .object(o)
        }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        i += 1
        var a: [JSONValue] = []
        skipSpace()
        if peek == UInt8(ascii: "]") {
            i += 1
            return .array(a)
        }
        while true {
            skipSpace()
            path.append("[\(a.count)]")
            a.append(try value(depth: depth + 1))
            path.removeLast()
            skipSpace()
            if peek == UInt8(ascii: ",") {
                i += 1
                skipSpace()
                if peek == UInt8(ascii: "]") { throw error("a comma after the last item: JSON allows none, remove it") }
                continue
            }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            return .array(a)
        }
    }

    mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = i
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.i
            while let c = p.peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) { p.i += 1 }
            return p.i - s
        }
        if peek == UInt8(ascii: "-") { i += 1 }
        let leadingZero = peek == UInt8(ascii: "0")
        let whole = digits(&self)
        guard whole > 0, !(leadingZero && whole > 1) else { throw error("not a number") }
        if peek == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw error("not a number") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw error("not a number") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let n = Double(text), n.isFinite else { throw error("the number \(text) is beyond a double's range") }
        return .number(n)
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard let c = peek else { throw error("a string is not closed") }
            i += 1
            switch c {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let e = peek else { throw error("a string is not closed") }
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard peek == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u")
                        else { throw error("a lone surrogate in \\u escapes") }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate in \\u escapes") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("a lone surrogate in \\u escapes") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw error("an unknown escape in a string")
                }
            case 0..<0x20:
                throw error("a control character in a string (write it as an escape)")
            default:
                out.append(c)
            }
        }
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("a \\u escape needs four hex digits")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }
}
