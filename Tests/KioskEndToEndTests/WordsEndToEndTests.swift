import Foundation
import Testing

/// Words drawn by the kiosk (docs/manifest.md), headless on SDL's software renderer, compared with the
/// screenshots in `Fixtures/words` (`KIOSK_WRITE_GOLDENS=1` writes them again, in the commit that changes
/// them): Latin, Cyrillic and Arabic right to left, a wrapped caption cut with an ellipsis, labels on a picture,
/// the language button; and a language switch replayed with its trace. The fonts are Debian's Noto
/// (`fonts-noto-core`), named by the manifest so that no other installed font changes a pixel.
@Suite struct WordsEndToEndTests {
    let dir = Kiosk.folder()
    static let folder = Kiosk.repository.appendingPathComponent("Tests/KioskEndToEndTests/Fixtures/words")
    static let noto = "/usr/share/fonts/truetype/noto"
    /// Different FreeType builds may round an edge differently; a missing or wrong word differs far more.
    static let tolerance = 1.0

    /// A carousel with a long caption and a map with labels, `languages` the first the default.
    static func manifest(languages: [String]) -> String {
        let list = languages.map { "\"\($0)\"" }.joined(separator: ", ")
        /// A text value in the languages offered.
        func text(_ en: String, _ ru: String, _ ar: String) -> String {
            let all = ["en": en, "ru": ru, "ar": ar]
            return "{" + languages.map { "\"\($0)\": \"\(all[$0]!)\"" }.joined(separator: ", ") + "}"
        }
        let caption = text(
            "The city at night, seen from the museum's roof terrace on the evening it opened, when the whole town came to look at the lights and stayed until the last tram home had gone.",
            "Город ночью с террасы на крыше музея в вечер открытия, когда весь город пришёл смотреть на огни и остался до последнего трамвая.",
            "المدينة ليلاً كما تبدو من سطح المتحف مساء افتتاحه، حين جاءت المدينة كلها لترى الأضواء وبقيت حتى آخر ترام.")
        return """
            {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0, "languages": [\(list)],
             "fonts": {"default": "\(noto)/NotoSans-Regular.ttf", "ar": "\(noto)/NotoSansArabic-Regular.ttf"},
             "scenes": [
               {"id": "map", "type": "zoom", "image": "images/floorplan-plain.png", "maxZoom": 2.0,
                "title": \(text("Ground floor", "Первый этаж", "الطابق الأرضي")),
                "hotspots": [
                  {"id": "cafe", "rect": [1200, 800, 700, 500], "goto": "gallery",
                   "label": \(text("Café", "Кафе", "المقهى"))},
                  {"id": "shop", "rect": [3500, 1900, 1000, 800], "label": \(text("Shop", "Магазин", "المتجر"))}]},
               {"id": "gallery", "type": "carousel", "pageControl": true,
                "title": \(text("Gallery", "Галерея", "المعرض")),
                "pages": [{"image": "images/gallery-night.jpg", "caption": \(caption)}, "images/gallery-sunset.jpg"]}
             ]}
            """
    }

    func screenshot(_ languages: [String], scene: String, name: String, replay: LogWriter? = nil) throws -> Picture {
        try screenshot(Self.manifest(languages: languages), scene: scene, name: name, replay: replay)
    }

    func screenshot(_ manifest: String, scene: String, name: String, replay: LogWriter? = nil) throws -> Picture {
        let config = try Kiosk.manifest(manifest, in: dir)
        let shot = dir.appendingPathComponent(name + ".png").path
        var arguments = ["--headless", "640x400", "--config", config, "--scene", scene, "--screenshot", "1500:" + shot]
        if let replay { arguments += ["--replay", try replay.write(dir, name + ".jsonl")] }
        let r = try Kiosk.run(arguments, in: dir, trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("<3>") && !r.stderr.contains("<4>"), "\(r.stderr)")
        return try #require(Picture(path: shot))
    }

    func compare(_ now: Picture, _ name: String) throws {
        try Self.compare(now, shot: dir.appendingPathComponent(name + ".png"), in: Self.folder)
    }

    /// `now`, the screenshot at `shot`, against its reference of the same name in `folder` (written from it
    /// instead with `KIOSK_WRITE_GOLDENS=1`).
    static func compare(_ now: Picture, shot: URL, in folder: URL) throws {
        let reference = folder.appendingPathComponent(shot.lastPathComponent)
        if ProcessInfo.processInfo.environment["KIOSK_WRITE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: reference)
            try FileManager.default.copyItem(at: shot, to: reference)
            return
        }
        let before = try #require(Picture(path: reference.path), "\(reference.lastPathComponent): no reference")
        let d = LookTests.difference(now, before)
        #expect(d <= tolerance, "\(reference.lastPathComponent) differs from its reference by \(d)")
    }

