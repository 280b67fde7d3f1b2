import ScrollEngine
import TouchInput

/// The kiosk's own controls and bars over a scene, one layer over the whole screen: the language button and,
/// while it is open, its choice (the rest of the screen closes it), the accessibility button and its panel (as
/// the choice), the home button, the title bar, a
/// carousel's caption bands and its page control. Each takes the touches that begin on it whole, as a UIKit
/// control or bar does: the content under it never has them, not a tap, not a drag, not a pinch.
///
/// Its targets' ids begin with a NUL (no manifest id can hold one); `Navigator.tapControl` acts on them.
struct Chrome {
    struct Target {
        var id: String
        var rect: Rect
    }

    /// Hit first to last: the first that contains a point has it.
    let targets: [Target]

    static let homeButtonID = "\u{0}home"
    static let languageButtonID = "\u{0}language"
    static let languageOptionPrefix = "\u{0}language:"
    static let languageCloseID = "\u{0}languageClose"
    /// A scene's title bar: on a scroll or list scene a tap scrolls it to the top, as UIKit's status bar does.
    static let titleBarID = "\u{0}titleBar"
    /// A carousel page's caption: it takes its touches and does nothing with them.
    static let captionID = "\u{0}caption"
    /// The page control beside (before, after) the current page's dot: a tap turns a page that way, as
    /// UIPageControl's does.
    static let previousPageID = "\u{0}page:previous"
    static let nextPageID = "\u{0}page:next"
    /// A zoom scene's zoom buttons: zoom without a pinch (EN 301 549 5.9, a single pointer).
    static let zoomInID = "\u{0}zoomIn"
    static let zoomOutID = "\u{0}zoomOut"

    static func isControl(_ id: String) -> Bool { id.hasPrefix("\u{0}") }

    /// The menu open over the scene: `language` (the choice of languages), `accessibility` (its panel) or nil.
    var openMenu: String? {
        languages.isChoosing ? "language" : accessMenu.state.isOpen ? "accessibility" : nil
    }

    let scene: Scene
    let languages: Languages
    /// The language button and its choice (nil with one language).
    let menu: LanguageMenu?
    /// The accessibility button and its panel.
    let accessMenu: AccessibilityMenu
    let homeButton: Rect?
    let sceneSize: Size
    /// A zoom scene's zoom-in and zoom-out buttons (nil on the other kinds).
    let zoomButtons: (zoomIn: Rect, zoomOut: Rect)?

    init(
        scene: Scene, languages: Languages, access: AccessibilityMenu.State, homeButton: Rect?, sceneSize: Size
    ) {
        self.scene = scene
        self.languages = languages
        self.homeButton = homeButton
        self.sceneSize = sceneSize
        menu = languages.canChoose ? LanguageMenu(languages, sceneSize: sceneSize) : nil
        accessMenu = AccessibilityMenu(
            access, besideLanguageButton: languages.canChoose, sceneSize: sceneSize, language: languages.current)
        zoomButtons =
            scene.config.type == .zoom
            ? ZoomButtonStyle.frames(in: sceneSize, rightToLeft: languages.isRightToLeft) : nil
        var targets: [Target] = []
        if let menu {
            targets.append(Target(id: Self.languageButtonID, rect: menu.button))
            for (tag, rect) in menu.options { targets.append(Target(id: Self.languageOptionPrefix + tag, rect: rect)) }
            if languages.isChoosing {
                targets.append(Target(id: Self.languageCloseID, rect: Rect(origin: .zero, size: sceneSize)))
            }
        }
        targets += accessMenu.targets(sceneSize: sceneSize)
        if let homeButton { targets.append(Target(id: Self.homeButtonID, rect: homeButton)) }
        if let zoomButtons {
            targets += [
                Target(id: Self.zoomInID, rect: zoomButtons.zoomIn),
                Target(id: Self.zoomOutID, rect: zoomButtons.zoomOut),
            ]
        }
        if scene.config.title != nil { targets.append(Target(id: Self.titleBarID, rect: Scene.titleBar(sceneSize))) }
        if let control = scene.pageControlFrame, let dot = scene.currentPageDotX {
            var before = control
            before.size.width = dot - control.minX
            var after = control
            after.origin.x = dot
            after.size.width = control.maxX - dot
            // The next page's dot is at the left in a right-to-left layout.
            let (left, right) =
                scene.isRightToLeft ? (Self.nextPageID, Self.previousPageID) : (Self.previousPageID, Self.nextPageID)
            targets += [Target(id: left, rect: before), Target(id: right, rect: after)]
        }
        for band in scene.captionBands() { targets.append(Target(id: Self.captionID, rect: band)) }
        if scene.config.type == .video {
            if scene.film.controls.isShown {
                for (action, rect) in FilmControls.frames(in: sceneSize, captions: scene.hasCaptionedFilm) {
                    targets.append(Target(id: action.id, rect: rect))
                }
            }
            // The rest of the film: a tap shows or hides its controls.
            targets.append(Target(id: FilmControls.filmID, rect: Rect(origin: .zero, size: sceneSize)))
        }
        self.targets = targets
    }

