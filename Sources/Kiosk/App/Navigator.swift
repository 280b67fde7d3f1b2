import EventLog
import ScrollEngine

/// The scenes and the ways between them: the scenes made so far (kept with their views until a reload or a
/// resize), the one shown, the scene change running and the scene it leaves, where each scene was opened from
/// (going back there shrinks into the hotspot), the home button and what a touch hits.
final class Navigator {
    /// What the kiosk shows (a reload replaces it).
    private(set) var manifest: Manifest
    /// The home scene in effect: the manifest's, or the one its schedule chose (docs/operations.md).
    var home: String
    /// The size every scene is laid out at (the screen, turned by the rotation).
    private(set) var sceneSize: Size
    private(set) var scene: Scene
    /// The scene change running now, and the scene it leaves (drawn at its start by the renderer).
    private(set) var transition: SceneTransition?
    private(set) var outgoing: Scene?
    /// The page last reported (`pageDidChange`).
    var lastPage: Int?
    /// Whether a frame has been shown: a scene chosen before it opens without a transition.
    var hasShownAFrame = false
    private var scenes: [String: Scene] = [:]
    private var openedFrom: [String: (scene: String, hotspot: String)] = [:]
    let sink: EventSink
    /// What the host read of the content when it loaded: its pictures, and how wide its words are (a reload
    /// brings its own).
    var facts: (images: ImageCatalog, metrics: TextMetrics)
    /// The languages offered, the visitor's, and whether the choice is open.
    private(set) var languages: Languages

    /// Audio mode, the keys' focus, speech and the accessibility panel for the visit (docs/accessibility.md): here,
    /// where the chrome that shows them is made.
    var access = Accessibility()

    /// A touch the chrome took whole (`Chrome`).
    private var chromeTouch = ChromeTouch()

    /// The longest a reload's fade lasts (docs/operations.md: a short crossfade, at most 300 ms).
    static let reloadFadeMs = 300.0

    init(
        manifest: Manifest, sceneSize: Size, startScene: String?, sink: EventSink, images: ImageCatalog,
        metrics: TextMetrics
    ) {
        self.manifest = manifest
        home = manifest.home
        self.sceneSize = sceneSize
        self.sink = sink
        facts = (images, metrics)
        languages = Languages(manifest.languages)
        let first = startScene.flatMap { manifest.scene($0) } ?? manifest.scene(manifest.home) ?? manifest.scenes[0]
        let paths = first.imagePaths(in: languages.current)
        scene = Scene(
            config: first, size: sceneSize, images: paths.map { images[$0] }, imagePaths: paths,
            language: languages.current, fallback: languages.first, metrics: metrics, sink: sink)
        scenes[first.id] = scene
        wire(scene)
        lastPage = scene.currentPage
    }

    func makeScene(_ config: SceneConfig) -> Scene {
        if let s = scenes[config.id] { return s }
        let paths = config.imagePaths(in: languages.current)
        return newScene(config, images: paths.map { facts.images[$0] }, paths: paths)
    }

    /// A new instance of a scene, which replaces the one kept for its id.
    func newScene(_ config: SceneConfig, images: [ImageInfo], paths: [String]) -> Scene {
        let s = Scene(
            config: config, size: sceneSize, images: images, imagePaths: paths, language: languages.current,
            fallback: languages.first, metrics: facts.metrics, sink: sink)
        wire(s)
        scenes[config.id] = s
        return s
    }

    /// A scene's touches meet the chrome first: a touch that begins on it is the chrome's whole (the scene's own
    /// control, a list's index, has the others first), and a content touch that lifts on it taps nothing.
    func wire(_ s: Scene) {
        s.controller.hitTest = { [unowned self] p in self.hitTest(p) }
        let own = s.controller.control
        s.controller.control = { [unowned self, unowned s] e in
            let (taken, tapped) = chromeTouch.take(e) { self.chrome }
            if let tapped { s.controller.events.append(.hotspotTapped(tapped)) }
            return taken || own?(e) == true
        }
    }

    /// Opens scene `id` at its opening state and reports `sceneDidChange`, with the manifest's transition
    /// (`hotspot`: the one tapped to get there, which a zoom grows out of).
    func show(scene id: String, from hotspot: Hotspot? = nil, style: TransitionStyle? = nil, at now: Double) {
        guard let config = manifest.scene(id), id != scene.config.id else { return }
        let old = scene
        let grow = hotspot.flatMap { old.frame(of: $0) }
        open(makeScene(config))
        if let hotspot { openedFrom[id] = (old.config.id, hotspot.id) }
        startTransition(from: old, grow: grow, style: style, at: now)
        sink.add(TraceEvent(.sceneDidChange(scene: id)))
        if transition == nil { sceneDidAppear(at: now) }
    }

