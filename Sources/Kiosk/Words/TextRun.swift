import ScrollEngine

/// Words to draw: a text in a box of scene points, in its language's font and direction. The renderer shapes
/// and rasterises it once per text, size and width, and keeps the result.
public struct TextRun: Equatable, Sendable {
    public var text: String
    /// Its language tag: the font, and the direction (right to left for Arabic, Hebrew, Persian, Urdu).
    public var language: String
    /// The font size in points.
    public var size: Double
    public var color: Color
    /// The box it is laid out in: wrapped to its width at word boundaries (`wraps`, else one line), as many lines
    /// as its height holds, the last ending in an ellipsis when the text goes on; placed by `align` across
    /// and centred down.
    public var rect: Rect
    public var align: TextAlign
    public var wraps: Bool
    /// A plate behind the text's lines (a label's), drawn with them into one texture, or nil.
    public var plate: Color?
    /// Whether the size holds still (a label on a picture being zoomed does not): a renderer may draw a size it
    /// has while the size moves, and rasterises the exact size once it settles, as it keeps pictures.
    public var isSettled: Bool

    public init(
        _ text: String, language: String, size: Double, color: Color, rect: Rect, align: TextAlign = .center,
        wraps: Bool = false, plate: Color? = nil, isSettled: Bool = true
    ) {
        self.text = text
        self.language = language
        self.size = size
        self.color = color
        self.rect = rect
        self.align = align
        self.wraps = wraps
        self.plate = plate
        self.isSettled = isSettled
    }

    /// Whether it is laid out right to left.
    public var isRightToLeft: Bool { Languages.isRightToLeft(language) }
}

/// Where lines sit across their box: at the start of the reading direction (left in English, right in
/// Arabic), in the middle, or at the end.
public enum TextAlign: String, Equatable, Sendable {
    case start, center, end
}

/// How the kiosk's words look (docs/manifest.md leaves sizes and colours to the kiosk): sizes in points,
/// chosen for a visitor a step back from a 1080p screen (Apple's HIG body text is 17 pt at arm's length).
public enum WordStyle {
    /// A scene's title bar across the top, and its text.
    public static let titleBarHeight = 64.0
    public static let titleSize = 30.0
    /// The title keeps clear of the home button, the language button and the accessibility button beside it on
    /// either side (8 + 136 + 8 + 64 + 8).
    public static let titleInset = 224.0
    /// A hotspot's label at the picture's fitted zoom (it grows and shrinks with the picture).
    public static let labelSize = 20.0
    /// Opaque, so that a label is one copied texture, not a blend: 20 labels on a panned map cost no more than
    /// a few per cent of a frame (`frameLabelsMs`).
    public static let labelPlate = Color(red: 0.25, green: 0.26, blue: 0.29, alpha: 1)
    /// A carousel page's caption, in a band across the bottom.
    public static let captionSize = 24.0
    public static let captionBandHeight = 96.0
    public static let white = Color(red: 1, green: 1, blue: 1, alpha: 1)
    /// The language button: at least 64 x 64 points, covering the point 40 points from the top and from the
    /// trailing edge (docs/manifest.md), in the title bar; its text.
    public static let languageButtonHeight = 64.0
    public static let languageButtonMinimumWidth = 64.0
    public static let languageButtonMargin = 8.0
    public static let languageNameSize = 22.0
    /// The longest a label is (points at its size, before it is cut with an ellipsis).
    public static let labelMaximumWidth = 360.0
}

extension Rect {
    /// Whether it and `other` overlap.
    func intersects(_ other: Rect) -> Bool {
        let common = intersection(self, other)
        return common.width > 0 && common.height > 0
    }

    /// Mirrored across a width of `width` (its left edge where its right edge was, from the other side), as a
    /// right-to-left layout places what a left-to-right one puts at its leading edge.
    func mirrored(across width: Double) -> Rect { Rect(x: width - maxX, y: minY, width: self.width, height: height) }

    /// Smaller by `dx` on the left and right and `dy` at the top and bottom.
    func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: max(0, width - 2 * dx), height: max(0, height - 2 * dy))
    }
}

/// The language button and, while it is open, the choice of languages below it: in the top corner opposite the
/// home button (the trailing one: the left in a right-to-left language), in the title bar (as a bar button), at least 64 x 64 points and covering the point 40 points
/// from the top and from that edge (docs/manifest.md). With two languages the button shows the other
/// language's name (a tap switches to it); with more, the visitor's, and a tap opens the choice of the others
/// (the visitor's own is the button's).
public struct LanguageMenu {
    public let button: Rect
    public let options: [(language: String, rect: Rect)]
    let languages: Languages

    /// The button's width: room for a language's name at `WordStyle.languageNameSize`.
    static let buttonWidth = 136.0

    public init(_ languages: Languages, sceneSize: Size) {
        self.languages = languages
        let h = WordStyle.languageButtonHeight
        // At the trailing edge: the left in a right-to-left language.
        var button = Rect(
            x: sceneSize.width - WordStyle.languageButtonMargin - Self.buttonWidth, y: 0, width: Self.buttonWidth,
            height: h)
        if languages.isRightToLeft { button = button.mirrored(across: sceneSize.width) }
        self.button = button
        let others = languages.offered.filter { $0 != languages.current }
        options =
            languages.isChoosing
            ? others.enumerated().map { i, tag in
                (tag, Rect(x: button.minX, y: button.maxY + 1 + Double(i) * h, width: button.width, height: h))
            } : []
    }

    /// Where language `tag` is in the open choice.
    public func option(_ tag: String) -> Rect? { options.first { $0.language == tag }?.rect }

    /// What the button says, and in which language.
    var buttonLanguage: String { languages.offered.count == 2 ? languages.next : languages.current }

    /// The button (in the chrome's tint, as a bar button's words) and the open choice: one panel of the
    /// chrome's material, a hairline between its lines.
    public var commands: [DrawCommand] {
        var out: [DrawCommand] = [.fill(button, ChromeStyle.bar)]
        out.append(name(buttonLanguage, in: button, color: ChromeStyle.tint))
        out += ChromeStyle.panel(options.map(\.rect))
        for (tag, rect) in options { out.append(name(tag, in: rect, color: WordStyle.white)) }
        return out
    }

    func name(_ tag: String, in rect: Rect, color: Color) -> DrawCommand {
        .text(
            TextRun(
                Languages.nativeName(tag), language: tag, size: WordStyle.languageNameSize, color: color,
                rect: rect.insetBy(dx: 8, dy: 0)))
    }
}
