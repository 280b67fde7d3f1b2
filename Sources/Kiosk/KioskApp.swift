import EventLog
import Foundation
import ScrollEngine
import TouchInput

/// The kiosk without SDL: scenes from the manifest, input mapped from SDL-shaped events, the idle reset,
/// what each frame draws and what the trace says. The SDL layer feeds it events and draws its commands.
public final class KioskApp {
    /// What the kiosk shows (a reload replaces it).
    public var manifest: Manifest { navigator.manifest }
    /// The touch calibration in effect: the manifest's, unless a calibration file replaces it (calibration.md).
    public var calibration: Calibration
    public let rotation: Rotation
    /// The physical screen (window) in pixels; scenes see `sceneSize`.
    public private(set) var physicalSize: Size
    public var sceneSize: Size { navigator.sceneSize }
    public var scene: Scene { navigator.scene }
    /// The scenes, the one shown and the changes between them.
    let navigator: Navigator
    /// Escape quits (in a window only, never on a kiosk).
    public var escapeQuits = false
    public private(set) var quitRequested = false
    /// An installer's tool shown instead of the scenes (`--calibrate`, `--touch-test`): it takes every touch
    /// and the screen.
    public private(set) var toolScreen: (any ToolScreen)?
    /// `kiosk --calibrate`'s screen, if that is the tool.
    public var calibrationScreen: CalibrationScreen? { toolScreen as? CalibrationScreen }
    /// Events since the last trace line.
    public let sink = EventSink()
    /// Milliseconds since the first frame.
    public private(set) var now: Double = 0

    var input = InputMapper()
    /// The visitor's session, the screen's state and the timed rules between them.
    public internal(set) var presence: Presence
    /// When the last touch (or click, wheel, key) came, on the kiosk's clock.
    public var lastInput: Double { presence.lastInput }
    /// When the visitor's activity began: the first input after the kiosk was idle (at start, or after an idle
    /// reset).
    public var activeSince: Double { presence.activeSince }
    public var isAttracting: Bool { presence.attractLoop != nil }
    /// The screen is blank (`blankAfterSeconds`, or outside the opening hours); the next touch only wakes it.
    public var isBlanked: Bool { presence.isBlanked }
    /// Why the screen is blank.
    public var blankReason: Presence.BlankReason? { presence.blankReason }
    /// The wall clock (Unix seconds) at a time of the kiosk's clock: the opening hours are read on it (none
    /// known: always open).
    public var wallClock: ((Double) -> Double)?
    public var calendar = LocalCalendar.system
    /// The opening hours' state as last computed.
    var hoursWatch = HoursWatch()
    /// The scene change running now, and the scene it leaves (drawn at its start by the renderer).
    public var transition: SceneTransition? { navigator.transition }
    public var outgoing: Scene? { navigator.outgoing }
    /// Touches a gate took whole, swallowed until their last finger (or the button) is up.
    var touches = TouchGate()

    /// `imageInfo` loads (or has loaded) an image and says its size, or that it failed.
    public init(
        manifest: Manifest, physicalSize: Size, rotation: Rotation = .none, startScene: String? = nil,
        imageInfo: @escaping (String) -> ImageInfo
    ) {
        calibration = manifest.calibration
        self.rotation = rotation
        self.physicalSize = physicalSize
        presence = Presence(manifest)
        navigator = Navigator(
            manifest: manifest, sceneSize: rotation.sceneSize(physicalSize), startScene: startScene, sink: sink,
            imageInfo: imageInfo)
        sink.events.removeAll()
    }

    // MARK: Scenes

    /// Opens scene `id` at its opening state and reports `sceneDidChange`, with the manifest's transition
    /// (`hotspot`: the one tapped to get there, which a zoom grows out of).
    public func show(scene id: String, from hotspot: Hotspot? = nil, style: TransitionStyle? = nil) {
        navigator.show(scene: id, from: hotspot, style: style, at: now)
    }

    /// Shows the current scene anew at its opening state, fading from how it looks now.
    func reopen() { navigator.reopen(at: now) }

