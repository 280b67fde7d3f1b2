import EventLog
import Foundation
import ScrollEngine
import Testing

@testable import Kiosk

/// UITableView's `scrollToRow(at:at:animated:)`, a `goto` that opens a list at a row (`"directory#cafe"`), and
/// new content that keeps the row the visitor reads where it was. The list of `ListTests`: headers 44, rows 88,
/// Bravo's header at 924, under a 64-point title bar on an 800x480 screen.
@Suite struct ScrollToRowTests {
    /// Bravo 3's top: 924 + 44 + 3 x 88.
    static let bravo3 = 1232.0

    @Test func aRowIsPlacedAtTheTopMiddleOrBottom() throws {
        let app = try ListTests.app()
        let scene = app.scene
        let view = scene.view
        // At the top: just below its section's header, which sticks to the title bar.
        #expect(scene.scrollToRow("Bravo-3", at: .top, animated: false))
        #expect(view.contentOffset.y == Self.bravo3 - 44 - 64)
        let header = try #require(try ListTests.listTrace(app)["stickyHeader"] as? [String: Any])
        #expect(header["section"] as? String == "Bravo" && header["y"] as? Double == 64)
        #expect(scene.row(at: Point(x: 400, y: 64 + 44 + 1))?.id == "Bravo-3")
        // In the middle, and at the bottom, of the 416 points under the bar.
        scene.scrollToRow("Bravo-3", at: .middle, animated: false)
        #expect(view.contentOffset.y == Self.bravo3 + 44 - 208 - 64)
        scene.scrollToRow("Bravo-3", at: .bottom, animated: false)
        #expect(view.contentOffset.y == Self.bravo3 + 88 - 416 - 64)
        #expect(scene.row(at: Point(x: 400, y: 479))?.id == "Bravo-3")
        // Within the list's limits at its ends; nothing for a row it does not have.
        scene.scrollToRow("Alpha-0", at: .middle, animated: false)
        #expect(view.contentOffset.y == -64)
        scene.scrollToRow("Charlie-9", at: .top, animated: false)
        #expect(view.contentOffset.y == view.offsetLimits(.vertical).upperBound)
        #expect(!scene.scrollToRow("Delta-1", at: .top, animated: false))
    }

    @Test func animatedItScrollsThereAndSaysSo() throws {
        let app = try ListTests.app()
        AppRig.run(app, from: 0, to: 100)
        app.scene.view.step(to: 0.1)
        app.scene.scrollToRow("Bravo-3", at: .top, animated: true)
        var events: [String] = []
        for t in stride(from: 100.0, through: 1000, by: 1000.0 / 60) {
            app.step(to: t)
            events += app.frameEvents.map(\.name)
            _ = app.endFrame(tracing: nil)
        }
        #expect(app.scene.view.contentOffset.y == Self.bravo3 - 44 - 64)
        #expect(events.contains("scrollViewDidEndScrollingAnimation"))
    }

    /// The map's cafe goes to a row of the directory: the list opens with that row at its top.
    @Test func aGotoOpensAListAtARow() throws {
        let text = ListTests.manifest()
            .replacingOccurrences(of: #""home": "directory""#, with: #""home": "map""#)
            .replacingOccurrences(
                of: #""hotspots": [{"id": "cafe", "rect": [1800, 1000, 400, 300]}]"#,
                with: #""hotspots": [{"id": "cafe", "rect": [1800, 1000, 400, 300], "goto": "directory#Bravo-3"}]"#)
        let app = try ListTests.app(text)
        #expect(app.scene.config.id == "map")
        // The cafe, on the map fitted to 800x480 (0.2 points a pixel): 360 to 440 across, 200 to 260 down.
        app.tap(x: 0.5, y: 230 / 480, at: 100, holdMs: 60)
        AppRig.run(app, from: 100, to: 1500)
        #expect(app.scene.config.id == "directory")
        #expect(app.scene.view.contentOffset.y == Self.bravo3 - 44 - 64)
        #expect(app.scene.row(at: Point(x: 400, y: 64 + 44 + 1))?.id == "Bravo-3")
        #expect(app.isAtRest)
    }

    @Test func aGotoToARowThatIsNotThereIsNamed() {
        for (goto, message) in [
            ("directory#Delta-1", "the list \"directory\" has no row \"Delta-1\""),
            ("gallery#Alpha-1", "\"gallery\" is a zoom scene; a row (#Alpha-1) needs a list scene"),
            ("lobby#Alpha-1", "no scene has the id \"lobby\""),
        ] {
            let text = ListTests.manifest().replacingOccurrences(
                of: #""hotspots": [{"id": "cafe", "rect": [1800, 1000, 400, 300]}]"#,
                with: #""hotspots": [{"id": "cafe", "rect": [1800, 1000, 400, 300], "goto": "\#(goto)"}]"#)
            let check = Manifest.check(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
            #expect(check.manifest == nil)
            #expect(
                check.problems.map(\.description).contains("k.json: scenes[1].hotspots[0].goto: \(message)"),
                "\(check.problems.map(\.description))")
        }
    }

    /// New content with five more rows in each section: the row at the top stays at the top (the offset as a
    /// number would have shown Alpha 13 instead of Bravo 3).
    @Test func newContentKeepsTheRowAtTheTop() throws {
        let app = try ListTests.app()
        app.scene.scrollToRow("Bravo-3", at: .top, animated: false)
        let before = try #require(app.scene.topRow)
        #expect(before.id == "Bravo-3")
        let more = try Manifest.parse(
            ListTests.manifest(rowsPerSection: 15), file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        app.reload(more)
        let after = try #require(app.scene.topRow)
        #expect(after.id == "Bravo-3" && after.y == before.y, "\(after)")
        // And the state a restart reads says so.
        let state = app.snapshot(wallClock: 0, at: app.now)
        #expect(state.views["directory"]?.topRow == KioskState.TopRow(id: "Bravo-3", y: before.y))
    }
}
