import EventLog
import Foundation
import ScrollEngine
import TestSupport
import Testing

@testable import Kiosk

/// Words and languages in the manifest and the app (docs/manifest.md): text values, the language button,
/// the idle reset to the first language, the trace.
@Suite struct WordsTests {
    static let manifestText = """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 2, "languages": ["en", "de", "ar"],
         "scenes": [
           {"id": "map", "type": "zoom", "image": "map.png", "maxZoom": 2.0,
            "title": {"en": "Floor plan", "de": "Lageplan", "ar": "مخطط الطابق"},
            "hotspots": [{"id": "cafe", "rect": [0, 0, 500, 500], "goto": "gallery",
                          "label": {"en": "Café", "de": "Café", "ar": "المقهى"}}]},
           {"id": "gallery", "type": "carousel",
            "pages": [{"image": "a.jpg", "caption": {"en": "Sunset", "de": "Sonnenuntergang"}}, "b.jpg"]}
         ]}
        """

    static func check(_ text: String) -> ManifestCheck {
        Manifest.check(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
    }

    static func app(_ text: String = manifestText) throws -> KioskApp {
        let m = try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        return KioskApp(manifest: m, physicalSize: Size(width: 800, height: 480)) { _ in
            ImageInfo(size: Size(width: 4000, height: 2400), loaded: true)
        }
    }

    static func texts(_ list: [DrawCommand]) -> [TextRun] {
        list.flatMap(\.flattened).compactMap { if case .text(let run) = $0 { run } else { nil } }
    }

    @Test func textValuesAreOneStringOrOnePerLanguage() throws {
        let check = Self.check(Self.manifestText)
        let m = try #require(check.manifest)
        #expect(m.languages == ["en", "de", "ar"])
        #expect(m.scenes[0].title?.text(in: "de", fallback: "en") == "Lageplan")
        #expect(m.scenes[0].hotspots[0].label?.text(in: "ar", fallback: "en") == "المقهى")
        let caption = try #require(m.scenes[1].captions[0])
        #expect(m.scenes[1].captions.count == 2 && m.scenes[1].captions[1] == nil)
        // Arabic is missing: the first language's text, and a warning naming the path and the language.
        #expect(caption.text(in: "ar", fallback: "en") == "Sunset")
        #expect(
            check.problems.map(\.description) == [
                #"k.json: scenes[1].pages[0].caption: no "ar" text; it shows the "en" text"#
            ])
        #expect(check.problems.allSatisfy { $0.isWarning })
        #expect(LocalizedText("Exit").text(in: "de", fallback: "en") == "Exit")
    }

