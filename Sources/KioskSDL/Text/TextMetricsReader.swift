import CSDL2TTF
import Kiosk

/// The core's `TextMetrics`, read from the fonts when the content loads: for each language offered, the advance
/// of every character its lists' titles use (each shaped alone, in the font the renderer draws it in) and its
/// font's line height, at `pixels` pixels, in ems. A list of 10 000 titles has a few hundred characters.
enum TextMetricsReader {
    /// The size characters are measured at: large, so a whole pixel is a small part of an em.
    static let pixels = 200
    /// How many titles are shaped whole to scale the letters' advances.
    static let sampleTitles = 64

    static func metrics(_ manifest: Manifest, fonts: FontBook) -> TextMetrics {
        let lists = manifest.scenes.compactMap(\.list)
        guard !lists.isEmpty else { return .estimate }
        let languages = Languages(manifest.languages)
        var out: [String: TextMetrics.Font] = [:]
        for language in languages.offered {
            guard let primary = fonts.font(for: language, pixels: pixels) else { continue }
            var used = Set<Unicode.Scalar>([" "])
            for list in lists {
                for row in list.rows {
                    used.formUnion(row.title.text(in: language, fallback: languages.first).unicodeScalars)
                }
            }
            let shaper = LineShaper(
                fonts: fonts, language: language, pixels: pixels, primary: primary,
                rightToLeft: Languages.isRightToLeft(language))
            var advances: [Unicode.Scalar: Double] = [:]
            for s in used where s != "\n" { advances[s] = Double(shaper.width(String(s))) / Double(pixels) }
            // Joined letters (Arabic's) are narrower than each alone: the advances are scaled by how much narrower
            // a sample of whole titles is, shaped, than its letters summed (Latin's kerning: about 1).
            var shaped = 0.0
            var summed = 0.0
            for row in lists.lazy.flatMap(\.rows).prefix(Self.sampleTitles) {
                let title = row.title.text(in: language, fallback: languages.first)
                for line in title.split(separator: "\n") {
                    shaped += Double(shaper.width(String(line))) / Double(pixels)
                    summed += line.unicodeScalars.reduce(0) { $0 + (advances[$1] ?? 0) }
                }
            }
            if summed > 0, shaped > 0, shaped < summed {
                for (s, a) in advances { advances[s] = a * shaped / summed }
            }
            out[language] = TextMetrics.Font(
                advances: advances, otherAdvance: advances.values.max() ?? 1,
                lineHeight: Double(TTF_FontLineSkip(primary)) / Double(pixels))
        }
        return TextMetrics(fonts: out)
    }
}
