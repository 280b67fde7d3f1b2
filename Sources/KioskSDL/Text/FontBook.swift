import CFontconfig
import CSDL2
import CSDL2TTF
import Kiosk

#if canImport(Glibc)
    import Glibc
#endif

/// The fonts words are drawn in: for each language the manifest's font for it, else its `default`, else an
/// installed font that covers the language (fontconfig). Fonts are opened once per file and pixel size.
final class FontBook {
    /// The manifest's fonts by language tag or `default`.
    let named: [String: String]
    /// What they were on the disk when the book was made (nil: not looked at).
    var fingerprint: FontFingerprint?
    /// The file each language uses (nil: none found), looked up once.
    private var files: [String: String?] = [:]
    private var opened: [FontKey: OpaquePointer] = [:]
    /// When each opened font was last asked for (a count of the asks).
    private var asked: [FontKey: UInt64] = [:]
    private var asks: UInt64 = 0
    /// The most fonts kept open between frames: each size of each file is a font with its own glyph cache, and a
    /// picture zoomed to one size after another opened one at each (our choice: a few languages at a few sizes).
    static let maximumOpen = 16
    /// The files that could not be opened as fonts (each logged once).
    private var broken: Set<String> = []

    struct FontKey: Hashable {
        var file: String
        var pixels: Int
    }

    init(named: [String: String]) {
        self.named = named
        if TTF_WasInit() == 0 && TTF_Init() != 0 { log(.error, "words: SDL_ttf cannot start (\(sdlError()))") }
    }

    /// The font file for `language`: the manifest's, unless it cannot draw (then, said once for each file, an
    /// installed one that covers the language: a broken font never blanks the words).
    func file(for language: String) -> String? {
        if let known = files[language] { return known }
        var file = named[language] ?? named["default"]
        if let chosen = file, let why = Self.problem(file: chosen, language: language) {
            file = Self.installedFont(covering: language)
            if !broken.contains(chosen) {
                broken.insert(chosen)
                log(
                    .error,
                    "words: \(chosen): \(why); drawn in \(file ?? "no font (none installed covers \"\(language)\")") instead"
                )
            }
        } else if file == nil {
            file = Self.installedFont(covering: language)
        }
        if file == nil {
            // No font covers it: its words are drawn in the fallback font (the first language's, or any installed
            // sans-serif), boxes for the letters it lacks, as `--check` and the start say: never not drawn at all
            // (an undrawn language button could still be tapped, and nobody could see it).
            file =
                named["default"].flatMap { Self.problem(file: $0, language: "en") == nil ? $0 : nil }
                ?? Self.installedFont(covering: "en")
            log(
                .warning,
                "words: no installed font covers \"\(language)\" (name one in the manifest's \"fonts\"); its words are drawn in \(file ?? "no font: none is installed") (boxes for letters it lacks)"
            )
        }
        files[language] = file
        return file
    }

    /// `language`'s font at `pixels`, shaped for its script and direction; nil when it has none that opens.
    func font(for language: String, pixels: Int) -> OpaquePointer? {
        guard let file = file(for: language), !broken.contains(file) else { return nil }
        let key = FontKey(file: file, pixels: pixels)
        asks += 1
        asked[key] = asks
        if let font = opened[key] { return font }
        guard let font = TTF_OpenFont(file, Int32(pixels)) else {
            broken.insert(file)
            log(.error, "words: \(file): not a font SDL_ttf can open (\(sdlError())); text in it is not drawn")
            return nil
        }
        TTF_SetFontHinting(font, TTF_HINTING_LIGHT)
        TTF_SetFontDirection(font, Languages.isRightToLeft(language) ? TTF_DIRECTION_RTL : TTF_DIRECTION_LTR)
        TTF_SetFontScriptName(font, Self.script(of: language))
        opened[key] = font
        return font
    }

    /// How many fonts are open now.
    var openCount: Int { opened.count }

    /// Between frames (no font is held then): past `maximumOpen`, the fonts asked for least recently are closed.
    func closeUnused() {
        guard opened.count > Self.maximumOpen else { return }
        for (key, _) in asked.sorted(by: { $0.value < $1.value }).prefix(opened.count - Self.maximumOpen) {
            if let font = opened.removeValue(forKey: key) { TTF_CloseFont(font) }
            asked[key] = nil
        }
    }

    /// The file `font` was opened from.
    func file(of font: OpaquePointer) -> String? { opened.first { $0.value == font }?.key.file }

