import CSDL2
import CSDL2Image
import EventLog
import Foundation
import Kiosk
import ScrollEngine

/// The frame loop: each turn it polls, hands the inputs to the app, steps it, draws and presents the frame
/// (`FramePipeline`), then hands the frame, as data (`ShownFrame`), to each of its observers in one list
/// (`FrameObserver`): the trace, the visits, the metrics, speech, systemd's status, the clock's log and the reload.
final class FrameLoop {
    let app: KioskApp
    let renderer: Renderer
    var display: Display { renderer.display }
    let pipeline: FramePipeline
    let clock: FrameClock
    /// Replayed events, mouse positions scaled to the window, fingers still down lifted at the end.
    var replay: ReplayQueue
    /// The trace and the recording.
    let outputs: FrameOutputs
    /// The renderer reset: the next frame is drawn whatever else happens.
    var resetDrawn = false
    var screenshots: ScreenshotPlan
    let waiter: IdleWait
    /// systemd's notifications and watchdog, the saved state, the memory log, the visits, the metrics and the
    /// screen's picture.
    let service: ServiceDuties
    var notifier: Notifier? { service.notifier }
    var state: StateFile? { service.state }
    var panel: PanelPower { display.panel }
    /// SIGHUP's reload and where it stands.
    var reloading = ReloadHandoff()
    /// `SIGHUP` and `SIGUSR1` as SDL events, in every mode.
    let signals = SignalListener()
    /// The wall clock: the system's, or `--clock`'s (the headless default), and whether it is synchronised.
    let wall: WallClock
    /// New content waits for the visitor's gesture to end at most this long.
    static let swapWaitMs = 3000.0
    /// When the screen last changed, and whether the caches have let go since.
    var stillness = Stillness()
    /// The kiosk as the last step left it.
    var shown: KioskFrame

    init(
        options: Options, app: KioskApp, display: Display, renderer: Renderer, replay: ReplayStream?,
        service: ServiceDuties
    ) throws(KioskError) {
        self.app = app
        self.renderer = renderer
        pipeline = FramePipeline(app: app, renderer: renderer, display: display)
        if !options.isVirtual { pipeline.touchToPresent = TouchLatency() }
        let headless = if case .headless = options.mode { true } else { false }
        clock = FrameClock(
            isVirtual: options.isVirtual, virtualFrameMs: options.frameMs ?? Runner.frameMs,
            holdsItsPace: headless && options.realtime)
        self.replay =
            replay.map { ReplayQueue($0, window: display.size, startsAtFirstPresent: !options.isVirtual) }
            ?? ReplayQueue()
        wall = WallClock(options: options, hours: app.manifest.openingHours)
        screenshots = ScreenshotPlan(options.screenshots.map { ($0.ms, $0.path) })
        self.service = service
        shown = app.frame
        if !options.calibrate && !options.touchTest && !options.edit,
            let file = MetricsFile(option: options.metrics, intervalSeconds: app.manifest.metricsSeconds)
        {
            service.metricsFile = file
            service.metrics = Metrics(scene: shown.scene.config.id)
        }
        waiter = IdleWait.forCurrentDriver()
        waiter.wakeOnEventsAndSignals()
        // A decoded tile is an SDL event: it wakes the loop wherever it sleeps, and the frame draws it.
        let tileEvent = SDL_RegisterEvents(1)
        let wake: @Sendable () -> Void = { IdleWait.post(tileEvent) }
        renderer.tiles.workers?.notify(wake)
        // As is a picture decoded ahead, and a list's thumbnail.
        renderer.images.onPrefetched = wake
        // And a film opened on its worker.
        renderer.videos.onOpened = wake
        renderer.onThumbnail = wake
        // As is the wall clock set (an NTP client's step, `date -s`): its jump is noticed at once.
        wall.watchForSets(wake)
        outputs = try FrameOutputs(
            options: options, window: display.size, isVirtual: options.isVirtual,
            voices: app.manifest.accessibility.voices)
        // And the end of what the kiosk says: the frame says it.
        outputs.speech?.wake = wake
        renderer.videos.sound = outputs.sound
        pipeline.observers = [
            TraceObserver(outputs, realNow: clock.realNow), VisitsObserver(service, app: app),
            MetricsObserver(service), SpeechObserver(outputs),
            StatusObserver(service) { [unowned self] in reloadDidEnd() }, ClockLog(),
            ReloadObserver { [unowned self] in swapContent() },
        ]
    }

