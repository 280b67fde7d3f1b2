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
    let line = "<\(priority.rawValue)>kiosk: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
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
