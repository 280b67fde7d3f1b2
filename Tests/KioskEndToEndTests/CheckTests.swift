import Foundation
import Testing

/// `kiosk --check` (docs/operations.md): every problem at once, each naming the file and the JSON path or image.
@Suite struct CheckTests {
    let dir = Kiosk.folder()

    /// The demo's manifest as it ships, beside its images and a smaller Deep Zoom demo (a clean checkout has
    /// none: `run.sh` draws the 16384² one).
    @Test func theDemoIsOK() throws {
        let text = try String(contentsOf: Kiosk.assets.appendingPathComponent("kiosk.json"), encoding: .utf8)
        let config = try Kiosk.manifest(text, in: dir)
        try Kiosk.pyramid(size: 2048, out: dir.appendingPathComponent("deepzoom/demo.dzi").path)
        let r = try Kiosk.run(["--check", "--config", config], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "ok")
        #expect(
            lines.contains(
                "map: zoom, images/floorplan-plain.png 4800x3000 (over 4096: tiled, cut once into the cache, 73.2 MiB), "
                    + "12 hotspots"), "\(lines)")
        #expect(lines.contains("directory: list of 10 rows in 3 sections"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("archive: zoom, deepzoom/demo.dzi 2048x2048 (Deep Zoom, 12 levels)") })
        // Each language's font: Debian's Noto (fonts-noto-core).
        #expect(
            lines.contains { $0.hasPrefix("words: en Noto Sans (") && $0.contains("ar Noto Sans Arabic (") },
            "\(lines)")
        // What the words take as textures, well within their share of the budget (no warning).
        #expect(
            lines.contains {
                $0.hasPrefix("words' textures at each scene's opening view: film ") && $0.contains(" map ")
                    && $0.hasSuffix("(their share of the texture budget: 16.0 MiB)")
            }, "\(lines)")
        #expect(
            lines.contains(
                "film: video, media/opening.mp4 (mp4, h264 960x540, 8.0 s), poster images/opening-poster.jpg 960x540, "
                    + "captions in ar, de, en"),
            "\(lines)")
        #expect(lines.count == 9)
        #expect(r.stderr.isEmpty, "\(r.stderr)")
    }

    /// Words whose fonts cannot draw them: a font file that is not a font, a language no installed font covers,
    /// a manifest that is not UTF-8 (the byte named).
    /// A list without rows is a warning (it says "Nothing here yet"), not an error: the kiosk runs.
    @Test func aListWithoutRowsIsAWarning() throws {
        try "id,title\n".write(to: dir.appendingPathComponent("rows.csv"), atomically: true, encoding: .utf8)
        let config = try Kiosk.manifest(
            #"{"kioskManifest": 1, "home": "d", "scenes": [{"id": "d", "type": "list", "rows": "rows.csv"}]}"#, in: dir)
        let r = try Kiosk.run(["--check", "--config", config], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains(#"scenes[0].rows: no rows: the list says "Nothing here yet""#), "\(r.stderr)")
    }

    /// A name that differs from the file's in capital letters (Windows and macOS ignore them) or in a space at its
    /// end: the file not found, and the one in the folder it most likely means.
    @Test func aFileNotFoundNamesTheNearMiss() throws {
        let own = dir.appendingPathComponent("own")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        for name in ["Gallery-Night.jpg", "plan.png"] {
            try FileManager.default.copyItem(
                at: Kiosk.assets.appendingPathComponent("images/gallery-night.jpg"),
                to: own.appendingPathComponent(name))
        }
        let text = """
            {"kioskManifest": 1, "scenes": [{"id": "g", "type": "carousel",
              "pages": ["own/gallery-night.jpg", "own/plan.png "]}]}
            """
        let r = try Kiosk.run(["--check", "--config", try Kiosk.manifest(text, in: dir)], in: dir, trace: false)
        #expect(r.status == 3)
        #expect(
            r.stderr.contains(
                "own/gallery-night.jpg (\"Gallery-Night.jpg\" is in the folder: the names differ in capital letters, "
                    + "which count here)"), "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "own/plan.png  (\"plan.png\" is in the folder: the names differ in spaces at their start or end)"),
            "\(r.stderr)")
    }

    @Test func wordsWithoutAFontAreReported() throws {
        try Data("not a font".utf8).write(to: dir.appendingPathComponent("fake.ttf"))
        let text = """
            {"kioskManifest": 1, "languages": ["en", "tlh"], "fonts": {"en": "fake.ttf"},
             "scenes": [{"id": "map", "type": "zoom", "image": "images/floorplan.png", "title": "Plan"}]}
            """
        let r = try Kiosk.run(["--check", "--config", try Kiosk.manifest(text, in: dir)], in: dir)
        #expect(r.status == 3)
        #expect(r.stderr.contains("fonts.en: fake.ttf is not a font ("), "\(r.stderr)")
        #expect(r.stderr.contains(#"languages[1]: no installed font covers "tlh"; name one in "fonts""#), "\(r.stderr)")
        // The kiosk itself starts on the same content, as it does with a broken picture: each font problem a
        // warning saying what is drawn instead, and the words in the fallback font.
        let start = try Kiosk.run(
            [
                "--headless", "320x240", "--config", try Kiosk.manifest(text, in: dir), "--screenshot",
                "0:" + dir.appendingPathComponent("fallback.png").path,
            ], in: dir)
        #expect(start.status == 0, "\(start.stderr)")
        #expect(
            start.stderr.contains(
                #"<4>kiosk: \#(dir.path)/kiosk.json: languages[1]: no installed font covers "tlh"; name one in "fonts"; its words are drawn in the fallback font"#
            ), "\(start.stderr)")
        #expect(start.stderr.contains("fonts.en: fake.ttf is not a font ("), "\(start.stderr)")
        let bad = dir.appendingPathComponent("latin1.json")
        // "café" in Latin-1: the é is one byte, 0xE9, at offset 47.
        try Data(Array(#"{"kioskManifest": 1, "scenes": [], "home": "caf"#.utf8) + [0xE9] + Array(#""}"#.utf8))
            .write(to: bad)
        let latin = try Kiosk.run(["--check", "--config", bad.path], in: dir)
        #expect(latin.status == 3)
        #expect(latin.stderr.contains("the manifest is not UTF-8 text (byte 47)"), "\(latin.stderr)")
    }

    /// Words too long for their boxes, measured in their fonts on the screen given (`--headless`) or a 1080p one:
    /// a warning naming the path and the language; a text that fits says nothing.
    @Test func wordsThatDoNotFitTheirBoxAreReported() throws {
        let long = String(repeating: "Ein sehr langer Titel ", count: 14)
        let text = """
            {"kioskManifest": 1, "languages": ["en", "de"],
             "scenes": [{"id": "map", "type": "zoom", "image": "images/floorplan.png",
               "title": {"en": "Plan", "de": "\(long)"},
               "hotspots": [{"id": "a", "rect": [0, 0, 100, 100], "label": "Kidsʼ Corner and Family Room, with the toy library"}],
               "overlays": [{"text": "Fits.", "rect": [100, 100, 2000, 400]},
                            {"text": {"en": "A room for families, with the toy library", "de": "Passt."},
                             "rect": [100, 600, 400, 200]}]}]}
            """
        let config = try Kiosk.manifest(text, in: dir)
        let r = try Kiosk.run(["--check", "--config", config], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let problems = r.stderr.split(separator: "\n").map(String.init)
        #expect(
            problems.map { $0.components(separatedBy: ".json: ").last ?? $0 } == [
                "scenes[0].hotspots[0].label: does not fit its box on a 1920x1080 screen: it ends in an ellipsis",
                "scenes[0].overlays[1].text.en: does not fit its box on a 1920x1080 screen: it ends in an ellipsis",
                "scenes[0].title.de: does not fit its box on a 1920x1080 screen: it ends in an ellipsis",
            ], "\(r.stderr)")
        // On a larger screen the picture and its boxes are larger, the words not (they are in points): the overlay
        // fits; the label (as wide as ever) and the far too long title still do not.
        let large = try Kiosk.run(["--check", "--config", config, "--headless", "3840x2160"], in: dir)
        #expect(large.stderr.split(separator: "\n").count == 2, "\(large.stderr)")
        #expect(
            large.stderr.contains("scenes[0].title.de: does not fit its box on a 3840x2160 screen"), "\(large.stderr)")
        #expect(!large.stderr.contains("overlays"), "\(large.stderr)")
    }

    /// Eight errors and two warnings in one manifest: all of them reported, in one run, and nothing shown.
    @Test func everyMistakeIsReported() throws {
        let images = dir.appendingPathComponent("own")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let jpeg = try Data(contentsOf: Kiosk.assets.appendingPathComponent("images/gallery-night.jpg"))
        try jpeg.prefix(20_000).write(to: images.appendingPathComponent("torn.jpg"))
        try Data("not a picture".utf8).write(to: images.appendingPathComponent("text.jpg"))
        let path = try Kiosk.manifest(
            """
            {"kioskManifest": 1, "home": "map", "colour": "#000",
             "scenes": [
              {"id": "map", "type": "zoom", "image": "images/gallery-sunset.jpg", "maxZoom": "big",
               "hotspots": [{"id": "cafe", "rect": [2000, 1500, 900, 300], "goto": "nowhere",
                             "description": "Café"},
                            {"id": "ok", "rect": [0, 0, 10, 10], "goto": "gallery",
                             "description": "Gallery"}]},
              {"id": "gallery", "type": "carousel",
               "pages": ["images/gallery-sunset.jpg", "own/text.jpg", "images/missing.png", "own/torn.jpg"]},
              {"id": "gallery", "type": "scroll", "image": "images/menu-long.png"},
              {"id": "lost", "type": "scroll", "image": "images/menu-long.png", "axis": "diagonal"}
             ]}
            """, in: dir)
        let r = try Kiosk.run(["--check", "--config", path], in: dir)
        #expect(r.status == 3)
        #expect(r.stdout.isEmpty)
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("<3>kiosk: \(path): ") }
        let warnings = r.stderr.split(separator: "\n").filter { $0.hasPrefix("<4>kiosk: \(path): ") }
        for expected in [
            "colour: unknown key", "scenes[0].maxZoom: expected a number",
            "scenes[0].hotspots[0].goto: no scene has the id \"nowhere\"",
            "scenes[1].pages[1]: own/text.jpg: not a PNG, JPEG or WebP",
            "scenes[1].pages[2]: file not found: ", "scenes[1].pages[3]: own/torn.jpg: the file is cut short",
            "scenes[2].id: \"gallery\" is used by another scene", "scenes[3].axis: \"diagonal\" is not an axis",
        ] {
            #expect(errors.contains { $0.contains(expected) }, "\(expected) in \(r.stderr)")
        }
        #expect(errors.count == 8, "\(r.stderr)")
        #expect(warnings.contains { $0.contains("scenes[0].hotspots[0].rect: reaches outside its image (2400x1600)") })
        #expect(warnings.contains { $0.contains("scenes[3]: scene \"lost\": nothing reaches it") })
        #expect(warnings.count == 2, "\(r.stderr)")
    }

    /// A Deep Zoom image whose first level on screen has a broken tile: named, with how many are broken.
    @Test func aBrokenTileOfTheFirstLevelIsAnError() throws {
        let dzi = dir.appendingPathComponent("deep/pic.dzi").path
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("deep"), withIntermediateDirectories: true)
        try Kiosk.pyramid(size: 4096, out: dzi)
        let path = try Kiosk.manifest(
            #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "deep/pic.dzi"}]}"#, in: dir)
        let fine = try Kiosk.run(["--check", "--config", path, "--headless", "640x480"], in: dir)
        #expect(fine.status == 0, "\(fine.stderr)")
        // At 640x480 the 4096² picture fits in 480x480: level 9 (512²), 2x2 tiles of 256.
        let folder = dir.appendingPathComponent("deep/pic_files/9")
        let tiles = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(tiles.count == 4, "\(tiles)")
        try Data("broken".utf8).write(to: folder.appendingPathComponent(tiles[1]))
        let r = try Kiosk.run(["--check", "--config", path, "--headless", "640x480"], in: dir)
        #expect(r.status == 3)
        #expect(
            r.stderr.contains(
                "scenes[0].image: deep/pic.dzi: 1 of the 4 tiles of level 9 do not decode, the first pic_files/9/\(tiles[1])"
            ), "\(r.stderr)")
    }
}
