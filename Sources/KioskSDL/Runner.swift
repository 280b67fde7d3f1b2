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
        let manifest = try loadManifest(manifestPath(options, defaultManifest: defaultManifest))
        if let id = options.scene, manifest.scene(id) == nil {
            throw .commandLine(
                "--scene \(id): the manifest has no such scene (it has \(manifest.scenes.map(\.id).joined(separator: ", ")))"
            )
        }
        let replay = try options.replay.map { (path) throws(KioskError) in try loadReplay(path) }
        if let folder = cacheFolder() { TileFile.prune(folder, keeping: manifest.scenes.flatMap(\.imagePaths)) }
        let display = try Display(mode: options.mode, rotation: options.rotation)
        // Headless on the virtual clock every visible tile is loaded before its frame: the same pictures on
        // every run. In real time the workers load them and nothing waits.
        let tiles = TileStore(
            display: display, budgetBytes: manifest.textureBudgetBytes,
            synchronous: options.isVirtual)
        let images = ImageStore(display: display, tiles: tiles)
        let app = KioskApp(
            manifest: manifest, physicalSize: display.size, rotation: options.rotation, startScene: options.scene,
            imageInfo: images.info)
        if case .windowed = options.mode { app.escapeQuits = true }
        let calibrationFile = CalibrationFile.path(option: options.calibration)
        if options.calibrate {
            guard calibrationFile != nil else {
                throw .commandLine("--calibrate: where to write? set $STATE_DIRECTORY or pass --calibration PATH")
            }
            app.startCalibration()
        } else {
            app.calibration = CalibrationFile.effective(file: calibrationFile, manifest: manifest.calibration)
            if options.touchTest { app.startTouchTest() }
        }
        let renderer = Renderer(display: display, images: images)
        let loop = try FrameLoop(
            options: options, app: app, display: display, renderer: renderer, replay: replay)
        if !options.calibrate && !options.touchTest, let path = manifestPath(options, defaultManifest: defaultManifest)
        {
            loop.reload = ContentReload(path: path, screen: display.size)
            loop.calibrationFile = calibrationFile
        }
        try loop.run()
        if let wizard = app.calibrationScreen?.wizard, let calibrationFile {
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
    /// problem is logged, and any error stops the start.
    static func loadManifest(_ path: String?) throws(KioskError) -> Manifest {
        guard let path else { throw .manifest(noManifest) }
        let report = checkContent(path, screen: .zero, decode: false)
        // A single error is the one the start's failure says (once); every other problem is logged here.
        let errors = report.errors
        for p in report.problems where errors.count != 1 || p.isWarning {
            log(p.isWarning ? .warning : .error, p.description)
        }
        guard let manifest = report.manifest else {
            throw .manifest(errors.count == 1 ? errors[0].description : "\(path): \(errors.count) errors (above)")
        }
        return manifest
    }

    static func loadReplay(_ path: String) throws(KioskError) -> EventLog {
        // A log that cannot be read at all has no line to name.
        let data: [UInt8]
        switch RegularFile.read(path, limit: RegularFile.logLimit) {
        case .success(let d): data = d
        case .failure(let p):
            let why = p.isMissing ? "missing" : p.message
            throw .replay("\(path): cannot read the log (\(why))")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw .replay("\(path): the log is not UTF-8 text")
        }
        do {
            let log = try EventLog.parse(text, file: path)
            for w in log.warnings { KioskSDL.log(.warning, w) }
            return log
        } catch {
            throw .replay(error.description)
        }
    }
}

