import EventLog
import Foundation
import ScrollEngine
import TouchInput

/// The kiosk without SDL, as a router: an SDL-shaped input passes the gates (`TouchGate`) and goes to the scene
/// (`InputMapper`); a frame steps the scene, acts on its gestures (`Navigator`), applies the timed rules
/// (`Presence`), and says what it draws and its trace line. The SDL layer feeds it events and draws its commands.
public final class KioskApp {
    /// What the kiosk shows (a reload replaces it).
    public var manifest: Manifest { navigator.manifest }
    /// The touch calibration in effect: the manifest's, unless a calibration file replaces it (docs/deploying.md).
    public var calibration: Calibration
    public let rotation: Rotation
    /// The physical screen (window) in pixels; scenes see `sceneSize`.
    public internal(set) var physicalSize: Size
    public var sceneSize: Size { navigator.sceneSize }
    public var scene: Scene { navigator.scene }
    /// The scenes, the one shown and the changes between them.
    let navigator: Navigator
    /// Escape quits (in a window only, never on a kiosk).
    public var escapeQuits = false
    public internal(set) var quitRequested = false
    /// An installer's tool shown instead of the scenes (`--calibrate`, `--touch-test`): it takes every touch
    /// and the screen.
    var toolScreen: (any ToolScreen)?
    /// Events since the last trace line.
    let sink: EventSink
    /// Milliseconds since the first frame.
    public private(set) var now: Double = 0

    var input = InputMapper()
    /// The visitor's session, the screen's state and the timed rules between them.
    var presence: Presence
    /// When the last touch (or click, wheel, key) came, on the kiosk's clock.
    public var lastInput: Double { presence.lastInput }
    /// When the visitor's activity began: the first input after the kiosk was idle (at start, or after an idle
    /// reset).
    var activeSince: Double { presence.activeSince }
    public var isAttracting: Bool { presence.attractLoop != nil }
    /// The screen is blank (`blankAfterSeconds`, or outside the opening hours); the next touch only wakes it.
    public var isBlanked: Bool { presence.isBlanked }
    /// Why the screen is blank.
    var blankReason: Presence.BlankReason? { presence.blankReason }
    /// The wall clock as the host last read it: the opening hours and the schedule are read on it (none known:
    /// always open). When it becomes synchronised the frame says `clockDidSynchronize`.
    var wallTime: WallTime? {
        get { wallRules.time }
        set {
            let was = wallRules.time
            wallRules.time = newValue
            if newValue?.isSynchronized == true && was?.isSynchronized == false {
                sink.add(TraceEvent(.clockDidSynchronize))
            }
        }
    }
    /// The calendar the wall clock is read on (the system's time zone; tests choose theirs).
    var calendar: LocalCalendar {
        get { wallRules.calendar }
        set { wallRules.calendar = newValue }
    }
    /// What the opening hours, the schedule and the clock's jumps last read on the wall clock.
    var wallRules = WallRules()
    /// Whether the wall clock can be trusted (docs/operations.md, an honest clock): until it is, the opening hours and the
    /// schedule are not applied (the kiosk shows its default content, always open).
    var clockIsSynchronized: Bool { wallTime?.isSynchronized ?? true }
    /// Whether a frame has been shown (a scene chosen before it opens without a transition), as the navigator
    /// keeps it.
    var hasShownAFrame: Bool {
        get { navigator.hasShownAFrame }
        set { navigator.hasShownAFrame = newValue }
    }
    /// The scene change running now, and the scene it leaves (drawn at its start by the renderer).
    public var transition: SceneTransition? { navigator.transition }
    public var outgoing: Scene? { navigator.outgoing }
    /// Touches a gate took whole, swallowed until their last finger (or the button) is up.
    var touches = TouchGate()
    /// Audio mode, the keys' focus, speech and the accessibility panel for the visit (docs/accessibility.md),
    /// kept by the navigator, whose chrome shows them.
    var access: Accessibility {
        get { navigator.access }
        set { navigator.access = newValue }
    }
    /// The keys and what they do (the manifest's `accessibility.keys` besides the kiosk's own).
    var keys: KeyTable
    /// The films played (`FilmPlayback`).
    var film = FilmPlayback()

