import EventLog
import ScrollEngine

/// A text value of the manifest (docs/manifest.md): one string for every language, or one per language
/// tag (BCP 47), a missing language falling back to the manifest's first.
public struct LocalizedText: Equatable, Sendable {
    /// The text of every language (a bare string in the manifest).
    public var every: String?
    /// The text of each language given.
    var byLanguage: [String: String]

    public init(_ every: String) {
        self.every = every
        byLanguage = [:]
    }

    public init(byLanguage: [String: String]) {
        every = nil
        self.byLanguage = byLanguage
    }

    /// The text in `language`, else in `fallback` (the manifest's first language), else any given.
    public func text(in language: String, fallback: String) -> String {
        if let every { return every }
        return byLanguage[language] ?? byLanguage[fallback] ?? byLanguage.sorted { $0.key < $1.key }.first?.value ?? ""
    }
}

/// The languages a kiosk offers and the one a visitor reads: the first is the default, which the idle reset
/// returns to. With two or more, a language button is on every scene.
public struct Languages: Equatable, Sendable {
    /// The tags offered, in the manifest's order (one, `und`, when the manifest names none).
    public let offered: [String]
    public private(set) var current: String
    /// Whether the choice of languages is open (a tap on the button with three languages or more).
    public var isChoosing = false

    /// The tag of a kiosk whose manifest names no languages (BCP 47's "undetermined").
    public static let undetermined = "und"

    public init(_ offered: [String]) {
        self.offered = offered.isEmpty ? [Self.undetermined] : offered
        current = self.offered[0]
    }

    /// The default: the first language.
    public var first: String { offered[0] }

    /// Whether the visitor can choose (the language button is shown).
    /// Whether the visitor's language reads right to left (the chrome is mirrored for it).
    var isRightToLeft: Bool { Self.isRightToLeft(current) }

    var canChoose: Bool { offered.count >= 2 }

    /// Chooses `tag` (one offered); true when that changed the language.
    mutating func choose(_ tag: String) -> Bool {
        guard offered.contains(tag), tag != current else { return false }
        current = tag
        return true
    }

    /// The language after the current one (what a tap on the button chooses with two languages).
    public var next: String { offered[((offered.firstIndex(of: current) ?? 0) + 1) % offered.count] }

    /// Whether `tag` is written right to left (its primary subtag is Arabic, Hebrew, Persian or Urdu).
    public static func isRightToLeft(_ tag: String) -> Bool {
        rightToLeft.contains(primary(tag))
    }

    /// The right-to-left languages of docs/manifest.md.
    static let rightToLeft: Set<String> = ["ar", "he", "fa", "ur"]

    /// A tag's primary subtag, lower-cased (`zh-Hans` → `zh`).
    public static func primary(_ tag: String) -> String {
        String(tag.split(separator: "-").first ?? "").lowercased()
    }

    /// A language's own name, as its button shows it; the tag itself for a language not listed.
    public static func nativeName(_ tag: String) -> String { nativeNames[primary(tag)] ?? tag }

    /// Each language's name in itself (CLDR's names, as iOS's language settings list them).
    static let nativeNames: [String: String] = [
        "ar": "العربية", "de": "Deutsch", "en": "English", "es": "Español", "fa": "فارسی", "fr": "Français",
        "he": "עברית", "it": "Italiano", "ja": "日本語", "ko": "한국어", "nl": "Nederlands", "pl": "Polski",
        "pt": "Português", "ru": "Русский", "sv": "Svenska", "tr": "Türkçe", "uk": "Українська", "ur": "اردو",
        "zh": "中文",
    ]

    /// Whether `tag` is a well-formed language tag as the manifest takes them: a primary language of two or
    /// three letters, then subtags of two to eight letters or digits (`en`, `de-CH`, `zh-Hans`, `sr-Latn-RS`).
    public static func isWellFormed(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(\.isASCIILetter) else {
            return false
        }
        return parts.dropFirst().allSatisfy { p in
            (2...8).contains(p.count) && p.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit }
        }
    }
}

