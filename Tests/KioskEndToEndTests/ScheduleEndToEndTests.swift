import Foundation
import Testing

/// Schedules and the honest clock (docs/operations.md) in the built kiosk: `--clock` replays with an unsynchronised start
/// and jumps, the plan of `--check --plan`, and a schedule's mistakes (exit 3 at start and in `--check`).
@Suite struct ScheduleEndToEndTests {
    let dir = Kiosk.folder()

    static let manifest = """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 2,
         "openingHours": {"mon-sun": "07:00-20:00"},
         "schedule": [{"days": "mon-fri", "hours": "08:00-12:00", "home": "gallery", "attract": "morning"},
                      {"dates": "2026-01-06", "closed": true}],
         "attractSets": {"morning": {"afterSeconds": 30, "steps": [{"scene": "gallery", "seconds": 10}]}},
         "scenes": [
           {"id": "map", "type": "zoom", "image": "images/floorplan.png", "maxZoom": 2.0},
           {"id": "gallery", "type": "carousel", "pages": ["images/gallery-sunset.jpg", "images/gallery-mountains.jpg"]}
         ]}
        """

    func events(_ r: Kiosk.Result, _ names: Set<String>) -> [(t: Double, name: String, fields: [String: Any])] {
        r.trace.flatMap { line in
            (line["events"] as? [[String: Any]] ?? []).compactMap { e in
                let name = e["name"] as? String ?? ""
                return names.contains(name) ? (line["t"] as? Double ?? -1, name, e) : nil
            }
        }
    }

