/// What the kiosk tells systemd after a frame (docs/operations.md), read from the frame's typed events as the trace
/// and the visitor statistics read them: `READY=1` with `STATUS=showing …` after the first frame, and again after
/// the frame that shows a reload's outcome (the new content, or why the old stays), each naming the renderer that
/// draws (its picture read back right at start: `systemctl status kiosk` says what draws the screen).
public struct ServiceStatus {
    /// One notification.
    public enum Update: Equatable, Sendable {
        case ready(scene: String, renderer: String?, contentProblems: Int = 0)
        case reloaded(scene: String, renderer: String?)
        case reloadFailed(why: String, renderer: String?)

        /// The notification's text (`sd_notify`'s assignments, one a line).
        public var message: String {
            switch self {
            case .ready(let scene, let renderer, let problems):
                "READY=1\nSTATUS=showing \(scene)" + (problems > 0 ? " (degraded: \(placeholders(problems)))" : "")
                    + Self.drawnBy(renderer)
            case .reloaded(let scene, let renderer):
                "READY=1\nSTATUS=showing \(scene) (reloaded)" + Self.drawnBy(renderer)
            case .reloadFailed(let why, let renderer): "READY=1\nSTATUS=reload failed: \(why)" + Self.drawnBy(renderer)
            }
        }

        private static func drawnBy(_ renderer: String?) -> String { renderer.map { "; renderer \($0)" } ?? "" }

        /// Whether it ends a reload (the next one queued may begin).
        public var endsReload: Bool {
            if case .ready = self { return false }
            return true
        }
    }

    private var shownFirstFrame = false
    /// Whether `READY=1` has been sent (the first frame is up).
    public var isReady: Bool { shownFirstFrame }

    /// The renderer that draws (nil: not said).
    public var renderer: String?
    /// The pictures and films of the content started with that cannot be shown (`Manifest.contentProblems`).
    public var contentProblems = 0

    /// `n` pictures or films shown as placeholders, in words.
    public static func placeholders(_ n: Int) -> String {
        n == 1 ? "1 picture or film shown as a placeholder" : "\(n) pictures or films shown as placeholders"
    }

    public init(renderer: String? = nil) { self.renderer = renderer }

    /// After a frame with `events` showing `scene`: what to notify, in order.
    public mutating func afterFrame(_ events: [TraceEvent], scene: String) -> [Update] {
        var updates: [Update] = []
        if !shownFirstFrame {
            shownFirstFrame = true
            updates.append(.ready(scene: scene, renderer: renderer, contentProblems: contentProblems))
        }
        for e in events {
            guard case .contentDidReload(let error) = e.kind else { continue }
            updates.append(
                error.map { .reloadFailed(why: $0, renderer: renderer) } ?? .reloaded(scene: scene, renderer: renderer))
        }
        return updates
    }
}
