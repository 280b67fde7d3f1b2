import CSDL2
import CSDL2TTF
import Kiosk
import ScrollEngine

/// Words as textures: each text is laid out (wrapped at word boundaries within its box, cut with an ellipsis
/// where its lines run out), shaped and rasterised once per text, pixel size and box, and kept in a
/// least-recently-used cache of `budgetBytes`. Never shaped per frame: a frame looks its texts up.
final class TextStore {
    let fonts: FontBook
    let textures: TextureMaker
    /// The most the kept texts may hold (bytes of their pixels).
    let budgetBytes: Int
    private var cache: [Key: Entry] = [:]
    /// The exact size last drawn of each text, for a size on the move (a label while its picture zooms).
    private var lastSize: [Identity: Key] = [:]
    private(set) var bytes = 0
    /// Texts shaped and rasterised so far.
    private(set) var made = 0
    private var clock: UInt64 = 0
    /// Frames drawn, and the frame each text was last drawn in.
    private var frame = 0
    /// Beyond this many bytes, texts not drawn for `trimFrames` frames are let go (the rows a list scrolled
    /// past, the last language's words): the budget is a ceiling, not a target.
    static let softBudgetBytes = 4 * 1_048_576
    static let trimFrames = 60
    /// Texts whose glyphs their font lacks, logged once each.
    private var missingGlyphsLogged: Set<String> = []

    /// What a text is, whatever its size.
    struct Identity: Hashable {
        var text: String
        var language: String
        var color: UInt32
        var align: TextAlign
        var wraps: Bool
        /// The plate's colour, drawn into the texture behind the lines (0: none).
        var plate: UInt32
    }

    struct Key: Hashable {
        var identity: Identity
        var pixels: Int
        /// The box in whole pixels (its width wraps and cuts the text, its height cuts the lines).
        var width: Int
        var height: Int
    }

    /// A laid-out text: its texture (turned by `--rotate`), its size in pixels before the turn, and the plate's
    /// margin around the lines in it.
    struct Entry {
        var texture: OpaquePointer
        var size: Size
        var inset: Size
        var bytes: Int
        var used: UInt64
        var pixels: Int
        var frame = 0
    }

    /// The longest side a text's texture may have (SDL's renderers take 4096 at least; a label is far smaller).
    static let maximumSide = 4096
    /// That, or the renderer's limit where it is less (a Raspberry Pi 4's 2048).
    var sideLimit: Int { min(Self.maximumSide, textures.maximumSide) }
    /// The largest letters laid out and rasterised (pixels of the font's size; the manifest's largest size, 400,
    /// is drawn sharp at its picture's fitted zoom). A text drawn larger (a picture zoomed in on its overlays) is
    /// drawn from this size, scaled: its texture, its font's glyphs and the time to make it stay bounded however
    /// far the picture zooms (twenty overlays of size 400 zoomed four times took three seconds a frame and over
    /// a gigabyte), and zooming on past it makes nothing again. Our choice.
    static let maximumPixels = 512

    init(fonts: FontBook, textures: TextureMaker, budgetBytes: Int) {
        self.fonts = fonts
        self.textures = textures
        self.budgetBytes = budgetBytes
    }

    /// The texture of `run` (its entry: its size in pixels and its plate's margin): laid out now if it was
    /// not. A size on the move (`run.isSettled` false) takes the size last drawn, if any: the caller draws it at
    /// `scale`.
    func texture(for run: TextRun) -> (entry: Entry, scale: Double)? {
        let key = Self.key(run)
        let beyond = Self.scaleBeyondMaximum(run)
        clock += 1
        if var entry = cache[key] {
            entry.used = clock
            entry.frame = frame
            cache[key] = entry
            lastSize[key.identity] = key
            return (entry, beyond)
        }
        if !run.isSettled, let near = lastSize[key.identity], var entry = cache[near] {
            entry.used = clock
            entry.frame = frame
            cache[near] = entry
            return (entry, beyond * Double(key.pixels) / Double(max(1, near.pixels)))
        }
        guard var entry = make(run, key) else { return nil }
        made += 1
        entry.frame = frame
        cache[key] = entry
        lastSize[key.identity] = key
        bytes += entry.bytes
        return (entry, beyond)
    }

