import CSDL2
import CSDL2Image
import EventLog
import Foundation
import Kiosk
import ScrollEngine

/// The frame loop and its outputs (trace, record, screenshots).
final class FrameLoop {
    let options: Options
    let app: KioskApp
    let renderer: Renderer
    var display: Display { renderer.display }
    let pipeline: FramePipeline
    let clock: FrameClock
    /// Replayed events, mouse positions scaled to the window, fingers still down lifted at the end.
    var replay: ReplayQueue
    /// The frames drawn so far.
    var frame = 0
    var trace: OutputFile?
    var record: OutputFile?
    /// A line written since the last flush matters now (a frame with events, an input).
    var linesMatter = false
    /// The renderer reset: the next frame is drawn whatever else happens.
    var resetDrawn = false
    var screenshots: ScreenshotPlan
    let waiter: IdleWait
    /// systemd's notifications and watchdog, the saved state, the memory log and the visits.
    let service: ServiceDuties
    var notifier: Notifier? { service.notifier }
    var state: StateFile? { service.state }
    /// SIGHUP's reload and where it stands.
    var reloading = ReloadHandoff()
    /// The picture of the screen `SIGUSR1` asks for.
    let screenPicture = ScreenPicture()
    /// `SIGHUP` and `SIGUSR1` as SDL events, in every mode.
    let signals = SignalListener()
    /// The wall clock: the system's, or `--clock`'s (the headless default), and whether it is synchronised.
    let wall: WallClock
    /// Visits that ended while the wall clock was not synchronised: written, dated again, once it is.
    var heldVisits: [Visit] = []
    /// A visit held for a wall clock outside its years was said (once).
    var saidImplausibleVisit = false
    /// Set (from the clock's thread) when the system's wall clock was set.
    let clockWasSet = Flag()
    /// New content waits for the visitor's gesture to end at most this long.
    static let swapWaitMs = 3000.0
    /// When the screen last changed, and whether the caches have let go since.
    var stillness = Stillness()
    /// The panel turned off while the screen is blank, on before the first frame after.
    let panel: PanelPower

    init(
        options: Options, app: KioskApp, display: Display, renderer: Renderer, replay: ReplayStream?,
        service: ServiceDuties
    ) throws(KioskError) {
        self.options = options
        self.app = app
        self.renderer = renderer
        pipeline = FramePipeline(app: app, renderer: renderer, display: display)
        let headless = if case .headless = options.mode { true } else { false }
        clock = FrameClock(
            isVirtual: options.isVirtual, virtualFrameMs: options.frameMs ?? Runner.frameMs,
            holdsItsPace: headless && options.realtime)
        self.replay = replay.map { ReplayQueue($0, window: display.size) } ?? ReplayQueue()
        wall = WallClock(options: options)
        screenshots = ScreenshotPlan(options.screenshots.map { ($0.ms, $0.path) })
        self.service = service
        if !options.calibrate && !options.touchTest,
            let file = MetricsFile(option: options.metrics, intervalSeconds: app.manifest.metricsSeconds)
        {
            service.metricsFile = file
            service.metrics = Metrics(scene: app.scene.config.id)
        }
        let power = DRMDisplayPower.of(window: display.window, videoDriver: display.videoDriver)
        panel = PanelPower(control: power.control, whyNoControl: power.whyNot)
        waiter = IdleWait.forCurrentDriver()
        waiter.wakeOnEventsAndSignals()
        // A decoded tile is an SDL event: it wakes the loop wherever it sleeps, and the frame draws it.
        let tileEvent = SDL_RegisterEvents(1)
        let wake: @Sendable () -> Void = { IdleWait.post(tileEvent) }
        renderer.tiles.workers?.notify(wake)
        // As is a picture decoded ahead, and a list's thumbnail.
        renderer.images.onPrefetched = wake
        renderer.onThumbnail = wake
        // As is the wall clock set (an NTP client's step, `date -s`): its jump is noticed at once.
        if wall.followsSystem {
            let flag = clockWasSet
            _ = WallClock.watchForSets {
                flag.set()
                wake()
            }
        }
        if let path = options.trace { trace = try OutputFile(path) }
        if let path = options.record {
            record = try OutputFile(path)
            let w = Int(display.size.width)
            let h = Int(display.size.height)
            record?.write(
                "{\"kioskEventLog\": 1, \"display\": {\"w\": \(w), \"h\": \(h)}, \"source\": \"kiosk --record\"}\n")
        }
    }

