import CSDL2
import CSDL2Image
import EventLog
import Foundation
import Kiosk
import ScrollEngine

/// Runs the kiosk: loads the manifest and the replay log, opens the display, and drives the frame loop on the
/// virtual clock (`--headless`) or the real one. Returns the process's exit status.
public enum Runner {
    static let frameMs = 1000.0 / 60

    public static func run(_ options: Options, defaultManifest: String?) -> Int32 {
        returnFreedMemory()
        do {
            try runThrowing(options, defaultManifest: defaultManifest)
            return 0
        } catch {
            log(.error, error.message)
            return error.status
        }
    }

    static func runThrowing(_ options: Options, defaultManifest: String?) throws(KioskError) {
        // `--edit` follows its manifest by name: a relative path is made whole now, so a content folder removed
        // and made again (the folder it started in, gone for good) is found again.
        let path = manifestPath(options, defaultManifest: defaultManifest).map {
            options.edit && !$0.hasPrefix("/") ? FileManager.default.currentDirectoryPath + "/" + $0 : $0
        }
        let seen = FilesSeen()
        var manifest: Manifest
        // `--edit` opens on content that cannot be used, too: a page waiting for the fix, under its problems.
        var startProblems: [String] = []
        do {
            manifest = try loadManifest(path, seen: seen)
            if options.edit { manifest = manifest.forEditing }
        } catch {
            guard options.edit, let path, error.status == KioskError.manifest("").status else { throw error }
            log(.error, "\(error.message) (editing: a good save shows the content)")
            manifest = Manifest.waiting(for: path)
            startProblems = [error.message]
        }
        if let id = options.scene, startProblems.isEmpty, manifest.scene(id) == nil {
            throw .commandLine(
                "--scene \(id): the manifest has no such scene (it has \(manifest.scenes.map(\.id).joined(separator: ", ")))"
            )
        }
        let replay = try options.replay.map { (path) throws(KioskError) in try loadReplay(path) }
        if let folder = cacheFolder() { TileFile.prune(folder, keeping: manifest.scenes.flatMap(\.allImagePaths)) }
        let display = try Display(mode: options.mode, rotation: options.rotation, maxTexture: options.maxTexture)
        // Headless on the virtual clock every visible tile is loaded before its frame: the same pictures on
        // every run. In real time the workers load them and nothing waits.
        let tiles = TileStore(
            display: display, budgetBytes: TextureBudget.tiles(manifest.textureBudgetBytes),
            synchronous: options.isVirtual)
        let images = ImageStore(
            display: display, tiles: tiles, budgetBytes: TextureBudget.pictures(manifest.textureBudgetBytes))
        // Made before the first picture loads: a long cut at the start extends systemd's start timeout.
        // Nor does the person editing its content visit it (`--edit` keeps no statistics, state or metrics).
        let service = ServiceDuties(keepsState: !options.calibrate && !options.touchTest && !options.edit)
        service.status.renderer = display.rendererName
        service.status.contentProblems = manifest.contentProblems.count
        images.whileWorking = { [unowned service] in service.stillWorking(realMs: Double(SDL_GetTicks64())) }
        let calibrationFile = CalibrationFile.path(option: options.calibration)
        if options.calibrate && calibrationFile == nil {
            throw .commandLine("--calibrate: where to write? set $STATE_DIRECTORY or pass --calibration PATH")
        }
        let windowed = if case .windowed = options.mode { true } else { false }
        let renderer = Renderer(
            display: display, images: images, fonts: manifest.fonts, textureBudgetBytes: manifest.textureBudgetBytes)
        renderer.words.fonts.fingerprint = FontFingerprint(manifest.fonts)
        let app = KioskApp(
            manifest: manifest, physicalSize: display.size, rotation: options.rotation,
            startScene: startProblems.isEmpty ? options.scene : nil,
            calibration: options.calibrate
                ? nil : CalibrationFile.effective(file: calibrationFile, manifest: manifest.calibration),
            escapeQuits: windowed, images: images.number(images.facts.catalog(manifest)),
            metrics: TextMetricsReader.metrics(manifest, fonts: renderer.words.fonts))
        var wizard: CalibrationScreen?
        if options.calibrate {
            wizard = app.start(.calibration) as? CalibrationScreen
        } else if options.touchTest {
            app.start(.touchTest)
        }
        let loop = try FrameLoop(
            options: options, app: app, display: display, renderer: renderer, replay: replay, service: service)
        if !options.calibrate && !options.touchTest, let path {
            loop.reloading.loader = ContentReload(
                path: path, screen: display.size, facts: images.facts, calibrationFile: calibrationFile)
            if options.edit {
                loop.reloading.loader?.keepInspections()
                // The banner names what is missing too, when the content started with placeholders.
                loop.reloading.edit = EditSession(
                    manifest: path, files: seen.files, reloadEvent: loop.signals.reloadEvent,
                    problems: startProblems.isEmpty ? manifest.contentProblems : startProblems)
            }
        }
        try loop.run()
        if let wizard = wizard?.wizard, let calibrationFile {
            switch wizard.outcome {
            case .done(let matrix, let residual):
                guard CalibrationFile.write(matrix, residual: residual, to: calibrationFile) else {
                    throw .other("calibration not saved")
                }
            case .failed(let why):
                throw .other("calibration: \(why); nothing written")
            case .running:
                throw .other("calibration: it ended before the five targets were taken; nothing written")
            }
        }
    }

