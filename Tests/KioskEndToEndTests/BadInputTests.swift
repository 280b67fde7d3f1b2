import Foundation
import Testing

/// Bad input ends as the contract says: the right exit status and one line naming the file and the field.
@Suite struct BadInputTests {
    let dir = Kiosk.folder()

    @Test(arguments: [
        (
            #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "images/floorplan.png", "maxZoom": "x"}]}"#,
            "scenes[0].maxZoom: expected a number"
        ),
        (
            #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "images/floorplan.png", "zoomMax": 2}]}"#,
            "scenes[0].zoomMax: unknown key"
        ),
        // (A missing picture is a placeholder, and the kiosk starts: DegradedStartTests.)
        ("{\"kioskManifest\": 1, ", "not valid JSON"),
        ("", "the file is empty"),
    ])
    func manifestErrorsExit3(json: String, message: String) throws {
        let path = try Kiosk.manifest(json, in: dir)
        let r = try Kiosk.run(["--headless", "320x240", "--config", path], in: dir, trace: false)
        #expect(r.status == 3)
        #expect(r.stderr.contains("<3>kiosk: \(path): "), "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").filter { $0.hasPrefix("<3>") }.count == 1)
    }

    @Test func missingManifestExits3() throws {
        let path = dir.appendingPathComponent("none.json").path
        let r = try Kiosk.run(["--headless", "320x240", "--config", path], in: dir, trace: false)
        #expect(r.status == 3)
        #expect(r.stderr.contains(path))
    }

    @Test(arguments: [
        ("not json", 2, "not valid JSON"),
        (#"{"timestamp": 1, "type": "SDL_FINGERDOWN", "touchId": 1, "x": 0.5, "y": 0.5}"#, 2, "missing field fingerId"),
        (#"{"timestamp": "soon", "type": "SDL_QUIT"}"#, 2, "timestamp: expected a number"),
    ])
    func malformedLogExits4(line: String, lineNumber: Int, message: String) throws {
        let manifest = try Kiosk.manifest(Kiosk.demo, in: dir)
        let log = dir.appendingPathComponent("bad.jsonl").path
        try (LogWriter().lines[0] + "\n" + line + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let r = try Kiosk.run(["--headless", "320x240", "--config", manifest, "--replay", log], in: dir, trace: false)
        #expect(r.status == 4)
        #expect(r.stderr.contains("<3>kiosk: \(log):\(lineNumber): \(message)"), "\(r.stderr)")
    }

    @Test func badCommandLineExits2() throws {
        for args in [
            ["--headless", "wide"], ["--rotate", "45"], ["--screenshot", "soon"], ["--frobnicate"], ["--realtime"],
        ] {
            let r = try Kiosk.run(args, in: dir, trace: false)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr.hasPrefix("<3>kiosk: "))
        }
    }

    @Test func unknownSceneExits2() throws {
        let r = try Kiosk.run(
            ["--headless", "320x240", "--config", try Kiosk.manifest(Kiosk.demo, in: dir), "--scene", "nope"], in: dir,
            trace: false)
        #expect(r.status == 2)
    }

    /// A picture named to forge a critical line of the journal: the start and `--check` say its name on one line.
    @Test func aNameCannotForgeALine() throws {
        let json = #"""
            {"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "x.png\n<2>kiosk: FORGED critical line \u001b[2J"}]}
            """#
        let path = try Kiosk.manifest(json, in: dir)
        // --check fails; the start goes on with a placeholder for the picture it cannot find.
        for (arguments, status) in [(["--check"], Int32(3)), (["--headless", "320x240"], 0)] {
            let r = try Kiosk.run(arguments + ["--config", path], in: dir, trace: false)
            #expect(r.status == status, "\(r.stderr)")
            let lines = (r.stderr + r.stdout).split(separator: "\n")
            // The name is written out inside the lines that say it: no line of its own begins with its level.
            #expect(!lines.contains { $0.hasPrefix("<2>") || $0.hasPrefix("FORGED") }, "\(lines)")
            #expect(lines.contains { $0.contains(#"x.png\n<2>kiosk: FORGED critical line \u{1B}[2J"#) }, "\(lines)")
            #expect(!r.stderr.contains("\u{1B}") && !r.stdout.contains("\u{1B}"))
        }
    }

    @Test func brokenImageShowsAPlaceholderAndTheRestWorks() throws {
        let broken = dir.appendingPathComponent("broken.png").path
        try Data("this is not a PNG".utf8).write(to: URL(fileURLWithPath: broken))
        let json = """
            {"kioskManifest": 1, "home": "gallery", "scenes": [
              {"id": "gallery", "type": "carousel", "pages": ["broken.png", "images/gallery-sunset.jpg"]}]}
            """
        let path = try Kiosk.manifest(json, in: dir)
        var log = LogWriter()
        log.drag(from: (0.7, 0.5), to: (0.4, 0.5), steps: 10)
        let first = dir.appendingPathComponent("first.png").path
        let r = try Kiosk.run(
            ["--headless", "800x480", "--config", path, "--replay", try log.write(dir), "--screenshot", "0:\(first)"],
            in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "broken.png").count - 1 == 1, "logged once: \(r.stderr)")
        #expect(r.stderr.contains("<4>kiosk: \(broken): cannot load the image"))
        #expect(r.view("gallery")["page"] as? Int == 1)  // the carousel still pages
        let p = try #require(Picture(path: first))
        #expect(close(p.rgb(200, 100), (0x3A, 0x3A, 0x42)), "placeholder colour")
    }

    @Test func noDisplayIsAClearMessage() throws {
        let r = try Kiosk.run(
            ["--config", try Kiosk.manifest(Kiosk.demo, in: dir)], in: dir,
            environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": "kmsdrm"], trace: false)
        #expect(r.status == 1)
        #expect(r.stderr.contains("<3>kiosk: no display"))
    }
}
