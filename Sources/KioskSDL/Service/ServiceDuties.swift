import Foundation
import Kiosk

/// What the kiosk owes the service around it (docs/operations.md): systemd's notifications and watchdog pings, the
/// state saved every few seconds, the memory in the log every ten minutes, and the visits written as they end.
final class ServiceDuties {
    let notifier = Notifier()
    /// The kiosk's saved state (none for the installer's tools: the wizard is not the kiosk).
    let state: StateFile?
    /// Visits counted from the frames' events and written as they end (with `$STATE_DIRECTORY`, not for the
    /// installer's tools).
    let visits: VisitBook?
    /// The picture of the screen `SIGUSR1` asks for.
    let screenPicture = ScreenPicture()
    /// `READY=1` and `STATUS=`, from the frames' events.
    var status = ServiceStatus()
    /// The health for node_exporter (docs/operations.md), counted from the frames' events, and its file.
    var metrics: Metrics?
    var metricsFile: MetricsFile?
    private var lastSave = 0.0
    private var lastMemoryLog = 0.0
    static let memoryLogMs = 600_000.0

    init(keepsState: Bool) {
        state = keepsState ? StateFile() : nil
        visits = state == nil ? nil : VisitLog().map(VisitBook.init(file:))
    }

    /// The watchdog ping (once the first frame is up: `READY=1` sent) and the periodic state save (`snapshot`),
    /// both on the real clock.
    func keepUp(realMs: Double, snapshot: () -> KioskState) {
        if status.isReady { notifier?.tick(at: realMs) }
        if let state, realMs - lastSave >= state.intervalMs {
            lastSave = realMs
            state.save(snapshot())
        }
    }

    /// During long work on the frame loop's thread (a large picture cut into its tiles at its first showing):
    /// the watchdog is fed while the work goes on once the first frame is up (`READY=1`), and before it the
    /// start's timeout (`TimeoutStartSec=`) is extended, so a slow board is not restarted in the middle of a cut
    /// it would only begin again.
    func stillWorking(realMs: Double) {
        guard let notifier else { return }
        if status.isReady { return notifier.tick(at: realMs) }
        guard realMs - lastExtension >= Self.startExtensionMs / 2 else { return }
        lastExtension = realMs
        notifier.send("EXTEND_TIMEOUT_USEC=\(Int(Self.startExtensionMs) * 1000)")
    }
    private var lastExtension = -Double.infinity
    /// How far each extension reaches (systemd.service(5): the start's timeout becomes at least this from now).
    static let startExtensionMs = 30_000.0

    /// When the next ping or save is due (real ms), for a loop that sleeps.
    func nextDue() -> Double? {
        var due: Double?
        if status.isReady, let ping = notifier?.nextPing { due = ping }
        if let state { due = min(due ?? .infinity, lastSave + state.intervalMs) }
        if let metricsFile { due = min(due ?? .infinity, metricsFile.nextDue) }
        return due
    }

    /// The metrics file written when due (`now`: what the kiosk is, read only then). A still screen
    /// (`stillAt`: the wall time now, nil while it moves) shows its last frame still: the kiosk is alive and its
    /// picture current, so `kiosk_last_frame_timestamp_seconds` says now (else an idle kiosk, which draws
    /// nothing, would look dead).
    func writeMetricsIfDue(realMs: Double, stillAt: () -> Double?, now: () -> Metrics.Now) {
        guard var metrics, let metricsFile, realMs >= metricsFile.nextDue else { return }
        if let still = stillAt() { metrics.lastFrameWallSeconds = max(metrics.lastFrameWallSeconds, still) }
        metricsFile.write(metrics.exposition(now()), at: realMs)
        metrics.wrote()
        self.metrics = metrics
    }

    /// Whether the memory is due in the log at `ms` of the kiosk's clock (then it is counted as logged).
    func memoryLogIsDue(at ms: Double) -> Bool {
        guard ms - lastMemoryLog >= Self.memoryLogMs else { return false }
        lastMemoryLog = ms
        return true
    }
}