    /// New content (a reload, operations.md): the scene, its offsets, zoom and page are kept when the new
    /// manifest has a scene of the same id showing the same images; otherwise the kiosk goes home. Reports
    /// `contentDidReload`.
    public func reload(_ new: Manifest) {
        let oldScene = scene
        let old = scene.config
        let views = viewStates()
        // The old content's transition and attract loop end with it (the loop starts again from the new one's).
        navigator.endTransition(at: now, force: true)
        if presence.attractLoop != nil {
            presence.screen = .scenes
            sink.add(TraceEvent(view: nil, name: "attractDidEnd"))
        }
        navigator.replace(new)
        presence.rules = Presence.Rules(new)
        // Making the new scene and placing its views is not a scroll (as opening a scene is not).
        let mark = sink.events.count
        if let same = new.scene(old.id), same.imagePaths == old.imagePaths {
            navigator.place(navigator.makeScene(same))
            apply(views)
            sink.events.removeSubrange(mark...)
        } else {
            let home = new.scene(new.home) ?? new.scenes[0]
            navigator.open(navigator.makeScene(home))
            sink.events.removeSubrange(mark...)
            if home.id != old.id {
                sink.add(TraceEvent(view: nil, name: "sceneDidChange", arguments: "\"scene\": \(jsonString(home.id))"))
            }
        }
        navigator.startTransition(from: oldScene, grow: nil, style: .fade, reload: true, at: now)
        sink.add(TraceEvent(view: nil, name: "contentDidReload", arguments: "\"ok\": true"))
    }

    /// A reload that found problems: the content stays as it is; the trace says why.
    public func reloadFailed(_ error: String) {
        sink.add(
            TraceEvent(view: nil, name: "contentDidReload", arguments: "\"ok\": false, \"error\": \(jsonString(error))")
        )
    }

    /// The home button: top-left, shown on every scene but home.
    public var homeButtonFrame: Rect? { navigator.homeButtonFrame(of: scene) }

    // MARK: Input

    /// Shows the calibration wizard instead of the scenes, until it is done or gives up (then the app quits).
    public func startCalibration() {
        // Raw touches: the calibration in effect is never applied while calibrating (calibration.md).
        toolScreen = CalibrationScreen(screen: physicalSize, rotation: rotation, at: now)
    }

    /// Shows the touch test instead of the scenes, until 30 s pass without a touch (then the app quits).
    public func startTouchTest() {
        toolScreen = TouchTestScreen(calibration: calibration, rotation: rotation, at: now)
    }

    /// One input event, SDL-shaped (`EventLog.Event`), at `ms`. Mouse positions are pixels of the window.
    public func handle(_ event: EventLog.Event, at ms: Double) {
        advance(to: ms)
        if let toolScreen {
            if case .finger(let phase, let touchId, let fingerId, let x, let y, _, _, _) = event {
                toolScreen.handle(phase, touchId: touchId, fingerId: fingerId, x: x, y: y, at: now)
            } else if case .quit = event {
                quitRequested = true
            }
            return
        }
        if gate(event) { return }
        switch event {
        case .finger(let phase, let touchId, let fingerId, let x, let y, _, _, _):
            noteInput()
            scene.controller.handle(
                input.finger(
                    phase, FingerKey(touchId: touchId, fingerId: fingerId), x: x, y: y, calibration: calibration,
                    rotation: rotation, sceneSize: sceneSize, at: now))
        case .mouseMotion(let x, let y, _, _, let state):
            input.mousePosition = scenePoint(pixel: Point(x: x, y: y))
            if input.mouseDown && state & 1 != 0 {
                noteInput()
                scene.controller.handle(
                    InputEvent(.move, finger: InputMapper.mouseFinger, at: input.mousePosition, time: now))
            }
        case .mouseButton(let down, let button, _, let x, let y):
            guard button == 1 else { return }
            noteInput()
            input.mousePosition = scenePoint(pixel: Point(x: x, y: y))
            guard down != input.mouseDown else { return }
            input.mouseDown = down
            scene.controller.handle(
                InputEvent(down ? .down : .up, finger: InputMapper.mouseFinger, at: input.mousePosition, time: now))
        case .mouseWheel(_, _, let px, let py):
            noteInput()
            wheel(Point(x: px, y: py))
        case .key(let down, let key, _):
            input.control(key, down: down)
            guard down else { return }
            noteInput()
            self.key(key)
        case .window(let name, let w, let h):
            if name == "SDL_WINDOWEVENT_SIZE_CHANGED", w > 0, h > 0 {
                resize(Size(width: Double(w), height: Double(h)))
            }
        case .quit:
            quitRequested = true
        }
    }

