import Foundation
import Testing

/// Power cuts: every file the kiosk writes is left by a cut at any byte as its old content or its new one, or
/// with a torn last line that readers skip. Each writer's file is cut at points through its new content (what
/// the cut leaves: the temporary file beside the old one, or, on a disk that lost the rename's order, the file
/// itself cut short), and the kiosk started again: it runs, and nothing that was complete is lost.
@Suite struct PowerCutTests {
    let dir = Kiosk.folder()

    /// `count` points through `n` bytes, both ends included.
    static func cuts(_ n: Int, count: Int = 9) -> [Int] {
        Array(Set((0..<count).map { $0 * n / (count - 1) })).sorted()
    }

    /// The kiosk on the demo with `state` as its state folder, `extra` arguments, for a short headless run.
    func start(state: URL, _ extra: [String] = [], cache: String? = nil) throws -> Kiosk.Result {
        let config = try Kiosk.manifest(Kiosk.demo, in: dir)
        var env = ["STATE_DIRECTORY": state.path, "TZ": "UTC"]
        if let cache { env["XDG_CACHE_HOME"] = cache }
        return try Kiosk.run(["--headless", "320x240", "--config", config] + extra, in: dir, environment: env)
    }

    /// The saved state: the old one (the map) beside a new one (the menu) cut at each point, as the temporary
    /// file a cut leaves (the old is restored), or as the file itself (the kiosk starts, at home or restored).
    @Test func theState() throws {
        let state = dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        var log = LogWriter(width: 320, height: 240)
        log.tap(0.323, 0.375, at: 100)
        _ = try start(state: state, ["--replay", try log.write(dir)])
        let file = state.appendingPathComponent("state.json")
        let new = try Data(contentsOf: file)
        #expect(String(decoding: new, as: UTF8.self).contains("\"menu\""))
        let old = Data(String(decoding: new, as: UTF8.self).replacingOccurrences(of: "\"menu\"", with: "\"map\"").utf8)
        for n in Self.cuts(new.count) {
            try old.write(to: file)
            try new.prefix(n).write(to: state.appendingPathComponent("state.json.tmp"))
            let r = try start(state: state)
            #expect(r.status == 0, "\(n): \(r.stderr)")
            #expect(r.trace.first?["scene"] as? String == "map", "cut at \(n): \(r.stderr)")
            try? FileManager.default.removeItem(at: state.appendingPathComponent("state.json.tmp"))
            try new.prefix(n).write(to: file)
            let cut = try start(state: state)
            #expect(cut.status == 0, "\(n): \(cut.stderr)")
            let scene = cut.trace.first?["scene"] as? String
            #expect(scene == (n == new.count ? "menu" : "map"), "cut at \(n): \(cut.stderr)")
            #expect(n == new.count || n == 0 || cut.stderr.contains("<4>"), "cut at \(n): \(cut.stderr)")
        }
    }

    /// The visits: a day's file whose last line a cut tore at each point; the next visit is appended on a line
    /// of its own, and the statistics count every complete visit and say the torn line once.
    @Test func theVisits() throws {
        let state = dir.appendingPathComponent("visits-state")
        let visits = state.appendingPathComponent("visits")
        try FileManager.default.createDirectory(at: visits, withIntermediateDirectories: true)
        let line =
            #"{"start": "2026-01-05T09:00:00+00:00", "durationMs": 60, "scenes": {"map": 60}, "hotspots": {}, "gestures": {"pan": 0, "pinch": 0, "doubleTap": 0, "page": 0}}"#
        var log = LogWriter(width: 320, height: 240)
        log.tap(0.9, 0.9, at: 100)
        let replay = try log.write(dir)
        for n in Self.cuts(line.utf8.count) {
            let day = visits.appendingPathComponent("2026-01-05.jsonl")
            try (line + "\n" + String(decoding: Array(line.utf8).prefix(n), as: UTF8.self)).write(
                to: day, atomically: false, encoding: .utf8)
            let r = try start(state: state, ["--replay", replay, "--clock", "2026-01-05T10:00:00"])
            #expect(r.status == 0, "\(r.stderr)")
            let stats = try Kiosk.run(["--stats", "--state", state.path, "--json"], in: dir, trace: false)
            let torn = n > 0 && n < line.utf8.count
            // The complete line, the torn one when it is whole, and the new visit.
            let expected = 2 + (n == line.utf8.count ? 1 : 0)
            #expect(stats.stdout.hasPrefix("{\"visits\": \(expected),"), "cut at \(n): \(stats.stdout) \(stats.stderr)")
            #expect(stats.stderr.contains("<4>") == torn, "cut at \(n): \(stats.stderr)")
        }
    }

    /// The calibration: the kiosk's own beside a new one cut at each point (the temporary file: the old is
    /// used), or cut itself (the manifest's is used, said once).
    @Test func theCalibration() throws {
        let state = dir.appendingPathComponent("calibration-state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let file = state.appendingPathComponent("calibration.json")
        let new = Data(
            #"{"kioskCalibration": 1, "matrix": [1.01, 0, -0.005, 0, 0.99, 0.004], "created": "2026-01-05T09:00:00Z", "residual": 0.002}"#
                .utf8 + [10])
        let old = Data(String(decoding: new, as: UTF8.self).replacingOccurrences(of: "1.01", with: "1.02").utf8)
        for n in Self.cuts(new.count) {
            try old.write(to: file)
            try new.prefix(n).write(to: state.appendingPathComponent("calibration.json.tmp"))
            let r = try start(state: state)
            #expect(r.status == 0 && r.stderr.contains("1.02"), "cut at \(n): \(r.stderr)")
            try? FileManager.default.removeItem(at: state.appendingPathComponent("calibration.json.tmp"))
            try new.prefix(n).write(to: file)
            let cut = try start(state: state)
            #expect(cut.status == 0, "cut at \(n): \(cut.stderr)")
            #expect(n == new.count || cut.stderr.contains("<4>"), "cut at \(n): \(cut.stderr)")
        }
    }

    /// The tile cache: the floor plan's tile file cut at each point (a disk that lost its end): the kiosk cuts
    /// it again, and draws the same picture as from a whole one.
    @Test func theTileCache() throws {
        let state = dir.appendingPathComponent("tiles-state")
        let cache = dir.appendingPathComponent("cache").path
        let shot = dir.appendingPathComponent("whole.png").path
        let whole = try start(state: state, ["--screenshot", "0:\(shot)"], cache: cache)
        #expect(whole.status == 0)
        let folder = cache + "/kiosk"
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".tiles") })
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        let reference = try #require(Picture(path: shot))
        for n in Self.cuts(data.count, count: 5) {
            try data.prefix(n).write(to: URL(fileURLWithPath: folder + "/" + name))
            let path = dir.appendingPathComponent("cut-\(n).png").path
            let r = try start(state: state, ["--screenshot", "0:\(path)"], cache: cache)
            #expect(r.status == 0, "cut at \(n): \(r.stderr)")
            #expect(r.stderr.contains("cut into tiles") == (n < data.count), "cut at \(n): \(r.stderr)")
            #expect(LookTests.difference(try #require(Picture(path: path)), reference) <= 0.5, "cut at \(n)")
        }
    }
}
