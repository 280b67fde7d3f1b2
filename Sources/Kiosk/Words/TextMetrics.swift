/// How wide the content's words are, as data: for each language, the advance of each character its list titles
/// use and the font's line height, in ems (read by the host from the fonts when the content loads). The core
/// lays out text that sizes its box with them (a list row's title, UITableView's self-sizing cells) without a
/// font: it breaks lines as the renderer does (whole words, greedy), summing advances (scaled for joined
/// letters), with a little room to spare (`safety`). Without a table (the tests, `--check`): an estimate,
/// `estimatedAdvance` for every character.
public struct TextMetrics: Equatable, Sendable {
    public struct Font: Equatable, Sendable {
        /// Each character's advance, in ems.
        public var advances: [Unicode.Scalar: Double]
        /// The advance of a character not in `advances`, in ems (the widest measured).
        public var otherAdvance: Double
        /// From one line's top to the next's, in ems.
        public var lineHeight: Double
        /// The widest character, in ems: reckoned once, not for each title laid out.
        let widest: Double

        public init(advances: [Unicode.Scalar: Double], otherAdvance: Double, lineHeight: Double) {
            self.advances = advances
            self.otherAdvance = otherAdvance
            self.lineHeight = lineHeight
            widest = max(otherAdvance, advances.values.max() ?? 0)
        }
    }

    /// By language tag.
    public var fonts: [String: Font]

    public init(fonts: [String: Font] = [:]) { self.fonts = fonts }

    /// No fonts: every character `estimatedAdvance` wide, lines `estimatedLineHeight` apart.
    public static let estimate = TextMetrics()
    /// A wide guess, in ems: most Latin letters are narrower (Noto Sans's lowercase average is about 0.53).
    static let estimatedAdvance = 0.6
    /// Noto Sans's line skip, in ems (1.362).
    static let estimatedLineHeight = 1.362
    /// The share of a box's width a line is reckoned to fill at most: the renderer measures whole pixels at the
    /// drawn size, and a sample's scale (`TextMetricsReader`) is an average, so a line near the edge is given
    /// the next line rather than risk an ellipsis.
    static let safety = 0.97

    func font(_ language: String) -> Font {
        fonts[language]
            ?? Font(advances: [:], otherAdvance: Self.estimatedAdvance, lineHeight: Self.estimatedLineHeight)
    }

    /// The height of one line of `language` at `size` points.
    public func lineHeight(language: String, size: Double) -> Double { font(language).lineHeight * size }

    /// How many lines `text` takes in a box `width` points wide at `size` points, broken at spaces as the renderer
    /// breaks them, at most `maximumLines` (a line break in the text starts a line).
    public func lineCount(_ text: String, language: String, size: Double, width: Double, maximumLines: Int) -> Int {
        let font = font(language)
        let room = width / max(size, 1e-9) * Self.safety
        func advance(_ s: Substring) -> Double {
            s.unicodeScalars.reduce(0) { $0 + (font.advances[$1] ?? font.otherAdvance) }
        }
        // Most titles fit one line even were every character the widest.
        if !text.contains("\n"), Double(text.unicodeScalars.count) * font.widest <= room { return 1 }
        let space = font.advances[" "] ?? font.otherAdvance
        var lines = 0
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines += 1
            var line = -1.0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                let w = advance(word)
                if line < 0 {
                    line = w
                } else if line + space + w <= room {
                    line += space + w
                } else {
                    lines += 1
                    line = w
                }
                if lines >= maximumLines { return maximumLines }
            }
        }
        return min(max(1, lines), maximumLines)
    }
}