    /// The gates an input passes before the scene, in order: a touch already held, a blank screen (the input
    /// wakes it), the attract loop (the input ends it), a scene change running. True when one took it.
    func gate(_ event: EventLog.Event) -> Bool {
        if presence.isBlanked {
            if touches.take(event, for: .wake, orKey: true) {
                presence.screen = .scenes
                noteInput()
                sink.add(TraceEvent(view: nil, name: "screenDidWake"))
                return true
            }
        } else if touches.swallows(event) {
            return true
        }
        if presence.attractLoop != nil, touches.take(event, for: .attractEnd, orKey: true) {
            noteInput()
            endAttract()
            return true
        }
        if navigator.isChanging(at: now), touches.take(event, for: .transition) { return true }
        return false
    }

    func scenePoint(pixel p: Point) -> Point {
        InputMapper.scenePoint(pixel: p, physicalSize: physicalSize, sceneSize: sceneSize, rotation: rotation)
    }

    /// The view the keyboard and the wheel act on: the current page of a carousel that zooms, else the main view.
    var focusedView: ScrollView {
        if let page = scene.currentPage, page < scene.pages.count, scene.pages[page].canZoom {
            return scene.pages[page]
        }
        return scene.view
    }

    /// Mouse wheel: scrolls (40 pt a step, the way a desktop scrolls); with Ctrl, zooms at the pointer.
    func wheel(_ steps: Point) {
        let v = focusedView
        if input.controlKeys > 0, v.canZoom {
            let factor = steps.y > 0 ? KeyboardStyle.zoomStep : 1 / KeyboardStyle.zoomStep
            let target = (v.zoomScale * factor).clampedTo(v.minimumZoomScale, v.maximumZoomScale)
            let contentPoint = (v.contentOffset + input.mousePosition) / v.zoomScale
            v.zoom(to: ZoomMath.zoomRect(scale: target, center: contentPoint, frame: v.bounds), animated: true)
            return
        }
        if scene.config.type == .carousel && steps.x != 0 {
            turnPage(steps.x > 0 ? 1 : -1)
            return
        }
        scroll(
            v, by: Point(x: -steps.x * KeyboardStyle.wheelStep, y: -steps.y * KeyboardStyle.wheelStep), animated: false)
    }

    func key(_ name: String) {
        let v = focusedView
        let page = Point(x: v.bounds.width * 0.9, y: v.bounds.height * 0.9)
        switch name {
        case "Escape": if escapeQuits { quitRequested = true }
        case "Left":
            scene.config.type == .carousel ? turnPage(-1) : scroll(v, by: Point(x: -KeyboardStyle.arrowStep, y: 0))
        case "Right":
            scene.config.type == .carousel ? turnPage(1) : scroll(v, by: Point(x: KeyboardStyle.arrowStep, y: 0))
        case "Up": scroll(v, by: Point(x: 0, y: -KeyboardStyle.arrowStep))
        case "Down": scroll(v, by: Point(x: 0, y: KeyboardStyle.arrowStep))
        case "PageUp": scene.config.type == .carousel ? turnPage(-1) : scroll(v, by: Point(x: 0, y: -page.y))
        case "PageDown": scene.config.type == .carousel ? turnPage(1) : scroll(v, by: Point(x: 0, y: page.y))
        case "Home":
            v.setContentOffset(
                Point(x: v.offsetLimits(.horizontal).lowerBound, y: v.offsetLimits(.vertical).lowerBound),
                animated: true)
        case "End":
            v.setContentOffset(
                Point(x: v.offsetLimits(.horizontal).upperBound, y: v.offsetLimits(.vertical).upperBound),
                animated: true)
        case "+", "=", "Keypad +": v.setZoomScale(v.zoomScale * KeyboardStyle.zoomStep, animated: true)
        case "-", "Keypad -": v.setZoomScale(v.zoomScale / KeyboardStyle.zoomStep, animated: true)
        default: break
        }
    }

    func scroll(_ v: ScrollView, by delta: Point, animated: Bool = true) {
        v.setContentOffset(v.clampedOffset(v.contentOffset + delta), animated: animated)
    }