    /// The chrome drawn across the screen, in one material (`ChromeStyle.bar`) wherever it lies, over the
    /// picture or beside it: the title bar and its hairline, the caption bands, the page control, the home
    /// button, the language button and its open choice last (above the rest).
    var commands: [DrawCommand] {
        let language = languages.current
        let fallback = languages.first
        var out: [DrawCommand] = []
        for (caption, band) in scene.visibleCaptions() {
            out.append(.fill(band, ChromeStyle.bar))
            out.append(.text(scene.captionRun(caption, in: band, language: language, fallback: fallback)))
        }
        if scene.config.pageControl { scene.appendPageDots(to: &out) }
        if let title = scene.config.title {
            let bar = Scene.titleBar(sceneSize)
            out.append(.fill(bar, ChromeStyle.bar))
            out.append(.fill(Rect(x: 0, y: bar.maxY, width: bar.width, height: 1), ChromeStyle.separator))
            out.append(.text(scene.titleRun(title, language: language, fallback: fallback)))
        }
        if let homeButton {
            out.append(.homeButton(homeButton.insetBy(dx: HomeButtonStyle.inset, dy: HomeButtonStyle.inset)))
        }
        if let zoomButtons { out += ZoomButtonStyle.commands(zoomButtons) }
        if scene.film.controls.isShown {
            out += scene.film.controls.commands(
                in: sceneSize, paused: scene.film.clock?.isPaused ?? false, captions: scene.hasCaptionedFilm)
        }
        if let menu { out += menu.commands }
        out += accessMenu.commands
        return out
    }

    /// The control or bar under `p`, nil where the content shows.
    func target(at p: Point) -> String? { targets.first { $0.rect.contains(p) }?.id }
}

/// A touch the chrome took whole: which control it began on. It acts when the finger lifts on that control,
/// as UIKit's touchUpInside (a finger that slides off and lifts elsewhere does nothing).
struct ChromeTouch {
    private(set) var held: String?

    /// Takes `e` when it begins on a control of `chrome` or belongs to a touch taken so; returns whether it
    /// took it and, at a lift on the control it began on, that control.
    mutating func take(_ e: InputEvent, chrome: () -> Chrome) -> (taken: Bool, tapped: String?) {
        // A first finger down begins a new touch: one held before it whose lift never came (its scene left
        // under it) is let go.
        if e.kind == .down { held = nil }
        guard let id = held else {
            guard e.kind == .down, let id = chrome().target(at: e.position) else { return (false, nil) }
            held = id
            return (true, nil)
        }
        guard e.kind == .up || e.kind == .cancel else { return (true, nil) }
        held = nil
        return (true, e.kind == .up && chrome().target(at: e.position) == id ? id : nil)
    }
}