    /// glibc's malloc keeps freed blocks for reuse: after a large block is freed it raises the size above which
    /// it maps blocks of their own (up to 32 MiB), so tile after tile of a megabyte then lives in the heap and
    /// its memory is never returned. Fixed thresholds keep it bounded, and two arenas keep the decoding threads
    /// from holding heaps of their own.
    static func returnFreedMemory() {
        kiosk_return_freed_memory(Self.mmapThreshold, 2)
    }

    /// Blocks from this size on are mapped on their own. Tiles (a megabyte) and kept pictures' tiles stay below
    /// it: mapping each anew made every upload fault in fresh zeroed pages, a tenth of a moving frame's time;
    /// from the heap they reuse the pages of the tiles just freed, and the heap is trimmed when the screen
    /// settles (`Renderer.settle`). Screen-sized blocks are still mapped, and given back when freed.
    static let mmapThreshold: Int32 = 4 * 1024 * 1024

    static let noManifest = "no manifest: pass --config PATH or set KIOSK_CONFIG (none was found beside the program)"

    /// The manifest's path: `--config`, else `$KIOSK_CONFIG`, else the one beside the program.
    static func manifestPath(_ options: Options, defaultManifest: String?) -> String? {
        options.config ?? ProcessInfo.processInfo.environment["KIOSK_CONFIG"] ?? defaultManifest
    }

    /// The manifest's own checks (those of `--check` but the decoding, which the images' loading does): every
    /// problem is logged. Pictures and films that cannot be shown are placeholders, and the start goes on with the
    /// rest (said once more, with what to do); any other error stops it. `seen` notes the files the check read or
    /// looked for.
    static func loadManifest(_ path: String?, seen: FilesSeen? = nil) throws(KioskError) -> Manifest {
        guard let path else { throw .manifest(noManifest) }
        let report = checkContent(path, screen: .zero, decode: false, seen: seen)
        let manifest = report.manifest ?? report.withPlaceholders
        // A start stopped by a single error says it in its failure (once); every other problem is logged here.
        let errors = report.errors
        let logged = manifest == nil && errors.count == 1 ? report.problems.filter(\.isWarning) : report.problems
        for p in ManifestError.logLines(logged) { log(p.isWarning ? .warning : .error, p.line) }
        guard let manifest else {
            throw .manifest(errors.count == 1 ? errors[0].description : "\(path): \(errors.count) errors (above)")
        }
        if !manifest.contentProblems.isEmpty {
            log(
                .warning,
                "\(path): starting with \(ServiceStatus.placeholders(manifest.contentProblems.count)); fix "
                    + "the lines above and reload (`kiosk --check --config \(path)` checks the fix first)")
        }
        return manifest
    }

    /// The replay log read once through, every line checked (then streamed while it plays).
    static func loadReplay(_ path: String) throws(KioskError) -> ReplayStream {
        let stream = try ReplayStream(path: path)
        for w in stream.warnings { log(.warning, w) }
        return stream
    }
}
