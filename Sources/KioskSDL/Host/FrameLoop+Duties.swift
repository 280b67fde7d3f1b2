import CSDL2
import CSDL2Image
import EventLog
import Foundation
import Kiosk
import ScrollEngine

/// What the loop keeps up besides its frames' observers: the metrics' reading of the kiosk, systemd's watchdog,
/// the state and the memory in the log.
extension FrameLoop {
    /// The saved state brought back (`KioskApp.restore`), or why not, in the log: not at all while the kiosk is
    /// closed, nor when the idle timeout has passed or its scene is gone.
    func restoreState() {
        if let state, let saved = state.load() {
            switch app.restore(
                saved, wallClock: Date().timeIntervalSince1970, at: kioskNow(), wall: wall.reading(kioskNow: kioskNow())
            )
            {
            case .restored(let adjusted):
                log(.info, "restored the state of \(state.path): scene \(saved.scene)")
                for line in adjusted { log(.warning, "\(state.path): \(line)") }
            case .idleTimeoutPassed:
                log(.info, "\(state.path): the idle timeout has passed since the last touch; starting at home")
            case .closedNow:
                log(
                    .info,
                    "\(state.path): the kiosk is closed now (its opening hours or schedule): starting dark, at home")
            case .sceneGone:
                log(
                    .warning,
                    "\(state.path): the saved scene \"\(saved.scene)\" is not in the manifest; starting at home")
            }
        }
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
        now.contentProblems = app.manifest.contentProblems.count
        return now
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
