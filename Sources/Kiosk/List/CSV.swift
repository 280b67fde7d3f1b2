/// RFC 4180 comma-separated values, as a spreadsheet exports them: fields separated by commas, records by CRLF
/// or LF, a field in double quotes may hold commas, line breaks and doubled quotes. Each record says the line it
/// starts on, for messages. Pure: bytes in, records out.
enum CSV {
    public struct Record: Equatable, Sendable {
        public var fields: [String]
        public var line: Int
    }

    public struct Failure: Error, Equatable, Sendable {
        /// The line the problem is on (1 is the first).
        public var line: Int
        public var message: String
    }

    /// The records of `bytes` (UTF-8; a byte order mark is skipped), or the first problem: bytes that are not
    /// UTF-8 (the offset named), a quote that is not closed, or a character after a closing quote.
    public static func records(_ bytes: [UInt8]) -> Result<[Record], Failure> {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let text = String(validating: body, as: UTF8.self) else {
            let offset = firstInvalidUTF8(Array(bytes)) ?? 0
            let line = 1 + bytes.prefix(offset).filter { $0 == 0x0A }.count
            return .failure(Failure(line: line, message: "not UTF-8 text (byte \(offset))"))
        }
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var line = 1
        var recordLine = 1
        var quoted = false
        var afterQuote = false
        var quoteLine = 1
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func endRecord() {
            fields.append(field)
            field = ""
            // A line with nothing on it (a blank line, the end of the file) is no record.
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(fields: fields, line: recordLine)) }
            fields = []
        }
        while let s = pending ?? scalars.next() {
            pending = nil
            if quoted {
                if s == "\"" {
                    let next = scalars.next()
                    if next == "\"" {
                        field.unicodeScalars.append("\"")
                    } else {
                        quoted = false
                        afterQuote = true
                        pending = next
                    }
                } else {
                    if s == "\n" { line += 1 }
                    field.unicodeScalars.append(s)
                }
                continue
            }
            switch s {
            case ",":
                fields.append(field)
                field = ""
                afterQuote = false
            case "\r":
                let next = scalars.next()
                if next != "\n" { pending = next }
                fallthrough
            case "\n":
                endRecord()
                afterQuote = false
                line += 1
                recordLine = line
            case "\"" where field.isEmpty && !afterQuote:
                quoted = true
                quoteLine = line
            default:
                if afterQuote || s == "\"" {
                    return .failure(
                        Failure(
                            line: line,
                            message:
                                "a quote inside a field that is not quoted whole (write \"\" for a quote in a quoted field)"
                        ))
                }
                field.unicodeScalars.append(s)
            }
        }
        if quoted { return .failure(Failure(line: quoteLine, message: "a quote opened here is never closed")) }
        endRecord()
        return .success(records)
    }
}

/// The offset of the first byte of `bytes` that is not part of well-formed UTF-8 (nil: all is).
public func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var i = 0
    while i < bytes.count {
        let b = bytes[i]
        let (count, lowest): (Int, UInt32) =
            switch b {
            case 0x00...0x7F: (1, 0)
            case 0xC2...0xDF: (2, 0x80)
            case 0xE0...0xEF: (3, 0x800)
            case 0xF0...0xF4: (4, 0x10000)
            default: (0, 0)
            }
        guard count > 0, i + count <= bytes.count else { return i }
        var scalar = count == 1 ? UInt32(b) : UInt32(b) & (0xFF >> (count + 1))
        for k in 1..<max(1, count) {
            let c = bytes[i + k]
            guard c & 0xC0 == 0x80 else { return i }
            scalar = scalar << 6 | UInt32(c & 0x3F)
        }
        // Overlong forms, surrogates and beyond U+10FFFF are not UTF-8.
        guard scalar >= lowest, !(0xD800...0xDFFF).contains(scalar), scalar <= 0x10FFFF else { return i }
        i += count
    }
    return nil
}
