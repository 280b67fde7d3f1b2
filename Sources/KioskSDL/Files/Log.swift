#if canImport(Glibc)
    import Glibc
#endif

/// sd-daemon priorities: journald files each line at its level.
public enum Priority: Int, Sendable {
    case error = 3
    case warning = 4
    case info = 6
}

/// One line to standard error, unbuffered, with its `<N>` priority prefix (lost on a crash otherwise).
public func log(_ priority: Priority, _ message: String) {
    let line = "<\(priority.rawValue)>kiosk: \(cut(escapingControls(message), to: maximumLogBytes))\n"
    let bytes = line.utf8.map { $0 == 0 ? UInt8(ascii: "?") : $0 }
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// `s` with its control characters written out (`\n`, `\u{1B}`): a file named with a line break and a forged
/// `<2>kiosk:` after it, or with a terminal's escape sequences, is one line of the journal or the terminal, shown
/// as it is named, and never a line of its own or a command to the terminal. Tabs stay; so do letters of every
/// script. The bidirectional overrides and isolates (which reorder what a reader sees) are written out too.
public func escapingControls(_ s: String) -> String {
    guard s.unicodeScalars.contains(where: isEscaped) else { return s }
    var out = String.UnicodeScalarView()
    for u in s.unicodeScalars {
        guard isEscaped(u) else {
            out.append(u)
            continue
        }
        let written =
            switch u {
            case "\n": "\\n"
            case "\r": "\\r"
            default: "\\u{\(String(u.value, radix: 16, uppercase: true))}"
            }
        out.append(contentsOf: written.unicodeScalars)
    }
    return String(out)
}

/// Whether a character is one `escapingControls` writes out.
private func isEscaped(_ u: Unicode.Scalar) -> Bool {
    switch u.value {
    case 0x09: false
    case 0x00..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
    default: false
    }
}

/// A line for standard output (a tool's report: `--check`, `kiosk new`, `--report`), its control characters
/// written out as a log line's are.
public func printLine(_ line: String) {
    print(escapingControls(line))
}

/// The longest message a log line carries: a value echoed from a file (a 20 MB scene id) is cut, not copied
/// into the journal whole (journald itself cuts a line at 48 KiB).
let maximumLogBytes = 2000

/// `s` cut to at most `limit` bytes of UTF-8 (on a character's boundary), saying how much was left out.
func cut(_ s: String, to limit: Int) -> String {
    guard s.utf8.count > limit else { return s }
    var end = s.startIndex
    var bytes = 0
    for c in s {
        bytes += c.utf8.count
        guard bytes <= limit else { break }
        end = s.index(after: end)
    }
    let kept = s[..<end]
    return "\(kept)… (\(s.utf8.count - kept.utf8.count) more bytes)"
}

/// A failure that ends the program with the contract's exit status.
public struct KioskError: Error, CustomStringConvertible {
    public var status: Int32
    public var message: String
    public init(status: Int32, _ message: String) {
        self.status = status
        self.message = message
    }
    public var description: String { message }

    public static func commandLine(_ m: String) -> KioskError { KioskError(status: 2, m) }
    public static func manifest(_ m: String) -> KioskError { KioskError(status: 3, m) }
    public static func replay(_ m: String) -> KioskError { KioskError(status: 4, m) }
    public static func other(_ m: String) -> KioskError { KioskError(status: 1, m) }
}
