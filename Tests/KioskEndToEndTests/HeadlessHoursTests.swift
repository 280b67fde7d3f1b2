import Foundation
import Testing

/// A headless run's wall clock where none is given (`--clock`): a time the kiosk is open.
@Suite struct HeadlessHoursTests {
    let dir = Kiosk.folder()

    /// The README's screenshot command on a kiosk closed on Mondays: a headless run starts on a Monday at 09:00,
    /// so it starts instead when the hours open, and says so; never a black picture without a word.
    @Test func aHeadlessRunStartsWhenTheHoursAreOpen() throws {
        let text = """
            {"kioskManifest": 1, "openingHours": {"tue-sun": "10:00-18:00"},
             "scenes": [{"id": "m", "type": "zoom", "image": "images/floorplan.png", "title": "Plan"}]}
            """
        let shot = dir.appendingPathComponent("open.png").path
        let r = try Kiosk.run(
            ["--headless", "320x240", "--config", try Kiosk.manifest(text, in: dir), "--screenshot", "0:" + shot],
            in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "headless: the opening hours are closed at 2026-01-05T09:00:00, where a headless run starts; "
                    + "this one starts when they open, 2026-01-06T10:00:00"), "\(r.stderr)")
        let picture = try #require(Picture(path: shot))
        #expect(picture.brightness(x: 0, y: 0, w: 320, h: 240) > 50, "the screenshot is not black")
    }
}
