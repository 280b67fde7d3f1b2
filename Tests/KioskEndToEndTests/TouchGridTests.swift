import Foundation
import Testing

/// The touches counted for pictures (docs/authoring.md): each touch-down in the picture's pixels, on a coarse grid
/// per picture and day, in the state folder beside the visits.
@Suite struct TouchGridTests {
    let dir = Kiosk.folder()

    /// The plan (4800x3000) alone, opening at `minZoom`.
    func manifest(minZoom: String) throws -> String {
        try Kiosk.manifest(
            #"{"kioskManifest": 1, "idleTimeoutSeconds": 0, "scenes": [{"id": "map", "type": "zoom", "image": "images/floorplan.png", "minZoom": \#(minZoom), "maxZoom": 2}]}"#,
            in: dir)
    }

    /// The grid's counts of `map` after a replay of taps at `points` (screen pixels of 800x480), and the cells
    /// the trace's view says they are in (image point = (screen point + content offset) / zoom).
    func run(minZoom: String, taps points: [(Double, Double)]) throws -> (counts: [Int], expected: [Int: Int]) {
        let state = dir.appendingPathComponent("state-\(UUID().uuidString)")
        var log = LogWriter()
        for (i, p) in points.enumerated() { log.tap(p.0 / 800, p.1 / 480, at: 500 + Double(i) * 400, id: i + 1) }
        let r = try Kiosk.run(
            [
                "--headless", "800x480", "--config", try manifest(minZoom: minZoom), "--replay", try log.write(dir),
                "--clock", "2026-03-02T14:30:00",
            ], in: dir, environment: ["STATE_DIRECTORY": state.path, "TZ": "UTC"])
        #expect(r.status == 0, "\(r.stderr)")
        let (ox, oy) = r.offset("map")
        let zoom = r.number("map", "zoomScale")
        var expected: [Int: Int] = [:]
        for (x, y) in points {
            let (ix, iy) = ((x + ox) / zoom, (y + oy) / zoom)
            expected[Int(iy / 3000 * 36) * 64 + Int(ix / 4800 * 64), default: 0] += 1
        }
        let file = state.appendingPathComponent("visits/2026-03-02.touches.json")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: [String: Any]],
            "\(r.stderr)")
        #expect(json["map"]?["grid"] as? [Int] == [64, 36])
        #expect(json["map"]?["image"] as? [Int] == [4800, 3000])
        return (json["map"]?["counts"] as? [Int] ?? [], expected)
    }

    /// At the fitted zoom (0.16: the plan 768x480, 16 pixels in) and zoomed in (0.5), each touch-down in
    /// its cell, and nothing else counted; a tap beside the picture is not on it.
    @Test func eachTouchDownIsCountedWhereItIsOnThePicture() throws {
        let fit = try run(minZoom: #""fit""#, taps: [(400, 240), (80, 48), (400, 240), (5, 240)])
        // The centre is image (2400, 1500), cell (32, 18); (80, 48) is (400, 300), cell (5, 3); x 5 is beside it.
        #expect(fit.counts[18 * 64 + 32] == 2 && fit.counts[3 * 64 + 5] == 1)
        #expect(fit.counts.reduce(0, +) == 3, "the tap beside the picture is not on it")
        #expect(fit.expected[18 * 64 + 32] == 2)
        let zoomed = try run(minZoom: "0.5", taps: [(400, 240), (1, 1), (799, 479)])
        #expect(zoomed.counts.reduce(0, +) == 3)
        for (cell, n) in zoomed.expected { #expect(zoomed.counts[cell] == n, "cell \(cell)") }
        // Zoomed in, the same screen point is elsewhere on the picture.
        #expect(zoomed.counts[18 * 64 + 32] == 0)
    }

    /// The day's touches file is a FIFO or a folder (an operator's mistake): the kiosk does not hang on it, says
    /// so once, and says at the end how many touches it could not write (they were dropped without a word).
    @Test(arguments: ["fifo", "folder"]) func aTouchesFileThatIsNotAFileIsSaid(kind: String) throws {
        let state = dir.appendingPathComponent("state-\(UUID().uuidString)")
        let visits = state.appendingPathComponent("visits")
        try FileManager.default.createDirectory(at: visits, withIntermediateDirectories: true)
        let file = visits.appendingPathComponent("2026-03-02.touches.json").path
        if kind == "fifo" {
            #expect(mkfifo(file, 0o600) == 0)
        } else {
            try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
        }
        var log = LogWriter()
        for i in 0..<3 { log.tap(0.5, 0.5, at: 500 + Double(i) * 400, id: i + 1) }
        let r = try Kiosk.run(
            [
                "--headless", "800x480", "--config", try manifest(minZoom: #""fit""#), "--replay", try log.write(dir),
                "--clock", "2026-03-02T14:30:00",
            ], in: dir, environment: ["STATE_DIRECTORY": state.path, "TZ": "UTC"])
        #expect(r.status == 0, "\(r.stderr)")
        let said = r.stderr.split(separator: "\n").filter { $0.contains("2026-03-02.touches.json") }
        #expect(said.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("3 touch(es) on the pictures not written"), "\(r.stderr)")
    }
}
