import Foundation
import ScrollEngine
import Testing

@testable import Kiosk

@Suite struct ManifestTests {
    static let files: Set<String> = ["/m/images/a.png", "/m/images/b.jpg", "/m/images/c.jpg"]

    static func parse(_ text: String) throws(ManifestError) -> Manifest {
        try Manifest.parse(text, file: "/m/kiosk.json", baseDirectory: "/m", fileExists: { files.contains($0) })
    }

    static let good = """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 60, "background": "#202428",
         "scenes": [
           {"id": "map", "type": "zoom", "image": "images/a.png", "minZoom": "fit", "maxZoom": 4.0, "doubleTapZoom": 2.0,
            "hotspots": [{"id": "cafe", "rect": [10, 20, 30, 40], "goto": "gallery"}, {"rect": [0, 0, 5, 5]}],
            "decelerationRate": "fast", "indicatorStyle": "white", "bounces": false},
           {"id": "gallery", "type": "carousel", "pages": ["images/b.jpg", "images/c.jpg"], "pageControl": true,
            "maxZoom": 3.0},
           {"id": "menu", "type": "scroll", "image": "images/a.png", "axis": "horizontal", "decelerationRate": 0.995}
         ]}
        """

    @Test func readsEverything() throws {
        let m = try Self.parse(Self.good)
        #expect(m.home == "map")
        #expect(m.idleTimeoutSeconds == 60)
        #expect(m.background == RGB(r: 0x20, g: 0x24, b: 0x28))
        #expect(m.scenes.map(\.id) == ["map", "gallery", "menu"])
        let map = m.scenes[0]
        #expect(map.image == "/m/images/a.png")
        #expect(map.minZoom == .fit && map.maxZoom == 4 && map.doubleTapZoom == 2)
        #expect(map.hotspots.map(\.id) == ["cafe", "1"])
        #expect(map.hotspots[0].rect == Rect(x: 10, y: 20, width: 30, height: 40))
        #expect(map.options.decelerationRate == .fast)
        #expect(map.options.indicatorStyle == .white)
        #expect(!map.options.bounces)
        #expect(m.scenes[1].pages == ["/m/images/b.jpg", "/m/images/c.jpg"])
        #expect(m.scenes[2].axis == .horizontal)
        #expect(m.scenes[2].options.decelerationRate.rawValue == 0.995)
    }

    @Test func theDemoManifestIsValid() throws {
        let path = #filePath.replacingOccurrences(of: "Tests/KioskTests/ManifestTests.swift", with: "Assets/kiosk.json")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let assets = (path as NSString).deletingLastPathComponent
        let m = try Manifest.parse(
            text, file: path, baseDirectory: assets, fileExists: { _ in true },
            readFile: { file in
                FileManager.default.contents(atPath: file).map { .success(Array($0)) }
                    ?? .failure(FileReadError("missing"))
            })
        #expect(Set(m.scenes.map(\.type)) == [.zoom, .carousel, .scroll, .list, .video])
        #expect(m.scene("film")?.video?.captions.keys.sorted() == ["ar", "de", "en"])
        #expect(m.scene("directory")?.list?.rows.count == 10)
    }