    /// `images` says what the manifest's pictures are (`ImageCatalog`), `metrics` how wide its words are in the
    /// fonts (`TextMetrics`). The touch calibration is the manifest's unless `calibration` replaces it;
    /// `escapeQuits` in a window.
    public init(
        manifest: Manifest, physicalSize: Size, rotation: Rotation = .none, startScene: String? = nil,
        calibration: Calibration? = nil, escapeQuits: Bool = false, images: ImageCatalog,
        metrics: TextMetrics = .estimate
    ) {
        self.calibration = calibration ?? manifest.calibration
        self.escapeQuits = escapeQuits
        self.rotation = rotation
        self.physicalSize = physicalSize
        presence = Presence(manifest)
        keys = KeyTable(manifest.accessibility)
        let sink = EventSink()
        self.sink = sink
        // The first scene is where the kiosk starts, not a change.
        navigator = sink.quietly {
            Navigator(
                manifest: manifest,
                sceneSize: Self.sceneSize(
                    pixels: physicalSize, rotation: rotation, largeText: false, config: manifest.accessibility),
                startScene: startScene, sink: sink, images: images, metrics: metrics)
        }
    }

    /// The app with every picture of `manifest` described by `describe` (tests and tools that make no files).
    public convenience init(
        manifest: Manifest, physicalSize: Size, rotation: Rotation = .none, startScene: String? = nil,
        calibration: Calibration? = nil, describe: (String) -> ImageInfo
    ) {
        self.init(
            manifest: manifest, physicalSize: physicalSize, rotation: rotation, startScene: startScene,
            calibration: calibration, images: ImageCatalog(manifest, describe: describe))
    }

    // MARK: Scenes

    /// Opens scene `id` at its opening state and reports `sceneDidChange`, with the manifest's transition
    /// (`hotspot`: the one tapped to get there, which a zoom grows out of).
    public func show(scene id: String, from hotspot: Hotspot? = nil, style: TransitionStyle? = nil) {
        navigator.show(scene: id, from: hotspot, style: style, at: now)
    }

    /// Shows the current scene anew at its opening state, fading from how it looks now.
    func reopen() { navigator.reopen(at: now) }

    /// New content (a reload, docs/operations.md): the scene, its offsets, zoom and page are kept when the new
    /// manifest has a scene of the same id showing the same images; otherwise the kiosk goes home. Reports
    /// `contentDidReload`. The touch calibration becomes `calibration` (a calibration file's), else the new
    /// manifest's; its pictures are `images` and its words `metrics` (nil: those known so far). Returns the id of
    /// the scene shown.
    @discardableResult
    public func reload(
        _ new: Manifest, images: ImageCatalog? = nil, metrics: TextMetrics? = nil, calibration: Calibration? = nil
    ) -> String {
        self.calibration = calibration ?? new.calibration
        let oldScene = scene
        let old = scene.config
        let views = viewStates()
        // The old content's transition and attract loop end with it (the loop starts again from the new one's).
        navigator.endTransition(at: now, force: true)
        if presence.attractLoop != nil { changeScreen(to: .scenes) }
        // A new panel in the manifest may change how many pixels a point is.
        navigator.replace(
            new, images: images ?? navigator.facts.images, metrics: metrics ?? navigator.facts.metrics,
            sceneSize: Self.sceneSize(
                pixels: physicalSize, rotation: rotation, largeText: access.largeText, config: new.accessibility))
        presence.rules = Presence.Rules(new)
        keys = KeyTable(new.accessibility)
        wallRules.schedule = ScheduleRule()
        // Making the new scene and placing its views is not a scroll (as opening a scene is not).
        if let same = new.scene(old.id), same.imagePaths == old.imagePaths, same.localizedImages == old.localizedImages
        {
            sink.quietly {
                navigator.place(navigator.makeScene(same))
                apply(views)
            }
        } else {
            let home = new.scene(new.home) ?? new.scenes[0]
            sink.quietly { navigator.open(navigator.makeScene(home)) }
            if home.id != old.id {
                sink.add(TraceEvent(.sceneDidChange(scene: home.id)))
            }
        }
        navigator.startTransition(from: oldScene, grow: nil, style: .fade, reload: true, at: now)
        sink.add(TraceEvent(.contentDidReload(error: nil)))
        return scene.config.id
    }