    func turnPage(_ direction: Int, wrapping: Bool = false) {
        let v = scene.view
        guard let current = v.currentPage else { return }
        let count = v.pageCount(.horizontal)
        let target = wrapping ? (current + direction + count) % count : max(0, min(count - 1, current + direction))
        v.setContentOffset(Point(x: v.pageOffset(target, .horizontal), y: v.contentOffset.y), animated: true)
    }

    func resize(_ size: Size) {
        guard size != physicalSize else { return }
        physicalSize = size
        navigator.resize(sceneSize: rotation.sceneSize(size))
    }

    func noteInput() { presence.noteInput(at: now) }

    // MARK: Time

    func advance(to ms: Double) {
        if ms.isFinite, ms > now { now = ms }
    }

    /// Advances to `ms`: gesture timers, every view of the current scene, the idle reset.
    public func step(to ms: Double) {
        advance(to: ms)
        if let toolScreen {
            for e in toolScreen.step(to: now) { sink.add(e) }
            if toolScreen.isOver { quitRequested = true }
            return
        }
        navigator.endTransition(at: now)
        // The events are taken before they are acted on: a hotspot's goto changes the scene, and the events left
        // in the old scene's controller would act again when it is shown next.
        let controller = scene.controller
        controller.step(to: now)
        let events = controller.events
        controller.events.removeAll(keepingCapacity: true)
        for g in events { report(g) }
        if let page = scene.currentPage, page != navigator.lastPage {
            navigator.lastPage = page
            sink.add(TraceEvent(view: scene.config.id, name: "pageDidChange", arguments: "\"page\": \(page)"))
        }
        applyTimedRules()
    }

    func report(_ g: GestureEvent) {
        switch g {
        case .doubleTap(let p):
            sink.add(TraceEvent(view: scene.config.id, name: "doubleTap", arguments: "\"point\": \(jsonPoint(p))"))
        case .hotspotTapped(Navigator.homeButtonID):
            show(scene: manifest.home)
        case .hotspotTapped(let id):
            sink.add(
                TraceEvent(view: scene.config.id, name: "hotspotTapped", arguments: "\"hotspot\": \(jsonString(id))"))
            if let h = scene.config.hotspots.first(where: { $0.id == id }), let target = h.goto {
                show(scene: target, from: h)
            }
        case .tap, .contentTouchBegan, .contentTouchCancelled:
            break
        }
    }

    /// The timed rules, in their order: the screen blanks for want of input; the idle reset takes the kiosk
    /// home at its opening state (home first, then blank or attract); the opening hours; the attract loop.
    func applyTimedRules() {
        if presence.blankIsDue(at: now, touchHeld: touches.isHolding, sceneAtRest: scene.isAtRest) { blank(.idle) }
        if presence.idleResetIsDue(at: now, sceneAtRest: scene.isAtRest) {
            presence.becomeIdle(at: now)
            sink.add(TraceEvent(view: nil, name: "idleReset"))
            if scene.config.id != manifest.home {
                show(scene: manifest.home)
            } else {
                scene.reset(animated: true)
            }
        }
        applyHours()
        applyAttract()
    }

    // MARK: The attract loop

    /// Images the kiosk will show soon, for the SDL layer to decode ahead: while the attract loop plays, its
    /// next step's scene; in the last `attractPrepareMs` before it starts, the scenes of all its steps (once
    /// shown they stay loaded anyway, so this adds no memory: it only makes them ready while nothing moves).
    public var upcomingImagePaths: [String] {
        guard let attract = manifest.attract else { return [] }
        let scenes: [String]
        if let loop = presence.attractLoop {
            scenes = [attract.steps[(loop.step + 1) % attract.steps.count].scene]
        } else if presence.attractIsNear(at: now) {
            scenes = attract.steps.map(\.scene)
        } else {
            return []
        }
        var seen: Set<String> = [scene.config.id]
        return scenes.filter { seen.insert($0).inserted }.flatMap { manifest.scene($0)?.imagePaths ?? [] }
    }

    /// Starts the loop when it is due, and plays it.
    func applyAttract() {
        let quiet = scene.isAtRest && transition == nil
        if presence.attractLoop == nil, presence.attractIsDue(at: now, touchHeld: touches.isHolding, quiet: quiet),
            let attract = manifest.attract
        {
            presence.screen = .attracting(AttractLoop(attract, at: now))
            sink.add(TraceEvent(view: nil, name: "attractDidStart"))
            beginAttractStep()
        }
        guard let loop = presence.attractLoop, transition == nil else { return }
        if loop.advance(at: now) { return beginAttractStep() }
        if loop.place(scene, at: now) { turnPage(1, wrapping: true) }
    }