/// The frame loop and its outputs (trace, record, screenshots).
final class FrameLoop {
    let options: Options
    let app: KioskApp
    let display: Display
    let renderer: Renderer
    let pipeline: FramePipeline
    /// Replayed events, mouse positions scaled to the window, fingers still down lifted at the end.
    let replay: [EventLog.Record]
    var next = 0
    var frame = 0
    var trace: OutputFile?
    var record: OutputFile?
    var screenshots: [(ms: Double, path: String, taken: Bool)]
    /// SDL's ticks when the loop was made: the zero of its real clock (the saved state is restored on it).
    let startTicks = SDL_GetTicks64()
    let notifier = Notifier()
    let waiter: IdleWait
    /// The kiosk's saved state (none while calibrating: the wizard is not the kiosk).
    let state: StateFile?
    var lastSave = 0.0
    var lastMemoryLog = 0.0
    static let memoryLogMs = 600_000.0
    /// SIGHUP's reload (nil for the installer's tools), and the calibration file a reload reads again.
    var reload: ContentReload?
    var calibrationFile: String?
    /// Checked new content waiting for the screen to come to rest, and when it was ready (kiosk clock).
    var pendingContent: (manifest: Manifest, readyAt: Double)?
    /// Visits counted from the frames' events, and where they are written (with `$STATE_DIRECTORY`, not for the
    /// installer's tools).
    var visits: VisitCounter?
    let visitLog: VisitLog?
    /// The wall clock at time zero when it is not the system's: `--clock`, or the headless default.
    lazy var clockOrigin: Double? = {
        if let clock = options.clock { return clock }
        if case .headless = options.mode { return LocalTime.parse(LocalTime.headlessDefault) }
        return nil
    }()
    /// New content waits for the visitor's gesture to end at most this long.
    static let swapWaitMs = 3000.0

    init(options: Options, app: KioskApp, display: Display, renderer: Renderer, replay: EventLog?) throws(KioskError) {
        self.options = options
        self.app = app
        self.display = display
        self.renderer = renderer
        pipeline = FramePipeline(app: app, renderer: renderer, display: display)
        self.replay = replay.map { Self.prepare($0, window: display.size) } ?? []
        screenshots = options.screenshots.map { ($0.ms, $0.path, false) }
        state = options.calibrate || options.touchTest ? nil : StateFile()
        visitLog = state == nil ? nil : VisitLog()
        waiter = IdleWait.forCurrentDriver()
        waiter.wakeOnEventsAndSignals()
        // A decoded tile is an SDL event: it wakes the loop wherever it sleeps, and the frame draws it.
        let tileEvent = SDL_RegisterEvents(1)
        let wake: @Sendable () -> Void = {
            var e = SDL_Event()
            e.type = tileEvent
            SDL_PushEvent(&e)
        }
        renderer.tiles.workers?.notify(wake)
        // As is a picture decoded ahead.
        renderer.images.onPrefetched = wake
        if let path = options.trace { trace = try OutputFile(path) }
        if let path = options.record {
            record = try OutputFile(path)
            let w = Int(display.size.width)
            let h = Int(display.size.height)
            record?.write(
                "{\"kioskEventLog\": 1, \"display\": {\"w\": \(w), \"h\": \(h)}, \"source\": \"kiosk --record\"}\n")
        }
    }

    /// Mouse positions are pixels of the log's display: scaled to this window. A finger still down when the log
    /// ends is lifted at its last timestamp.
    static func prepare(_ log: EventLog, window: Size) -> [EventLog.Record] {
        let sx = window.width / log.display.width
        let sy = window.height / log.display.height
        var down: [String: EventLog.Record] = [:]
        var out: [EventLog.Record] = []
        for var r in log.records {
            switch r.event {
            case .finger(let phase, let touchId, let fingerId, _, _, _, _, _):
                let key = "\(touchId)/\(fingerId)"
                if phase == .up { down[key] = nil } else { down[key] = r }
            case .mouseMotion(let x, let y, let xr, let yr, let state):
                r.event = .mouseMotion(x: x * sx, y: y * sy, xrel: xr * sx, yrel: yr * sy, state: state)
            case .mouseButton(let d, let b, let c, let x, let y):
                r.event = .mouseButton(down: d, button: b, clicks: c, x: x * sx, y: y * sy)
            default:
                break
            }
            out.append(r)
        }
        let end = log.records.last?.timestamp ?? 0
        for (_, r) in down.sorted(by: { $0.key < $1.key }) {
            guard case .finger(_, let t, let f, let x, let y, _, _, let p) = r.event else { continue }
            out.append(
                .init(
                    timestamp: end, event: .finger(.up, touchId: t, fingerId: f, x: x, y: y, dx: 0, dy: 0, pressure: p))
            )
        }
        return out
    }

