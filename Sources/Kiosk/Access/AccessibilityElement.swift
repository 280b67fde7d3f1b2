import ScrollEngine

/// One thing a visitor can reach with the keys and hear (UIKit's `UIAccessibilityElement`): its id in the trace
/// (`chrome:home`, `hotspot:cafe`, `row:library`, `page:2`, `picture`, `language:de`), where it is on screen
/// (scene points, for the focus ring), what is spoken for it, and what activating it does.
public struct AccessibilityElement: Equatable, Sendable {
    public var id: String
    /// Where it is now, in scene points (`accessibilityFrame`).
    public var frame: Rect
    /// What is spoken: its label, role and state, then its description (`accessibilityLabel`, traits, hint).
    public var spoken: String
    /// The language `spoken` is in (a language's own name is spoken in that language).
    public var language: String
    /// What a Return does: a tap on it (`target`: a hotspot's or a row's id, or a chrome control's); nil where it
    /// only shows (a title, a page, the picture).
    var target: String?
    /// The picture of a zoom or scroll scene: focused, the arrow keys pan it.
    var isPicture = false

    var isZoomButton: Bool { id == "chrome:zoomIn" || id == "chrome:zoomOut" }

    /// The parts of what is spoken for an element, joined as a screen reader says them: "Café, button. The
    /// museum's café on the ground floor".
    static func spoken(
        _ label: String, role: SpokenWords.Word?, selected: Bool = false, description: String? = nil,
        language: String
    ) -> String {
        let comma = SpokenWords.comma(language)
        var s = label
        if let role { s += (s.isEmpty ? "" : comma) + SpokenWords.say(role, in: language).text }
        if selected { s += comma + SpokenWords.say(.selected, in: language).text }
        if let description, !description.isEmpty { s += (s.isEmpty ? "" : ". ") + description }
        return s
    }
}

/// The longest text spoken for one element: a description longer than this is cut (a manifest's mistake must not
/// keep the voice busy for an hour).
let maximumSpokenCharacters = 2_000

extension Scene {
    /// The scene's own elements in reading order (docs/accessibility.md): a carousel's pages, each followed by its
    /// hotspots; a list's rows; hotspots by their rectangle's top-leading corner, then the text boxes on the
    /// picture; then the picture of a zoom or scroll scene.
    func accessibilityElements(language: String, fallback: String) -> [AccessibilityElement] {
        var out: [AccessibilityElement] = []
        if let list {
            for (position, p) in list.layout.order.enumerated() {
                let row = list.config.rows[p]
                var label = row.title.text(in: language, fallback: fallback)
                if let sub = row.subtitle?.text(in: language, fallback: fallback), !sub.isEmpty {
                    label += SpokenWords.comma(language) + sub
                }
                let top = list.layout.rowTop(position) - view.contentOffset.y
                out.append(
                    AccessibilityElement(
                        id: "row:\(row.id)",
                        frame: Rect(x: 0, y: top, width: size.width, height: list.layout.rowHeight(position)),
                        spoken: AccessibilityElement.spoken(
                            label, role: row.action == nil ? nil : .button,
                            description: row.description?.text(in: language, fallback: fallback), language: language),
                        language: language, target: row.action == nil ? nil : row.id))
            }
            return out
        }
        if config.type == .carousel {
            for page in pages.indices {
                let origin = Point(x: Double(pagePosition(page)) * size.width - view.contentOffset.x, y: 0)
                out.append(
                    AccessibilityElement(
                        id: "page:\(page)", frame: Rect(origin: origin, size: size),
                        spoken: AccessibilityElement.spoken(
                            SpokenWords.page(page + 1, of: pages.count, in: language), role: nil,
                            description: pageDescription(page, language: language, fallback: fallback),
                            language: language),
                        language: language))
                out += hotspotElements(on: page, language: language, fallback: fallback)
            }
            return out
        }
        out += hotspotElements(on: nil, language: language, fallback: fallback)
        out += overlayElements(language: language, fallback: fallback)
        if view.canZoom || config.type == .scroll {
            let title = config.title?.text(in: language, fallback: fallback) ?? ""
            out.append(
                AccessibilityElement(
                    id: "picture", frame: Rect(origin: .zero, size: size),
                    spoken: AccessibilityElement.spoken(
                        title, role: .picture, description: SpokenWords.say(.pictureHint, in: language).text,
                        language: language),
                    language: language, isPicture: true))
        }
        return out
    }

    /// A zoom or scroll scene's text boxes (`overlay:0`, in the manifest's order), top to bottom: their words and
    /// descriptions, said as a screen reader says static text.
    func overlayElements(language: String, fallback: String) -> [AccessibilityElement] {
        config.overlays.enumerated().sorted { $0.element.rect.minY < $1.element.rect.minY }.map { i, o in
            AccessibilityElement(
                id: "overlay:\(i)", frame: frame(of: o),
                spoken: AccessibilityElement.spoken(
                    o.text.text(in: language, fallback: fallback), role: nil,
                    description: o.description?.text(in: language, fallback: fallback), language: language),
                language: language)
        }
    }