    /// How much larger than its texture `run` is drawn: 1 up to `maximumPixels`, its size over that beyond.
    static func scaleBeyondMaximum(_ run: TextRun) -> Double {
        run.size > Double(maximumPixels) ? run.size / Double(maximumPixels) : 1
    }

    /// What `run` is laid out and rasterised as: its size and box in whole pixels, both shrunk alike past
    /// `maximumPixels` (so it wraps where it would at its own size).
    static func key(_ run: TextRun) -> Key {
        func packed(_ c: Color) -> UInt32 {
            UInt32(channel(c.red)) << 24 | UInt32(channel(c.green)) << 16 | UInt32(channel(c.blue)) << 8
                | UInt32(channel(c.alpha))
        }
        let shrink = 1 / scaleBeyondMaximum(run)
        return Key(
            identity: Identity(
                text: run.text, language: run.language, color: packed(run.color), align: run.align, wraps: run.wraps,
                plate: run.plate.map(packed) ?? 0),
            pixels: max(1, Int((run.size * shrink).rounded())), width: max(1, Int((run.rect.width * shrink).rounded())),
            height: max(1, Int((run.rect.height * shrink).rounded())))
    }

    /// `run` broken into the lines of its box, with the shaper that measured them and their height.
    private struct Laid {
        var lines: [String]
        var isCut: Bool
        var shaper: LineShaper
        var lineHeight: Int
    }

    private static func layOut(_ run: TextRun, _ key: Key, fonts: FontBook, side: Int = maximumSide) -> Laid? {
        guard let font = fonts.font(for: run.language, pixels: key.pixels) else {
            return nil
        }
        let shaper = LineShaper(
            fonts: fonts, language: run.language, pixels: key.pixels, primary: font, rightToLeft: run.isRightToLeft)
        let lineHeight = Int(TTF_FontLineSkip(font))
        let maximumLines = run.wraps ? max(1, key.height / max(1, lineHeight)) : 1
        let (lines, isCut) = TextLayout.layout(
            run.text, width: min(key.width, side), maximumLines: maximumLines, measure: shaper.width)
        return Laid(lines: lines, isCut: isCut, shaper: shaper, lineHeight: lineHeight)
    }

    /// Whether `run` fits its box whole and the bytes of its texture (`kiosk --check`), laid out as it is drawn;
    /// nil when its language has no font that opens.
    static func measure(_ run: TextRun, fonts: FontBook) -> TextMeasure? {
        let key = key(run)
        guard let laid = layOut(run, key, fonts: fonts) else { return nil }
        let block = Block(laid, key: key, run: run)
        return TextMeasure(fits: !laid.isCut, bytes: block.bytes)
    }

    /// The texture a laid-out text is drawn into: its lines' box, and around it the plate's margin.
    private struct Block {
        var w, h, padX, padY, bw, bh: Int
        var bytes: Int { bw * bh * 4 }

        init(_ laid: Laid, key: Key, run: TextRun, side: Int = TextStore.maximumSide) {
            let widths = laid.lines.map(laid.shaper.width)
            w = min(side, max(1, widths.max() ?? 1))
            h = min(side, max(1, laid.lineHeight * laid.lines.count))
            // A plate a little larger than the lines (half the size's height across, a fifth down), drawn into
            // the texture: one blended copy a frame instead of a blended fill and a copy.
            (padX, padY) =
                run.plate == nil
                ? (0, 0)
                : (Int((Double(key.pixels) * 0.5).rounded()), Int((Double(key.pixels) * 0.2).rounded()))
            (bw, bh) = (min(side, w + 2 * padX), min(side, h + 2 * padY))
        }
    }