    var isHeadless: Bool {
        if case .headless = options.mode { return true }
        return false
    }

    func run() throws(KioskError) {
        defer {
            notifier?.send("STOPPING=1")
            logMemory()
            log(
                .info,
                "frames: \(frame) drawn, the longest in \(String(format: "%.2f", pipeline.worstMs)) ms, \(pipeline.lateFrames) over \(String(format: "%.1f", Runner.frameMs)) ms"
            )
            if let state { state.save(app.snapshot(wallClock: Date().timeIntervalSince1970, at: kioskNow())) }
            if let visit = visits?.finish() { visitLog?.append(visit, today: today()) }
            trace?.close()
            record?.close()
        }
        if let state, let saved = state.load() {
            switch app.restore(saved, wallClock: Date().timeIntervalSince1970, at: kioskNow()) {
            case .restored(let adjusted):
                log(.info, "restored the state of \(state.path): scene \(saved.scene)")
                for line in adjusted { log(.warning, "\(state.path): \(line)") }
            case .idleTimeoutPassed:
                log(.info, "\(state.path): the idle timeout has passed since the last touch; starting at home")
            case .sceneGone:
                log(
                    .warning,
                    "\(state.path): the saved scene \"\(saved.scene)\" is not in the manifest; starting at home")
            }
        }
        app.wallClock = { [unowned self] in self.wallClock(at: $0) }
        if let visitLog {
            visitLog.prune(today: today())
            visits = VisitCounter(app) { [unowned self] in self.wallClock(at: $0) }
        }
        if isVirtual { try runVirtual() } else { try runRealtime() }
    }

    /// The wall clock (Unix seconds) at `ms` on the kiosk's clock: `--clock` (or the headless default) plus the
    /// kiosk's time, else the system's clock.
    func wallClock(at ms: Double) -> Double {
        if let clockOrigin { return clockOrigin + ms / 1000 }
        return Date().timeIntervalSince1970 - (kioskNow() - ms) / 1000
    }

    /// The local day now (`YYYY-MM-DD`).
    func today() -> String { String(LocalTime.iso(wallClock(at: kioskNow())).prefix(10)) }

    /// The frame's events (before the trace takes them) to the visit counter; a visit that ended is written.
    func countVisits(at t: Double) {
        guard let visits, let visit = visits.observe(app, at: t) else { return }
        visitLog?.append(visit, today: today())
    }

    /// After each frame: READY=1 after the first, the watchdog, the state every few seconds (real time), and
    /// the memory in the log every ten minutes (of the kiosk's clock: virtual headless, real otherwise).
    func afterFrame(realMs: Double) {
        if app.now - lastMemoryLog >= Self.memoryLogMs {
            lastMemoryLog = app.now
            logMemory()
        }
        if frame == 1 {
            notifier?.send("READY=1\nSTATUS=showing \(app.scene.config.id)")
        }
        keepUp(realMs: realMs)
    }

    /// The memory in the log: what is resident, and what the tile textures and kept pictures hold of it.
    func logMemory() {
        log(
            .info,
            "memory: resident \(residentKiB()) KiB, textures \(renderer.tiles.cache.bytes / 1024) KiB, kept pictures "
                + "\((renderer.layers?.bytes ?? 0) / 1024) KiB, peak \(peakResidentKiB()) KiB")
    }

    /// The watchdog ping (from READY=1 on) and the periodic state save, both on the real clock.
    func keepUp(realMs: Double) {
        if frame > 0 { notifier?.tick(at: realMs) }
        if let state, realMs - lastSave >= state.intervalMs {
            lastSave = realMs
            state.save(app.snapshot(wallClock: Date().timeIntervalSince1970, at: kioskNow()))
        }
    }

