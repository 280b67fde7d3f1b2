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
    let line = "<\(priority.rawValue)>kiosk: \(cut(message, to: maximumLogBytes))\n"
    let bytes = line.utf8.map { $0 == 0 ? UInt8(ascii: "?") : $0 }
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
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