    func run() throws(KioskError) {
        defer {
            notifier?.send("STOPPING=1")
            // The console after the kiosk is seen.
            panel.beforeFrame(blank: false)
            logMemory()
            log(
                .info,
                "frames: \(pipeline.framesDrawn) drawn, the longest in \(String(format: "%.2f", pipeline.worstMs)) ms, \(pipeline.lateFrames) over \(String(format: "%.1f", Runner.frameMs)) ms"
            )
            if let latency = pipeline.touchToPresent?.summary { log(.info, latency) }
            if let speech = outputs.speechSummary { log(.info, speech) }
            if let state { state.save(app.snapshot(wallClock: Date().timeIntervalSince1970, at: kioskNow())) }
            service.visits?.finish(wall: wall.reading(kioskNow: kioskNow()), now: app.now)
            if let metrics = service.metrics { service.metricsFile?.writeNow(metrics.exposition(metricsNow())) }
            outputs.close()
        }
        restoreState()
        if !wall.isSynchronized, app.manifest.openingHours != nil || app.manifest.schedule != nil {
            log(
                .warning,
                "the wall clock is not synchronised yet: the opening hours and the schedule wait for it (showing the default content, always open)"
            )
        }
        service.visits?.start(app, wall: wall.reading(kioskNow: kioskNow()))
        try runFrames()
        for s in screenshots.untaken {
            log(.warning, "screenshot at \(s.ms) ms not taken: the run ended before it")
        }
    }