/// A zoom scene's zoom buttons: two 64 pt squares of the chrome's material stacked at the middle of the trailing
/// edge (the leading one in a right-to-left language), a hairline between them, a plus above a minus, as a map's
/// zoom control. Each is a control of its own: a tap zooms twice or half as large about the screen's centre.
enum ZoomButtonStyle {
    static let size = 64.0
    static let margin = 8.0

    static func frames(in size: Size, rightToLeft: Bool) -> (zoomIn: Rect, zoomOut: Rect) {
        var zoomIn = Rect(
            x: size.width - margin - Self.size, y: size.height / 2 - Self.size, width: Self.size, height: Self.size)
        if rightToLeft { zoomIn = zoomIn.mirrored(across: size.width) }
        var zoomOut = zoomIn
        zoomOut.origin.y = zoomIn.maxY + 1
        return (zoomIn, zoomOut)
    }

    /// The symbols' bars: drawn, not set in a font (every font has a plus, not every one a minus sign).
    static let bar = (length: 26.0, thickness: 4.0)

    static func commands(_ frames: (zoomIn: Rect, zoomOut: Rect)) -> [DrawCommand] {
        let (zoomIn, zoomOut) = frames
        func horizontal(_ r: Rect) -> Rect {
            Rect(x: r.midX - bar.length / 2, y: r.midY - bar.thickness / 2, width: bar.length, height: bar.thickness)
        }
        let vertical = Rect(
            x: zoomIn.midX - bar.thickness / 2, y: zoomIn.midY - bar.length / 2, width: bar.thickness,
            height: bar.length)
        return [
            .fill(
                Rect(x: zoomIn.minX, y: zoomIn.minY, width: zoomIn.width, height: zoomOut.maxY - zoomIn.minY),
                ChromeStyle.bar),
            .fill(
                Rect(x: zoomIn.minX + 12, y: zoomIn.maxY, width: zoomIn.width - 24, height: 1), ChromeStyle.separator),
            .fill(horizontal(zoomIn), WordStyle.white), .fill(vertical, WordStyle.white),
            .fill(horizontal(zoomOut), WordStyle.white),
        ]
    }
}

/// How the chrome looks: one opaque material for every bar and control (UIKit's dark `systemGray5`, as a bar
/// that is not translucent), so that a bar reads the same over a picture and over the background beside it,
/// a hairline `separator` under a bar; white words on it, the tint for a bar button's.
enum ChromeStyle {
    /// UIKit's dark `systemGray5`: #2C2C2E.
    static let bar = Color(red: 0.173, green: 0.173, blue: 0.180, alpha: 1)
    /// UIKit's dark `opaqueSeparator`: #38383A.
    static let separator = Color(red: 0.220, green: 0.220, blue: 0.227, alpha: 1)
    /// UIKit's dark `systemBlue` in its accessible variant, #409CFF: 4.9:1 on the bar.
    static let tint = Color(red: 0.251, green: 0.612, blue: 1, alpha: 1)
    /// UIKit's dark `secondaryLabel` (#EBEBF5 at 60%) over the bar: a control that is off.
    static let dimmed = Color(red: 0.62, green: 0.62, blue: 0.64, alpha: 1)

    /// A menu's lines (the choice of languages, the accessibility panel) as one panel of the material, a hairline
    /// between them.
    static func panel(_ lines: [Rect]) -> [DrawCommand] {
        guard let first = lines.first, let last = lines.last else { return [] }
        var out: [DrawCommand] = [
            .fill(Rect(x: first.minX, y: first.minY, width: first.width, height: last.maxY - first.minY), bar)
        ]
        for line in lines.dropFirst() {
            out.append(.fill(Rect(x: line.minX + 16, y: line.minY, width: line.width - 16, height: 1), separator))
        }
        return out
    }
}