    /// A carousel page's caption and description, as one text.
    func pageDescription(_ page: Int, language: String, fallback: String) -> String? {
        let parts = [config.captions, config.pageDescriptions].compactMap { texts in
            texts.indices.contains(page) ? texts[page]?.text(in: language, fallback: fallback) : nil
        }
        return parts.isEmpty ? nil : parts.joined(separator: ". ")
    }

    /// The hotspots of `page` (nil: all), top to bottom and in the language's direction, with where they are now
    /// (a carousel's hotspots on another page are where that page would be).
    func hotspotElements(on page: Int?, language: String, fallback: String) -> [AccessibilityElement] {
        let rightToLeft = Languages.isRightToLeft(language)
        let hotspots = config.hotspots.filter { page == nil || $0.page == page }.sorted { a, b in
            if a.rect.minY != b.rect.minY { return a.rect.minY < b.rect.minY }
            return rightToLeft ? a.rect.maxX > b.rect.maxX : a.rect.minX < b.rect.minX
        }
        return hotspots.map { h in
            AccessibilityElement(
                id: "hotspot:\(h.id)", frame: frame(of: h) ?? Rect(x: 0, y: 0, width: 0, height: 0),
                spoken: AccessibilityElement.spoken(
                    h.label?.text(in: language, fallback: fallback) ?? "", role: h.goto == nil ? nil : .button,
                    description: h.description?.text(in: language, fallback: fallback), language: language),
                language: language, target: h.id)
        }
    }
}

extension Chrome {
    /// The chrome's elements in reading order: home, title, language, accessibility, a zoom scene's zoom buttons;
    /// with the choice of languages or the accessibility panel open, its options only (the rest of the screen
    /// closes it, as Escape does).
    func accessibilityElements(language: String, fallback: String) -> [AccessibilityElement] {
        if accessMenu.state.isOpen { return accessMenu.accessibilityElements() }
        if let menu, languages.isChoosing {
            return menu.options.map { tag, rect in
                AccessibilityElement(
                    id: "language:\(tag)", frame: rect,
                    spoken: AccessibilityElement.spoken(Languages.nativeName(tag), role: .button, language: tag),
                    language: tag, target: Self.languageOptionPrefix + tag)
            }
        }
        var out: [AccessibilityElement] = []
        if let homeButton {
            out.append(
                AccessibilityElement(
                    id: "chrome:home", frame: homeButton,
                    spoken: AccessibilityElement.spoken(
                        SpokenWords.say(.home, in: language).text, role: .button, language: language),
                    language: language, target: Self.homeButtonID))
        }
        if let title = scene.config.title {
            out.append(
                AccessibilityElement(
                    id: "chrome:title", frame: Scene.titleBar(sceneSize),
                    spoken: AccessibilityElement.spoken(
                        title.text(in: language, fallback: fallback), role: .heading,
                        description: scene.config.description?.text(in: language, fallback: fallback),
                        language: language),
                    language: language))
        }
        if let menu {
            // The button names the language a tap gives (with two) or the visitor's (with more).
            let name = Languages.nativeName(menu.buttonLanguage)
            out.append(
                AccessibilityElement(
                    id: "chrome:language", frame: menu.button,
                    spoken: AccessibilityElement.spoken(
                        SpokenWords.say(.language, in: language).text + SpokenWords.comma(language) + name,
                        role: .button, language: language),
                    language: language, target: Self.languageButtonID))
        }
        out += accessMenu.accessibilityElements()
        if scene.config.type == .video {
            // The film's controls, reachable by the keys whether or not a tap shows them (focus shows them).
            let paused = scene.film.clock?.isPaused ?? false
            for (action, rect) in FilmControls.frames(in: sceneSize, captions: scene.hasCaptionedFilm) {
                let label: String
                switch action {
                case .again: label = SpokenWords.say(.startAgain, in: language).text
                case .playPause: label = SpokenWords.say(paused ? .play : .pause, in: language).text
                case .captions:
                    label =
                        SpokenWords.say(.captions, in: language).text + SpokenWords.comma(language)
                        + SpokenWords.say(scene.film.controls.captionsOn ? .on : .off, in: language).text
                }
                out.append(
                    AccessibilityElement(
                        id: "chrome:film:\(action.rawValue)", frame: rect,
                        spoken: AccessibilityElement.spoken(label, role: .button, language: language),
                        language: language, target: action.id))
            }
        }
        if let zoomButtons {
            for (id, word, rect, target) in [
                ("chrome:zoomIn", SpokenWords.Word.zoomIn, zoomButtons.zoomIn, Self.zoomInID),
                ("chrome:zoomOut", .zoomOut, zoomButtons.zoomOut, Self.zoomOutID),
            ] {
                out.append(
                    AccessibilityElement(
                        id: id, frame: rect,
                        spoken: AccessibilityElement.spoken(
                            SpokenWords.say(word, in: language).text, role: .button, language: language),
                        language: language, target: target))
            }
        }
        return out
    }
}