    /// A reload that found problems: the content stays as it is; the trace says why.
    public func reload(failedWith error: String) {
        sink.add(
            TraceEvent(.contentDidReload(error: error))
        )
    }

    /// The home button: top-left, shown on every scene but home.
    var homeButtonFrame: Rect? { navigator.homeButtonFrame(of: scene) }

    // MARK: Time

    func advance(to ms: Double) {
        if ms.isFinite, ms > now { now = ms }
    }

    /// Advances to `ms` (gesture timers, every view of the current scene, the timed rules) and says what the
    /// kiosk is then; the wall clock, if the host read one for this frame, is `wall`.
    /// `speechFinished`: the host's voice finished what it was saying since the last step.
    @discardableResult
    public func step(to ms: Double, wall: WallTime? = nil, speechFinished: Bool = false) -> KioskFrame {
        if speechFinished { speechDidFinish() }
        if let wall { wallTime = wall }
        advance(to: ms)
        if let toolScreen {
            for e in toolScreen.step(to: now) { sink.add(e) }
            if toolScreen.isOver { quitRequested = true }
        } else {
            stepScenes()
        }
        return frame
    }

    func stepScenes() {
        navigator.endTransition(at: now)
        // The events are taken before they are acted on: a hotspot's goto changes the scene, and the events left
        // in the old scene's controller would act again when it is shown next.
        let controller = scene.controller
        controller.step(to: now)
        if let pulse = scene.pulse, !pulse.isRunning(at: now) { scene.pulse = nil }
        let events = controller.events
        controller.events.removeAll(keepingCapacity: true)
        for g in events { report(g) }
        if let page = scene.currentPage, page != navigator.lastPage {
            navigator.lastPage = page
            sink.add(TraceEvent(view: scene.config.id, .pageDidChange(page: page)))
        }
        applyTimedRules()
        if access.jack.settles(at: now) { beginAudioIfAsked(.headset(plugged: true)) }
        startFilm()
        stepFilmControls()
        showCaption()
        placeFocus()
    }

    func report(_ g: GestureEvent) {
        switch g {
        case .doubleTap(let p):
            sink.add(TraceEvent(view: scene.config.id, .doubleTap(point: p)))
        case .hotspotTapped(let id) where Chrome.isControl(id):
            tapControl(id)
        case .hotspotTapped(let id):
            switch scene.tap(id) {
            case .hotspot(let h)?:
                sink.add(TraceEvent(view: scene.config.id, .hotspotTapped(hotspot: id)))
                if let target = h.goto { navigator.go(to: target, from: h, at: now) }
            case .row(let row)?:
                let tapped = scene
                sink.add(TraceEvent(view: scene.config.id, .rowTapped(row: id)))
                switch row.action {
                case .goto(let target)?: navigator.go(to: target, at: now)
                case .show(let target, let hotspot)?: navigator.show(place: hotspot, in: target, at: now)
                case nil: break
                }
                // A row that took the visitor elsewhere stays highlighted as its list leaves (UITableView's
                // selected cell during a push; the list is reset when it opens again); else it lets go.
                if scene === tapped { tapped.list?.highlighted = nil }
            case nil: break
            }
        case .contentTouchBegan(let id):
            scene.list?.highlighted = id
        case .contentTouchCancelled:
            scene.list?.highlighted = nil
        case .tap:
            break
        }
    }

    /// Nothing moves, no finger is down, no gesture timer runs, no transition.
    public var isAtRest: Bool { scene.isAtRest && transition == nil }

    /// Whether the next frame would differ from the last: something moves or an indicator is fading.
    public var needsFrame: Bool {
        if let toolScreen { return toolScreen.needsFrame }
        if isBlanked { return false }
        if !scene.isAtRest || transition != nil || presence.attractLoop != nil || presence.isAskingStillThere {
            return true
        }
        return ([scene.view] + scene.pages).contains { $0.indicatorAlpha > 0 }
    }

    // MARK: Output

    public func drawList() -> [DrawCommand] {
        var query = TileQuery.everything
        return drawList(tiles: &query)
    }

