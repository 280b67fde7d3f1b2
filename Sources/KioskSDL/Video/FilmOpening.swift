import Foundation

/// A film being opened on a worker thread (`VideoPlayer.open`: the file's head read, the container probed, a
/// decoder opened, libav loaded at the first film): the frame thread never waits for it. The frame asks each
/// turn whether it is done; `wake` is called when it is, so a sleeping loop draws its first frame at once. One
/// that never opens (a share that stopped answering) is given up after `VideoInspector.timeLimitSeconds`,
/// as `--check` gives it up.
final class FilmOpening: @unchecked Sendable {
    typealias Outcome = Result<VideoPlayer, VideoPlayer.Problem>

    private let lock = NSLock()
    private var outcome: Outcome?
    private var abandoned = false
    /// When it began, on the monotonic clock.
    let began = ProcessInfo.processInfo.systemUptime

    /// Starts opening; on the virtual clock (`synchronous`) the open is done here, so a replay shows the same
    /// frames on every run.
    init(synchronous: Bool, wake: (@Sendable () -> Void)?, open: @escaping @Sendable () -> Outcome) {
        guard !synchronous else {
            outcome = open()
            return
        }
        let thread = Thread { [self] in
            finish(open())
            wake?()
        }
        thread.name = "kiosk-film-open"
        thread.start()
    }

    /// The player or why not, once it is done; nil while it opens.
    var result: Outcome? {
        lock.lock()
        defer { lock.unlock() }
        return outcome
    }

    /// Whether it has taken longer than a film may take to open.
    var overdue: Bool {
        ProcessInfo.processInfo.systemUptime - began > VideoInspector.timeLimitSeconds
    }

    /// No frame wants it any more (its scene was left, or it is overdue): a player it opens later is stopped.
    func abandon() {
        lock.lock()
        abandoned = true
        let done = outcome
        lock.unlock()
        if case .success(let player) = done { player.stop() }
    }

    private func finish(_ result: Outcome) {
        lock.lock()
        outcome = result
        let late = abandoned
        lock.unlock()
        if late, case .success(let player) = result { player.stop() }
    }
}
