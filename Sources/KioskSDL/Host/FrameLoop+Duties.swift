import CSDL2
import CSDL2Image
import EventLog
import Foundation
import Kiosk
import ScrollEngine

/// What the loop hands on after each frame: visits, metrics, the clock's news, systemd's status and watchdog,
/// the state and the memory in the log.
extension FrameLoop {
    /// The frame's events to the visit counter, with the wall clock the frame was stepped with; a visit that
    /// ended is counted in the metrics.
    func countVisits(_ events: [TraceEvent], wall: WallTime, at t: Double) {
        guard let visits = service.visits, let visit = visits.observe(app, events: events, wall: wall, at: t) else {
            return
        }
        service.metrics?.visitEnded(visit)
    }

    /// What the metrics say of the kiosk now, beside their counts.
    func metricsNow() -> Metrics.Now {
        var now = Metrics.Now(
            version: kioskVersion, content: app.manifest.contentHash, upSeconds: now() / 1000,
            placeholders: zip(shown.scene.images, shown.scene.imagePaths).filter {
                !$0.loaded || renderer.images.isPlaceholder($1)
            }.count, residentBytes: residentKiB() * 1024,
            textureBytes: renderer.tiles.cache.bytes + (renderer.layers?.bytes ?? 0) + renderer.words.bytes,
            clockSynchronized: wall.isSynchronized, videoDriver: display.videoDriver, renderer: display.rendererName,
            displayPowerOn: panel.isOn)
        now.copyMethod = display.rowCopy?.calibration.measured?.rawValue ?? ""
        now.videoFramesShown = renderer.videos.framesShown
        now.videoFramesDropped = renderer.videos.framesDropped
        now.touchToPresent = pipeline.touchToPresent
        return now
    }

    /// What the frame's events say of the wall clock, to the journal.
    func logClock(_ events: [TraceEvent]) {
        for e in events {
            switch e.kind {
            case .clockDidSynchronize:
                log(.info, "the wall clock is synchronised: the opening hours and the schedule apply from now")
            case .clockDidJump(let seconds):
                log(
                    .info,
                    "the wall clock jumped \(jsonNumber(seconds)) s: the opening hours and the schedule are read again")
            default: break
            }
        }
    }

    /// The frame's events to systemd: `READY=1` and `STATUS=` after the first frame and a reload's outcome.
    func notifyStatus(_ events: [TraceEvent]) {
        for update in service.status.afterFrame(events, scene: shown.scene.config.id) {
            notifier?.send(update.message)
            if update.endsReload { reloadDidEnd() }
        }
    }

    /// After each frame: the watchdog, the state every few seconds (real time), and the memory in the log every
    /// ten minutes (of the kiosk's clock: virtual headless, real otherwise).
    func afterFrame(realMs: Double) {
        if service.memoryLogIsDue(at: app.now) { logMemory() }
        keepUp(realMs: realMs)
    }

    /// The memory in the log: what is resident, and what the tile textures and kept pictures hold of it.
    func logMemory() {
        let parts = ResidentParts.now()
        log(
            .info,
            "memory: resident \(parts.resident) KiB, textures \(renderer.tiles.cache.bytes / 1024) KiB, kept pictures "
                + "\((renderer.layers?.bytes ?? 0) / 1024) KiB, peak \(parts.peak) KiB; pictures "
                + "\(renderer.images.textureBytes / 1024) KiB, words \(renderer.words.bytes / 1024) KiB; resident in "
                + parts.description)
    }

    /// The watchdog ping (from READY=1 on) and the periodic state save, both on the real clock.
    func keepUp(realMs: Double) {
        service.keepUp(realMs: realMs) {
            app.snapshot(wallClock: Date().timeIntervalSince1970, at: kioskNow())
        }
        service.writeMetricsIfDue(
            realMs: realMs, stillAt: { screenIsStill && pipeline.framesDrawn > 0 ? wallClock(at: kioskNow()) : nil },
            now: metricsNow)
    }
}
