import EventLog
import ScrollEngine
import TouchInput

/// The keys and what is spoken (docs/accessibility.md), the router's side: a key's action (`KeyTable`) is decided
/// here, once; the focus order is the chrome's and the scene's (`accessibilityElements`); the state is
/// `Accessibility`'s.
extension KioskApp {
    /// What is on screen for the keys now, in reading order: the chrome's elements, then the scene's, then a zoom
    /// scene's zoom buttons (the keys have `+` and `-`: the buttons are for a finger, and last, so the walk
    /// reaches the content first); only the open menu's options while one is open.
    var accessibilityElements: [AccessibilityElement] {
        let fallback = navigator.languages.first
        let bar = navigator.chrome
        let chrome = bar.accessibilityElements(language: language, fallback: fallback)
        if bar.openMenu != nil { return chrome }
        let (zoom, bars) = (chrome.filter(\.isZoomButton), chrome.filter { !$0.isZoomButton })
        return bars + scene.accessibilityElements(language: language, fallback: fallback) + zoom
    }

    var focusedElement: AccessibilityElement? {
        guard let id = access.focused else { return nil }
        return accessibilityElements.first { $0.id == id }
    }

    /// A key pressed (SDL's name; `isRepeat`: held down, the keyboard repeating it). Any key cuts speech short.
    func key(_ name: String, isRepeat: Bool) {
        access.interrupt(sink: sink)
        guard
            let press = keys.press(
                name, shift: input.shiftKeys > 0, rightToLeft: navigator.languages.isRightToLeft)
        else {
            // A desktop key the table does not name (Home, End).
            if !isRepeat { scene.key(name) }
            return
        }
        // A held key repeats only what can repeat: moving, paging, zooming, the volume.
        if isRepeat && [.activate, .back, .help, .repeat].contains(press.action) { return }
        perform(press)
    }

    func perform(_ press: KeyTable.Press) {
        switch press.action {
        case .next, .previous:
            if beginAudio() { return }
            let elements = accessibilityElements
            let focused = access.focused.flatMap { id in elements.first { $0.id == id } }
            if let arrow = press.arrow, focused?.isPicture == true, canPan(arrow) {
                pan(arrow)
            } else if let e = access.neighbour(by: press.action == .next ? 1 : -1, in: elements) {
                focus(e)
                access.lookAhead(in: elements)
            }
        case .activate:
            if beginAudio() { return }
            if let target = focusedElement?.target { activate(target) }
        case .back: back()
        case .zoomIn, .zoomOut: scene.zoomStep(in: press.action == .zoomIn)
        case .nextPage: scene.key("PageDown")
        case .previousPage: scene.key("PageUp")
        case .help:
            // Help as a visit's first key: audio mode begins on the first element (not said: the help is).
            if access.startAudio(sink: sink), let first = accessibilityElements.first {
                access.focus(first.id, in: focusContext, sink: sink)
            }
            let help = SpokenWords.say(.help, in: language)
            let title = scene.config.title?.text(in: language, fallback: navigator.languages.first)
            access.say(
                Utterance(text: [title, help.text].compactMap { $0 }.joined(separator: ". "), language: help.language))
        case .repeat:
            if let u = access.lastSpoken { access.say(u) }
        case .volumeDown, .volumeUp:
            access.stepVolume(press.action == .volumeUp ? 1 : -1)
        }
    }

    /// A finger in audio mode (explore by touch): what is under one finger is said, a double tap activates what
    /// was said last, two fingers are the scene's.
    func explore(_ e: InputEvent) { act(on: access.explorer.take(e)) }

    func act(on outcomes: [TouchExplorer.Outcome]) {
        for outcome in outcomes {
            switch outcome {
            case .touched(let p):
                guard let found = element(at: p), found.id != access.focused else { continue }
                focus(found, reveal: false)
            case .activate:
                if let target = focusedElement?.target { activate(target) }
            case .scene(let event):
                scene.controller.handle(event)
            }
        }
    }

    /// The element under `p`: the chrome's above the scene's, else the smallest that holds it (a hotspot before
    /// the picture it is on).
    func element(at p: Point) -> AccessibilityElement? {
        let under = accessibilityElements.filter { $0.frame.contains(p) }
        return under.first { ["chrome:", "language:", "accessibility:"].contains(where: $0.id.hasPrefix) }
            ?? under.min { $0.frame.width * $0.frame.height < $1.frame.width * $1.frame.height }
    }

    /// The host's speech came to the end of what it was saying (`speechDidEnd`, finished).
    func speechDidFinish() { access.finished(sink: sink) }