    /// Lays `run` out and rasterises it.
    private func make(_ run: TextRun, _ key: Key) -> Entry? {
        guard let laid = Self.layOut(run, key, fonts: fonts, side: sideLimit), !laid.lines.isEmpty else { return nil }
        let (lines, shaper, lineHeight) = (laid.lines, laid.shaper, laid.lineHeight)
        warnOfMissingGlyphs(run.text, shaper: shaper)
        let box = Block(laid, key: key, run: run, side: sideLimit)
        let (w, padX, padY, bw, bh) = (box.w, box.padX, box.padY, box.bw, box.bh)
        // On an opaque plate the text is opaque too: a texture without alpha, copied rather than blended.
        let format = (run.plate?.alpha ?? 0) >= 1 ? SDL_PIXELFORMAT_RGB888 : SDL_PIXELFORMAT_ARGB8888
        guard let block = SDL_CreateRGBSurfaceWithFormat(0, Int32(bw), Int32(bh), 32, format.rawValue) else {
            return nil
        }
        defer { SDL_FreeSurface(block) }
        SDL_SetSurfaceBlendMode(block, SDL_BLENDMODE_NONE)
        if let p = run.plate {
            SDL_FillRect(
                block, nil,
                SDL_MapRGBA(block.pointee.format, channel(p.red), channel(p.green), channel(p.blue), channel(p.alpha)))
        }
        let c = run.color
        let fg = SDL_Color(r: channel(c.red), g: channel(c.green), b: channel(c.blue), a: channel(c.alpha))
        for (i, line) in lines.enumerated() where !line.isEmpty {
            guard let rendered = shaper.render(line, color: fg) else { continue }
            defer { SDL_FreeSurface(rendered) }
            SDL_SetSurfaceBlendMode(rendered, run.plate == nil ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
            let lw = Int(rendered.pointee.w)
            let x = padX + TextLayout.offset(width: lw, in: w, align: run.align, rightToLeft: run.isRightToLeft)
            var dst = SDL_Rect(
                x: Int32(x), y: Int32(padY + i * lineHeight), w: rendered.pointee.w, h: rendered.pointee.h)
            SDL_UpperBlit(rendered, nil, block, &dst)
        }
        guard let texture = textures.texture(block) else { return nil }
        return Entry(
            texture: texture, size: Size(width: Double(bw), height: Double(bh)),
            inset: Size(width: Double(padX), height: Double(padY)), bytes: box.bytes, used: clock, pixels: key.pixels)
    }

    static func width(of text: String, font: OpaquePointer) -> Int {
        var w: Int32 = 0
        var h: Int32 = 0
        guard !text.isEmpty, TTF_SizeUTF8(font, text, &w, &h) == 0 else { return 0 }
        return Int(w)
    }

    /// A text with characters its font has no glyph for is drawn with the font's missing-glyph box, and said
    /// once in the log.
    private func warnOfMissingGlyphs(_ text: String, shaper: LineShaper) {
        guard !missingGlyphsLogged.contains(text) else { return }
        var missing: [Unicode.Scalar] = []
        var file = "?"
        for line in text.split(separator: "\n") {
            for piece in shaper.pieces(String(line)) {
                let lacking = LineShaper.missing(piece.run.text, in: piece.font)
                if missing.isEmpty && !lacking.isEmpty { file = fonts.file(of: piece.font) ?? "?" }
                missing += lacking
            }
        }
        guard let first = missing.first else { return }
        missingGlyphsLogged.insert(text)
        log(
            .warning,
            "words: \(file) has no glyph for U+\(String(first.value, radix: 16, uppercase: true)) "
                + "(\(missing.count) characters in \"\(text.prefix(40))\"); drawn as the font's missing-glyph box")
    }

    /// The least recently used texts go until the rest fit the budget, never one drawn in the frame just shown:
    /// letting those go made the next frame shape and rasterise them again, and 2 000 labels over the budget
    /// took 1.9 s a frame. What the screen shows is kept even over the budget (said once); the rest goes, once
    /// a frame (one sort a frame, not one for each new text).
    private func evict() {
        guard bytes > budgetBytes else { return }
        for (key, entry) in cache.sorted(by: { $0.value.used < $1.value.used }) {
            guard bytes > budgetBytes else { return }
            if entry.frame >= frame - 1 { continue }
            remove(key, entry)
        }
        guard bytes > budgetBytes, !saidOverBudget else { return }
        saidOverBudget = true
        log(
            .warning,
            "words: the texts on screen need \(bytes / 1_048_576) MiB of textures, more than the words' share of the "
                + "texture budget (\(budgetBytes / 1_048_576) MiB): they are kept while shown; raise "
                + "textureBudgetMiB or show fewer labels at once")
    }
    private var saidOverBudget = false

    /// A new frame: what the last one did not draw goes when over the budget; over the soft budget, twice a
    /// second, the texts not drawn for `trimFrames` go too.
    func nextFrame() {
        frame += 1
        evict()
        fonts.closeUnused()
        guard bytes > Self.softBudgetBytes, frame % 30 == 0 else { return }
        for (key, entry) in cache where entry.frame + Self.trimFrames < frame { remove(key, entry) }
    }

    private func remove(_ key: Key, _ entry: Entry) {
        SDL_DestroyTexture(entry.texture)
        cache[key] = nil
        bytes -= entry.bytes
        if lastSize[key.identity] == key { lastSize[key.identity] = nil }
    }

    /// New content: every text goes (its words may have changed).
    func removeAll() {
        for entry in cache.values { SDL_DestroyTexture(entry.texture) }
        cache = [:]
        lastSize = [:]
        bytes = 0
    }

    deinit { removeAll() }
}

/// Line breaking: words (runs between spaces) fill lines up to the width; the last line that fits ends in an
/// ellipsis when the text goes on. Pure, for any `measure` (pixel width of a string).
enum TextLayout {
    static let ellipsis = "…"

