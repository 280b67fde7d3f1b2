import Foundation
import Testing

/// Visitor statistics end to end (docs/operations.md): a replay on the virtual clock with `--clock`, the visits
/// folder it leaves, and `kiosk --stats`.
@Suite struct StatisticsTests {
    let dir = Kiosk.folder()

    /// The map with its cafe (to the menu), the menu and the gallery; idle after 2 s.
    static let manifest = VisitorTests.manifest()

    /// Two visits separated by the idle timeout, one day's file with a torn last line and an old file that
    /// retention deletes.
    @Test func twoVisitsFromAReplay() throws {
        let config = try Kiosk.manifest(Self.manifest, in: dir)
        let state = dir.appendingPathComponent("state")
        let visits = state.appendingPathComponent("visits")
        try FileManager.default.createDirectory(at: visits, withIntermediateDirectories: true)
        let earlier =
            #"{"start": "2026-03-02T09:10:00+01:00", "durationMs": 5000, "scenes": {"map": 5000}, "hotspots": {}, "gestures": {"pan": 2, "pinch": 0, "doubleTap": 0, "page": 0}}"#
        try (earlier + "\n" + #"{"start": "2026-03-02T09:20:00+01:00", "durat"#).write(
            to: visits.appendingPathComponent("2026-03-02.jsonl"), atomically: true, encoding: .utf8)
        try (earlier.replacingOccurrences(of: "2026-03-02", with: "2024-12-01") + "\n").write(
            to: visits.appendingPathComponent("2024-12-01.jsonl"), atomically: true, encoding: .utf8)
        // The cafe (on a 320x240 screen the 4800x3000 plan is 320x200, 20 points down), then a scroll of the
        // menu; after the idle timeout a tap on nothing; the kiosk ends at rest.
        var log = LogWriter(width: 320, height: 240)
        log.finger(500, "DOWN", 1, 0.323, 0.375)
        log.finger(560, "UP", 1, 0.323, 0.375)
        log.drag(from: (0.5, 0.8), to: (0.5, 0.4), at: 1500, id: 2)
        log.tap(0.9, 0.9, at: 8000, id: 3)
        let r = try Kiosk.run(
            [
                "--headless", "320x240", "--config", config, "--replay", try log.write(dir), "--clock",
                "2026-03-02T14:30:00",
            ],
            in: dir, environment: ["STATE_DIRECTORY": state.path, "TZ": "Europe/Paris"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: visits.appendingPathComponent("2024-12-01.jsonl").path))
        let lines = try String(contentsOf: visits.appendingPathComponent("2026-03-02.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        // The drag lifts at 1596: the first visit is 500 to 1596, the cafe's menu from the lift at 560.
        #expect(
            lines[2]
                == #"{"start": "2026-03-02T14:30:00+01:00", "durationMs": 1096, "scenes": {"map": 60, "menu": 1036}, "hotspots": {"cafe": 1}, "gestures": {"pan": 1, "pinch": 0, "doubleTap": 0, "page": 0}}"#
        )
        #expect(
            lines[3]
                == #"{"start": "2026-03-02T14:30:08+01:00", "durationMs": 60, "scenes": {"map": 60}, "hotspots": {}, "gestures": {"pan": 0, "pinch": 0, "doubleTap": 0, "page": 0}}"#
        )

        let json = try Kiosk.run(["--stats", "--state", state.path, "--json"], in: dir, trace: false)
        #expect(json.status == 0)
        #expect(
            json.stdout
                == #"{"visits": 3, "days": {"2026-03-02": 3}, "scenes": {"map": 5120, "menu": 1036}, "hotspots": {"cafe": 1}, "durationMs": {"median": 1096, "p90": 5000}}"#
                + "\n")
        #expect(
            json.stderr.contains(
                "<4>kiosk: \(visits.path)/2026-03-02.jsonl:2: not a visit (a torn or corrupt line); skipped"))
        let text = try Kiosk.run(["--stats", "--state", state.path], in: dir, trace: false)
        #expect(
            text.stdout.hasPrefix("visits: 3\n  2026-03-02  3\nduration: median 1.1 s, 90th percentile 5.0 s\n"),
            "\(text.stdout)")
        #expect(
            text.stdout.contains("  map   5.1 s  83 %\n  menu  1.0 s  16 %\nhotspots by taps:\n  cafe  1\n"),
            "\(text.stdout)")
        let since = try Kiosk.run(
            ["--stats", "--state", state.path, "--since", "2026-03-03", "--json"], in: dir, trace: false)
        #expect(since.stdout.hasPrefix(#"{"visits": 0, "days": {}"#))
    }

    /// The wall clock set back to 1970, then to year 1, in the middle of visits: each visit is filed under the day
    /// it began (never 1969-12-31, which the next start's pruning would delete, nor a year-1 file); a visit that
    /// began under the year-1 clock is held, said once, and not written.
    @Test func aClockJumpLosesNoVisit() throws {
        let config = try Kiosk.manifest(Self.manifest, in: dir)
        let state = dir.appendingPathComponent("state")
        let visits = state.appendingPathComponent("visits")
        var log = LogWriter(width: 320, height: 240)
        log.tap(0.9, 0.9, at: 500, id: 1)
        log.tap(0.9, 0.9, at: 1500, id: 2)
        log.tap(0.9, 0.9, at: 9000, id: 3)
        let r = try Kiosk.run(
            [
                "--headless", "320x240", "--config", config, "--replay", try log.write(dir), "--clock",
                "2026-03-02T14:30:00", "--clock-jump", "1000:1970-01-01T00:00:10", "--clock-jump",
                "8000:0001-01-01T00:00:00",
            ],
            in: dir, environment: ["STATE_DIRECTORY": state.path, "TZ": "UTC"])
        #expect(r.status == 0, "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: visits.path).sorted()
        #expect(files == ["2026-03-02.jsonl"], "\(files)")
        let lines = try String(contentsOf: visits.appendingPathComponent("2026-03-02.jsonl"), encoding: .utf8)
            .split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix(#"{"start": "2026-03-02T14:30:00+00:00""#), "\(lines)")
        #expect(r.stderr.components(separatedBy: "outside 2000-2200: it is held").count == 2, "\(r.stderr)")
    }

    /// A visits folder that cannot be written: one warning, and the kiosk runs on.
    @Test func anUnwritableFolderIsOneWarning() throws {
        let config = try Kiosk.manifest(Self.manifest, in: dir)
        let state = dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        // A file where the folder should be: not even root can write into it.
        try Data().write(to: state.appendingPathComponent("visits"))
        var log = LogWriter(width: 320, height: 240)
        log.tap(0.9, 0.9, at: 500)
        log.tap(0.9, 0.9, at: 3500)
        let r = try Kiosk.run(
            ["--headless", "320x240", "--config", config, "--replay", try log.write(dir)], in: dir,
            environment: ["STATE_DIRECTORY": state.path])
        #expect(r.status == 0, "\(r.stderr)")
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("cannot write the visits") }
        #expect(warnings.count == 1, "\(r.stderr)")
        #expect(warnings.first?.hasPrefix("<4>kiosk: \(state.path)/visits: ") == true)
    }

    @Test func statsNeedsAStateFolder() throws {
        let r = try Kiosk.run(["--stats"], in: dir, environment: ["STATE_DIRECTORY": ""], trace: false)
        #expect(r.status == 2)
        #expect(r.stderr.contains("--stats: which state folder?"))
        let bad = try Kiosk.run(["--stats", "--since", "last week"], in: dir, trace: false)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--since last week: expected a day, YYYY-MM-DD"))
    }
}
