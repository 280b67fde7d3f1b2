import CSDL2
import CSDL2TTF
import Kiosk

/// One line of a text as SDL_ttf draws it: split by `Bidi` into runs of one direction and script, each shaped
/// by HarfBuzz in its own direction, in the language's font where it has the run's glyphs and else in the font
/// of the run's script (a Latin name in an Arabic label, whose Noto Arabic has no Latin letters), the runs
/// side by side on one baseline in the order they are seen. A line of one run is shaped whole, as before runs.
struct LineShaper {
    let fonts: FontBook
    let language: String
    let pixels: Int
    /// The language's font: its line height and baseline are the line's.
    let primary: OpaquePointer
    let rightToLeft: Bool

    /// A run and the font it is drawn in.
    struct Piece {
        var run: Bidi.Run
        var font: OpaquePointer
    }

    /// `line`'s pieces from left to right: its runs, each split where its characters need another font.
    func pieces(_ line: String) -> [Piece] {
        Bidi.runs(line, rightToLeft: rightToLeft).flatMap { run -> [Piece] in
            var pieces: [Piece] = []
            for s in run.text.unicodeScalars {
                let font = font(for: s, script: run.script)
                if let last = pieces.last, last.font == font {
                    pieces[pieces.count - 1].run.text.unicodeScalars.append(s)
                } else {
                    pieces.append(
                        Piece(
                            run: Bidi.Run(text: String(s), isRightToLeft: run.isRightToLeft, script: run.script),
                            font: font))
                }
            }
            return run.isRightToLeft ? pieces.reversed() : pieces
        }
    }

    /// The font that draws `s` of a run in `script`: the language's where it has the glyph, else the script's,
    /// else the Latin one (for a sign Noto Arabic lacks); the language's missing-glyph box where none has it.
    func font(for s: Unicode.Scalar, script: String) -> OpaquePointer {
        guard Self.lacks(primary, s) else { return primary }
        for writer in [FontBook.language(writing: script), "en"] {
            guard let writer, writer != language, let other = fonts.font(for: writer, pixels: pixels),
                !Self.lacks(other, s)
            else { continue }
            return other
        }
        return primary
    }

    /// Whether `font` has no glyph for `s` (a space, a control or a direction mark needs none).
    static func lacks(_ font: OpaquePointer, _ s: Unicode.Scalar) -> Bool {
        s.properties.generalCategory != .control && s.value > 0x20 && s.value != 0x200E && s.value != 0x200F
            && TTF_GlyphIsProvided32(font, s.value) == 0
    }

    /// The characters of `text` that `font` has no glyph for.
    static func missing(_ text: String, in font: OpaquePointer) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { lacks(font, $0) }
    }

    /// `piece`'s font set to shape it (direction and script are the font's state in SDL_ttf).
    func prepare(_ piece: Piece) {
        TTF_SetFontDirection(piece.font, piece.run.isRightToLeft ? TTF_DIRECTION_RTL : TTF_DIRECTION_LTR)
        TTF_SetFontScriptName(piece.font, piece.run.script == "Hani" ? FontBook.script(of: language) : piece.run.script)
    }

    func width(_ line: String) -> Int {
        pieces(line).reduce(0) { sum, piece in
            prepare(piece)
            return sum + TextStore.width(of: piece.run.text, font: piece.font)
        }
    }

    /// `line` drawn in `color` on a transparent surface (the caller frees it); nil for an empty line.
    func render(_ line: String, color: SDL_Color) -> UnsafeMutablePointer<SDL_Surface>? {
        let pieces = pieces(line)
        if pieces.count == 1, let piece = pieces.first {
            prepare(piece)
            return TTF_RenderUTF8_Blended(piece.font, piece.run.text, color)
        }
        var drawn: [(surface: UnsafeMutablePointer<SDL_Surface>, y: Int)] = []
        defer { for d in drawn { SDL_FreeSurface(d.surface) } }
        let ascent = Int(TTF_FontAscent(primary))
        for piece in pieces {
            prepare(piece)
            guard let surface = TTF_RenderUTF8_Blended(piece.font, piece.run.text, color) else { continue }
            drawn.append((surface, max(0, ascent - Int(TTF_FontAscent(piece.font)))))
        }
        let w = drawn.reduce(0) { $0 + Int($1.surface.pointee.w) }
        let h = drawn.map { $0.y + Int($0.surface.pointee.h) }.max() ?? 0
        guard w > 0, h > 0,
            let line = SDL_CreateRGBSurfaceWithFormat(0, Int32(w), Int32(h), 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
        else { return nil }
        SDL_SetSurfaceBlendMode(line, SDL_BLENDMODE_NONE)
        var x = 0
        for d in drawn {
            SDL_SetSurfaceBlendMode(d.surface, SDL_BLENDMODE_NONE)
            var dst = SDL_Rect(x: Int32(x), y: Int32(d.y), w: d.surface.pointee.w, h: d.surface.pointee.h)
            SDL_UpperBlit(d.surface, nil, line, &dst)
            x += Int(d.surface.pointee.w)
        }
        return line
    }
}
