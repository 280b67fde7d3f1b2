import Foundation
import Testing

/// The visitor's first seconds (docs/manifest.md): scene transitions, the attract loop, opening hours; replays on the
/// virtual clock with their traces and screenshots.
@Suite struct VisitorTests {
    let dir = Kiosk.folder()

    static func manifest(transition: String = "fade", extra: String = "") -> String {
        """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 2, "transition": "\(transition)", \(extra)
         "scenes": [
           {"id": "map", "type": "zoom", "image": "images/floorplan.png", "maxZoom": 2.0,
            "hotspots": [{"id": "cafe", "rect": [1200, 800, 700, 500], "goto": "menu"}]},
           {"id": "menu", "type": "scroll", "image": "images/menu-long.png", "axis": "vertical"},
           {"id": "gallery", "type": "carousel", "pages": ["images/gallery-sunset.jpg", "images/gallery-mountains.jpg",
            "images/gallery-circles.jpg"]}
         ]}
        """
    }

    /// The cafe on a 320x240 screen: the 4800x3000 plan fits at 320x200, 20 points down.
    static let cafe = (0.323, 0.375)

    func shot(_ config: String, _ extra: [String], at ms: Double, _ name: String) throws -> Picture {
        let path = dir.appendingPathComponent(name).path
        let r = try Kiosk.run(
            ["--headless", "320x240", "--config", config, "--screenshot", "\(ms):\(path)"] + extra, in: dir,
            trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(Picture(path: path))
    }

    /// The cafe tapped at 0 (lifted at 60): the transition runs from the frame at 66.7 ms for 300 ms. Shots at
    /// its start, half way (the frame at 216.7 ms) and after: the old scene, both mixed, the new scene.
    @Test(arguments: ["fade", "zoom"])
    func aTransitionShowsBothScenes(style: String) throws {
        let config = try Kiosk.manifest(Self.manifest(transition: style), in: dir)
        var log = LogWriter(width: 320, height: 240)
        log.tap(Self.cafe.0, Self.cafe.1, at: 0)
        let replay = try log.write(dir)
        let paths = [60.0, 216.6, 400].map { dir.appendingPathComponent("t\(Int($0)).png").path }
        let r = try Kiosk.run(
            ["--headless", "320x240", "--config", config, "--replay", replay]
                + zip([60.0, 216.6, 400], paths).flatMap { ["--screenshot", "\($0):\($1)"] }, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let start = try #require(r.events.first { $0.name == "sceneTransition" })
        #expect(start.fields["style"] as? String == style && start.fields["to"] as? String == "menu")
        let progress = r.trace.compactMap { ($0["transition"] as? [String: Any])?["progress"] as? Double }
        #expect(progress.first == 0 && progress.count == 18, "\(progress)")
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0 < $1 })
        let map = try shot(config, [], at: 0, "map.png")
        let menu = try shot(config, ["--scene", "menu"], at: 0, "menu.png")
        let shots = try paths.map { try #require(Picture(path: $0)) }
        if style == "fade" { #expect(LookTests.difference(shots[0], map) <= 1.5) }
        #expect(LookTests.difference(shots[2], menu) <= 1.5)
        let (toMap, toMenu) = (LookTests.difference(shots[1], map), LookTests.difference(shots[1], menu))
        #expect(toMap > 8 && toMenu > 8, "half way is neither scene: \(toMap), \(toMenu)")
        if style == "fade" {
            // Half way (eased 0.5): each pixel half of each.
            #expect(Self.mixDifference(shots[1], map, menu) <= 3)
        } else {
            // The menu grows out of the cafe (80, 73, 47x33 on screen): half way it covers (40, 37) to (223, 173);
            // the corners are still the map's, but for the chrome, which is the menu's from the start and stays
            // put (its home button, 64 points at (8, 0), a disc inset 6).
            #expect(Self.difference(shots[1], map, x: 0..<24, y: 216..<240) <= 1.5)
            #expect(Self.difference(shots[1], map, x: 140..<180, y: 100..<140) > 20)
            // The start is the map beside that corner, where the menu's home button is already (the map's own
            // corner is white there), and but for the map's zoom buttons at the right (the menu has none).
            #expect(Self.difference(shots[0], map, x: 80..<240, y: 0..<240) <= 5)
            #expect(Self.difference(shots[0], map, x: 28..<52, y: 20..<44) > 20)
            #expect(Self.difference(shots[1], map, x: 28..<52, y: 20..<44) > 20)
        }
    }

    /// Mean difference (0-255 per channel) of `p` from the half-and-half mix of `a` and `b`.
    static func mixDifference(_ p: Picture, _ a: Picture, _ b: Picture) -> Double {
        var total = 0.0
        for y in stride(from: 0, to: p.height, by: 2) {
            for x in stride(from: 0, to: p.width, by: 2) {
                let (r, g, bl) = p.rgb(x, y)
                let (r1, g1, b1) = a.rgb(x, y)
                let (r2, g2, b2) = b.rgb(x, y)
                total +=
                    (abs(Double(r) - Double(r1 + r2) / 2) + abs(Double(g) - Double(g1 + g2) / 2)
                        + abs(Double(bl) - Double(b1 + b2) / 2)) / 3
            }
        }
        return total / Double((p.width / 2) * (p.height / 2))
    }

    static func difference(_ a: Picture, _ b: Picture, x: Range<Int>, y: Range<Int>) -> Double {
        var total = 0.0
        for j in y {
            for i in x {
                let (r1, g1, b1) = a.rgb(i, j)
                let (r2, g2, b2) = b.rgb(i, j)
                total += Double(abs(r1 - r2) + abs(g1 - g2) + abs(b1 - b2)) / 3
            }
        }
        return total / Double(x.count * y.count)
    }

    /// A drag that begins during the transition moves nothing, all of it; one after it scrolls. Then the way
    /// back with the home button shrinks the menu into the cafe.
    @Test func touchesDuringATransitionAreIgnored() throws {
        let config = try Kiosk.manifest(Self.manifest(transition: "zoom"), in: dir)
        var log = LogWriter(width: 320, height: 240)
        log.tap(Self.cafe.0, Self.cafe.1, at: 0)
        log.drag(from: (0.5, 0.8), to: (0.5, 0.3), at: 150, id: 2)
        log.drag(from: (0.5, 0.8), to: (0.5, 0.3), at: 800, id: 3)
        log.tap(56.0 / 320, 56.0 / 240, at: 3000, id: 4)
        let r = try Kiosk.run(["--headless", "320x240", "--config", config, "--replay", try log.write(dir)], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let drags = r.events.filter { $0.name == "scrollViewWillBeginDragging" }
        #expect(drags.count == 1)
        let before = r.trace.filter { ($0["t"] as? Double ?? 0) < 800 }
        #expect(
            before.allSatisfy {
                (($0["views"] as? [String: Any])?["menu"] as? [String: Any]).map { v in
                    (v["contentOffset"] as? [Double])?[1] == 0
                } ?? true
            })
        let transitions = r.events.filter { $0.name == "sceneTransition" }
        #expect(transitions.map { $0.fields["style"] as? String } == ["zoom", "zoom"])
        #expect(transitions.last?.fields["to"] as? String == "map")
        #expect(r.last["scene"] as? String == "map")
    }

    static let attract = """
        "attract": {"afterSeconds": 1, "steps": [
          {"scene": "map", "seconds": 3, "from": {"center": [1500, 1000], "zoom": 0.3},
                                         "to": {"center": [3300, 2000], "zoom": 0.5}},
          {"scene": "gallery", "seconds": 3, "advanceEverySeconds": 1}]},
        """

    /// A finger held still past the attract time keeps the loop off; after the idle reset (2 s) and 1 s more it
    /// starts, steps, loops, and the touch that ends it does nothing else: home, at rest.
    @Test func theAttractLoop() throws {
        let config = try Kiosk.manifest(Self.manifest(extra: Self.attract), in: dir)
        var log = LogWriter(width: 320, height: 240)
        log.finger(500, "DOWN", 1, 0.9, 0.9)
        log.finger(1600, "UP", 1, 0.9, 0.9)
        log.tap(Self.cafe.0, Self.cafe.1, at: 11_000, id: 2)
        let shotPath = dir.appendingPathComponent("attract.png").path
        let r = try Kiosk.run(
            [
                "--headless", "320x240", "--config", config, "--replay", try log.write(dir), "--screenshot",
                "6000:\(shotPath)",
            ],
            in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        func times(_ name: String) -> [Double] {
            r.trace.filter { ($0["events"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == name } }
                .compactMap { $0["t"] as? Double }
        }
        // Held 500 to 1600: idle reset at 3600, the loop at 4600.
        #expect(times("idleReset").count == 1 && abs(times("idleReset")[0] - 3600) < 17)
        let started = times("attractDidStart")
        #expect(started.count == 1 && abs(started[0] - 4600) < 17, "\(started)")
        let steps = r.events.filter { $0.name == "attractStep" }.map { $0.fields["index"] as? Int }
        #expect(steps == [0, 1, 0], "\(steps)")
        #expect(times("attractStep").enumerated().allSatisfy { abs($1 - 4600 - 3000 * Double($0)) < 17 })
        // The gallery turns a page each second of its step.
        #expect(times("pageDidChange").count == 2)
        // The map moved between its views.
        let zooms = r.trace.filter { ($0["t"] as? Double ?? 0) > 4600 && ($0["t"] as? Double ?? 0) < 7500 }
            .compactMap { (($0["views"] as? [String: Any])?["map"] as? [String: Any])?["zoomScale"] as? Double }
        #expect((zooms.first ?? 0) >= 0.29 && (zooms.last ?? 0) > 0.49, "\(zooms.prefix(3)) … \(zooms.suffix(3))")
        // Ended by the tap on the cafe: no hotspot, home at rest.
        #expect(times("attractDidEnd").count == 1 && abs(times("attractDidEnd")[0] - 11_000) < 17)
        #expect(!r.events.contains { $0.name == "hotspotTapped" })
        #expect(r.last["scene"] as? String == "map")
        let map = try #require((r.last["views"] as? [String: Any])?["map"] as? [String: Any])
        #expect(abs((map["zoomScale"] as? Double ?? 0) - 320.0 / 4800) < 0.001)
        #expect(FileManager.default.fileExists(atPath: shotPath))
    }

    /// Friday 16:59:58 (UTC): blank at closing time; a tap wakes it and does nothing else; blank again after
    /// the idle reset.
    @Test func openingHoursWithAClock() throws {
        let config = try Kiosk.manifest(Self.manifest(extra: #""openingHours": {"mon-fri": "09:00-17:00"},"#), in: dir)
        var log = LogWriter(width: 320, height: 240)
        log.tap(Self.cafe.0, Self.cafe.1, at: 4000)
        let shotPath = dir.appendingPathComponent("closed.png").path
        let r = try Kiosk.run(
            [
                "--headless", "320x240", "--config", config, "--replay", try log.write(dir), "--clock",
                "2026-01-09T16:59:58", "--screenshot", "7000:\(shotPath)",
            ], in: dir, environment: ["TZ": "UTC"])
        #expect(r.status == 0, "\(r.stderr)")
        let names = r.events.map(\.name).filter { $0.hasPrefix("screen") || $0 == "idleReset" || $0 == "hotspotTapped" }
        #expect(names == ["screenDidBlank", "screenDidWake", "idleReset", "screenDidBlank"], "\(names)")
        let blanks = r.trace.filter {
            ($0["events"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "screenDidBlank" }
        }
        #expect(abs((blanks.first?["t"] as? Double ?? 0) - 2000) < 17)
        #expect(r.events.first { $0.name == "screenDidBlank" }?.fields["reason"] as? String == "hours")
        let closed = try #require(Picture(path: shotPath))
        #expect(closed.rgb(160, 120) == (0, 0, 0))
    }

    /// A restart at night (a nightly reboot, a power cut) after a visit in open hours: dark from the first frame,
    /// at home, whatever the state folder holds. It showed the visit's scene until the idle reset.
    @Test func aRestartInClosedHoursIsDarkAtOnce() throws {
        let config = try Kiosk.manifest(
            Self.manifest(extra: #""openingHours": {"mon-sun": "06:00-24:00"},"#)
                .replacingOccurrences(of: #""idleTimeoutSeconds": 2"#, with: #""idleTimeoutSeconds": 600"#), in: dir)
        let state = dir.appendingPathComponent("night-state").path
        // As systemd's StateDirectory= makes it.
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        var log = LogWriter(width: 320, height: 240)
        log.tap(Self.cafe.0, Self.cafe.1, at: 500)
        let day = try Kiosk.run(
            [
                "--headless", "320x240", "--config", config, "--replay", try log.write(dir), "--clock",
                "2026-03-02T14:00:00",
            ],
            in: dir, environment: ["TZ": "UTC", "STATE_DIRECTORY": state])
        #expect(day.status == 0, "\(day.stderr)")
        #expect(day.events.contains { $0.name == "sceneDidChange" }, "the tap opened the menu")
        let night = try Kiosk.run(
            [
                "--headless", "320x240", "--config", config, "--clock", "2026-03-03T03:00:00", "--screenshot",
                "1000:\(dir.appendingPathComponent("night.png").path)",
            ], in: dir, environment: ["TZ": "UTC", "STATE_DIRECTORY": state])
        #expect(night.status == 0, "\(night.stderr)")
        #expect(night.stderr.contains("state.json: the kiosk is closed now"), "\(night.stderr)")
        #expect(!night.events.contains { $0.name == "sceneDidChange" })
        let blanks = night.trace.filter {
            ($0["events"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "screenDidBlank" }
        }
        #expect(blanks.first?["t"] as? Double == 0, "\(night.stderr)")
    }

    /// The night the clocks go forward in Paris (2026-03-29, 02:00 becomes 03:00), hours from 02:30 open as the
    /// clock jumps past 02:30, at 03:00: the C library placed 02:30 at 03:30, and the kiosk slept till then.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Paris"), "needs tzdata"))
    func hoursInsideTheSkippedHourOpenAsTheClockJumps() throws {
        let config = try Kiosk.manifest(Self.manifest(extra: #""openingHours": {"sun": "02:30-20:00"},"#), in: dir)
        let shotPath = dir.appendingPathComponent("open.png").path
        let r = try Kiosk.run(
            [
                "--headless", "320x240", "--config", config, "--clock", "2026-03-29T01:59:58", "--screenshot",
                "4000:\(shotPath)",
            ], in: dir, environment: ["TZ": "Europe/Paris"])
        #expect(r.status == 0, "\(r.stderr)")
        let names = r.events.map(\.name).filter { $0.hasPrefix("screen") }
        #expect(names == ["screenDidBlank", "screenDidWake"], "\(names)")
        let wakes = r.trace.filter {
            ($0["events"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "screenDidWake" }
        }
        #expect(abs((wakes.first?["t"] as? Double ?? 0) - 2000) < 17)
    }

    @Test(arguments: [
        (
            #""attract": {"afterSeconds": 1, "steps": [{"scene": "map", "seconds": 2, "speed": 3}]},"#,
            "attract.steps[0].speed: unknown key"
        ),
        (
            #""attract": {"afterSeconds": 1, "steps": [{"scene": "lobby", "seconds": 2}]},"#,
            "attract.steps[0].scene: no scene has the id \"lobby\""
        ),
        (
            #""attract": {"afterSeconds": 1, "steps": [{"scene": "map", "seconds": 2, "to": {"center": [9000, 100]}}]},"#,
            "attract.steps[0].to.center: [9000.0, 100.0] is outside the image (4800x3000)"
        ),
        (#""openingHours": {"mon-fri": "9-5"},"#, "openingHours.mon-fri: \"9-5\": expected \"HH:MM-HH:MM\""),
        (
            #""openingHours": {"mon": "08:00-12:00", "mon-tue": "11:00-13:00"},"#,
            "openingHours.mon-tue: overlaps other hours of mon"
        ),
        (#""transitionMs": -1,"#, "transitionMs: must be between 0 and 5000"),
    ])
    func badInputExits3(extra: String, message: String) throws {
        let config = try Kiosk.manifest(Self.manifest(extra: extra), in: dir)
        let r = try Kiosk.run(["--headless", "320x240", "--config", config], in: dir, trace: false)
        #expect(r.status == 3)
        #expect(r.stderr.contains("<3>kiosk: \(config): \(message)"), "\(r.stderr)")
        let check = try Kiosk.run(["--check", "--config", config], in: dir, trace: false)
        #expect(check.status == 3 && check.stderr.contains(message))
    }
}