    /// Whether a navigation key is a visit's first: audio mode begins, the welcome says how the keys work and the
    /// first element is focused (the key itself does nothing more).
    func beginAudio() -> Bool {
        guard access.startAudio(sink: sink) else { return false }
        let welcome = SpokenWords.say(.welcome, in: language)
        let elements = accessibilityElements
        if let first = elements.first {
            focus(first, after: welcome.text)
            access.lookAhead(in: elements)
        } else {
            access.say(Utterance(text: welcome.text, language: welcome.language))
        }
        return true
    }

    /// A headset plugged in begins audio mode (the hardware reports its jack: a visitor who cannot see plugs in
    /// the kiosk's headphones); so does a navigation key that a gate took (it woke the screen, ended the attract
    /// loop or answered the still-there card): a visitor who cannot see does not know the gate was there.
    /// Pulled out, audio mode ends (`handle`): what it says would be said to the room.
    func beginAudioIfAsked(_ event: EventLog.Event) {
        switch event {
        case .headset(true):
            _ = beginAudio()
        case .key(true, let name, false):
            guard let press = keys.press(name, shift: false, rightToLeft: false),
                [.next, .previous, .activate, .help].contains(press.action)
            else { return }
            _ = beginAudio()
        default:
            return
        }
    }

    /// Focuses `e`: it is scrolled into view (unless a finger found it where it is) and spoken (after `prefix`,
    /// the welcome).
    func focus(_ e: AccessibilityElement, after prefix: String? = nil, reveal: Bool = true) {
        access.focus(e.id, in: focusContext, sink: sink)
        if reveal { scene.reveal(e) }
        access.say(Utterance(text: [prefix, e.spoken].compactMap { $0 }.joined(separator: " "), language: e.language))
    }

    /// Return on the focused element: a tap on it.
    func activate(_ target: String) {
        if Chrome.isControl(target) {
            tapControl(target)
        } else {
            report(.hotspotTapped(target))
        }
    }

    /// Escape: the open choice of languages or accessibility panel closes; else the kiosk goes home; at home, a
    /// kiosk in a window quits.
    func back() {
        if navigator.languages.isChoosing {
            navigator.tapControl(Chrome.languageCloseID, at: now)
        } else if access.isPanelOpen {
            navigator.tapControl(AccessibilityMenu.closeID, at: now)
        } else if scene.config.id != navigator.home {
            navigator.show(scene: navigator.home, at: now)
        } else if escapeQuits {
            quitRequested = true
        }
    }

    /// Whether the focused picture can move the way `arrow` points (at its edge, or fitted to the screen, the
    /// arrow moves the focus instead: a keypad with only arrows is never held on a picture).
    func canPan(_ arrow: Point) -> Bool {
        let v = scene.focusedView
        let x = v.offsetLimits(.horizontal)
        let y = v.offsetLimits(.vertical)
        let o = v.contentOffset
        return (arrow.x > 0 && o.x < x.upperBound - 0.5) || (arrow.x < 0 && o.x > x.lowerBound + 0.5)
            || (arrow.y > 0 && o.y < y.upperBound - 0.5) || (arrow.y < 0 && o.y > y.lowerBound + 0.5)
    }

    /// An arrow on the focused picture: it pans a quarter of the screen that way.
    func pan(_ arrow: Point) {
        let v = scene.focusedView
        scene.scroll(v, by: Point(x: arrow.x * v.bounds.width / 4, y: arrow.y * v.bounds.height / 4))
    }

    /// Each frame in audio mode: a focus whose scene, language or choice of languages changed under it moves to
    /// where a visitor expects it (a new scene's title, the language button after the choice closed) and is
    /// spoken in the visitor's language; then what the frame asked to say begins.
    func placeFocus() {
        defer { access.startPending(sink: sink) }
        guard access.audio else { return }
        act(on: access.explorer.step(to: now))
        // The still-there card is said as it is shown (EAA Annex I: the visitor who cannot see it hears it).
        if sink.events.contains(where: { $0.kind == .stillThereShown }) {
            let card = SpokenWords.say(.stillThere, in: language)
            access.say(Utterance(text: card.text, language: card.language))
        }
        let context = focusContext
        guard context != access.context else { return }
        let elements = accessibilityElements
        let sameScene = context.scene == access.context?.scene
        let kept = sameScene ? elements.first { $0.id == access.focused } : nil
        // A menu that closed leaves the focus on its button.
        let closed = access.context?.menu.map { "chrome:\($0)" }
        let next =
            kept ?? (context.menu != nil ? elements.first : nil)
            ?? (sameScene ? elements.first { $0.id == closed } : nil)
            ?? elements.first { $0.id == "chrome:title" } ?? elements.first { !$0.id.hasPrefix("chrome:") }
            ?? elements.first
        access.context = context
        guard let next else { return }
        focus(next)
    }