    /// `--headless`: frame n at n × 1000/60 ms, as fast as the CPU allows.
    func runVirtual() throws(KioskError) {
        let lastEvent = replay.last?.timestamp ?? 0
        while true {
            let t = Double(frame) * Runner.frameMs
            deliverReplay(upTo: t)
            pollSDL(at: t)
            try renderFrame(at: t)
            if app.quitRequested { break }
            let done = next == replay.count && app.isAtRest && screenshots.allSatisfy(\.taken)
            if done || t >= lastEvent + 10_000 { break }
        }
        for s in screenshots where !s.taken {
            log(.warning, "screenshot at \(s.ms) ms not taken: the run ended before it")
        }
    }

    /// A window, a kiosk, or `--headless --realtime`: the real clock; nothing is drawn while nothing moves, and
    /// the loop sleeps until input or its next timer.
    func runRealtime() throws(KioskError) {
        var needsDraw = true
        while !app.quitRequested {
            let before = now()
            // It sleeps only when the screen shows what a frame at rest should: no tile waiting for its upload or
            // blending in (the decoders' own wake-ups come and go before that).
            if !needsDraw && !app.needsFrame && app.isAtRest && !swapIsDue && !renderer.pictureNeedsFrame {
                if !settled && before - lastFrameMs >= Self.settleMs && !renderer.tiles.isBusy {
                    renderer.settle()
                    settled = true
                }
                waiter.wait(milliseconds: idleWait(at: before))
            }
            let t2 = now()
            // The watchdog and the state are kept up while nothing is drawn, too.
            keepUp(realMs: t2)
            deliverReplay(upTo: t2)
            // Tiles arriving, waiting for their upload or blending in are drawn as they come.
            needsDraw = pollSDL(at: t2) || needsDraw || renderer.pictureNeedsFrame || swapIsDue
            if app.quitRequested { break }
            let wasMoving = app.needsFrame
            app.step(to: t2)
            let screenshotDue = screenshots.contains { !$0.taken && $0.ms <= t2 }
            if needsDraw || wasMoving || app.needsFrame || screenshotDue {
                try renderFrame(at: t2)
                needsDraw = false
                // Without a display there is no vsync to pace the loop: hold it to 60 frames a second.
                if isHeadless { SDL_Delay(UInt32(max(0, Runner.frameMs - (now() - t2)))) }
            } else {
                renderer.images.prepareUpcoming(for: app, spentMs: 0)
            }
            if isHeadless && next == replay.count && !replay.isEmpty && app.isAtRest && screenshots.allSatisfy(\.taken)
            {
                break
            }
        }
    }

    /// Milliseconds on the real clock since the loop began.
    func now() -> Double { Double(SDL_GetTicks64() - startTicks) }

    /// `--headless` without `--realtime`: frames on a virtual clock.
    var isVirtual: Bool { isHeadless && !options.realtime }

    /// The kiosk's clock now: virtual, or real.
    func kioskNow() -> Double { isVirtual ? app.now : now() }

    /// How long an idle loop may sleep at `t`: until the first of its timers (the next replayed event or
    /// screenshot, the watchdog ping, the state save, the app's idle reset or blanking). A decoded tile, input,
    /// or a signal wakes it sooner; `maximumSleepMs` bounds it whatever happens.
    func idleWait(at t: Double) -> Double {
        var due = t + Self.maximumSleepMs
        // (While tiles are on their way, their arrival wakes the loop; it settles after them.)
        if !settled && !renderer.tiles.isBusy { due = min(due, lastFrameMs + Self.settleMs) }
        if next < replay.count { due = min(due, replay[next].timestamp) }
        if let s = screenshots.first(where: { !$0.taken }) { due = min(due, s.ms) }
        if frame > 0, let ping = notifier?.nextPing { due = min(due, ping) }
        if let state { due = min(due, lastSave + state.intervalMs) }
        if let d = app.nextDeadline { due = min(due, d) }
        if let pending = pendingContent { due = min(due, pending.readyAt + Self.swapWaitMs) }
        return max(0, due - t)
    }

