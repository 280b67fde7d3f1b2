import Foundation
import Testing

/// A start with broken content starts anyway with what it has: a picture or film that is missing or cannot be
/// shown is a placeholder with its one line, the kiosk says it is degraded (in the log and the metrics), and only
/// a manifest that cannot be used at all stops it. `--check` still fails on each.
@Suite struct DegradedStartTests {
    let dir = Kiosk.folder()

    static let manifest = """
        {"kioskManifest": 1, "home": "map", "scenes": [
          {"id": "map", "type": "zoom", "image": "images/gone.png", "title": "Plan",
           "hotspots": [{"id": "g", "rect": [0, 0, 400, 300], "goto": "gallery"}]},
          {"id": "gallery", "type": "carousel", "title": "Pictures",
           "pages": [{"image": "images/gallery-night.jpg"}, {"image": "images/broken.jpg"}]},
          {"id": "film", "type": "video", "video": "media/gone.mp4", "title": "Film"}]}
        """

    @Test func missingAndBrokenPicturesAndFilmsArePlaceholdersAndTheKioskStarts() throws {
        try Data("not a picture".utf8).write(to: dir.appendingPathComponent("broken.jpg"))
        let text = Self.manifest.replacingOccurrences(of: "images/broken.jpg", with: "broken.jpg")
        let config = try Kiosk.manifest(text, in: dir)
        let metrics = dir.appendingPathComponent("k.prom").path
        let shot = dir.appendingPathComponent("map.png").path
        let r = try Kiosk.run(
            ["--headless", "320x240", "--config", config, "--metrics", metrics, "--screenshot", "0:" + shot], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("<3>kiosk: \(config): scenes[0].image: file not found: "), "\(r.stderr)")
        #expect(r.stderr.contains("<3>kiosk: \(config): scenes[2].video: file not found: "), "\(r.stderr)")
        // The start reads the pictures' headers only: one that does not decode is found when it is shown.
        #expect(
            r.stderr.contains("<4>kiosk: \(config): starting with 2 pictures or films shown as placeholders; fix"),
            "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: shot))
        #expect(!r.trace.isEmpty)
        let prom = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(prom.contains("\nkiosk_content_problems 2\n"), "\(prom)")
        // --check names each problem, the picture that does not decode too, and fails, as before.
        let check = try Kiosk.run(["--check", "--config", config], in: dir, trace: false)
        #expect(check.status == 3)
        #expect(check.stderr.contains("scenes[0].image: file not found: "), "\(check.stderr)")
        #expect(check.stderr.contains("scenes[1].pages[1]: broken.jpg: not a PNG, JPEG or WebP"), "\(check.stderr)")
    }

    /// A JPEG whose copy stopped halfway (a half-finished rsync) decodes with its lower part grey: at run time it
    /// is a placeholder with its one line and counted in `kiosk_placeholders`, as `--check` says it.
    @Test func aPictureCutShortIsAPlaceholderAtRunTime() throws {
        let jpeg = try Data(contentsOf: Kiosk.assets.appendingPathComponent("images/gallery-sunset.jpg"))
        try jpeg.prefix(jpeg.count / 2).write(to: dir.appendingPathComponent("half.jpg"))
        let text = """
            {"kioskManifest": 1, "scenes": [{"id": "gallery", "type": "carousel", "title": "Pictures",
              "pages": [{"image": "half.jpg"}, {"image": "images/gallery-night.jpg"}]}]}
            """
        let config = try Kiosk.manifest(text, in: dir)
        let metrics = dir.appendingPathComponent("k.prom").path
        let r = try Kiosk.run(
            [
                "--headless", "320x240", "--config", config, "--metrics", metrics, "--screenshot",
                "0:" + dir.appendingPathComponent("half.png").path,
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "<4>kiosk: \(dir.path)/half.jpg: cannot load the image (the file is cut short (no end-of-image marker "
                    + "at its end)); showing a placeholder"), "\(r.stderr)")
        let prom = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(prom.contains("\nkiosk_placeholders 1\n"), "\(prom)")
    }

    @Test func aManifestThatCannotBeUsedStillStopsTheStart() throws {
        // The same missing picture, and a hotspot that goes nowhere: not a placeholder's to cover.
        let text = Self.manifest.replacingOccurrences(of: #""goto": "gallery""#, with: #""goto": "nowhere""#)
        let r = try Kiosk.run(["--headless", "320x240", "--config", try Kiosk.manifest(text, in: dir)], in: dir)
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stderr.contains("scenes[0].hotspots[0].goto"), "\(r.stderr)")
        #expect(!r.stderr.contains("starting with"), "\(r.stderr)")
    }
}