    func beginAttractStep() {
        guard let loop = presence.attractLoop else { return }
        sink.add(TraceEvent(view: nil, name: "attractStep", arguments: "\"index\": \(loop.step)"))
        if loop.current.scene != scene.config.id {
            show(scene: loop.current.scene)
        } else {
            reopen()
        }
        _ = loop.place(scene, at: now)
    }

    /// The first touch ends the loop (that touch does nothing else) and the kiosk shows home, at rest, with a
    /// fade.
    func endAttract() {
        guard presence.attractLoop != nil else { return }
        presence.screen = .scenes
        sink.add(TraceEvent(view: nil, name: "attractDidEnd"))
        if scene.config.id != manifest.home {
            show(scene: manifest.home, style: .fade)
        } else {
            reopen()
        }
    }

    /// The screen goes blank; an attract loop playing ends (without going home: the screen is dark).
    func blank(_ reason: Presence.BlankReason) {
        let wasAttracting = presence.attractLoop != nil
        presence.screen = .blank(reason)
        sink.add(
            TraceEvent(view: nil, name: "screenDidBlank", arguments: "\"reason\": \(jsonString(reason.rawValue))"))
        if wasAttracting { sink.add(TraceEvent(view: nil, name: "attractDidEnd")) }
    }

    /// Outside the opening hours the screen is blank, unless a touch woke it: then until the idle reset. When
    /// the kiosk opens, a screen blank for the hours wakes by itself.
    func applyHours() {
        guard let hours = manifest.openingHours, let wallClock else { return }
        if hoursNow(hours, at: wallClock(now)).open {
            if presence.blankReason == .hours {
                presence.screen = .scenes
                sink.add(TraceEvent(view: nil, name: "screenDidWake"))
            }
            return
        }
        let quiet = scene.isAtRest && transition == nil
        if presence.closedBlankIsDue(at: now, touchHeld: touches.isHolding, quiet: quiet) { blank(.hours) }
    }

    /// The opening hours' state at `wall`.
    func hoursNow(_ hours: OpeningHours, at wall: Double) -> (open: Bool, until: Double?) {
        hoursWatch.state(of: hours, at: wall, calendar: calendar)
    }

    /// The opening hours close the kiosk now.
    var isClosed: Bool {
        guard let hours = manifest.openingHours, let wallClock else { return false }
        return !hoursNow(hours, at: wallClock(now)).open
    }

    /// When the opening hours next open or close the kiosk, on its clock.
    var nextHoursChange: Double? {
        guard let hours = manifest.openingHours, let wallClock else { return nil }
        let wall = wallClock(now)
        guard let next = hoursNow(hours, at: wall).until else { return nil }
        return now + (next - wall) * 1000
    }

    /// When the kiosk's own timers next have something to do (blanking the screen, the idle reset), in its
    /// clock's milliseconds; nil when none is pending. A sleeping frame loop wakes then, not before.
    public var nextDeadline: Double? {
        if let toolScreen { return toolScreen.deadline }
        var deadlines = presence.nextDeadline(
            at: now, touchHeld: touches.isHolding, closed: isClosed, hoursChange: nextHoursChange)
        if let t = transition { deadlines.append(t.start + t.duration) }
        return deadlines.min()
    }

    /// Nothing moves, no finger is down, no gesture timer runs, no transition.
    public var isAtRest: Bool { scene.isAtRest && transition == nil }

    /// Whether the next frame would differ from the last: something moves or an indicator is fading.
    public var needsFrame: Bool {
        if let toolScreen { return toolScreen.needsFrame }
        if isBlanked { return false }
        if !scene.isAtRest || transition != nil || presence.attractLoop != nil { return true }
        return ([scene.view] + scene.pages).contains { $0.indicatorAlpha > 0 }
    }

    // MARK: Output

    public func drawList() -> [DrawCommand] {
        var query = TileQuery.everything
        return drawList(tiles: &query)
    }