    @Test(arguments: [
        (#""languages": ["en", "english"]"#, #"k.json: languages[1]: expected a language tag (like "en" or "de-CH")"#),
        (#""languages": ["en", "en"]"#, #"k.json: languages[1]: "en" is listed twice"#),
        (
            #""languages": ["en", "de", "EN"]"#,
            #"k.json: languages[2]: "EN" is listed twice (as "en": language tags are case-insensitive)"#
        ),
        (#""languages": "en""#, #"k.json: languages: expected a list of language tags (like ["en", "de"])"#),
        (
            #""languages": ["en"], "fonts": {"fr": "f.ttf"}"#,
            #"k.json: fonts.fr: "fr" is neither "default" nor one of the manifest's languages"#
        ),
    ])
    func badLanguagesSayWhere(keys: String, message: String) {
        let text = """
            {"kioskManifest": 1, \(keys), "scenes": [{"id": "a", "type": "zoom", "image": "a.png"}]}
            """
        #expect(Self.check(text).errors.map(\.description) == [message])
    }

    @Test(arguments: [
        (
            #"{"en": "Hall", "xx-": "?"}"#,
            #"k.json: scenes[0].title.xx-: "xx-" is not a language tag (like "en" or "de-CH")"#
        ),
        (
            #"{"en": "Hall", "fr": "Salle"}"#,
            #"k.json: scenes[0].title.fr: "fr" is not one of the manifest's languages (en, de)"#
        ),
        ("{}", "k.json: scenes[0].title: needs a text for at least one language"),
        ("42", "k.json: scenes[0].title: expected a text (a string, or one per language), found a number"),
        (#"{"en": 1}"#, "k.json: scenes[0].title.en: expected a string, found a number"),
    ])
    func badTextValuesSayWhere(title: String, message: String) {
        let text = """
            {"kioskManifest": 1, "languages": ["en", "de"],
             "scenes": [{"id": "a", "type": "zoom", "image": "a.png", "title": \(title)}]}
            """
        #expect(Self.check(text).errors.map(\.description) == [message])
    }

    @Test func aTextOfAHundredThousandCharactersIsAClearError() {
        let long = String(repeating: "a", count: 100_000)
        let text = """
            {"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "a.png", "title": "\(long)"}]}
            """
        #expect(
            Self.check(text).errors.map(\.description) == [
                "k.json: scenes[0].title: too long: 100000 code points (at most 8000)"
            ])
        let characters = String(repeating: "ab", count: 1500)
        #expect(
            Self.check(text.replacingOccurrences(of: long, with: characters)).errors.map(\.description) == [
                "k.json: scenes[0].title: too long: 3000 characters (at most 2000)"
            ])
    }

    /// What a text costs is counted in code points: one "character" of 100 000 combining marks (or 40 000, or
    /// a chain of 25 000 family emoji) is refused at once, not laid out for minutes; a NUL, which would end the
    /// text on screen, is refused with its path; a family emoji and a letter with its marks are fine.
    @Test(arguments: [
        ("a" + String(repeating: "\u{0301}", count: 100_000), "too long: 100001 code points (at most 8000)"),
        ("a" + String(repeating: "\u{0301}", count: 40), "character 1 is 41 code points joined into one"),
        (
            String(repeating: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}", count: 25_000),
            "too long: 150000 code points (at most 8000)"
        ),
        ("Caf\u{0}é", "contains a NUL character (U+0000), which would end the text there"),
    ])
    func textsAreCountedInWhatTheyCost(title: String, message: String) throws {
        let text = """
            {"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "a.png", "title": ""}]}
            """
        let json = String(decoding: try JSONSerialization.data(withJSONObject: [title], options: []), as: UTF8.self)
        let quoted = String(json.dropFirst().dropLast())
        let errors = Self.check(text.replacingOccurrences(of: #""title": """#, with: #""title": \#(quoted)"#)).errors
        #expect(
            errors.count == 1 && errors[0].description.hasPrefix("k.json: scenes[0].title: \(message)"), "\(errors)")
    }

    /// An empty title (the first language's, which every missing language shows) is said, not left blank
    /// without a word.
    @Test func anEmptyTitleIsSaid() {
        let text = """
            {"kioskManifest": 1, "languages": ["en", "de"],
             "scenes": [{"id": "a", "type": "zoom", "image": "a.png", "title": {"en": " ", "de": "Karte"}},
                        {"id": "b", "type": "zoom", "image": "a.png", "title": ""}]}
            """
        let warnings = Self.check(text).problems.filter(\.isWarning).map(\.description)
        #expect(warnings.contains(#"k.json: scenes[0].title.en: is empty: nothing is shown in "en""#), "\(warnings)")
        #expect(warnings.contains("k.json: scenes[1].title: is empty: nothing is shown"), "\(warnings)")
    }

    @Test func aFamilyAndAccentedLettersAreFine() {
        let title = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466} Ha\u{0300}\u{0323}"
        let text = """
            {"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "a.png", "title": "\(title)"}]}
            """
        #expect(Self.check(text).errors.isEmpty)
    }

    @Test func theLanguageButtonChoosesAndTheIdleResetReturnsToTheFirst() throws {
        let app = try Self.app()
        #expect(app.language == "en")
        #expect(app.traceLine(frame: 0, events: []).contains(#""language": "en""#))
        // With three languages a tap on the button opens the choice; a tap on Deutsch chooses it.
        let menu = LanguageMenu(Languages(["en", "de", "ar"]), sceneSize: app.sceneSize)
        #expect(menu.button.contains(Point(x: app.sceneSize.width - 40, y: 40)))
        #expect(menu.button.width >= 64 && menu.button.height >= 64)
        tap(app, menu.button.midX, menu.button.midY, at: 100)
        AppRig.run(app, from: 100, to: 600)
        var open = Languages(["en", "de", "ar"])
        open.isChoosing = true
        let choice = LanguageMenu(open, sceneSize: app.sceneSize)
        // The choice lists the other languages (the visitor's own is the button's).
        #expect(choice.options.map(\.language) == ["de", "ar"])
        #expect(Self.texts(app.drawList()).contains { $0.text == "Deutsch" })
        let deutsch = try #require(choice.option("de"))
        tap(app, deutsch.midX, deutsch.midY, at: 700)
        AppRig.run(app, from: 700, to: 1200)
        #expect(app.language == "de")
        #expect(app.frameEvents.contains { $0.kind == .languageDidChange(language: "de") })
        #expect(Self.texts(app.drawList()).contains { $0.text == "Lageplan" })
        #expect(!Self.texts(app.drawList()).contains { $0.text == "العربية" && $0.rect.minY > choice.button.maxY })
        // The idle timeout (2 s after the last touch): back to English.
        app.dropFrameEvents()
        AppRig.run(app, from: 1200, to: 3500)
        #expect(app.language == "en")
        #expect(app.frameEvents.map(\.kind).contains(.languageDidChange(language: "en")))
    }

    @Test func withTwoLanguagesTheButtonSwitchesAndShowsTheOther() throws {
        let text = Self.manifestText.replacingOccurrences(of: #"["en", "de", "ar"]"#, with: #"["en", "ar"]"#)
            .replacingOccurrences(of: #""de": "Lageplan", "#, with: "").replacingOccurrences(
                of: #""de": "Café", "#, with: ""
            )
            .replacingOccurrences(of: #", "de": "Sonnenuntergang""#, with: "")
        let app = try Self.app(text)
        let button = LanguageMenu(Languages(["en", "ar"]), sceneSize: app.sceneSize).button
        #expect(Self.texts(app.drawList()).contains { $0.text == "العربية" && $0.language == "ar" })
        tap(app, button.midX, button.midY, at: 100)
        AppRig.run(app, from: 100, to: 600)
        #expect(app.language == "ar")
        let words = Self.texts(app.drawList())
        #expect(words.contains { $0.text == "مخطط الطابق" && $0.isRightToLeft })
        #expect(words.contains { $0.text == "English" })
    }

    @Test func labelsStayOnTheirHotspotsWhileZooming() throws {
        let app = try Self.app()
        let label = { () throws -> TextRun in
            try #require(Self.texts(app.drawList()).first { $0.text == "Café" })
        }
        let v = app.scene.view
        let before = try label()
        let centre = { (v: ScrollView) in
            Point(x: 250 * v.zoomScale - v.contentOffset.x, y: 250 * v.zoomScale - v.contentOffset.y)
        }
        expectClose(before.rect.midX, centre(v).x, 1e-9)
        expectClose(before.rect.midY, centre(v).y, 1e-9)
        v.setZoomScale(v.minimumZoomScale * 2, animated: false)
        v.contentOffset = Point(x: 20, y: 10)
        let after = try label()
        expectClose(after.rect.midX, centre(v).x, 1e-9)
        expectClose(after.size, before.size * 2, 1e-9)
        #expect(after.isSettled)
    }

    func tap(_ app: KioskApp, _ x: Double, _ y: Double, at t: Double) {
        app.tap(x: x / app.sceneSize.width, y: y / app.sceneSize.height, at: t)
    }
}

extension WordsTests {
    /// A visit's line gains the time read in each language.
    @Test func visitsAreCountedPerLanguage() throws {
        let app = try Self.app()
        app.wallTime = WallTime(unixAtKioskZero: 1_700_000_000)
        let counter = VisitCounter(app)
        let button = LanguageMenu(Languages(["en", "de", "ar"]), sceneSize: app.sceneSize).button
        var open = Languages(["en", "de", "ar"])
        open.isChoosing = true
        let deutsch = try #require(LanguageMenu(open, sceneSize: app.sceneSize).option("de"))
        let w = app.sceneSize.width
        let h = app.sceneSize.height
        let events: [(Double, EventLog.Event)] = [
            (500, .finger(.down, 1, 0.5, 0.9)), (580, .finger(.up, 1, 0.5, 0.9)),
            (1000, .finger(.down, 2, button.midX / w, button.midY / h)),
            (1080, .finger(.up, 2, button.midX / w, button.midY / h)),
            (1500, .finger(.down, 3, deutsch.midX / w, deutsch.midY / h)),
            (1580, .finger(.up, 3, deutsch.midX / w, deutsch.midY / h)),
            (3000, .finger(.down, 4, 0.5, 0.9)), (3080, .finger(.up, 4, 0.5, 0.9)),
        ]
        let ended = AppRig.frames(app, counter, from: 0, to: 6000, events: events)
        let visit = try #require(ended.first)
        // English from the first touch (500) to the choice's lift (1580), German to the last touch (3080).
        #expect(visit.languages == ["en": 1080, "de": 1500])
        #expect(visit.line.hasSuffix(#", "languages": {"de": 1500, "en": 1080}}"#))
    }
}

extension WordsTests {
    /// An app that asks 3 s before its 5 s idle reset, on the gallery, touched once at 500 ms (its lift at 560).
    static func stillThereApp() throws -> KioskApp {
        let app = try Self.app(
            Self.manifestText.replacingOccurrences(
                of: #""idleTimeoutSeconds": 2,"#, with: #""idleTimeoutSeconds": 5, "stillThere": {"seconds": 3},"#))
        app.show(scene: "gallery")
        AppRig.run(app, from: 0, to: 500)
        app.tap(x: 0.5, y: 0.5, at: 500, holdMs: 60)
        return app
    }

    /// Three seconds before the idle reset (5 s after the last touch) the card asks; a touch removes it, keeps
    /// the visitor's place and does nothing else.
    @Test func stillThereIsKeptByATouch() throws {
        let app = try Self.stillThereApp()
        AppRig.run(app, from: 500, to: 2500)
        #expect(!app.presence.isAskingStillThere)
        AppRig.run(app, from: 2500, to: 2700)
        #expect(app.presence.isAskingStillThere)
        #expect(app.frameEvents.map(\.kind).contains(.stillThereShown))
        #expect(Self.texts(app.drawList()).contains { $0.text == "Are you still there?" })
        #expect(Self.texts(app.drawList()).contains { $0.text == "3" })
        app.dropFrameEvents()
        // A swipe while it asks: it is taken whole (no page turns), the card goes, the place is kept.
        app.swipe(from: Point(x: 0.8, y: 0.5), to: Point(x: 0.2, y: 0.5), steps: 8, at: 3000)
        AppRig.run(app, from: 3000, to: 4000)
        #expect(!app.presence.isAskingStillThere)
        #expect(app.frameEvents.map(\.kind).contains(.stillThereDismissed))
        #expect(app.scene.config.id == "gallery" && app.scene.currentPage == 0)
        // Five seconds after that touch (its lift at 3.08 s): the card again from 5.08 s, the reset at 8.08 s.
        AppRig.run(app, from: 4000, to: 7000)
        #expect(app.scene.config.id == "gallery")
        #expect(app.presence.isAskingStillThere)
    }

    /// Unanswered, it runs out into the idle reset, and says so in the visitor's language.
    @Test func stillThereRunsOutIntoTheIdleReset() throws {
        let app = try Self.stillThereApp()
        AppRig.run(app, from: 500, to: 2700)
        #expect(app.presence.isAskingStillThere)
        // German words on the card for a German visitor (an app whose first language is German).
        let german = try Self.app(
            Self.manifestText.replacingOccurrences(of: #"["en", "de", "ar"]"#, with: #"["de", "en", "ar"]"#)
                .replacingOccurrences(
                    of: #""idleTimeoutSeconds": 2,"#, with: #""idleTimeoutSeconds": 5, "stillThere": {"seconds": 3},"#))
        german.tap(x: 0.5, y: 0.9, at: 100, holdMs: 60)
        AppRig.run(german, from: 100, to: 2300)
        #expect(Self.texts(german.drawList()).contains { $0.text == "Sind Sie noch da?" && $0.language == "de" })
        app.dropFrameEvents()
        AppRig.run(app, from: 2700, to: 5800)
        #expect(!app.presence.isAskingStillThere)
        #expect(app.frameEvents.map(\.kind).contains(.idleReset))
        #expect(!app.frameEvents.map(\.kind).contains(.stillThereDismissed))
        #expect(app.scene.config.id == "map")
    }

    @Test func stillThereTakesOneToSixHundredSeconds() {
        let text = """
            {"kioskManifest": 1, "stillThere": {"seconds": 0}, "scenes": [{"id": "a", "type": "zoom", "image": "a.png"}]}
            """
        #expect(Self.check(text).errors.map(\.description) == ["k.json: stillThere.seconds: must be between 1 and 600"])
    }
}

extension WordsTests {
    /// An overlay is a text box on the picture: in image pixels, wrapped, moving and growing with the zoom.
    @Test func overlaysAreTextBoxesOnThePicture() throws {
        let text = Self.manifestText.replacingOccurrences(
            of: #""title": {"en": "Floor plan", "de": "Lageplan", "ar": "مخطط الطابق"},"#,
            with:
                ##""overlays": [{"text": {"en": "Open daily", "de": "Täglich geöffnet", "ar": "مفتوح يوميا"}, "rect": [1000, 500, 1000, 400], "size": 24, "color": "#ff0000", "align": "center"}],"##
        )
        let app = try Self.app(text)
        let v = app.scene.view
        let box = try #require(Self.texts(app.drawList()).first { $0.text == "Open daily" })
        let s = v.zoomScale
        expectClose(box.rect.minX, 1000 * s - v.contentOffset.x, 1e-9)
        expectClose(box.rect.width, 1000 * s, 1e-9)
        #expect(box.wraps && box.align == .center && box.color.red == 1 && box.size == 24)
        v.setZoomScale(v.minimumZoomScale * 2, animated: false)
        v.contentOffset = Point(x: 300, y: 100)
        let zoomed = try #require(Self.texts(app.drawList()).first { $0.text == "Open daily" })
        expectClose(zoomed.rect.minX, 1000 * v.zoomScale - 300, 1e-9)
        expectClose(zoomed.size, 48, 1e-9)
        // The words are the picture's: a renderer that keeps the picture keeps them in it (in its own points).
        let picture = try #require(
            app.drawList().lazy.compactMap { if case .picture(let p, _) = $0 { p } else { nil } }.first)
        #expect(picture.words.map(\.text) == ["Open daily"])
        expectClose(picture.words[0].rect.minX, 1000 * v.zoomScale, 1e-9)
        let bad = Self.check(
            text.replacingOccurrences(of: #""align": "center""#, with: #""align": "middle""#))
        #expect(
            bad.errors.map(\.description) == [
                #"k.json: scenes[0].overlays[0].align: "middle" is not an alignment (start, center or end)"#
            ])
    }
}