    /// The scene shown is on screen whole (its transition over): a scroll or list scene flashes its scroll
    /// indicators, as a UIKit view controller does in `viewDidAppear`, so the visitor sees there is more.
    func sceneDidAppear(at now: Double) {
        guard scene.isDocument else { return }
        scene.view.step(to: now / 1000)
        scene.view.flashScrollIndicators()
    }

    /// A hotspot's or a row's `goto`: its scene opens (from `hotspot`, if one was tapped); at a list's row, the
    /// list opens with that row at its top (scrolled there, animated, when the list is shown already).
    func go(to goto: String, from hotspot: Hotspot? = nil, at now: Double) {
        let destination = Destination(goto, sceneIDs: Set(manifest.scenes.map(\.id)))
        let shown = scene.config.id == destination.scene
        show(scene: destination.scene, from: hotspot, at: now)
        guard let row = destination.row, scene.config.id == destination.scene else { return }
        scene.view.step(to: now / 1000)
        if shown {
            scene.scrollToRow(row, at: .top, animated: true)
        } else {
            // Opening a scene is not a scroll: the list opens there.
            _ = sink.quietly { scene.scrollToRow(row, at: .top, animated: false) }
        }
    }

    /// A list's row shows a place: zoom scene `id` opens (with the manifest's transition), zoomed to hotspot
    /// `hotspot`, which then pulses.
    func show(place hotspot: String, in id: String, at now: Double) {
        show(scene: id, at: now)
        guard scene.config.id == id, let h = scene.config.hotspots.first(where: { $0.id == hotspot }) else { return }
        scene.showPlace(h, at: now)
    }

    /// Shows the current scene anew at its opening state, fading from how it looks now (an attract step on the
    /// scene already shown, the loop's end on the home scene): a new instance of it opens, so the one leaving is
    /// still drawn as it was.
    func reopen(at now: Double) {
        let old = scene
        open(newScene(old.config, images: old.images, paths: old.imagePaths))
        startTransition(from: old, grow: nil, style: .fade, at: now)
    }

    /// Shows `s` at its opening state (opening a scene is not a scroll: its views' events are not reported).
    func open(_ s: Scene) {
        sink.quietly { s.reset() }
        place(s)
    }

    /// Shows `s` as it is.
    func place(_ s: Scene) {
        scene = s
        lastPage = s.currentPage
    }

    /// The manifest's transition from `old` to the scene now shown: a zoom grows out of `grow` (the tapped
    /// hotspot) or, back to the scene it was opened from, shrinks into its hotspot; every other change fades.
    /// A reload's fade (`reload`) lasts at most `reloadFadeMs`, and starts from what the screen showed.
    func startTransition(
        from old: Scene, grow: Rect?, style forced: TransitionStyle? = nil, reload: Bool = false, at now: Double
    ) {
        guard manifest.transition != .none, forced != TransitionStyle.none, manifest.transitionMs > 0 else { return }
        var style = TransitionStyle.fade
        var rect: Rect?
        var shrinks = false
        if manifest.transition == .zoom && forced == nil {
            if let grow {
                (style, rect) = (.zoom, grow)
            } else if let back = openedFrom[old.config.id], back.scene == scene.config.id,
                let h = scene.config.hotspots.first(where: { $0.id == back.hotspot }), let frame = scene.frame(of: h)
            {
                (style, rect, shrinks) = (.zoom, frame, true)
            }
        }
        transition = SceneTransition(
            from: old.config.id, to: scene.config.id, style: style, start: now,
            duration: reload ? min(manifest.transitionMs, Self.reloadFadeMs) : manifest.transitionMs, rect: rect,
            shrinks: shrinks, reload: reload)
        outgoing = old
        sink.add(
            TraceEvent(.sceneTransition(from: old.config.id, to: scene.config.id, style: style)))
    }

    /// Whether a scene change is running at `now` (it takes touches whole).
    func isChanging(at now: Double) -> Bool { transition?.isRunning(at: now) ?? false }

    /// Ends the scene change once its time is up (or at once: `force`).
    func endTransition(at now: Double, force: Bool = false) {
        guard let t = transition, force || !t.isRunning(at: now) else { return }
        transition = nil
        outgoing = nil
        sceneDidAppear(at: now)
    }