    /// A board without a battery: it starts in 1970, unsynchronised, and shows the manifest's home, open (said
    /// once); at 3 s the network's time arrives (Tuesday, a closed date): blank at once; at 5 s the clock steps
    /// back a day to Monday morning: the schedule's gallery; at 7 s forward a year (a Tuesday morning again):
    /// nothing to change.
    @Test func aBoardWithoutABattery() throws {
        let config = try Kiosk.manifest(Self.manifest, in: dir)
        var log = LogWriter(width: 320, height: 240)
        log.finger(9000, "DOWN", 1, 0.5, 0.5)
        log.finger(9060, "UP", 1, 0.5, 0.5)
        let r = try Kiosk.run(
            [
                "--headless", "320x240", "--config", config, "--replay", try log.write(dir), "--clock",
                "1970-01-01T00:00:00", "--clock-unsynchronized", "--clock-jump", "3000:2026-01-06T10:00:00",
                "--clock-jump", "5000:2026-01-05T10:00:00", "--clock-jump", "7000:2027-01-05T10:00:00",
            ], in: dir, environment: ["TZ": "UTC"])
        #expect(r.status == 0, "\(r.stderr)")
        let said = r.stderr.components(separatedBy: "\n").filter { $0.contains("not synchronised yet") }
        #expect(said.count == 1 && said[0].hasPrefix("<4>"), "\(r.stderr)")
        let seen = events(
            r,
            [
                "clockDidSynchronize", "clockDidJump", "scheduleDidApply", "screenDidBlank", "screenDidWake",
                "sceneDidChange",
            ])
        #expect(r.trace.first?["scene"] as? String == "map")
        #expect(
            seen.map(\.name) == [
                "clockDidSynchronize", "clockDidJump", "scheduleDidApply", "screenDidBlank", "clockDidJump",
                "scheduleDidApply", "sceneDidChange", "screenDidWake", "clockDidJump",
            ], "\(seen.map(\.name))")
        #expect(seen.prefix(4).allSatisfy { $0.t == 3000 } && seen[4].t == 5000 && seen[8].t == 7000)
        #expect(seen[1].fields["seconds"] as? Double ?? 0 > 1_767_000_000)
        #expect(seen[4].fields["seconds"] as? Double ?? 0 < -86_000)
        #expect(seen[5].fields["entry"] as? String == "schedule[0]")
        #expect(r.trace.last?["scene"] as? String == "gallery")
        #expect(r.stderr.contains("<6>kiosk: the wall clock jumped -86402.0 s"), "\(r.stderr)")
    }

    /// A visit that ends before the network's time arrives (1970 on the board's clock) is written once the
    /// clock is synchronised, dated by it; one that ends after is dated as usual; none is in 1970.
    @Test func visitsWaitForTheClock() throws {
        let config = try Kiosk.manifest(
            Kiosk.demo.replacingOccurrences(of: "\"idleTimeoutSeconds\": 0", with: "\"idleTimeoutSeconds\": 1"), in: dir
        )
        let state = dir.appendingPathComponent("state")
        var log = LogWriter(width: 320, height: 240)
        log.tap(0.9, 0.9, at: 500)
        log.tap(0.9, 0.9, at: 8000)
        let r = try Kiosk.run(
            [
                "--headless", "320x240", "--config", config, "--replay", try log.write(dir), "--clock",
                "1970-01-01T00:00:00", "--clock-unsynchronized", "--clock-jump", "4000:2026-03-02T14:30:04",
            ], in: dir, environment: ["STATE_DIRECTORY": state.path, "TZ": "UTC"])
        #expect(r.status == 0, "\(r.stderr)")
        let visits = state.appendingPathComponent("visits")
        let files = try FileManager.default.contentsOfDirectory(atPath: visits.path)
        // The touches on the picture wait for the clock too: filed under the same day, none under 1970.
        #expect(files.sorted() == ["2026-03-02.jsonl", "2026-03-02.touches.json"], "\(files)")
        let lines = try String(contentsOf: visits.appendingPathComponent("2026-03-02.jsonl"), encoding: .utf8)
            .split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(#"{"start": "2026-03-02T14:30:00+00:00""#) == true, "\(lines)")
        #expect(lines.last?.hasPrefix(#"{"start": "2026-03-02T14:30:08+00:00""#) == true, "\(lines)")
    }

    /// The plan of a week from Monday 06:00: opening, the morning's gallery, noon, closing, and the closed day.
    @Test func checkPlan() throws {
        let config = try Kiosk.manifest(Self.manifest, in: dir)
        let r = try Kiosk.run(
            ["--check", "--config", config, "--plan", "2", "--clock", "2026-01-05T06:00:00"], in: dir,
            environment: ["TZ": "UTC"], trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.contains("schedule: 2 entries, attract sets morning (kiosk --check --plan shows"), "\(r.stdout)")
        let plan = r.stdout.components(separatedBy: "\n").drop { !$0.hasPrefix("plan") }.prefix(9)
        #expect(
            Array(plan) == [
                "plan for 2 days from Mon 2026-01-05 06:00:",
                "  Mon 2026-01-05 06:00  closed (opening hours)",
                "  Mon 2026-01-05 07:00  home \"map\", the default attract loop",
                "  Mon 2026-01-05 08:00  home \"gallery\", attract \"morning\" (schedule[0])",
                "  Mon 2026-01-05 12:00  home \"map\", the default attract loop",
                "  Mon 2026-01-05 20:00  closed (opening hours)",
                "  Tue 2026-01-06 00:00  closed (schedule[1])",
                "  Wed 2026-01-07 00:00  closed (opening hours)",
                "ok",
            ], "\(r.stdout)")
    }

    /// An attract set is checked against its images as `attract` is.
    @Test func anAttractSetsViewOutsideItsImage() throws {
        let text = Self.manifest.replacingOccurrences(
            of: #"[{"scene": "gallery", "seconds": 10}]"#,
            with: #"[{"scene": "map", "seconds": 10, "to": {"center": [90000, 100]}}]"#)
        let check = try Kiosk.run(["--check", "--config", try Kiosk.manifest(text, in: dir)], in: dir, trace: false)
        #expect(check.status == 3)
        #expect(
            check.stderr.contains("attractSets.morning.steps[0].to.center: [90000.0, 100.0] is outside the image"),
            "\(check.stderr)")
    }

    @Test(arguments: [
        (#"{"days": "mon-fry", "home": "map"}"#, #"schedule[0].days: "mon-fry" is not a day"#),
        (
            #"{"dates": "2026-12-24..2026-12-01", "closed": true}"#,
            #"schedule[0].dates: "2026-12-24..2026-12-01" ends before it starts"#
        ),
        (
            #"{"dates": ["2026-12-01..2026-12-10", "2026-12-05"], "closed": true}"#,
            #"schedule[0].dates[1]: "2026-12-05" overlaps"#
        ),
        (#"{"days": "sat", "attract": "evening"}"#, #"schedule[0].attract: no attract set is named "evening""#),
        (#"{"days": "sat", "home": "lobby"}"#, #"schedule[0].home: no scene has the id "lobby""#),
    ])
    func mistakesExit3(entry: String, message: String) throws {
        let text = Self.manifest.replacingOccurrences(of: #"{"dates": "2026-01-06", "closed": true}"#, with: entry)
        let config = try Kiosk.manifest(text, in: dir)
        let r = try Kiosk.run(["--headless", "320x240", "--config", config], in: dir, trace: false)
        #expect(r.status == 3)
        #expect(
            r.stderr.contains("<3>kiosk: \(config): schedule[1]" + message.dropFirst("schedule[0]".count)),
            "\(r.stderr)")
        let check = try Kiosk.run(["--check", "--config", config], in: dir, trace: false)
        #expect(check.status == 3 && check.stderr.contains(message.dropFirst("schedule[0]".count)))
    }
}
