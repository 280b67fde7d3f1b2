import CFontconfig
import CSDL2
import CSDL2TTF
import Kiosk

/// The fonts words are drawn in: for each language the manifest's font for it, else its `default`, else an
/// installed font that covers the language (fontconfig). Fonts are opened once per file and pixel size.
final class FontBook {
    /// The manifest's fonts by language tag or `default`.
    let named: [String: String]
    /// The file each language uses (nil: none found), looked up once.
    private var files: [String: String?] = [:]
    private var opened: [FontKey: OpaquePointer] = [:]
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

    /// The font file for `language`.
    func file(for language: String) -> String? {
        if let known = files[language] { return known }
        let file = named[language] ?? named["default"] ?? Self.installedFont(covering: language)
        files[language] = file
        if file == nil {
            log(
                .error,
                "words: no installed font covers \"\(language)\" (name one in the manifest's \"fonts\"); its words are not drawn"
            )
        }
        return file
    }

    /// `language`'s font at `pixels`, shaped for its script and direction; nil when it has none that opens.
    func font(for language: String, pixels: Int) -> OpaquePointer? {
        guard let file = file(for: language), !broken.contains(file) else { return nil }
        let key = FontKey(file: file, pixels: pixels)
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
        guard let font = TTF_OpenFont(file, 16) else { return .notAFont(file: file, why: sdlError()) }
        defer { TTF_CloseFont(font) }
        let family = TTF_FontFaceFamilyName(font).map { String(cString: $0) } ?? "?"
        guard TTF_GlyphIsProvided32(font, sampleLetter(of: language)) != 0 else {
            return .lacksScript(file: file, family: family)
        }
        return .font(file: file, family: family)
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
        default: 0x0041  // A
        }
    }
}
