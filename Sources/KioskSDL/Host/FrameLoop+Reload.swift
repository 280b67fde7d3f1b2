import CSDL2
import CSDL2Image
import EventLog
import Foundation
import Kiosk
import ScrollEngine

/// SIGHUP's reload as the frame loop carries it out (docs/operations.md): `RELOADING=1`, the check on its own
/// thread, the swap once the visitor's gesture has ended, and `READY=1` after the first frame of the outcome.
extension FrameLoop {
    /// A load finished: problems leave the content as it is and are logged; good content waits for the frame
    /// that swaps it in (`renderFrame`).
    func finishReload(at t: Double) {
        guard let reload = reloading.loader, let loaded = reload.take() else { return }
        let (report, files) = (loaded.report, loaded.files)
        if let (start, frames, worst) = reloading.loading {
            log(
                .info,
                "reload: checked in \(Int(now() - start)) ms; \(frames) frames drawn meanwhile, the longest in "
                    + "\(String(format: "%.2f", worst)) ms")
            reloading.loading = nil
        }
        for p in ManifestError.logLines(report.problems) { log(p.isWarning ? .warning : .error, p.line) }
        let shown =
            reloading.edit.map { $0.checked(report, files: files, path: reload.path, began: loaded.began) }
            ?? report.manifest
        guard let manifest = shown else {
            let errors = report.errors
            let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
            let why = (errors.first?.description ?? "unknown") + more
            log(
                .error,
                "reload: \(reload.path): \(errors.count) error\(errors.count == 1 ? "" : "s"); the content shown is unchanged"
            )
            app.reload(failedWith: why)
            return
        }
        reloading.pending = (manifest, loaded, t)
    }

    /// A `SIGHUP`: a load starts, or follows the one running. The installer's tools show no content: there it is
    /// said once and nothing is read.
    func requestReload() {
        guard let loader = reloading.loader else {
            if !reloading.saidNoReload {
                reloading.saidNoReload = true
                log(.info, "reload: asked while an installer's tool runs; the content is read when the kiosk starts")
            }
            return
        }
        if loader.request() { announceReloading() }
    }

    /// `RELOADING=1` (systemd's reload protocol wants the monotonic time with it); the frames from now on are
    /// the load's.
    func announceReloading() {
        notifier?.send("RELOADING=1\nMONOTONIC_USEC=\(monotonicMicroseconds())")
        reloading.loading = (now(), 0, 0)
    }

    /// The `READY=1` that ends a reload is sent after the frame whose events say `contentDidReload` (the first
    /// frame of the new content, or the frame of a failure); then a load asked for meanwhile starts.
    func reloadDidEnd() {
        if reloading.loader?.next() == true { announceReloading() }
    }

    /// Swaps checked new content in after a frame (its last frame of the old content is kept: the manifest's
    /// transition fades from it), once the visitor's gesture has ended; a finger held still for `swapWaitMs`
    /// does not hold it back longer (a fling is never cut short).
    var swapIsDue: Bool {
        guard let pending = reloading.pending else { return false }
        return shown.isAtRest || (kioskNow() - pending.readyAt >= Self.swapWaitMs && !shown.needsFrame)
    }

    func swapContent() {
        guard let (manifest, loaded, _) = reloading.pending, let reload = reloading.loader else { return }
        reloading.pending = nil
        let swapStart = now()
        renderer.contentChanged(
            keeping: Set(manifest.scenes.flatMap(\.allImagePaths)), fonts: loaded.fonts,
            textureBudgetBytes: manifest.textureBudgetBytes)
        let scene = app.reload(
            manifest, images: renderer.images.number(loaded.images),
            metrics: TextMetricsReader.metrics(manifest, fonts: renderer.words.fonts), calibration: loaded.calibration)
        log(
            .info,
            "reload: \(reload.path): \(manifest.scenes.count) scenes; showing \(scene), swapped in "
                + "\(String(format: "%.1f", now() - swapStart)) ms")
        outputs.speech?.voices = manifest.accessibility.voices
        // The app changed between steps: what the loop knows of it is read again (its transition wants frames).
        shown = app.frame
    }
}

/// Where SIGHUP's reload (or `--edit`'s save) stands.
struct ReloadHandoff {
    /// The loader (nil for the installer's tools).
    var loader: ContentReload?
    /// A reload asked for without a loader was said.
    var saidNoReload = false
    /// While a load runs: when it began (real ms), the frames drawn meanwhile and the longest of them.
    var loading: (start: Double, frames: Int, worstMs: Double)?
    /// Checked new content waiting for the screen to come to rest, and when it was ready (kiosk clock).
    var pending: (manifest: Manifest, loaded: LoadedContent, readyAt: Double)?
    /// `kiosk --edit`: saved files ask for the reload, and what its check says is shown (nil on a kiosk).
    var edit: EditSession?
}