    /// The wall clock (Unix seconds) at `ms` on the kiosk's clock: `--clock` (or the headless default) plus the
    /// kiosk's time, else the system's clock.
    func wallClock(at ms: Double) -> Double { wall.at(ms, kioskNow: kioskNow()) }

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
            let t = clock.time(ofFrame: pipeline.framesDrawn)
            wall.advance(to: t, realMs: now())
            // The watchdog and the state are kept up while nothing is drawn, too.
            keepUp(realMs: now())
            // A replayed input is drawn as a polled one is (a key that only moves the focus moves nothing else).
            let replayed = replay.take(upTo: t)
            for r in replayed { deliver(r.event, at: r.timestamp) }
            // Tiles arriving, waiting for their upload or blending in are drawn as they come.
            needsDraw =
                pollSDL(at: t) || !replayed.isEmpty || needsDraw || resetDrawn || renderer.pictureNeedsFrame
                || renderer.videos.isPlaying
                || swapIsDue
            if resetDrawn, let wrong = display.checkPicture() {
                throw .other(
                    "after a renderer reset, renderer \(display.rendererName) does not draw: \(wrong); the kiosk "
                        + "ends, for its service to start it again on a renderer that does")
            }
            resetDrawn = false
            if app.quitRequested && !clock.drawsEveryFrame { break }
            let wasMoving = shown.needsFrame
            shown = app.step(
                to: t, wall: wall.reading(kioskNow: kioskNow()), speechFinished: outputs.speechFinished)
            if clock.drawsEveryFrame || needsDraw || wasMoving || shown.needsFrame || shown.hasEvents
                || screenshots.isDue(at: t)
            {
                try renderFrame(at: t)
                needsDraw = false
                clock.pace(frameAt: t)
            } else {
                renderer.images.prepareUpcoming(shown.upcomingPictures, moving: shown.needsFrame, spentMs: 0)
            }
            outputs.flush(now: false, realMs: now())
            if runIsOver(at: t) { break }
        }
    }

    /// Whether the screen shows what a frame at rest should, so the loop may sleep: nothing moves, no content
    /// waits to be swapped in, no tile waits for its upload or blends in (the decoders' own wake-ups come and go
    /// before that), no film plays but one whose next frame is decoded (the loop sleeps until it is due: one
    /// playing in a scene at rest was shown about once a second, when a timer woke the loop; a paused or ended
    /// one sleeps).
    var screenIsStill: Bool {
        !shown.needsFrame && shown.isAtRest && !swapIsDue && !renderer.pictureNeedsFrame
            && (!renderer.videos.isPlaying || renderer.videos.nextFrameIn != nil)
    }

    /// Sleeps until the first timer, input or signal; a screen still for long enough lets its caches go first.
    /// The sleep is reckoned from after the letting go (which can take a while: the heap's free pages returned
    /// after a large picture's cut), so a watchdog ping due meanwhile is not slept past.
    func sleep() {
        outputs.flush(now: true, realMs: now())
        if stillness.settleIsDue(at: now(), tilesBusy: renderer.tiles.isBusy) { renderer.settle() }
        waiter.wait(milliseconds: idleWait(at: now()))
    }

    /// Whether the run is over after the frame at `t`: a window or a kiosk runs until it quits; headless, once the
    /// replay is done, the screen at rest and every screenshot taken (virtual: or `virtualRunOnMs` after the last
    /// replayed event, whatever the screen does; real: and no picture on its way from a worker).
    func runIsOver(at t: Double) -> Bool {
        guard case .headless = display.mode else { return false }
        let done = replay.isDone && shown.isAtRest && screenshots.allTaken
        if clock.isVirtual { return done || t >= replay.lastTimestamp + Self.virtualRunOnMs }
        return done && !replay.isEmpty && !renderer.images.isBusy
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
        if let d = shown.nextDeadline { due = min(due, d) }
        if let pending = reloading.pending { due = min(due, pending.readyAt + Self.swapWaitMs) }
        if let next = renderer.videos.nextFrameIn { due = min(due, shown.now + next * 1000) }
        return max(0, due - t)
    }

    /// The longest an idle kiosk sleeps without a timer: a safety net, not a poll.
    static let maximumSleepMs = 10_000.0

    /// Hands everything SDL has to the app; true when something arrived.
    @discardableResult
    func pollSDL(at t: Double) -> Bool {
        var any = false
        var e = SDL_Event()
        // Devices SDL took in a pump of its own (the idle wait pumps before it sleeps) are read before their events.
        refreshTouchTimes()
        while SDL_PollEvent(&e) != 0 {
            handleSDL(e, at: t)
            any = true
        }
        // A device SDL took in this pump (plugged in) is read for its times at once, not at the next turn: the
        // kiosk may sleep first, and the touch that wakes it would come without its kernel time.
        refreshTouchTimes()
        if let n = waiter.touchTimes?.dropsToSay(at: t) {
            log(
                .warning,
                "touch: the kernel dropped a touch device's events \(n) time(s): a frame outlasted its buffer, and touches in it were lost"
            )
        }
        let lost = noticeLostTouches(at: t)
        // Said here, with the drops, every turn: not only while fingers are down, when the lost ones are looked for.
        if let n = waiter.touchTimes?.lostLiftsToSay(at: t) {
            log(.warning, "touch: \(n) finger(s) left the panel and SDL lost their lift: they are cancelled")
        }
        return lost || any
    }

    /// The kernel's times read from SDL's touch devices as they are now (not while replaying: the replay's
    /// devices are not this machine's).
    func refreshTouchTimes() {
        if replay.isEmpty { waiter.touchTimes?.refresh(touchIds: TouchTimes.sdlTouchIds()) }
    }

    /// Fingers down whose lift will never come, cancelled (recorded like any input). While live fingers are down,
    /// after SDL read its devices: a touch device that went away with fingers down (unplugged, the panel powered
    /// off) sends no lift (`KIOSK_TOUCH_DEVICE_REMOVED`); a finger no longer on its panel whose lift SDL lost
    /// (`KIOSK_TOUCH_LIFT_LOST`, `LiftWatch`). Not while replaying: the replay's devices are not this machine's.
    func noticeLostTouches(at t: Double) -> Bool {
        guard replay.isEmpty else { return false }
        let down = shown.fingersDown
        guard !down.isEmpty else { return false }
        let present = Set(TouchTimes.sdlTouchIds())
        let gone = Set(down.map(\.touchId)).subtracting(present)
        for touchId in gone.sorted() {
            log(.warning, "touch device \(touchId) went away with fingers down: they are cancelled")
            deliver(.touchDeviceRemoved(touchId: touchId), at: t)
        }
        let lost = waiter.touchTimes?.liftsLost(down: down.filter { !gone.contains($0.touchId) }, at: t) ?? []
        for key in lost { deliver(.touchLiftLost(touchId: key.touchId, fingerId: key.fingerId), at: t) }
        return !gone.isEmpty || !lost.isEmpty
    }

    func handleSDL(_ e: SDL_Event, at t: Double) {
        if e.type == signals.reloadEvent { return requestReload() }
        if e.type == signals.pictureEvent { return service.screenPicture.request() }
        if let reload = reloading.loader, e.type == reload.doneEvent { return finishReload(at: t) }
        // A plug in this machine's jack; a replay's inputs are the log's.
        if let plugged = signals.jack.plugged(e) {
            if replay.isEmpty { deliver(.headset(plugged: plugged), at: t) }
            return
        }
        guard let event = logEvent(e) else { return }
        if case .finger = event, let times = waiter.touchTimes, replay.isEmpty {
            return deliver(event, at: times.time(of: e.tfinger, type: e.type, kioskNow: now(), floor: app.now, t: t))
        }
        if case .window(let name, _, _) = event, name == "SDL_WINDOWEVENT_SIZE_CHANGED" {
            let size = display.refreshSize()
            deliver(.window(event: name, data1: Int(size.width), data2: Int(size.height)), at: t)
            return
        }
        deliver(event, at: t)
    }

    func deliver(_ event: EventLog.Event, at t: Double) {
        outputs.recorded(event, at: t, realMs: now())
        if let edit = reloading.edit, edit.take(event, app: app) { return }
        if case .renderReset(let device) = event {
            log(.warning, "the renderer reset its \(device ? "device" : "targets"): its textures are made again")
            renderer.resetTextures(device: device)
            resetDrawn = true
        }
        service.metrics?.input(event)
        if case .finger = event { pipeline.touchToPresent?.touched(at: t) }
        app.handle(event, at: t)
    }

    func renderFrame(at t: Double) throws(KioskError) {
        var swapping = false
        var frameMs = 0.0
        let lateBefore = pipeline.lateFrames
        panel.beforeFrame(blank: shown.isBlanked)
        try pipeline.frame(
            shown, at: t,
            beforePresent: { () throws(KioskError) in
                reloading.edit?.draw(on: renderer, app: app, size: shown.drawSize)
                try screenshots.takeDue(at: t) { (path) throws(KioskError) in try saveScreenshot(path) }
                service.screenPicture.takeIfRequested(display.renderer, size: display.size)
                swapping = swapIsDue
                if swapping { renderer.keepForReload() }
            },
            afterPresent: { ms in
                frameMs = ms
                pipeline.touchToPresent?.presented(at: now())
                replay.began(at: now())
                if let l = reloading.loading { reloading.loading = (l.start, l.frames + 1, max(l.worstMs, ms)) }
                stillness.drew(at: t)
                observeSettle(at: t)
                panel.afterFrame(blank: shown.isBlanked)
            })
        if pipeline.framesDrawn == 1, let problem = display.firstPresentProblem() { throw problem }
        // The frame as data (its typed events, what its videos did among them), handed to each observer in turn.
        let (events, line) = app.endFrame(
            tracing: outputs.traces ? pipeline.framesDrawn - 1 : nil, video: renderer.videos.endFrame())
        let shownFrame = ShownFrame(
            frame: shown, events: events, traceLine: line,
            // The wall clock read once for the frame's step serves its observers too.
            wall: shown.wall ?? wall.reading(kioskNow: kioskNow()), kioskNow: kioskNow(), t: t, ms: frameMs,
            late: pipeline.lateFrames > lateBefore, swapsContent: swapping)
        for observer in pipeline.observers { observer.frameShown(shownFrame) }
        afterFrame(realMs: now())
    }

    /// In real time, each scene opened and any picture that was not complete at once is logged when it is
    /// (on the virtual clock every tile is loaded before its frame).
    func observeSettle(at t: Double) {
        if let r = stillness.watch.observe(
            atRest: shown.isAtRest, opening: shown.transition != nil, complete: renderer.pictureIsComplete, at: t),
            !isVirtual, r.ms > 0 || r.afterOpening
        {
            log(
                .info,
                "pictureDidSettle: \(shown.scene.config.id) complete \(Int(r.ms.rounded())) ms after coming to rest")
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