extension Character {
    var isASCIILetter: Bool { isASCII && isLetter }
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Object {
    /// A text value (a string, or an object from language tags to strings) at `k`. A tag that is not one of
    /// `languages` is an error; a language of `languages` missing from it is a warning (it falls back to the
    /// first).
    func text(_ k: String, languages: [String]) throws(ManifestError) -> LocalizedText? {
        guard let v = values[k] else { return nil }
        return try Self.text(v, path: key(k), languages: languages, problems: problems)
    }

    /// A text value, or (`noun` "image") a path per language.
    static func text(
        _ v: JSONValue, path: String, languages: [String], problems: ProblemList, noun: String = "text"
    ) throws(ManifestError) -> LocalizedText {
        switch v {
        case .string(let s):
            try checkLength(s, path: path, problems: problems)
            if s.allSatisfy(\.isWhitespace) { problems.warning(path, "is empty: nothing is shown") }
            return LocalizedText(s)
        case .object(let o):
            guard !o.isEmpty else { throw problems.fail(path, "needs a text for at least one language") }
            var texts: [String: String] = [:]
            for (tag, value) in o.sorted(by: { $0.key < $1.key }) {
                guard case .string(let s) = value else {
                    throw problems.fail("\(path).\(tag)", "expected a string, found \(value.typeName)")
                }
                guard Languages.isWellFormed(tag) else {
                    throw problems.fail("\(path).\(tag)", "\"\(tag)\" is not a language tag (like \"en\" or \"de-CH\")")
                }
                if !languages.isEmpty && !languages.contains(tag) {
                    throw problems.fail(
                        "\(path).\(tag)",
                        "\"\(tag)\" is not one of the manifest's languages (\(languages.joined(separator: ", ")))")
                }
                try checkLength(s, path: "\(path).\(tag)", problems: problems)
                texts[tag] = s
            }
            // The first language's text is every missing language's: empty, it leaves them all blank.
            if let first = languages.first ?? texts.keys.sorted().first, let text = texts[first],
                text.allSatisfy(\.isWhitespace)
            {
                problems.warning("\(path).\(first)", "is empty: nothing is shown in \"\(first)\"")
            }
            for tag in languages where texts[tag] == nil {
                problems.warning(path, "no \"\(tag)\" \(noun); it shows the \"\(languages[0])\" \(noun)")
            }
            return LocalizedText(byLanguage: texts)
        default:
            throw problems.fail(path, "expected a \(noun) (a string, or one per language), found \(v.typeName)")
        }
    }

    /// The longest text the manifest takes, in characters (a caption or a paragraph; a book is not a label).
    static let maximumTextLength = 2000
    /// And in code points: what a text costs to shape and lay out is counted in these, not in characters (one
    /// "character" of 100 000 combining marks hung every layout for minutes).
    static let maximumTextScalars = 8000
    /// The most code points one character (grapheme cluster) may hold: a family emoji of eleven, a Devanagari
    /// conjunct with its marks, a letter with a few diacritics fit; a pile of marks does not.
    static let maximumScalarsPerCharacter = 32

    static func checkLength(_ s: String, path: String, problems: ProblemList) throws(ManifestError) {
        if let problem = lengthProblem(s) { throw problems.fail(path, problem) }
    }

    /// Why `s` is too long to show (in code points, in characters, or a character of too many code points), or
    /// nil: the manifest's texts and a film's caption cues alike.
    static func lengthProblem(_ s: String) -> String? {
        // ASCII without NUL, no longer than a text's characters: each byte a character of one code point (a CRLF
        // two in one), so none of the limits can be passed; no grapheme breaking (100 000 cues took seconds).
        if s.utf8.count <= maximumTextLength, s.utf8.allSatisfy({ $0 != 0 && $0 < 0x80 }) { return nil }
        // Code points first (one pass, no grapheme breaking): a text too long in them is refused before anything
        // looks for its characters.
        var scalars = 0
        for u in s.unicodeScalars {
            if u.value == 0 { return "contains a NUL character (U+0000), which would end the text there" }
            scalars += 1
        }
        guard scalars <= maximumTextScalars else {
            return "too long: \(scalars) code points (at most \(maximumTextScalars))"
        }
        var n = 0
        for c in s {
            n += 1
            let k = c.unicodeScalars.count
            guard k <= maximumScalarsPerCharacter else {
                return "character \(n) is \(k) code points joined into one (at most \(maximumScalarsPerCharacter): "
                    + "combining marks or joiners piled up)"
            }
        }
        guard n <= maximumTextLength else { return "too long: \(n) characters (at most \(maximumTextLength))" }
        return nil
    }
}