    @Test(arguments: [("en", "latin"), ("ru", "cyrillic"), ("ar", "arabic")])
    func captionsTitlesAndLabelsInEachScript(language: String, name: String) throws {
        guard FileManager.default.fileExists(atPath: Self.noto + "/NotoSansArabic-Regular.ttf") else {
            Issue.record("fonts-noto-core is not installed (apt-get install fonts-noto-core)")
            return
        }
        let others = ["en", "ru", "ar"].filter { $0 != language }
        try compare(try screenshot([language] + others, scene: "gallery", name: "gallery-\(name)"), "gallery-\(name)")
        try compare(try screenshot([language] + others, scene: "map", name: "map-\(name)"), "map-\(name)")
    }

    /// Mixed directions: an Arabic title with a Latin name, a year and brackets, an English label with an Arabic
    /// word, each run in its direction and in a font that has its letters (Noto Arabic has no Latin ones): no
    /// reversed year, no missing-glyph box (which the log would say).
    @Test func mixedDirectionsReadInOrder() throws {
        let manifest = """
            {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0, "languages": ["ar", "en"],
             "fonts": {"default": "\(Self.noto)/NotoSans-Regular.ttf", "ar": "\(Self.noto)/NotoSansArabic-Regular.ttf"},
             "scenes": [{"id": "map", "type": "zoom", "image": "images/floorplan-plain.png",
               "title": {"ar": "متحف (Louvre)", "en": "Louvre"},
               "hotspots": [{"id": "cafe", "rect": [1200, 800, 700, 500],
                 "label": {"ar": "Café المقهى 2026", "en": "Café"}}]}]}
            """
        try compare(try screenshot(manifest, scene: "map", name: "map-mixed"), "map-mixed")
    }

    /// An image per language: the kiosk in German shows the German picture, exactly as a kiosk whose only picture
    /// it is; `--check` warns that it is not the size of the first language's.
    @Test func aLanguagesOwnImageIsShown() throws {
        func manifest(_ image: String) -> String {
            """
            {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0, "languages": ["de", "en"],
             "fonts": {"default": "\(Self.noto)/NotoSans-Regular.ttf"},
             "scenes": [{"id": "map", "type": "zoom", "image": \(image)}]}
            """
        }
        // Two plans of one size: the English one says how to use the map in English, the other says nothing.
        let same = manifest(#"{"en": "images/floorplan.png", "de": "images/floorplan-plain.png"}"#)
        let german = try screenshot(same, scene: "map", name: "own-image")
        let only = try screenshot(manifest(#""images/floorplan-plain.png""#), scene: "map", name: "only-image")
        let english = try screenshot(manifest(#""images/floorplan.png""#), scene: "map", name: "english-image")
        #expect(LookTests.difference(german, only) == 0)
        #expect(LookTests.difference(german, english) > Self.tolerance)
        let own = manifest(#"{"en": "images/floorplan-plain.png", "de": "images/gallery-sunset.jpg"}"#)
        let check = try Kiosk.run(["--check", "--config", try Kiosk.manifest(own, in: dir)], in: dir)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stderr.contains("scenes[0].image.en: is 4800x3000, the first language's "), "\(check.stderr)")
    }

    /// The comparison sees words: the same caption in another script is far beyond the tolerance.
    @Test func theComparisonSeesOtherWords() throws {
        let a = try #require(Picture(path: Self.folder.appendingPathComponent("gallery-latin.png").path))
        let b = try #require(Picture(path: Self.folder.appendingPathComponent("gallery-arabic.png").path))
        #expect(LookTests.difference(a, b) > 5 * Self.tolerance)
    }

    /// Two languages: a tap on the button switches (its trace says so, and every line carries the language),
    /// and the screen shows the other language's words.
    @Test func aTapOnTheLanguageButtonSwitches() throws {
        var log = LogWriter(width: 640, height: 400)
        // The button covers the point 40 points from the top and from the right edge.
        log.tap(1 - 40.0 / 640, 40.0 / 400, at: 500)
        let config = try Kiosk.manifest(Self.manifest(languages: ["en", "ar"]), in: dir)
        let r = try Kiosk.run(
            ["--headless", "640x400", "--config", config, "--replay", try log.write(dir, "switch.jsonl")], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let change = try #require(r.events.first { $0.name == "languageDidChange" })
        #expect(change.fields["language"] as? String == "ar")
        #expect(r.trace.first?["language"] as? String == "en")
        #expect(r.last["language"] as? String == "ar")
        #expect(r.trace.allSatisfy { $0["language"] is String })
        try compare(
            try screenshot(["en", "ar"], scene: "map", name: "map-switched", replay: log), "map-switched")
    }
}