    /// A language written in `script` (ISO 15924), whose font draws a run of that script in another language's
    /// text: "Latn" is English, "Arab" Arabic.
    static func language(writing script: String) -> String? {
        switch script {
        case "Latn": "en"
        case "Arab": "ar"
        case "Hebr": "he"
        case "Cyrl": "ru"
        case "Grek": "el"
        case "Deva": "hi"
        case "Thai": "th"
        case "Jpan": "ja"
        case "Kore": "ko"
        case "Hani": "zh"
        default: nil
        }
    }

    /// The ISO 15924 script HarfBuzz shapes a language's text in (the languages listed; Latin otherwise).
    static func script(of language: String) -> String {
        switch Languages.primary(language) {
        case "ar", "fa", "ur": "Arab"
        case "he": "Hebr"
        case "ru", "uk", "bg", "sr", "be", "mk", "kk": "Cyrl"
        case "el": "Grek"
        case "zh": language.contains("Hant") ? "Hant" : "Hans"
        case "ja": "Jpan"
        case "ko": "Kore"
        case "hi", "mr", "ne": "Deva"
        case "th": "Thai"
        case "am", "ti": "Ethi"
        case "bn", "as": "Beng"
        case "ka": "Geor"
        case "km": "Khmr"
        case "kn": "Knda"
        case "gu": "Gujr"
        case "lo": "Laoo"
        case "ml": "Mlym"
        case "ta": "Taml"
        case "te": "Telu"
        case "pa": "Guru"
        case "si": "Sinh"
        case "my": "Mymr"
        case "hy": "Armn"
        default: "Latn"
        }
    }

    /// The installed font for `language` among those that cover it: a regular Noto Sans where installed (Debian's
    /// `fonts-noto-core`: one family per script), else the one fontconfig prefers; nil when none does.
    static func installedFont(covering language: String) -> String? {
        let lang = language == Languages.undetermined ? "en" : language
        guard let pattern = FcNameParse(Array("sans-serif:lang=\(lang)".utf8CString).map { UInt8(bitPattern: $0) })
        else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let set = FcFontSort(nil, pattern, FcFalse, nil, &result) else { return nil }
        defer { FcFontSetDestroy(set) }
        let wanted = Array(lang.utf8CString).map { UInt8(bitPattern: $0) }
        var first: String?
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts?[i] else { continue }
            var langs: OpaquePointer?
            guard FcPatternGetLangSet(font, FC_LANG, 0, &langs) == FcResultMatch, let langs,
                FcLangSetHasLang(langs, wanted) != FcLangDifferentLang
            else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
            let path = String(cString: file)
            // Only the formats SDL_ttf opens (FreeType's TrueType and OpenType, and their collections).
            guard [".ttf", ".otf", ".ttc"].contains(where: { path.lowercased().hasSuffix($0) }) else { continue }
            let family = Self.string(font, FC_FAMILY)
            if family.hasPrefix("Noto Sans") && !family.contains("Mono") && Self.string(font, FC_STYLE) == "Regular" {
                return path
            }
            if first == nil { first = path }
        }
        return first
    }

    /// A string property of a font pattern ("" when it has none).
    static func string(_ font: OpaquePointer, _ object: String) -> String {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(font, object, 0, &value) == FcResultMatch, let value else { return "" }
        return String(cString: value)
    }

    deinit {
        for font in opened.values { TTF_CloseFont(font) }
    }
}

extension FontBook {
    /// What `kiosk --check` says of `language`'s font, with the manifest's fonts `named`.
    static func report(language: String, named: [String: String]) -> FontReport {
        if TTF_WasInit() == 0 && TTF_Init() != 0 { return .notAFont(file: "?", why: "SDL_ttf cannot start") }
        guard let file = named[language] ?? named["default"] ?? installedFont(covering: language) else { return .none }
        if let why = problem(file: file, language: language) { return .notAFont(file: file, why: why) }
        guard let font = TTF_OpenFont(file, 16) else { return .notAFont(file: file, why: sdlError()) }
        defer { TTF_CloseFont(font) }
        let family = TTF_FontFaceFamilyName(font).map { String(cString: $0) } ?? "?"
        guard TTF_GlyphIsProvided32(font, sampleLetter(of: language)) != 0 else {
            return .lacksScript(file: file, family: family)
        }
        return .font(file: file, family: family)
    }