    /// When the picture became complete after coming to rest.
    var settle = SettleWatch()

    /// How long the screen holds still before the caches let go of what it does not show.
    static let settleMs = 1000.0
    var settled = false
    var lastFrameMs = 0.0

    /// The longest an idle kiosk sleeps without a timer: a safety net, not a poll.
    static let maximumSleepMs = 10_000.0

    func deliverReplay(upTo t: Double) {
        while next < replay.count && replay[next].timestamp <= t {
            deliver(replay[next].event, at: replay[next].timestamp)
            next += 1
        }
    }

    /// Hands everything SDL has to the app; true when something arrived.
    @discardableResult
    func pollSDL(at t: Double) -> Bool {
        var any = false
        var e = SDL_Event()
        while SDL_PollEvent(&e) != 0 {
            handleSDL(e, at: t)
            any = true
        }
        return any
    }

    func handleSDL(_ e: SDL_Event, at t: Double) {
        if let reload, e.type == reload.requestEvent {
            if reload.request() { announceReloading() }
            return
        }
        if let reload, e.type == reload.doneEvent {
            finishReload(at: t)
            return
        }
        guard let event = logEvent(e) else { return }
        if case .window(let name, _, _) = event, name == "SDL_WINDOWEVENT_SIZE_CHANGED" {
            let size = display.refreshSize()
            deliver(.window(event: name, data1: Int(size.width), data2: Int(size.height)), at: t)
            return
        }
        deliver(event, at: t)
    }

    /// A load finished: problems leave the content as it is and are logged; good content waits for the frame
    /// that swaps it in (`renderFrame`).
    func finishReload(at t: Double) {
        guard let reload, let report = reload.take() else { return }
        if let (start, frames, worst) = loading {
            log(
                .info,
                "reload: checked in \(Int(now() - start)) ms; \(frames) frames drawn meanwhile, the longest in "
                    + "\(String(format: "%.2f", worst)) ms")
            loading = nil
        }
        for p in report.problems { log(p.isWarning ? .warning : .error, p.description) }
        guard let manifest = report.manifest else {
            let errors = report.errors
            let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
            let why = (errors.first?.description ?? "unknown") + more
            log(
                .error,
                "reload: \(reload.path): \(errors.count) error\(errors.count == 1 ? "" : "s"); the content shown is unchanged"
            )
            app.reloadFailed(why)
            reloadOutcome = "READY=1\nSTATUS=reload failed: \(why)"
            return
        }
        pendingContent = (manifest, t)
    }

    /// `RELOADING=1` (systemd's reload protocol wants the monotonic time with it); the frames from now on are
    /// the load's.
    func announceReloading() {
        notifier?.send("RELOADING=1\nMONOTONIC_USEC=\(monotonicMicroseconds())")
        loading = (now(), 0, 0)
    }

    /// While a load runs: when it began (real ms), the frames drawn meanwhile and the longest of them.
    var loading: (start: Double, frames: Int, worstMs: Double)?

    /// The `READY=1` that ends a reload, sent after the frame whose trace line says `contentDidReload` (the
    /// first frame of the new content, or the next frame after a failure); then a load asked for meanwhile starts.
    var reloadOutcome: String?

    func announceReloadOutcome() {
        guard let outcome = reloadOutcome else { return }
        reloadOutcome = nil
        notifier?.send(outcome)
        if reload?.next() == true { announceReloading() }
    }

    /// Swaps checked new content in after a frame (its last frame of the old content is kept: the manifest's
    /// transition fades from it), once the visitor's gesture has ended; a finger held still for `swapWaitMs`
    /// does not hold it back longer (a fling is never cut short).
    var swapIsDue: Bool {
        guard let pending = pendingContent else { return false }
        return app.isAtRest || (kioskNow() - pending.readyAt >= Self.swapWaitMs && !app.needsFrame)
    }