    /// The frame's commands; pyramid images are drawn from the tiles `tiles` says are loaded.
    public func drawList(tiles: inout TileQuery) -> [DrawCommand] {
        if let toolScreen { return toolScreen.drawList(size: sceneSize, at: now) }
        if isBlanked {
            return [.fill(Rect(origin: .zero, size: sceneSize), Color(red: 0, green: 0, blue: 0, alpha: 1))]
        }
        return drawList(of: scene, tiles: &tiles)
    }

    /// A scene's commands with the home button where it has one (the outgoing scene of a transition too).
    public func drawList(of scene: Scene, tiles: inout TileQuery) -> [DrawCommand] {
        var list = scene.drawList(tiles: &tiles)
        if let frame = navigator.homeButtonFrame(of: scene) { list.append(.homeButton(frame)) }
        return list
    }

    /// The frame's trace line (cli-and-trace.md, version 1); takes the events since the last line.
    /// Ends a frame without a trace: its events are let go (else they would pile up for as long as it runs).
    public func dropFrameEvents() { sink.events.removeAll(keepingCapacity: true) }

    public func traceLine(frame: Int) -> String {
        var s =
            "{\"frame\": \(frame), \"t\": \(jsonNumber(now)), \"scene\": \(jsonString(scene.config.id)), \"views\": {"
        s += scene.tracedViews.map { "\(jsonString($0.id)): \(Self.json($0.view))" }.joined(separator: ", ")
        s += "}"
        if let t = transition {
            let progress = min(1, max(0, (now - t.start) / t.duration))
            s +=
                ", \"transition\": {\"from\": \(jsonString(t.from)), \"to\": \(jsonString(t.to)), "
                + "\"style\": \(jsonString(t.style.rawValue)), \"progress\": \(jsonNumber(progress))}"
        }
        s += ", \"events\": ["
        s += sink.events.map(\.json).joined(separator: ", ")
        sink.events.removeAll(keepingCapacity: true)
        return s + "]}"
    }

    static func json(_ v: ScrollView) -> String {
        let i = v.contentInset
        let a = v.adjustedContentInset
        let page = v.currentPage.map(String.init) ?? "null"
        return "{\"contentOffset\": \(jsonPoint(v.contentOffset)), \"zoomScale\": \(jsonNumber(v.zoomScale)), "
            + "\"contentSize\": [\(jsonNumber(v.contentSize.width)), \(jsonNumber(v.contentSize.height))], "
            + "\"bounds\": [\(jsonNumber(v.bounds.width)), \(jsonNumber(v.bounds.height))], "
            + "\"contentInset\": [\(jsonNumber(i.top)), \(jsonNumber(i.left)), \(jsonNumber(i.bottom)), \(jsonNumber(i.right))], "
            + "\"adjustedContentInset\": [\(jsonNumber(a.top)), \(jsonNumber(a.left)), \(jsonNumber(a.bottom)), \(jsonNumber(a.right))], "
            + "\"page\": \(page), \"isTracking\": \(v.isTracking), \"isDragging\": \(v.isDragging), "
            + "\"isDecelerating\": \(v.isDecelerating), \"isZooming\": \(v.isZooming), \"isZoomBouncing\": \(v.isZoomBouncing), "
            + "\"indicators\": {\"horizontal\": \(jsonNumber(v.horizontalIndicator?.alpha ?? 0)), "
            + "\"vertical\": \(jsonNumber(v.verticalIndicator?.alpha ?? 0))}}"
    }
}

/// Desktop input steps (our choices, as desktop scroll views behave).
enum KeyboardStyle {
    static let arrowStep = 40.0
    static let wheelStep = 40.0
    static let zoomStep = 1.5
}

/// The home button: a 64 pt disc 24 pt from the top-left corner (large enough for a finger: Apple's HIG asks 44 pt).
public enum HomeButtonStyle {
    public static let size = 64.0
    public static let margin = 24.0
}

extension Double {
    func clampedTo(_ lo: Double, _ hi: Double) -> Double { Swift.min(Swift.max(self, lo), Swift.max(lo, hi)) }
}

/// A scene change as it is drawn (manifest.md, `transition`): from one scene to another over `duration` ms
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

    /// How far it is at `ms`, eased in and out (0 to 1).
    public func progress(at ms: Double) -> Double {
        let x = min(1, max(0, (ms - start) / duration))
        return x * x * (3 - 2 * x)
    }
}