    /// Why `file` cannot draw `language`'s words (nil when it can): not a regular file (looked at without blocking:
    /// a FIFO would hang SDL_ttf's read for ever), not a font SDL_ttf opens, or a font whose glyphs do not load (a
    /// file copied in half opens, and draws nothing).
    static func problem(file: String, language: String) -> String? {
        if let why = RegularFile.problem(file) { return why }
        if let cut = truncation(file) { return cut }
        if TTF_WasInit() == 0 && TTF_Init() != 0 { return "SDL_ttf cannot start (\(sdlError()))" }
        guard let font = TTF_OpenFont(file, 16) else { return "not a font SDL_ttf can open (\(sdlError()))" }
        defer { TTF_CloseFont(font) }
        for letter in [sampleLetter(of: language), 0x41] {
            guard let glyph = TTF_RenderGlyph32_Blended(font, letter, SDL_Color(r: 255, g: 255, b: 255, a: 255))
            else { return "its letters do not load (\(sdlError())): a file copied only in part?" }
            SDL_FreeSurface(glyph)
        }
        return nil
    }

    /// Where a TrueType or OpenType font file ends short of its own tables (its table directory names each table's
    /// offset and length): a file copied only in part, which SDL_ttf opens and whose later letters draw nothing.
    /// Nil for a whole file, and for what is not such a font (SDL_ttf says why).
    static func truncation(_ file: String) -> String? {
        guard case .success(let f) = RegularFile.open(file) else { return nil }
        defer { close(f.fd) }
        let size = f.size
        guard let head = RegularFile.bytes(f.fd, at: 0, count: 12), head.count == 12 else { return nil }
        func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func u32(_ b: [UInt8], _ i: Int) -> Int { u16(b, i) << 16 | u16(b, i + 2) }
        let version = u32(head, 0)
        // TrueType (0x00010000, 'true') and CFF ('OTTO') fonts; a collection ('ttcf') is left to SDL_ttf.
        guard version == 0x0001_0000 || version == 0x7472_7565 || version == 0x4F54_544F else { return nil }
        let tables = u16(head, 4)
        guard let directory = RegularFile.bytes(f.fd, at: 12, count: 16 * tables), directory.count == 16 * tables
        else { return "its table directory ends past the file's end (\(size) bytes): a file copied only in part?" }
        for t in 0..<tables {
            let end = u32(directory, 16 * t + 8) + u32(directory, 16 * t + 12)
            if end > size {
                let tag = String(decoding: directory[16 * t..<16 * t + 4], as: UTF8.self)
                return
                    "its table \"\(tag)\" ends at byte \(end), past the file's end (\(size) bytes): a file copied only in part?"
            }
        }
        return nil
    }

    /// A letter of the script `language` is written in (a font without it cannot write the language).
    static func sampleLetter(of language: String) -> UInt32 {
        switch script(of: language) {
        case "Arab": 0x0627  // ا
        case "Hebr": 0x05D0  // א
        case "Cyrl": 0x0416  // Ж
        case "Grek": 0x03A9  // Ω
        case "Hans", "Hant": 0x4E2D  // 中
        case "Jpan": 0x3042  // あ
        case "Kore": 0xD55C  // 한
        case "Deva": 0x0915  // क
        case "Thai": 0x0E01  // ก
        case "Ethi": 0x12A0  // አ
        case "Beng": 0x0995  // ক
        case "Geor": 0x10D0  // ა
        case "Khmr": 0x1780  // ក
        case "Knda": 0x0C95  // ಕ
        case "Gujr": 0x0A95  // ક
        case "Laoo": 0x0E81  // ກ
        case "Mlym": 0x0D15  // ക
        case "Taml": 0x0B95  // க
        case "Telu": 0x0C15  // క
        case "Guru": 0x0A15  // ਕ
        case "Sinh": 0x0D9A  // ක
        case "Mymr": 0x1000  // က
        case "Armn": 0x0531  // Ա
        default: 0x0041  // A
        }
    }
}

/// What a manifest's fonts are on the disk: its table, and each named file's size and time. A reload whose
/// fingerprint is the last one's keeps the words already laid out, shaped and rasterised (a new font book
/// made every one again in the first frames of the new content). Taken on the reload's thread: a font on a
/// share that stopped answering does not stop the frames.
struct FontFingerprint: Equatable, Sendable {
    let named: [String: String]
    let files: [String: [Int]]

    init(_ named: [String: String]) {
        self.named = named
        var files: [String: [Int]] = [:]
        for path in Set(named.values) {
            var st = stat()
            files[path] =
                stat(path, &st) == 0
                ? [Int(st.st_size), st.st_mtim.tv_sec, st.st_mtim.tv_nsec, Int(st.st_ino)] : []
        }
        self.files = files
    }
}
