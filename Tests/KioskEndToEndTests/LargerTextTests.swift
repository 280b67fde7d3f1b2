import Foundation
import Testing

/// Larger text as a visitor sees it (docs/accessibility.md, EN 301 549 5.1.4): the real kiosk on a 1080p screen
/// of the default 598 mm panel, its accessibility button tapped and larger text switched on; the capital H of
/// the smallest text it sets (a list row's subtitle) measured in the screenshot's pixels, against the height
/// that subtends 0.7 degrees at 600 mm: 600 x tan 0.7 degrees = 7.33 mm, 23.5 pixels.
@Suite struct LargerTextTests {
    let dir = Kiosk.folder()

    /// The heights of the runs of pixel rows with dark ink in a column band of `picture`, top to bottom.
    static func inkRuns(_ picture: Picture, x: ClosedRange<Int>, y: ClosedRange<Int>) -> [Int] {
        var runs: [Int] = []
        var run = 0
        for row in y {
            let inked = x.contains { column in
                let (r, g, b) = picture.rgb(column, row)
                return r + g + b < 3 * 110
            }
            if inked {
                run += 1
            } else if run > 0 {
                runs.append(run)
                run = 0
            }
        }
        if run > 0 { runs.append(run) }
        return runs
    }

    @Test func theSmallestCapitalHSubtendsPointSevenDegrees() throws {
        let config = try Kiosk.manifest(
            """
            {"kioskManifest": 1, "home": "people", "idleTimeoutSeconds": 0,
             "scenes": [{"id": "people", "type": "list", "rows": [{"id": "h", "title": "H", "subtitle": "H"}]}]}
            """, in: dir)
        var log = LogWriter(width: 1920, height: 1080)
        // The accessibility button (64 pt at the trailing edge, 8 pt from it), then the panel's first switch.
        log.tap(1880.0 / 1920, 32.0 / 1080, at: 300)
        log.tap(1732.0 / 1920, 97.0 / 1080, at: 800)
        let before = dir.appendingPathComponent("before.png").path
        let after = dir.appendingPathComponent("after.png").path
        let r = try Kiosk.run(
            [
                "--headless", "1920x1080", "--config", config, "--replay", try log.write(dir), "--screenshot",
                "100:\(before)", "--screenshot", "1500:\(after)",
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.events.contains { $0.name == "accessibilityDidChange" && $0.fields["largeText"] as? Bool == true })
        let rule = 600 * tan(0.7 * Double.pi / 180) * 1920 / 598
        // The row's text starts 104 pt in and the first row fills the top 88 pt: at most twice that in pixels.
        func subtitle(_ path: String) throws -> Int {
            let picture = try #require(Picture(path: path))
            let runs = Self.inkRuns(picture, x: 100...400, y: 0...400)
            // The title's H and the subtitle's, one above the other.
            #expect(runs.count == 2, "\(runs)")
            return runs.last ?? 0
        }
        let small = try subtitle(before)
        let large = try subtitle(after)
        #expect(Double(small) < rule, "without larger text the H is \(small) px, the rule \(rule)")
        #expect(Double(large) >= rule, "with larger text the H is \(large) px, the rule \(rule)")
    }
}
