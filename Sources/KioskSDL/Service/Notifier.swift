import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// systemd's notify protocol, implemented directly as systemd encourages: one datagram per message to the
/// AF_UNIX socket named in `$NOTIFY_SOCKET` (a leading `@` is the abstract namespace).
/// `READY=1` once the first frame is shown, `WATCHDOG=1` from the frame loop, `STATUS=…`, `STOPPING=1`.
public final class Notifier {
    let path: String
    let socketFD: Int32
    /// Half of `$WATCHDOG_USEC`, in milliseconds: how often the frame loop pings (nil: no watchdog).
    public let watchdogInterval: Double?
    var lastPing: Double = -.infinity

    /// Nil when `$NOTIFY_SOCKET` is not set (not started by systemd).
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty, path.utf8.count < 108 else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        self.path = path
        socketFD = fd
        // systemd only honours the watchdog of the process it names ($WATCHDOG_PID, when set).
        if let usec = environment["WATCHDOG_USEC"].flatMap(Double.init), usec > 0,
            environment["WATCHDOG_PID"].map({ Int32($0) == getpid() }) ?? true
        {
            watchdogInterval = usec / 1000 / 2
        } else {
            watchdogInterval = nil
        }
    }

    /// Sends one message (lines `KEY=value`); false when it could not be sent.
    @discardableResult
    public func send(_ message: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            if bytes.first == UInt8(ascii: "@") { raw[0] = 0 }  // the abstract namespace
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let sent = message.withCString { text in
            withUnsafePointer(to: &address) { a in
                a.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(socketFD, text, strlen(text), 0, $0, length)
                }
            }
        }
        return sent >= 0
    }

    /// When the next watchdog ping is due (nil: no watchdog).
    public var nextPing: Double? { watchdogInterval.map { lastPing.isFinite ? lastPing + $0 : 0 } }

    /// From the frame loop: `WATCHDOG=1` when half the watchdog interval has passed since the last (real time,
    /// in milliseconds).
    public func tick(at ms: Double) {
        guard let interval = watchdogInterval, ms - lastPing >= interval else { return }
        lastPing = ms
        send("WATCHDOG=1")
    }

    deinit { close(socketFD) }
}
