import CSDL2
import CSDL2Image
import Foundation
import TestSupport
import Testing

/// `kiosk --stats --report DIR` (docs/operations.md): a page and its charts from the state folder, the same
/// numbers as `--stats --json`, readable with no network; the state folder only read.
@Suite struct ReportTests {
    let dir = Kiosk.folder()

    /// A replayed visit on the plan (its touches counted), then the report: `report.json`'s stats are what
    /// `--stats --json` says, every picture the page names is a PNG beside it, the heatmap shows the touches over
    /// the plan, and nothing in the state folder changed.
    @Test func aReportOfAReplayedVisit() throws {
        let config = try Kiosk.manifest(
            #"{"kioskManifest": 1, "idleTimeoutSeconds": 1, "scenes": [{"id": "map", "type": "zoom", "image": "images/floorplan.png"}]}"#,
            in: dir)
        let state = dir.appendingPathComponent("state")
        var log = LogWriter()
        for i in 0..<5 { log.tap(0.5, 0.5, at: 500 + Double(i) * 300, id: i + 1) }
        let r = try Kiosk.run(
            [
                "--headless", "800x480", "--config", config, "--replay", try log.write(dir), "--clock",
                "2026-03-02T14:30:00",
            ], in: dir, environment: ["STATE_DIRECTORY": state.path, "TZ": "UTC"])
        #expect(r.status == 0, "\(r.stderr)")
        let visits = state.appendingPathComponent("visits").path
        let before = try FileManager.default.contentsOfDirectory(atPath: visits).sorted()
        let out = dir.appendingPathComponent("report").path
        let report = try Kiosk.run(
            ["--stats", "--state", state.path, "--report", out, "--config", config], in: dir, trace: false)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stderr.isEmpty, "\(report.stderr)")
        let stats = try Kiosk.run(["--stats", "--state", state.path, "--json"], in: dir, trace: false)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json")))
                as? [String: Any])
        let expected = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? NSDictionary
        #expect((json["stats"] as? NSDictionary) == expected, "\(json["stats"] ?? "none") against \(stats.stdout)")
        #expect((json["touches"] as? [String: [String: Any]])?["map"]?["touches"] as? Int == 5)
        // Monday 2026-03-02 at 14:00, one visit.
        #expect(((json["hoursOfWeek"] as? [[Int]])?[0][14]) == 1)
        let page = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(!page.contains("http://") && !page.contains("https://"), "nothing from the network")
        let images = page.components(separatedBy: "src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(images.contains("touches-1.png") && images.contains("visits-per-day.png"), "\(images)")
        for name in images {
            let s = IMG_Load(out + "/" + name)
            #expect(s != nil, "\(name) is a picture")
            SDL_FreeSurface(s)
        }
        // The touches, all at the plan's centre, are drawn there: the heatmap's hottest red.
        let heat = try #require(Picture(path: out + "/touches-1.png"))
        let (red, green, _) = heat.rgb(heat.width / 2, 48 + (heat.height - 56) / 2)
        #expect(red > 200 && green < 80, "the centre is hot: \(red), \(green)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: visits).sorted() == before)
    }

    /// Touches recorded on the plan, reported with a manifest whose scene of the same id shows another picture
    /// (the packaged demo's, with no --config): never drawn over it, and one line says which and what to pass.
    @Test func touchesOnAnotherPictureAreNotDrawnOverThisOne() throws {
        let visits = dir.appendingPathComponent("state/visits")
        try FileManager.default.createDirectory(at: visits, withIntermediateDirectories: true)
        var counts = [Int](repeating: 0, count: 64 * 36)
        counts[18 * 64 + 32] = 40
        let touches = #"{"map": {"grid": [64, 36], "image": [1000, 700], "counts": \#(counts)}}"#
        try touches.write(
            to: visits.appendingPathComponent("2026-03-02.touches.json"), atomically: true, encoding: .utf8)
        let config = try Kiosk.manifest(
            #"{"kioskManifest": 1, "scenes": [{"id": "map", "type": "zoom", "image": "images/floorplan.png"}]}"#,
            in: dir)
        let out = dir.appendingPathComponent("report").path
        let r = try Kiosk.run(
            ["--stats", "--state", dir.appendingPathComponent("state").path, "--report", out, "--config", config],
            in: dir, trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "--report: the touches were recorded on other pictures than the manifest's: map (touched on 1000x700, "
                    + "the manifest's is "),
            "\(r.stderr)")
        #expect(r.stderr.contains("Pass the manifest the kiosk showed them with, --config PATH"), "\(r.stderr)")
        // Drawn over the grey field (200, 200, 204) of a picture not found, not over the plan.
        let heat = try #require(Picture(path: out + "/touches-1.png"))
        for (x, y) in [(0.2, 0.2), (0.7, 0.3), (0.3, 0.8)] {
            let rgb = heat.rgb(16 + Int(Double(heat.width - 32) * x), 48 + Int(Double(heat.height - 56) * y))
            #expect(close(rgb, (200, 200, 204), 2), "\(rgb) at \(x), \(y)")
        }
    }

    /// Lines no visit has (a count or a time below zero, a date of 1970 or 2999, a visit of a year): each is
    /// skipped with a line naming its file and line, and the report and the statistics count the good one.
    @Test func aVisitLineWithImpossibleValuesIsSkippedAndSaid() throws {
        let visits = dir.appendingPathComponent("state/visits")
        try FileManager.default.createDirectory(at: visits, withIntermediateDirectories: true)
        func line(
            start: String = "2026-03-02T14:30:00+00:00", duration: Int = 5000, hotspots: String = "{}",
            languages: String = "{}"
        ) -> String {
            #"{"start": "\#(start)", "durationMs": \#(duration), "scenes": {"map": 5000}, "hotspots": \#(hotspots), "#
                + #""gestures": {"pan": 1, "pinch": 0, "doubleTap": 0, "page": 0}, "languages": \#(languages)}"#
        }
        let lines = [
            line(), line(hotspots: #"{"cafe": -1}"#), line(languages: #"{"en": -5000}"#), line(duration: -5000),
            line(duration: 400_000_000_000), line(start: "1970-01-01T00:00:00+00:00"),
            line(start: "2999-12-31T23:00:00+00:00"),
        ]
        try (lines.joined(separator: "\n") + "\n").write(
            to: visits.appendingPathComponent("2026-03-02.jsonl"), atomically: true, encoding: .utf8)
        let state = dir.appendingPathComponent("state").path
        let stats = try Kiosk.run(["--stats", "--state", state, "--json"], in: dir, trace: false)
        #expect(stats.status == 0, "\(stats.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(json["visits"] as? Int == 1, "\(stats.stdout)")
        let skipped = stats.stderr.split(separator: "\n").filter { $0.hasPrefix("<4>") && $0.hasSuffix("; skipped") }
        #expect(skipped.count == 6, "\(stats.stderr)")
        for n in 2...7 { #expect(skipped.contains { $0.contains("2026-03-02.jsonl:\(n): ") }, "line \(n)") }
        let out = dir.appendingPathComponent("report").path
        let report = try Kiosk.run(["--stats", "--state", state, "--report", out], in: dir, trace: false)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/index.html"))
    }

    /// The report is written whole or not at all: an earlier report is replaced entire (a chart it had and this one
    /// has not does not stay), and a folder holding what a report does not write (the operator's own file) is
    /// refused with one line and left as it was.
    @Test func theReportFolderIsReplacedWholeAndNeverAnotherFolder() throws {
        let state = dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(
            at: state.appendingPathComponent("visits"), withIntermediateDirectories: true)
        let out = dir.appendingPathComponent("report").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: out + "/touches-9.png"))
        let r = try Kiosk.run(["--stats", "--state", state.path, "--report", out], in: dir, trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(names.contains("index.html") && !names.contains("touches-9.png"), "\(names)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".report") }
        #expect(left.isEmpty, "nothing left beside it: \(left)")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: out + "/notes.txt"))
        let before = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        let refused = try Kiosk.run(["--stats", "--state", state.path, "--report", out], in: dir, trace: false)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("holds notes.txt"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == before)
    }

    /// The page as a browser shows it: Debian's chromium, headless, draws its charts (skipped where it is not
    /// installed; `.ci/run` installs it).
    @Test(Installed.needs("/usr/bin/chromium", from: "chromium", for: "no browser to open the report in"))
    func aBrowserShowsTheCharts() throws {
        let state = dir.appendingPathComponent("state")
        let visits = state.appendingPathComponent("visits")
        try FileManager.default.createDirectory(at: visits, withIntermediateDirectories: true)
        try
            #"{"start": "2026-03-02T10:00:00+01:00", "durationMs": 30000, "scenes": {"map": 30000}, "hotspots": {"cafe": 2}, "gestures": {"pan": 1, "pinch": 0, "doubleTap": 0, "page": 0}}"#
            .appending("\n").write(
                to: visits.appendingPathComponent("2026-03-02.jsonl"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("report").path
        let report = try Kiosk.run(["--stats", "--state", state.path, "--report", out], in: dir, trace: false)
        #expect(report.status == 0, "\(report.stderr)")
        let shot = dir.appendingPathComponent("browser.png").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
        p.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--screenshot=\(shot)", "--window-size=1000,900",
            "file://\(out)/index.html",
        ]
        p.standardError = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        let picture = try #require(Picture(path: shot), "chromium wrote no screenshot")
        // The first chart's bars (#0A84FF) are on the page as the browser drew it.
        let blue = picture.pixels.filter { px in
            let (r, g, b) = (px >> 16 & 0xFF, px >> 8 & 0xFF, px & 0xFF)
            return r < 40 && (110...150).contains(g) && b > 230
        }.count
        #expect(blue > 1000, "\(blue) pixels of the charts' blue")
    }
}