    /// What a draw list shows: the frame, or one of a scene change's parts (a scene drawn whole, its content only,
    /// or the chrome that stays over a zoom's content).
    public enum DrawPart {
        case frame
        case scene(Scene)
        case content(Scene)
        case chrome(over: Scene)
    }

    /// The commands of `part` (the frame unless said), in the screen's pixels (`traits`); pyramid images are drawn
    /// from the tiles `tiles` says are loaded. A scene's words are in the visitor's language, and its chrome is
    /// the chrome over it (the outgoing scene of a transition's too).
    public func drawList(_ part: DrawPart = .frame, tiles: inout TileQuery) -> [DrawCommand] {
        switch part {
        case .frame:
            if let toolScreen { return traits.apply(to: toolScreen.drawList(size: sceneSize, at: now)) }
            if isBlanked {
                return traits.apply(to: [
                    .fill(Rect(origin: .zero, size: sceneSize), Color(red: 0, green: 0, blue: 0, alpha: 1))
                ])
            }
            return drawList(.scene(scene), tiles: &tiles)
        case .scene(let scene):
            return traits.apply(to: contentCommands(of: scene, tiles: &tiles) + chromeCommands(over: scene))
        case .content(let scene):
            return traits.apply(to: contentCommands(of: scene, tiles: &tiles))
        case .chrome(let scene):
            return traits.apply(to: chromeCommands(over: scene))
        }
    }

    /// A scene's content, in points.
    func contentCommands(of scene: Scene, tiles: inout TileQuery) -> [DrawCommand] {
        var list = scene.drawList(
            tiles: &tiles, language: language, fallback: navigator.languages.first, textGrowth: textGrowth)
        list += scene.pulse?.commands(in: scene, at: now) ?? []
        let films = videoShots(of: scene)
        list += films.map { .video($0) }
        if !films.isEmpty, scene === self.scene, let run = captionRun(in: scene) { list.append(.text(run)) }
        list += scene.wordCommands(language: language, fallback: navigator.languages.first)
        return list
    }

    /// The chrome over a scene, in points.
    func chromeCommands(over scene: Scene) -> [DrawCommand] {
        var list = navigator.chrome(over: scene).commands
        if scene === self.scene { list += focusRingCommands }
        if case .askingStillThere(let since) = presence.screen, scene === self.scene, let reset = presence.idleResetDue
        {
            list +=
                StillThereCard(language: language, remainingMs: reset - now, ofMs: reset - since, sceneSize: sceneSize)
                .commands
        }
        return list
    }

    /// The visitor's language (the manifest's first until they choose; `und` when it names none).
    public var language: String { navigator.languages.current }

    /// Chooses language `tag` as the language button does (`languageDidChange`).
    public func chooseLanguage(_ tag: String) { navigator.choose(tag) }
}

/// The home button: a 64 pt square in the top-left corner, in the title bar where there is one (large enough
/// for a finger: Apple's HIG asks 44 pt, and 64 pt is 20 mm on a 27-inch 1080p panel), a 52 pt disc with a house
/// drawn in it.
public enum HomeButtonStyle {
    public static let size = 64.0
    public static let margin = 8.0
    /// The disc's distance from the button's edges.
    static let inset = 6.0
}

extension Double {
    func clampedTo(_ lo: Double, _ hi: Double) -> Double { Swift.min(Swift.max(self, lo), Swift.max(lo, hi)) }
}

/// A scene change as it is drawn (docs/manifest.md, `transition`): from one scene to another over `duration` ms
/// from `start`; a zoom grows the new scene out of `rect` (scene points), or shrinks the old one into it. A
/// reload's (`reload`) fades from the old content as the screen last showed it (its pictures are gone).
public struct SceneTransition: Equatable, Sendable {
    public var from: String
    public var to: String
    public var style: TransitionStyle
    public var start: Double
    public var duration: Double
    public var rect: Rect?
    public var shrinks: Bool
    public var reload = false

    /// Whether it still runs at `ms` (it takes touches whole while it does).
    public func isRunning(at ms: Double) -> Bool { ms - start < duration }

    /// When it ends.
    public var end: Double { start + duration }

    /// How far it is at `ms`, eased in and out (0 to 1).
    public func progress(at ms: Double) -> Double {
        let x = min(1, max(0, (ms - start) / duration))
        return x * x * (3 - 2 * x)
    }
}
