/// What the kiosk tells systemd after a frame (operations.md), read from the frame's typed events as the trace
/// and the visitor statistics read them: `READY=1` with `STATUS=showing …` after the first frame, and again after
/// the frame that shows a reload's outcome (the new content, or why the old stays).
public struct ServiceStatus {
    /// One notification.
    public enum Update: Equatable, Sendable {
        case ready(scene: String)
        case reloaded(scene: String)
        case reloadFailed(why: String)

        /// The notification's text (`sd_notify`'s assignments, one a line).
        public var message: String {
            switch self {
            case .ready(let scene): "READY=1\nSTATUS=showing \(scene)"
            case .reloaded(let scene): "READY=1\nSTATUS=showing \(scene) (reloaded)"
            case .reloadFailed(let why): "READY=1\nSTATUS=reload failed: \(why)"
            }
        }

        /// Whether it ends a reload (the next one queued may begin).
        public var endsReload: Bool {
            if case .ready = self { return false }
            return true
        }
    }

    private var shownFirstFrame = false
    /// Whether `READY=1` has been sent (the first frame is up).
    public var isReady: Bool { shownFirstFrame }

    public init() {}

    /// After a frame with `events` showing `scene`: what to notify, in order.
    public mutating func afterFrame(_ events: [TraceEvent], scene: String) -> [Update] {
        var updates: [Update] = []
        if !shownFirstFrame {
            shownFirstFrame = true
            updates.append(.ready(scene: scene))
        }
        for e in events {
            guard case .contentDidReload(let error) = e.kind else { continue }
            updates.append(error.map { .reloadFailed(why: $0) } ?? .reloaded(scene: scene))
        }
        return updates
    }
}
