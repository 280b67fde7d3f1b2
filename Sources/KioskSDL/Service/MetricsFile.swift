import Foundation
import Kiosk

/// The one version of the kiosk: what `kiosk --version` prints, the package is named and `kiosk_info` says.
public let kioskVersion = "0.2.0"

/// The metrics file of docs/operations.md: `--metrics PATH`, else `$STATE_DIRECTORY/kiosk.prom`, for node_exporter's
/// textfile collector. Replaced atomically (written beside it, then renamed) on a thread of its own, so that the
/// frame loop never waits for the disk; every `intervalMs` and at exit. A path that cannot be written is said
/// once (`<4>`), and the kiosk runs on; a path that is there and is not a regular file (a FIFO, a device node,
/// a folder) is refused at start, never replaced.
public final class MetricsFile: @unchecked Sendable {
    let path: String
    let intervalMs: Double
    private(set) var lastWriteMs = -Double.infinity
    private let queue = DispatchQueue(label: "kiosk-metrics", qos: .utility)
    private let lock = NSLock()
    private var warned = false

    /// The metrics file `option` names, else the one in `$STATE_DIRECTORY`; nil when neither is there.
    public init?(option: String?, intervalSeconds: Double) {
        guard let path = option ?? ProcessInfo.processInfo.environment["STATE_DIRECTORY"].map({ $0 + "/kiosk.prom" })
        else { return nil }
        if let what = notRegularFile(path) {
            log(.error, "metrics: \(path) is \(what), not a regular file: no metrics are written")
            return nil
        }
        self.path = path
        intervalMs = intervalSeconds * 1000
    }

    /// When the next write is due (real ms).
    var nextDue: Double { lastWriteMs + intervalMs }

    /// Writes `text` on the metrics thread, the write of `realMs` (the next is due `intervalMs` after it).
    func write(_ text: String, at realMs: Double) {
        lastWriteMs = realMs
        queue.async { self.write(text) }
    }

    /// Writes `text` now, after any write queued (at exit).
    public func writeNow(_ text: String) {
        queue.sync { self.write(text) }
    }

    /// The metrics and the picture of the screen are the kiosk group's to read (`rw-r-----`), under the unit's
    /// `UMask=0077`: node_exporter's user, added to the group, reads them; the state stays the kiosk's alone.
    static let groupReadable: mode_t = 0o640

    private func write(_ text: String) {
        guard !writeAtomically(Data(text.utf8), to: path, mode: Self.groupReadable) else { return }
        let reason = String(cString: strerror(errno))
        lock.lock()
        defer { lock.unlock() }
        guard !warned else { return }
        warned = true
        log(.warning, "metrics: cannot write \(path) (\(reason)); the kiosk runs on without")
    }
}