    func swapContent() {
        guard let (manifest, _) = pendingContent, let reload else { return }
        pendingContent = nil
        renderer.contentChanged(keeping: Set(manifest.scenes.flatMap(\.imagePaths)))
        renderer.tiles.setBudget(manifest.textureBudgetBytes)
        app.reload(manifest)
        app.calibration = CalibrationFile.effective(file: calibrationFile, manifest: manifest.calibration)
        log(.info, "reload: \(reload.path): \(manifest.scenes.count) scenes; showing \(app.scene.config.id)")
        reloadOutcome = "READY=1\nSTATUS=showing \(app.scene.config.id) (reloaded)"
    }

    func deliver(_ event: EventLog.Event, at t: Double) {
        record?.write(EventLog.line(.init(timestamp: max(0, t), event: event)) + "\n")
        app.handle(event, at: t)
    }

    func renderFrame(at t: Double) throws(KioskError) {
        var swapping = false
        try pipeline.frame(
            at: t,
            beforePresent: { () throws(KioskError) in
                for i in screenshots.indices where !screenshots[i].taken && screenshots[i].ms <= t {
                    try saveScreenshot(screenshots[i].path)
                    screenshots[i].taken = true
                }
                swapping = swapIsDue
                if swapping { renderer.keepForReload() }
            },
            afterPresent: { ms in
                if let l = loading { loading = (l.start, l.frames + 1, max(l.worstMs, ms)) }
                lastFrameMs = t
                settled = false
                observeSettle(at: t)
                countVisits(at: t)
            })
        if let trace { trace.write(app.traceLine(frame: frame) + "\n") } else { app.dropFrameEvents() }
        announceReloadOutcome()
        if swapping { swapContent() }
        frame += 1
        afterFrame(realMs: Double(SDL_GetTicks64() - startTicks))
    }

    /// In real time, each scene opened and any picture that was not complete at once is logged when it is
    /// (on the virtual clock every tile is loaded before its frame).
    func observeSettle(at t: Double) {
        if let r = settle.observe(
            atRest: app.isAtRest, opening: app.transition != nil, complete: renderer.pictureIsComplete, at: t),
            !isVirtual, r.ms > 0 || r.afterOpening
        {
            log(
                .info,
                "pictureDidSettle: \(app.scene.config.id) complete \(Int(r.ms.rounded())) ms after coming to rest")
        }
    }

    func saveScreenshot(_ path: String) throws(KioskError) {
        let w = Int32(display.size.width)
        let h = Int32(display.size.height)
        guard let surface = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888.rawValue) else {
            throw .other("screenshot \(path): \(sdlError())")
        }
        defer { SDL_FreeSurface(surface) }
        guard
            SDL_RenderReadPixels(
                display.renderer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, surface.pointee.pixels, surface.pointee.pitch)
                == 0,
            IMG_SavePNG(surface, path) == 0
        else { throw .other("screenshot \(path): \(sdlError())") }
    }
}

/// A file written line by line, buffered, flushed when the buffer is large and on close.
final class OutputFile {
    let path: String
    let handle: FileHandle
    var buffer: [UInt8] = []

    init(_ path: String) throws(KioskError) {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path)
        else {
            throw .other("\(path): cannot write the file")
        }
        handle = h
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count > 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    func close() {
        flush()
        try? handle.close()
    }
}

/// The most this process ever had resident, in KiB (`VmHWM` of `/proc/self/status`), 0 where there is none.
func peakResidentKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// This process's resident memory in KiB (`/proc/self/statm`), 0 where there is none.
func residentKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// CLOCK_MONOTONIC in microseconds (systemd's `MONOTONIC_USEC=` with `RELOADING=1`).
func monotonicMicroseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
}

/// Milliseconds since `start`, a reading of `SDL_GetPerformanceCounter`.
func msSince(_ start: UInt64) -> Double {
    Double(SDL_GetPerformanceCounter() - start) * 1000 / Double(SDL_GetPerformanceFrequency())
}