    static func lines(_ text: String, width: Int, maximumLines: Int, measure: (String) -> Int) -> [String] {
        layout(text, width: width, maximumLines: maximumLines, measure: measure).lines
    }

    /// The lines, and whether the text did not fit (an ellipsis cut it).
    static func layout(
        _ text: String, width: Int, maximumLines: Int, measure: (String) -> Int
    ) -> (lines: [String], isCut: Bool) {
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [String] = []
        var cut = false
        outer: for (index, paragraph) in paragraphs.enumerated() {
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if measure(candidate) <= width || line.isEmpty {
                    line = candidate
                    continue
                }
                lines.append(line)
                if lines.count == maximumLines {
                    cut = true
                    break outer
                }
                line = String(word)
            }
            lines.append(line)
            if lines.count == maximumLines && index < paragraphs.count - 1 {
                cut = true
                break
            }
        }
        guard let last = lines.last else { return ([], false) }
        // A line still wider than the box (one long word, or a line without room), or the text cut: the last
        // line ends in an ellipsis, as many characters kept as fit.
        if cut || measure(last) > width {
            lines[lines.count - 1] = ellipsized(last, width: width, measure: measure, force: cut)
            cut = true
        }
        for i in lines.indices.dropLast() where measure(lines[i]) > width {
            lines[i] = ellipsized(lines[i], width: width, measure: measure, force: false)
            cut = true
        }
        return (lines, cut)
    }

    /// `line` cut to fit `width` with an ellipsis (`force`: with one even if it fits, for a text cut after it).
    static func ellipsized(_ line: String, width: Int, measure: (String) -> Int, force: Bool) -> String {
        if !force && measure(line) <= width { return line }
        if force && measure(line + ellipsis) <= width { return line + ellipsis }
        // Whole words first: the ellipsis after the last word that leaves room for it.
        var words = line.split(separator: " ")
        while words.count > 1 {
            words.removeLast()
            let shorter = words.joined(separator: " ")
            if measure(shorter + ellipsis) <= width { return shorter + ellipsis }
        }
        var chars = Array(line)
        // Halving, then character by character: a label of 2000 characters takes a dozen measures, not 2000.
        var lo = 0
        var hi = chars.count
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if measure(String(chars[..<mid]) + ellipsis) <= width { lo = mid } else { hi = mid - 1 }
        }
        chars = Array(chars[..<lo])
        while let last = chars.last, last == " " { chars.removeLast() }
        return String(chars) + ellipsis
    }

    /// Where a line of `width` pixels starts in a block of `blockWidth`: at the reading direction's start, the
    /// middle or its end.
    static func offset(width: Int, in blockWidth: Int, align: TextAlign, rightToLeft: Bool) -> Int {
        let room = max(0, blockWidth - width)
        switch align {
        case .center: return room / 2
        case .start: return rightToLeft ? room : 0
        case .end: return rightToLeft ? 0 : room
        }
    }
}
