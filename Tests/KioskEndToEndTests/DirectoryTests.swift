import Foundation
import Testing

/// The demo's directory, as a visitor uses it: from the map, the directory; in it, the café; and the map flies
/// to the café, in each of the demo's languages (each first in turn, as the kiosk starts).
@Suite struct DirectoryTests {
    let dir = Kiosk.folder()

    @Test(arguments: [["en", "de", "ar"], ["de", "ar", "en"], ["ar", "en", "de"]])
    func theCafeIsFoundInEveryLanguage(languages: [String]) throws {
        var text = try String(contentsOf: Kiosk.assets.appendingPathComponent("kiosk.json"), encoding: .utf8)
        text = text.replacingOccurrences(
            of: #""languages": ["en", "de", "ar"]"#,
            with: #""languages": [\#(languages.map { "\"\($0)\"" }.joined(separator: ", "))]"#)
        let config = try Kiosk.manifest(text, in: dir)
        try Kiosk.pyramid(size: 512, out: dir.appendingPathComponent("deepzoom/demo.dzi").path)
        // 960x540: the plan is fitted at 0.18 from x = 48; its directory hotspot's middle (850, 2850) is at
        // (201, 513). In the directory the café is the first row, under the title bar and its section's header:
        // 108 to 196.
        var log = LogWriter(width: 960, height: 540)
        log.tap(201.0 / 960, 513.0 / 540, at: 500)
        log.tap(0.5, 152.0 / 540, at: 1500)
        let r = try Kiosk.run(
            ["--headless", "960x540", "--config", config, "--replay", try log.write(dir, "cafe.jsonl")], in: dir)
        #expect(r.status == 0, "\(r.stderr.prefix(500))")
        let names = r.events.map(\.name)
        #expect(r.events.contains { $0.name == "hotspotTapped" && $0.fields["hotspot"] as? String == "directory" })
        #expect(r.events.contains { $0.name == "rowTapped" && $0.fields["row"] as? String == "cafe" }, "\(names)")
        #expect(r.last["scene"] as? String == "map")
        #expect(r.trace.contains { ($0["list"] as? [String: Any])?["stickyHeader"] is [String: Any] })
        // The café [1200, 800, 700, 500] in the middle of the screen, filling at most half of it.
        let map = r.view("map")
        let zoom = try #require(map["zoomScale"] as? Double)
        let offset = try #require(map["contentOffset"] as? [Double])
        let mid = (x: 1550 * zoom - offset[0], y: 1050 * zoom - offset[1])
        #expect(abs(mid.x - 480) < 2 && abs(mid.y - 270) < 2, "\(mid) at zoom \(zoom)")
        #expect(700 * zoom <= 480 + 1 && 500 * zoom <= 270 + 1, "zoom \(zoom)")
        #expect(zoom > 0.3, "zoom \(zoom)")
    }

    /// Thumbnails: one that decodes is drawn in its row's square, one that does not is a placeholder (and
    /// `--check` says so, naming the file and the line), and the rest of the list works on.
    @Test func aBrokenThumbnailIsAPlaceholder() throws {
        try Data("not a picture".utf8).write(to: dir.appendingPathComponent("broken.jpg"))
        try "id,title,thumbnail\nnight,Night,images/gallery-night.jpg\nbroken,Broken,broken.jpg\n".write(
            to: dir.appendingPathComponent("rows.csv"), atomically: true, encoding: .utf8)
        let config = try Kiosk.manifest(
            #"{"kioskManifest": 1, "home": "d", "scenes": [{"id": "d", "type": "list", "rows": "rows.csv"}]}"#, in: dir)
        let check = try Kiosk.run(["--check", "--config", config], in: dir)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stderr.contains("rows.csv: line 3.thumbnail: "), "\(check.stderr)")
        #expect(check.stderr.contains("(its rows show a placeholder)"), "\(check.stderr)")
        let shot = dir.appendingPathComponent("thumbnails.png").path
        let r = try Kiosk.run(
            ["--headless", "800x480", "--config", config, "--screenshot", "100:" + shot], in: dir, trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        let picture = try #require(Picture(path: shot))
        // Rows of 88 from the top: the squares (24, 12) to (88, 76) and (24, 100) to (88, 164). The night is dark
        // blue; the placeholder is its grey with a cross.
        let (nr, ng, nb) = picture.rgb(56, 44)
        #expect(nb > nr && nr < 80 && ng < 80, "\((nr, ng, nb))")
        #expect(picture.rgb(40, 132) == (0x3A, 0x3A, 0x42))
    }

    /// The title bar takes its touches, replayed end to end: in the directory, scrolled so that rows lie under
    /// the bar, a tap on the bar's middle taps no row (it used to fly the visitor to the map through the bar)
    /// and scrolls the list to the top; a drag that begins on the bar scrolls nothing.
    @Test func theTitleBarTakesItsTouches() throws {
        let config = try Kiosk.manifest(
            String(contentsOf: Kiosk.assets.appendingPathComponent("kiosk.json"), encoding: .utf8), in: dir)
        try Kiosk.pyramid(size: 512, out: dir.appendingPathComponent("deepzoom/demo.dzi").path)
        var log = LogWriter(width: 960, height: 540)
        log.drag(from: (0.5, 0.8), to: (0.5, 0.5), at: 500)
        log.tap(0.5, 32.0 / 540, at: 2500)
        log.drag(from: (0.5, 32.0 / 540), to: (0.5, 0.9), at: 4000)
        let r = try Kiosk.run(
            [
                "--headless", "960x540", "--config", config, "--scene", "directory", "--replay",
                try log.write(dir, "title.jsonl"),
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr.prefix(500))")
        let names = r.events.map(\.name)
        #expect(!names.contains("rowTapped"), "\(names)")
        #expect(r.last["scene"] as? String == "directory")
        let top = try #require(names.firstIndex(of: "scrollViewShouldScrollToTop"), "\(names)")
        #expect(names[top...].contains("scrollViewDidScrollToTop"))
        // One drag only: the first; the one from the bar began none.
        #expect(names.filter { $0 == "scrollViewWillBeginDragging" }.count == 1, "\(names)")
        #expect(r.offset("directory").1 == -64)
    }
}