    /// New content: the scenes made from the old are let go (a scene placed or opened next is the new one's).
    func replace(_ new: Manifest, images: ImageCatalog, metrics: TextMetrics, sceneSize size: Size) {
        openedFrom.removeAll()
        manifest = new
        facts = (images, metrics)
        sceneSize = size
        home = new.home
        scenes.removeAll()
        // The visitor keeps their language if the new content still offers it.
        let current = languages.current
        languages = Languages(new.languages)
        _ = languages.choose(current)
    }

    /// The screen's size changed: the scene shown is made again at the new size (its views at their opening
    /// state), the others when next shown.
    func resize(sceneSize size: Size) {
        let current = scene.config
        sceneSize = size
        scenes.removeAll()
        place(makeScene(current))
    }

    /// The home button: in the leading top corner (the right in a right-to-left language), shown on every scene
    /// but home.
    func homeButtonFrame(of scene: Scene) -> Rect? {
        guard manifest.homeButton, scene.config.id != home else { return nil }
        let frame = Rect(x: HomeButtonStyle.margin, y: 0, width: HomeButtonStyle.size, height: HomeButtonStyle.size)
        return languages.isRightToLeft ? frame.mirrored(across: sceneSize.width) : frame
    }

    /// The chrome over the scene shown now.
    var chrome: Chrome { chrome(over: scene) }

    /// The chrome over `scene` (the scene shown, or the one a transition leaves).
    func chrome(over scene: Scene) -> Chrome {
        Chrome(
            scene: scene, languages: languages, access: access.menuState, homeButton: homeButtonFrame(of: scene),
            sceneSize: sceneSize)
    }

    func hitTest(_ p: Point) -> String? { chrome.target(at: p) ?? scene.target(at: p) }

    /// One of the kiosk's controls was tapped: home goes home; the language button switches between two
    /// languages, or opens (and closes) the choice of more; a language of the choice is chosen; a tap beside it
    /// closes it; the accessibility button opens and closes its panel (its switches are `KioskApp.toggle`'s); the title bar scrolls a scroll or list scene to the top; the page control turns a page.
    func tapControl(_ id: String, at now: Double) {
        switch id {
        case Chrome.homeButtonID:
            show(scene: home, at: now)
        case Chrome.languageButtonID:
            access.isPanelOpen = false
            if languages.offered.count == 2 { choose(languages.next) } else { languages.isChoosing.toggle() }
        case Chrome.languageCloseID:
            languages.isChoosing = false
        case AccessibilityMenu.buttonID:
            languages.isChoosing = false
            access.isPanelOpen.toggle()
        case AccessibilityMenu.closeID:
            access.isPanelOpen = false
        case Chrome.titleBarID:
            scene.view.scrollToTop()
        case Chrome.previousPageID:
            scene.turnPage(-1)
        case Chrome.nextPageID:
            scene.turnPage(1)
        case Chrome.zoomInID, Chrome.zoomOutID:
            scene.zoomStep(in: id == Chrome.zoomInID)
        default:
            guard id.hasPrefix(Chrome.languageOptionPrefix) else { return }
            languages.isChoosing = false
            choose(String(id.dropFirst(Chrome.languageOptionPrefix.count)))
        }
    }

    /// The visitor's language becomes `tag` (`languageDidChange`, when it changed).
    func choose(_ tag: String) {
        guard languages.choose(tag) else { return }
        sink.add(TraceEvent(.languageDidChange(language: tag)))
        showLanguageImages()
        for kept in scenes.values { kept.relayout(language: tag) }
    }

    /// Scenes whose images depend on the language show the visitor's: in place where the sizes are the same
    /// (the visitor keeps their place), else the scene shown opens again laid out for them; a scene kept for
    /// later is made again when next shown.
    func showLanguageImages() {
        for (id, kept) in scenes where !kept.config.localizedImages.isEmpty {
            let paths = kept.config.imagePaths(in: languages.current)
            guard paths != kept.imagePaths, !kept.showImages(paths.map { facts.images[$0] }, paths: paths) else {
                continue
            }
            scenes[id] = nil
            if kept === scene { open(makeScene(kept.config)) }
        }
    }

    /// The idle reset: back to the first language, the choice closed.
    func resetLanguage() {
        languages.isChoosing = false
        choose(languages.first)
    }
}
