import ScrollEngine
import Testing

@testable import Kiosk

/// `kiosk --check` estimates the textures each scene's words take at its opening view, in the language whose take
/// the most, and warns of a scene whose words alone are more than their share of the texture budget: 2000
/// labelled hotspots passed the check and then rasterised every label again every frame (1.9 s a frame).
@Suite struct WordsTextureCheckTests {
    func check(labels: Int, budgetMiB: Int = 128, bytesPerText: Int = 40_000) -> ContentReport {
        let hotspots = (0..<labels).map {
            #"{"id": "h\#($0)", "rect": [\#($0 % 100 * 40), \#($0 / 100 * 40), 30, 30], "label": {"en": "Room \#($0)", "de": "Raum \#($0)"}}"#
        }
        let text = """
            {"kioskManifest": 1, "languages": ["en", "de"], "textureBudgetMiB": \(budgetMiB),
             "scenes": [{"id": "map", "type": "zoom", "image": "/k/plan.png", "title": "Plan",
                         "hotspots": [\(hotspots.joined(separator: ", "))]}]}
            """
        return ContentCheck.run(
            text, file: "/k/kiosk.json", baseDirectory: "/k", fileExists: { _ in true },
            inspect: { _ in ImageReport(width: 4000, height: 3000) },
            font: { _, _ in .font(file: "/fonts/Sans.ttf", family: "Sans") },
            // German words a little longer: the language that takes the most is the one counted.
            measure: { run, _ in TextMeasure(fits: true, bytes: run.language == "de" ? bytesPerText * 2 : bytesPerText)
            }
        )
    }

    @Test func theSummarySaysEachScenesWordsTextures() {
        let report = check(labels: 10)
        #expect(report.errors.isEmpty)
        #expect(report.problems.isEmpty, "\(report.problems)")
        // A title and ten labels in German: 11 x 80 000 bytes.
        #expect(
            report.summary.contains(
                "words' textures at each scene's opening view: map 0.8 MiB (their share of the texture budget: 16.0 MiB)"
            ),
            "\(report.summary)")
    }

    @Test func wordsOverTheirShareOfTheBudgetAreAWarning() {
        let report = check(labels: 2000)
        #expect(report.errors.isEmpty)
        let warnings = report.problems.filter(\.isWarning).map(\.description)
        #expect(
            warnings == [
                "/k/kiosk.json: scenes[0]: its words take about 152.7 MiB of textures in \"de\" at its opening view, more "
                    + "than the words' share of the texture budget (16.0 MiB): they would be drawn again every frame; use "
                    + "fewer or shorter texts, or a larger textureBudgetMiB"
            ], "\(warnings)")
        // A budget large enough for them: no warning (the words' share is at most 32 MiB, so fewer texts).
        #expect(check(labels: 300, budgetMiB: 512).problems.filter(\.isWarning).isEmpty)
    }
}