    var focusContext: Accessibility.Context {
        Accessibility.Context(scene: scene.config.id, language: language, menu: navigator.chrome.openMenu)
    }

    /// The focus ring around the focused element, in audio mode.
    var focusRingCommands: [DrawCommand] {
        guard access.audio, let e = focusedElement else { return [] }
        return FocusRing.commands(around: e.frame, in: sceneSize)
    }
}

extension Scene {
    /// `+` and `-`, and the zoom buttons: the zoom scene (or a carousel's zooming page) twice or half as large
    /// about the screen's centre, animated.
    func zoomStep(in zoomsIn: Bool) {
        let v = focusedView
        guard v.canZoom else { return }
        let target = (v.zoomScale * (zoomsIn ? 2 : 0.5)).clampedTo(v.minimumZoomScale, v.maximumZoomScale)
        let centre = (v.contentOffset + Point(x: v.bounds.width / 2, y: v.bounds.height / 2)) / v.zoomScale
        v.zoom(to: ZoomMath.zoomRect(scale: target, center: centre, frame: v.bounds), animated: true)
    }

    /// Scrolls `e` into view: a row to the nearer edge of the list, a hotspot's page turned to, a hotspot on a
    /// picture to the middle of the screen when it is not whole on it.
    func reveal(_ e: AccessibilityElement) {
        let visible = Rect(
            x: 0, y: view.contentInset.top, width: size.width,
            height: size.height - view.contentInset.top - view.contentInset.bottom)
        if e.id.hasPrefix("row:") {
            if e.frame.minY < visible.minY {
                scrollToRow(String(e.id.dropFirst(4)), at: .top, animated: true)
            } else if e.frame.maxY > visible.maxY {
                scrollToRow(String(e.id.dropFirst(4)), at: .bottom, animated: true)
            }
        } else if e.id.hasPrefix("page:"), let page = Int(e.id.dropFirst(5)), page != currentPage {
            show(page: page)
        } else if e.id.hasPrefix("hotspot:"), let h = config.hotspots.first(where: { "hotspot:\($0.id)" == e.id }) {
            if config.type == .carousel {
                if h.page != currentPage { show(page: h.page) }
            } else if let f = frame(of: h), !visible.containsWhole(f) {
                let v = view
                let middle = Point(x: f.midX - visible.midX, y: f.midY - visible.midY)
                v.setContentOffset(v.clampedOffset(v.contentOffset + middle), animated: true)
            }
        }
    }

    /// A carousel turned to page `page`, animated.
    func show(page: Int) {
        guard config.type == .carousel, pages.indices.contains(page) else { return }
        view.setContentOffset(
            Point(x: view.pageOffset(pagePosition(page), .horizontal), y: view.contentOffset.y), animated: true)
    }
}

extension Rect {
    /// Whether `r` lies wholly inside it.
    func containsWhole(_ r: Rect) -> Bool { r.minX >= minX && r.maxX <= maxX && r.minY >= minY && r.maxY <= maxY }
}

/// The focus ring (docs/accessibility.md: at least 3 px, 3:1 against its surroundings): two bands, black outside
/// and yellow inside, so one of them stands out against any colour (black against light, yellow against dark);
/// around the element, pulled inside the screen at its edges.
enum FocusRing {
    static let band = 3.0
    static let outer = Color(red: 0, green: 0, blue: 0, alpha: 1)
    /// UIKit's dark `systemYellow`, #FFD60A.
    static let inner = Color(red: 1, green: 0.839, blue: 0.039, alpha: 1)

    static func commands(around frame: Rect, in size: Size) -> [DrawCommand] {
        let x0 = max(0, frame.minX - 2 * band)
        let y0 = max(0, frame.minY - 2 * band)
        let x1 = min(size.width, frame.maxX + 2 * band)
        let y1 = min(size.height, frame.maxY + 2 * band)
        guard x1 - x0 > 4 * band, y1 - y0 > 4 * band else { return [] }
        let outside = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        return edges(of: outside, color: outer) + edges(of: outside.insetBy(dx: band, dy: band), color: inner)
    }

    static func edges(of r: Rect, color: Color) -> [DrawCommand] {
        [
            .fill(Rect(x: r.minX, y: r.minY, width: r.width, height: band), color),
            .fill(Rect(x: r.minX, y: r.maxY - band, width: r.width, height: band), color),
            .fill(Rect(x: r.minX, y: r.minY + band, width: band, height: r.height - 2 * band), color),
            .fill(Rect(x: r.maxX - band, y: r.minY + band, width: band, height: r.height - 2 * band), color),
        ]
    }
}