    /// A hotspot on a carousel names its page by index (from 0) or by the page's `id`: a page inserted before it
    /// does not move a hotspot named by id to another picture.
    @Test func aHotspotNamesItsPageByIdOrIndex() throws {
        func carousel(_ pages: String, _ page: String) -> String {
            #"{"kioskManifest": 1, "scenes": [{"id": "g", "type": "carousel", "pages": [\#(pages)], "#
                + #""hotspots": [{"id": "h", "rect": [0, 0, 9, 9], "page": \#(page)}]}]}"#
        }
        let pages = #""images/a.png", {"id": "shop", "image": "images/b.jpg"}, {"id": "cafe", "image": "images/c.jpg"}"#
        #expect(try Self.parse(carousel(pages, #""cafe""#)).scenes[0].hotspots[0].page == 2)
        #expect(try Self.parse(carousel(pages, "1")).scenes[0].hotspots[0].page == 1)
        let inserted =
            #""images/a.png", "images/a.png", {"id": "shop", "image": "images/b.jpg"}, {"id": "cafe", "image": "images/c.jpg"}"#
        #expect(try Self.parse(carousel(inserted, #""cafe""#)).scenes[0].hotspots[0].page == 3)
        for (text, message) in [
            (
                carousel(pages, #""bar""#),
                #"scenes[0].hotspots[0].page: no page has the id "bar" (the pages' ids: cafe, shop)"#
            ),
            (carousel(pages, "3"), "scenes[0].hotspots[0].page: no page 3 (the carousel has 3, counted from 0"),
            (
                carousel(#"{"id": "a", "image": "images/a.png"}, {"id": "a", "image": "images/b.jpg"}"#, "0"),
                #"scenes[0].pages[1].id: "a" is the id of another page"#
            ),
        ] {
            do {
                _ = try Self.parse(text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.contains(message), "\(error.description)")
            }
        }
    }

    /// Every error names the file and the JSON path of the field.
    @Test(arguments: [
        ("", "/m/kiosk.json: the file is empty"),
        ("{", "/m/kiosk.json: not valid JSON"),
        // The mistakes a curator makes, each with the line, the column and what to do.
        (
            "{\"kioskManifest\": 1,\n \"scenes\": [],\n}",
            "/m/kiosk.json: not valid JSON (line 3, column 1: a comma after the last member: JSON allows none, remove it)"
        ),
        (
            "{\"kioskManifest\": 1, \"languages\": [\"en\", \"de\",]}",
            "/m/kiosk.json: not valid JSON (line 1, column 47: a comma after the last item: JSON allows none, remove it)"
        ),
        (
            "{\"kioskManifest\": 1, \"home\": \u{201C}map\u{201D}}",
            "/m/kiosk.json: not valid JSON (line 1, column 30: unexpected character (a curly quote, as a word processor or "
                + "a phone writes them: JSON needs straight ones, \"))"
        ),
        // A byte-order mark (Windows' Notepad writes one) is no mistake.
        ("\u{FEFF}{\"kioskManifest\": 1}", "/m/kiosk.json: scenes: missing"),
        ("[]", "/m/kiosk.json: expected an object, found an array"),
        (#"{"scenes": []}"#, "/m/kiosk.json: kioskManifest: missing"),
        (#"{"kioskManifest": 2}"#, "/m/kiosk.json: kioskManifest: version 2"),
        (#"{"kioskManifest": 1, "scenes": [], "colour": 1}"#, "/m/kiosk.json: colour: unknown key"),
        (#"{"kioskManifest": 1}"#, "/m/kiosk.json: scenes: missing"),
        (#"{"kioskManifest": 1, "scenes": []}"#, "/m/kiosk.json: scenes: needs at least one scene"),
        (
            #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "images/a.png", "maxZoom": "big"}]}"#,
            "/m/kiosk.json: scenes[0].maxZoom: expected a number, found a string"
        ),
        (
            #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "images/a.png", "maxzoom": 2}]}"#,
            "/m/kiosk.json: scenes[0].maxzoom: unknown key"
        ),
        (
            #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "images/nope.png"}]}"#,
            "/m/kiosk.json: scenes[0].image: file not found: /m/images/nope.png"
        ),
        (
            #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "carousel", "pages": ["images/b.jpg", "x.jpg"]}]}"#,
            "/m/kiosk.json: scenes[0].pages[1]: file not found"
        ),
        (
            #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "movie", "image": "images/a.png"}]}"#,
            "/m/kiosk.json: scenes[0].type: \"movie\" is not a scene type"
        ),
        (
            #"{"kioskManifest": 1, "home": "b", "scenes": [{"id": "a", "type": "zoom", "image": "images/a.png"}]}"#,
            "/m/kiosk.json: home: no scene has the id \"b\""
        ),
        (
            #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "images/a.png", "hotspots": [{"rect": [1, 2, 3, 4], "goto": "z"}]}]}"#,
            "/m/kiosk.json: scenes[0].hotspots[0].goto: no scene has the id \"z\""
        ),
        (
            #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "images/a.png", "hotspots": [{"rect": [1, 2, 3]}]}]}"#,
            "/m/kiosk.json: scenes[0].hotspots[0].rect: expected [x, y, width, height]"
        ),
        (
            #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "images/a.png"}, {"id": "a", "type": "zoom", "image": "images/a.png"}]}"#,
            "/m/kiosk.json: scenes[1].id: \"a\" is used by another scene"
        ),
        (
            #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "images/a.png", "bounces": "yes"}]}"#,
            "/m/kiosk.json: scenes[0].bounces: expected true or false, found a string"
        ),
        (
            #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "scroll", "image": "images/a.png", "axis": "diagonal"}]}"#,
            "/m/kiosk.json: scenes[0].axis: \"diagonal\" is not an axis"
        ),
        (
            #"{"kioskManifest": 1, "background": "red", "scenes": [{"id": "a", "type": "zoom", "image": "images/a.png"}]}"#,
            "/m/kiosk.json: background: expected a colour"
        ),
        (
            #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "images/a.png", "minZoom": -1}]}"#,
            "/m/kiosk.json: scenes[0].minZoom: expected \"fit\" or a positive number"
        ),
    ])
    func errorsNameTheFileAndThePath(text: String, message: String) {
        do {
            _ = try Self.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    /// The manifest's `calibration.matrix` (docs/deploying.md): six numbers, a usable matrix, alone.
    @Test(arguments: [
        (#"{"matrix": [1, 0, 0, 0, 1]}"#, "/m/kiosk.json: calibration.matrix: expected [a, b, c, d, e, f]"),
        (#"{"matrix": [1, 0, 0, 0, "1", 0]}"#, "/m/kiosk.json: calibration.matrix: expected [a, b, c, d, e, f]"),
        (#"{"matrix": [1, 1, 0, 1, 1, 0]}"#, "/m/kiosk.json: calibration.matrix: the matrix is singular"),
        (#"{"matrix": [1, 0, 3, 0, 1, 0]}"#, "/m/kiosk.json: calibration.matrix: it maps the panel's corner"),
        (#"{"matrix": [1, 0, 0, 0, 1, 0], "minX": 0.1}"#, "/m/kiosk.json: calibration.matrix: a matrix stands alone"),
    ])
    func aCalibrationMatrixIsChecked(calibration: String, message: String) {
        let text = Self.good.replacingOccurrences(
            of: "\"idleTimeoutSeconds\": 60,", with: "\"idleTimeoutSeconds\": 60, \"calibration\": \(calibration),")
        do {
            _ = try Self.parse(text)
            Issue.record("accepted: \(calibration)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test func aCalibrationMatrixIsLibinputsAndClamped() throws {
        let text = Self.good.replacingOccurrences(
            of: "\"idleTimeoutSeconds\": 60,",
            with: #""idleTimeoutSeconds": 60, "calibration": {"matrix": [0, 1.1, -0.05, 1, 0, 0]},"#)
        let c = try Self.parse(text).calibration
        // x' = 1.1 y - 0.05, y' = x.
        let p = c.apply(Point(x: 0.2, y: 0.5))
        #expect(abs(p.x - 0.5) < 1e-12 && p.y == 0.2)
        // Past the screen's edge: on the edge.
        #expect(c.apply(Point(x: 0.3, y: 0.99)) == Point(x: 1, y: 0.3))
        #expect(c.apply(Point(x: 0.3, y: 0.01)) == Point(x: 0, y: 0.3))
        // The per-axis keys are one matrix too: the same mapping either way.
        var axes = Calibration()
        (axes.swapAxes, axes.invertX, axes.minX, axes.maxX, axes.minY, axes.maxY) = (true, true, 0.1, 0.8, 0.05, 0.9)
        let matrix = Calibration(matrix: axes.affine)
        for (x, y) in [(0.1, 0.2), (0.5, 0.5), (0.9, 0.7), (0.33, 0.81)] {
            let a = axes.apply(Point(x: x, y: y))
            let b = matrix.apply(Point(x: x, y: y))
            #expect(abs(a.x - b.x) < 1e-12 && abs(a.y - b.y) < 1e-12)
        }
    }

    @Test func calibrationAndRotation() throws {
        var c = Calibration()
        c.minX = 0.1
        c.maxX = 0.9
        c.invertY = true
        let p = c.apply(Point(x: 0.5, y: 0.25))
        #expect(abs(p.x - 0.5) < 1e-12 && p.y == 0.75)
        c.swapAxes = true
        #expect(c.apply(Point(x: 0.25, y: 0.1)).x == 0)
        #expect(Rotation.quarter.sceneSize(Size(width: 1920, height: 1080)) == Size(width: 1080, height: 1920))
        // The physical top-right corner is the scene's top-left after a quarter turn clockwise... and back.
        for r in Rotation.allCases {
            let q = r.toScene(Point(x: 0.2, y: 0.7))
            #expect(q.x >= 0 && q.x <= 1 && q.y >= 0 && q.y <= 1)
        }
        #expect(Rotation.quarter.toScene(Point(x: 1, y: 0)) == Point(x: 0, y: 0))
        #expect(Rotation.half.toScene(Point(x: 0, y: 0)) == Point(x: 1, y: 1))
        #expect(Rotation.threeQuarters.toScene(Point(x: 0, y: 1)) == Point(x: 0, y: 0))
    }
}

/// Many problems of one kind (200 languages missing from every text, 10 000 overlays) are said five times and
/// then counted in one line, not one line each at every start and reload.
@Test func problemsOfOneKindAreCountedNotFlooded() {
    var problems: [ManifestError] = []
    for i in 0..<200 {
        problems.append(
            ManifestError(
                file: "k.json", path: "scenes[0].title", message: "no \"l\(i)\" title; it shows the \"en\" title",
                isWarning: true))
    }
    problems.append(ManifestError(file: "k.json", path: "scenes[1].image", message: "file not found: a.png"))
    problems.append(ManifestError(file: "k.json", path: "scenes[2].image", message: "file not found: b.png"))
    let lines = ManifestError.logLines(problems)
    #expect(lines.count == 5 + 2 + 1)
    #expect(lines[0].line == #"k.json: scenes[0].title: no "l0" title; it shows the "en" title"#)
    #expect(lines[5].line == "k.json: scenes[1].image: file not found: a.png")
    #expect(lines[6].line == "k.json: scenes[2].image: file not found: b.png")
    #expect(lines[7].isWarning)
    #expect(lines[7].line == #"k.json: 195 more like "no "l0" title; it shows the "en" title" (not listed)"#)
}
