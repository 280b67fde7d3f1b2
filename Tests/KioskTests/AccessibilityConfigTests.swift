import Foundation
import ScrollEngine
import Testing

@testable import Kiosk

/// The manifest's `accessibility` and the `description` of hotspots and rows (docs/manifest.md): read and
/// checked, every mistake one line with its path; a hotspot that acts with nothing to be spoken is a warning.
@Suite struct AccessibilityConfigTests {
    static func check(_ accessibility: String, hotspot: String = #""label": "Café""#) -> ManifestCheck {
        let text = """
            {"kioskManifest": 1, "languages": ["en", "de"], \(accessibility)
             "scenes": [{"id": "map", "type": "zoom", "image": "m.png",
                         "hotspots": [{"id": "cafe", "rect": [0, 0, 9, 9], "goto": "d", \(hotspot)}]},
                        {"id": "d", "type": "list", "rows": [
                          {"id": "lib", "title": "Library", "description": {"en": "Books, first floor", "de": "Bücher, erster Stock"}}]}]}
            """
        return Manifest.check(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
    }

    @Test func theDefaultsAreEN301549s() throws {
        let m = try #require(Self.check("").manifest)
        #expect(m.accessibility == AccessibilityConfig())
        #expect(m.accessibility.viewingDistanceMM == 600)
        // 5.1.4: a capital H of 7.3 mm at 600 mm.
        #expect(abs(m.accessibility.largeTextCapitalHeightMM - 7.33) < 0.01)
    }

    @Test func everyKeyIsRead() throws {
        let check = Self.check(
            #""accessibility": {"voices": {"en": "en-gb", "de": "de"}, "viewingDistanceMM": 800, "panel": {"widthMM": 1210, "heightMM": 680}, "keys": {"KP 5": "activate", "F5": "help"}},"#,
            hotspot: #""description": {"en": "The café: coffee and cake", "de": "Das Café: Kaffee und Kuchen"}"#)
        let m = try #require(check.manifest, "\(check.problems)")
        #expect(m.accessibility.voices == ["en": "en-gb", "de": "de"])
        #expect(m.accessibility.viewingDistanceMM == 800)
        #expect(m.accessibility.panelMM == Size(width: 1210, height: 680))
        #expect(m.accessibility.keys == ["KP 5": .activate, "F5": .help])
        #expect(m.scenes[0].hotspots[0].description?.text(in: "de", fallback: "en") == "Das Café: Kaffee und Kuchen")
        #expect(m.scenes[1].list?.rows[0].description?.text(in: "de", fallback: "en") == "Bücher, erster Stock")
        #expect(check.problems.isEmpty, "\(check.problems)")
    }

    @Test(arguments: [
        (
            #""accessibility": {"voices": {"fr": "fr"}},"#,
            "accessibility.voices.fr: \"fr\" is not one of the manifest's languages"
        ),
        (
            #""accessibility": {"voices": {"en": "en gb; rm"}},"#,
            "accessibility.voices.en: expected an espeak-ng voice name"
        ),
        (
            #""accessibility": {"viewingDistanceMM": 5},"#,
            "accessibility.viewingDistanceMM: must be between 100 and 10000"
        ),
        (#""accessibility": {"panel": {"widthMM": 500}},"#, "accessibility.panel.heightMM: missing"),
        (
            #""accessibility": {"keys": {"KP 5": "explode"}},"#,
            "accessibility.keys.KP 5: expected an action: next, previous"
        ),
        (#""accessibility": {"speech": true},"#, "accessibility.speech: unknown key"),
        (#""accessibility": [],"#, "accessibility: expected an object"),
    ])
    func eachMistakeIsNamed(accessibility: String, message: String) {
        let check = Self.check(accessibility)
        #expect(check.manifest == nil)
        #expect(check.problems.contains { $0.description.contains("k.json: " + message) }, "\(check.problems)")
    }

    @Test func aHotspotThatActsWithNothingToSpeakIsAWarning() throws {
        let check = Self.check("", hotspot: #""page": 0"#)
        #expect(check.manifest != nil)
        #expect(
            check.problems.map(\.description) == [
                "k.json: scenes[0].hotspots[0]: hotspot \"cafe\" goes somewhere but has neither a label nor a description: nothing can be spoken for it"
            ])
        #expect(check.problems.allSatisfy { $0.isWarning })
    }

    /// `--check` warns of a language whose voice espeak-ng does not have (the manifest's or the language's own),
    /// and once that espeak-ng is not there at all.
    @Test func aLanguageWithoutAVoiceIsAWarning() throws {
        let text = """
            {"kioskManifest": 1, "languages": ["en", "de", "cy"], "accessibility": {"voices": {"de": "de-xx"}},
             "scenes": [{"id": "map", "type": "zoom", "image": "m.png"}]}
            """
        func run(_ voices: Set<String>?) -> [String] {
            ContentCheck.run(
                text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true },
                inspect: { _ in ImageReport(width: 10, height: 10) }, voices: { voices }
            ).problems.filter(\.isWarning).map(\.description)
        }
        #expect(
            run(["en", "de", "en-gb"]) == [
                #"k.json: accessibility.voices.de: no espeak-ng voice "de-xx" for "de": it is spoken in English (`espeak-ng --voices` lists them)"#,
                #"k.json: languages: no espeak-ng voice "cy" for "cy": it is spoken in English (`espeak-ng --voices` lists them)"#,
            ])
        #expect(run(["en", "de-xx", "cy"]).isEmpty)
        #expect(
            run(nil) == [
                "k.json: accessibility: espeak-ng is not installed: the kiosk will not speak (apt install espeak-ng)"
            ])
    }
}