    func run() throws(KioskError) {
        defer {
            notifier?.send("STOPPING=1")
            // The console after the kiosk is seen.
            panel.beforeFrame(blank: false)
            logMemory()
            log(
                .info,
                "frames: \(frame) drawn, the longest in \(String(format: "%.2f", pipeline.worstMs)) ms, \(pipeline.lateFrames) over \(String(format: "%.1f", Runner.frameMs)) ms"
            )
            if let state { state.save(app.snapshot(wallClock: Date().timeIntervalSince1970, at: kioskNow())) }
            if let visit = service.visits?.finish() { write(visit) }
            if !heldVisits.isEmpty {
                log(
                    .warning,
                    "\(heldVisits.count) visit(s) not written: the wall clock never became synchronised (or stayed outside 2000-2200), so their dates are unknown"
                )
            }
            if let metrics = service.metrics { service.metricsFile?.writeNow(metrics.exposition(metricsNow())) }
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
        app.wallTime = wall.reading(kioskNow: kioskNow())
        if !wall.isSynchronized, app.manifest.openingHours != nil || app.manifest.schedule != nil {
            log(
                .warning,
                "the wall clock is not synchronised yet: the opening hours and the schedule wait for it (showing the default content, always open)"
            )
        }
        if let visitLog = service.visitLog {
            visitLog.prune(today: today())
            service.visits = VisitCounter(app)
        }
        try runFrames()
        for s in screenshots.untaken {
            log(.warning, "screenshot at \(s.ms) ms not taken: the run ended before it")
        }
    }

    /// The wall clock (Unix seconds) at `ms` on the kiosk's clock: `--clock` (or the headless default) plus the
    /// kiosk's time, else the system's clock.
    func wallClock(at ms: Double) -> Double { wall.at(ms, kioskNow: kioskNow()) }

    /// The local day now (`YYYY-MM-DD`).
    func today() -> String { String(LocalTime.iso(wallClock(at: kioskNow())).prefix(10)) }

    /// The frame's events to the visit counter; a visit that ended is written.
    func countVisits(_ events: [TraceEvent], at t: Double) {
        let clockChanged = events.contains {
            switch $0.kind {
            case .clockDidSynchronize, .clockDidJump: true
            default: false
            }
        }
        if clockChanged && app.clockIsSynchronized && Visit.plausibleWallSeconds.contains(wallClock(at: kioskNow())) {
            // Visits held for a clock that was not synchronised, or out of its years: dated again from the kiosk's
            // own clock, now that the wall clock is right.
            for var visit in heldVisits {
                visit.startWall = wallClock(at: visit.startMs)
                visit.start = LocalTime.iso(visit.startWall)
                service.visitLog?.append(visit, today: today())
            }
            heldVisits.removeAll()
        }
        guard let visits = service.visits, let visit = visits.observe(app, events: events, at: t) else { return }
        write(visit)
        service.metrics?.visits += 1
    }

    /// A visit to its day's file; while the wall clock is not synchronised its date would be wrong (1970, or
    /// the last shutdown's), so it waits for the clock.
    func write(_ visit: Visit) {
        guard app.clockIsSynchronized else { return heldVisits.append(visit) }
        guard visit.isPlausiblyDated else {
            // A clock set to 1970 or to year 1 would file it where the pruning deletes it, or under no real day.
            if !saidImplausibleVisit {
                saidImplausibleVisit = true
                log(
                    .warning,
                    "a visit began under the wall clock \(visit.start), outside 2000-2200: it is held, and written "
                        + "once the clock is right")
            }
            return heldVisits.append(visit)
        }
        service.visitLog?.append(visit, today: today())
    }

    /// What the metrics say of the kiosk now, beside their counts.
    func metricsNow() -> Metrics.Now {
        Metrics.Now(
            version: kioskVersion, content: app.manifest.contentHash, upSeconds: now() / 1000,
            placeholders: app.scene.images.filter { !$0.loaded }.count, residentBytes: residentKiB() * 1024,
            textureBytes: renderer.tiles.cache.bytes + (renderer.layers?.bytes ?? 0) + renderer.words.bytes,
            clockSynchronized: wall.isSynchronized, videoDriver: display.videoDriver, renderer: display.rendererName,
            displayPowerOn: panel.isOn)
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
        for update in service.status.afterFrame(events, scene: app.scene.config.id) {
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
            realMs: realMs, stillAt: { screenIsStill && frame > 0 ? wallClock(at: kioskNow()) : nil }, now: metricsNow)
    }

    /// A virtual run whose screen never comes to rest (or whose screenshots fall later) ends this long after its
    /// last replayed event (our choice: longer than any fling, bounce or transition).
    static let virtualRunOnMs = 10_000.0

    /// The loop, on either clock (`FrameClock`): each turn sleeps while the screen is still (real time), keeps
    /// the service's duties up, hands the replayed and the arrived events to the app, steps it, and draws the
    /// frame when it changed (every frame, virtual).
    func runFrames() throws(KioskError) {
        var needsDraw = true
        while !app.quitRequested {
            if !clock.drawsEveryFrame && !needsDraw && screenIsStill { sleep() }
            let t = clock.time(ofFrame: frame)
            wall.advance(to: t, realMs: now(), wasSet: clockWasSet.take())
            app.wallTime = wall.reading(kioskNow: kioskNow())
            // The watchdog and the state are kept up while nothing is drawn, too.
            keepUp(realMs: now())
            for r in replay.take(upTo: t) { deliver(r.event, at: r.timestamp) }
            // Tiles arriving, waiting for their upload or blending in are drawn as they come.
            needsDraw = pollSDL(at: t) || needsDraw || resetDrawn || renderer.pictureNeedsFrame || swapIsDue
            if resetDrawn, let wrong = display.checkPicture() {
                throw .other(
                    "after a renderer reset, renderer \(display.rendererName) does not draw: \(wrong); the kiosk "
                        + "ends, for its service to start it again on a renderer that does")
            }
            resetDrawn = false
            if app.quitRequested && !clock.drawsEveryFrame { break }
            let wasMoving = app.needsFrame
            app.step(to: t)
            if clock.drawsEveryFrame || needsDraw || wasMoving || app.needsFrame || screenshots.isDue(at: t) {
                try renderFrame(at: t)
                needsDraw = false
                clock.pace(frameAt: t)
            } else {
                renderer.images.prepareUpcoming(for: app, spentMs: 0)
            }
            flushOutputs(now: linesMatter)
            if runIsOver(at: t) { break }
        }
    }

    /// Whether the screen shows what a frame at rest should, so the loop may sleep: nothing moves, no content
    /// waits to be swapped in, no tile waits for its upload or blends in (the decoders' own wake-ups come and go
    /// before that).
    var screenIsStill: Bool { !app.needsFrame && app.isAtRest && !swapIsDue && !renderer.pictureNeedsFrame }

    /// Sleeps until the first timer, input or signal; a screen still for long enough lets its caches go first.
    func sleep() {
        flushOutputs(now: true)
        let before = now()
        if stillness.settleIsDue(at: before, tilesBusy: renderer.tiles.isBusy) { renderer.settle() }
        waiter.wait(milliseconds: idleWait(at: before))
    }

    /// In real time every line of the trace and the recording reaches its file within a second, and at once
    /// after a frame with events, an input, or before a sleep (`urgent`): a `kill -9` loses at most the last
    /// second. Virtual runs are replays: written in large pieces, complete at exit.
    func flushOutputs(now urgent: Bool) {
        linesMatter = false
        guard !isVirtual else { return }
        let t = now()
        trace?.flush(ifDueAt: t, now: urgent)
        record?.flush(ifDueAt: t, now: urgent)
    }

    /// Whether the run is over after the frame at `t`: a window or a kiosk runs until it quits; headless, once the
    /// replay is done, the screen at rest and every screenshot taken (virtual: or `virtualRunOnMs` after the last
    /// replayed event, whatever the screen does).
    func runIsOver(at t: Double) -> Bool {
        guard case .headless = options.mode else { return false }
        let done = replay.isDone && app.isAtRest && screenshots.allTaken
        if clock.isVirtual { return done || t >= replay.lastTimestamp + Self.virtualRunOnMs }
        return done && !replay.isEmpty
    }

    /// Milliseconds on the real clock since the loop began.
    func now() -> Double { clock.realNow() }

    /// `--headless` without `--realtime`: frames on a virtual clock.
    var isVirtual: Bool { clock.isVirtual }

    /// The kiosk's clock now: virtual, or real.
    func kioskNow() -> Double { isVirtual ? app.now : now() }

    /// How long an idle loop may sleep at `t`: until the first of its timers (the next replayed event or
    /// screenshot, the watchdog ping, the state save, the app's idle reset or blanking). A decoded tile, input,
    /// or a signal wakes it sooner; `maximumSleepMs` bounds it whatever happens.
    func idleWait(at t: Double) -> Double {
        var due = t + Self.maximumSleepMs
        if let settle = stillness.settleDue(tilesBusy: renderer.tiles.isBusy) { due = min(due, settle) }
        if let event = replay.nextTimestamp { due = min(due, event) }
        if let shot = screenshots.nextDue { due = min(due, shot) }
        if let jump = wall.nextJump { due = min(due, jump) }
        if let duty = service.nextDue() { due = min(due, duty) }
        if let d = app.nextDeadline { due = min(due, d) }
        if let pending = reloading.pending { due = min(due, pending.readyAt + Self.swapWaitMs) }
        return max(0, due - t)
    }

    /// The longest an idle kiosk sleeps without a timer: a safety net, not a poll.
    static let maximumSleepMs = 10_000.0

    /// Hands everything SDL has to the app; true when something arrived.
    @discardableResult
    func pollSDL(at t: Double) -> Bool {
        var any = false
        var e = SDL_Event()
        while SDL_PollEvent(&e) != 0 {
            handleSDL(e, at: t)
            any = true
        }
        return noticeRemovedTouchDevices(at: t) || any
    }

    /// A touch device that went away with fingers down (unplugged, the panel powered off) sends no lift: while
    /// live fingers are down, SDL's devices are looked at, and the fingers of one that is gone are cancelled
    /// (`KIOSK_TOUCH_DEVICE_REMOVED`, recorded like any input). Not while replaying: the replay's devices are
    /// not this machine's.
    func noticeRemovedTouchDevices(at t: Double) -> Bool {
        guard replay.isEmpty else { return false }
        let down = app.touchDevicesWithFingersDown
        guard !down.isEmpty else { return false }
        let present = Set((0..<SDL_GetNumTouchDevices()).map { Int64(SDL_GetTouchDevice($0)) })
        let gone = down.subtracting(present)
        for touchId in gone.sorted() {
            log(.warning, "touch device \(touchId) went away with fingers down: they are cancelled")
            deliver(.touchDeviceRemoved(touchId: touchId), at: t)
        }
        return !gone.isEmpty
    }

    func handleSDL(_ e: SDL_Event, at t: Double) {
        if e.type == signals.reloadEvent { return requestReload() }
        if e.type == signals.pictureEvent { return screenPicture.request() }
        if let reload = reloading.loader, e.type == reload.doneEvent { return finishReload(at: t) }
        guard let event = logEvent(e) else { return }
        if case .window(let name, _, _) = event, name == "SDL_WINDOWEVENT_SIZE_CHANGED" {
            let size = display.refreshSize()
            deliver(.window(event: name, data1: Int(size.width), data2: Int(size.height)), at: t)
            return
        }
        deliver(event, at: t)
    }

    func deliver(_ event: EventLog.Event, at t: Double) {
        record?.write(EventLog.line(.init(timestamp: max(0, t), event: event)) + "\n", at: now())
        linesMatter = true
        if case .renderReset(let device) = event {
            log(.warning, "the renderer reset its \(device ? "device" : "targets"): its textures are made again")
            renderer.resetTextures(device: device)
            resetDrawn = true
        }
        service.metrics?.input(event)
        app.handle(event, at: t)
    }

    func renderFrame(at t: Double) throws(KioskError) {
        var swapping = false
        var frameMs = 0.0
        let lateBefore = pipeline.lateFrames
        panel.beforeFrame(blank: app.isBlanked)
        try pipeline.frame(
            at: t,
            beforePresent: { () throws(KioskError) in
                try screenshots.takeDue(at: t) { (path) throws(KioskError) in try saveScreenshot(path) }
                screenPicture.takeIfRequested(display.renderer, size: display.size)
                swapping = swapIsDue
                if swapping { renderer.keepForReload() }
            },
            afterPresent: { ms in
                frameMs = ms
                if let l = reloading.loading { reloading.loading = (l.start, l.frames + 1, max(l.worstMs, ms)) }
                stillness.drew(at: t)
                observeSettle(at: t)
                panel.afterFrame(blank: app.isBlanked)
            })
        // The frame's typed events, read alike by the visits, the metrics, the trace and systemd's status, then
        // let go.
        let events = app.frameEvents
        countVisits(events, at: t)
        service.metrics?.frameShown(
            events, wallSeconds: wallClock(at: kioskNow()), late: pipeline.lateFrames > lateBefore, ms: frameMs)
        trace?.write(app.traceLine(frame: frame, events: events) + "\n", at: now())
        if !events.isEmpty { linesMatter = true }
        notifyStatus(events)
        logClock(events)
        app.dropFrameEvents()
        if swapping { swapContent() }
        frame += 1
        afterFrame(realMs: now())
    }

    /// In real time, each scene opened and any picture that was not complete at once is logged when it is
    /// (on the virtual clock every tile is loaded before its frame).
    func observeSettle(at t: Double) {
        if let r = stillness.watch.observe(
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
