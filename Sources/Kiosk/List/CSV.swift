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

    /// How a spreadsheet wrote a file, as far as its bytes say: the separator (a comma; a semicolon where the
    /// header line has semicolons and no comma, as Excel writes "CSV" in German or French) and the encoding
    /// (UTF-8; Windows-1252 where the bytes are not UTF-8, as Excel's plain "CSV" writes on Windows). `notes`
    /// say each guess, for a warning.
    public struct Dialect: Equatable, Sendable {
        public var separator: Unicode.Scalar = ","
        public var windows1252 = false
        public var notes: [String] = []
    }

    public static func dialect(_ bytes: [UInt8]) -> Dialect {
        var d = Dialect()
        let header = bytes.prefix { $0 != 0x0A }
        if !header.contains(UInt8(ascii: ",")) && header.contains(UInt8(ascii: ";")) {
            d.separator = ";"
            d.notes.append(
                "read with \";\" between columns, as Excel writes CSV in some languages (commas are the standard: "
                    + "save it as \"CSV UTF-8 (comma delimited)\")")
        }
        if let offset = firstInvalidUTF8(bytes) {
            d.windows1252 = true
            let line = 1 + bytes.prefix(offset).filter { $0 == 0x0A }.count
            d.notes.append(
                "line \(line) is not UTF-8 text: read as Windows-1252, as Excel writes it; save it as \"CSV UTF-8\" to "
                    + "be sure of every letter")
        }
        return d
    }

    /// Windows-1252's letters for 0x80-0x9F (Latin-1 for the rest); the five it leaves out are U+FFFD.
    static let windows1252High: [Unicode.Scalar] = [
        "\u{20AC}", "\u{FFFD}", "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}", "\u{02C6}",
        "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", "\u{FFFD}", "\u{017D}", "\u{FFFD}", "\u{FFFD}", "\u{2018}",
        "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}", "\u{02DC}", "\u{2122}", "\u{0161}",
        "\u{203A}", "\u{0153}", "\u{FFFD}", "\u{017E}", "\u{0178}",
    ]

    /// The records of `bytes` (a byte order mark is skipped; separator and encoding as `dialect` guesses them), or
    /// the first problem: a quote that is not closed, or a character after a closing quote.
    public static func records(_ bytes: [UInt8]) -> Result<[Record], Failure> { read(bytes).records }

    /// The records of `bytes` and how they were read (the guesses to say), the file looked through once.
    public static func read(_ bytes: [UInt8]) -> (dialect: Dialect, records: Result<[Record], Failure>) {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        let dialect = dialect(Array(body))
        return (dialect, records(body, dialect))
    }

    private static func records(_ body: ArraySlice<UInt8>, _ dialect: Dialect) -> Result<[Record], Failure> {
        let text: String
        if dialect.windows1252 {
            var s = String.UnicodeScalarView()
            for b in body {
                s.append((0x80...0x9F).contains(b) ? windows1252High[Int(b) - 0x80] : Unicode.Scalar(b))
            }
            text = String(s)
        } else {
            text = String(decoding: body, as: UTF8.self)
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
            case dialect.separator:
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
