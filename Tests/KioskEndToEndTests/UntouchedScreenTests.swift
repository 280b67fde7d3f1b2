import Foundation
import TestSupport
import Testing

/// What a visitor walking up to an untouched kiosk sees: the kiosk in a real window under Xvfb on each
/// renderer, no input at all, the X server's screen captured (`import -window root`, not the kiosk's own
/// screenshot) once the kiosk says its picture is complete, and compared with the software renderer's. A kiosk
/// that fell asleep before its sharp tiles arrived would never say so, and would show blurred stand-ins.
@Suite struct UntouchedScreenTests {
    let dir = Kiosk.folder()

    static let cannotRun: String? = {
        Installed.missing("/usr/bin/import", from: "imagemagick", for: "no screen to capture")
            ?? VirtualScreen.cannotRun
    }()

    /// The demo's scenes, a Deep Zoom image and a list with thumbnails (decoded on a thread: a kiosk that slept
    /// before they arrived would show their light squares), made once for every case.
    static let scenes: String = {
        let dzi = Kiosk.folder().appendingPathComponent("deep/demo.dzi").path
        try? Kiosk.pyramid(size: 4096, out: dzi)
        let rows = ["night", "sunset", "mountains", "circles"].map {
            #"{"id": "\#($0)", "title": "The \#($0)", "thumbnail": "images/gallery-\#($0).jpg"}"#
        }
        return Kiosk.demo.replacingOccurrences(
            of: #"{"id": "menu", "type": "scroll", "image": "images/menu-long.png", "axis": "vertical"}"#,
            with: #"{"id": "menu", "type": "scroll", "image": "images/menu-long.png", "axis": "vertical"}, "#
                + #"{"id": "deep", "type": "zoom", "image": "\#(dzi)", "maxZoom": 4.0}, "#
                + #"{"id": "directory", "type": "list", "rows": [\#(rows.joined(separator: ", "))]}"#)
    }()

    /// A moment a visitor walks up to: the kiosk started on `scene` (with `manifest`'s changes to the demo's),
    /// touched only as `touches` say (then left alone), shot once it logged `pictureDidSettle` for `settles` the
    /// `count`-th time.
    struct Moment: CustomTestStringConvertible, Sendable {
        var name: String
        var scene: String
        var manifest: @Sendable (String) -> String = { $0 }
        var touches: [RendererTests.Touch] = []
        var settles: String
        var count = 1
        var testDescription: String { name }
    }

    static let moments: [Moment] =
        ["map", "menu", "gallery", "deep", "directory"].map { Moment(name: $0, scene: $0, settles: $0) }
        + [
            // A tap on the menu, then nothing: the idle reset fades home to the map.
            Moment(
                name: "after an idle reset", scene: "menu",
                manifest: {
                    $0.replacingOccurrences(of: #""idleTimeoutSeconds": 0"#, with: #""idleTimeoutSeconds": 2"#)
                },
                touches: [(300, "DOWN", 0.5, 0.5), (360, "UP", 0.5, 0.5)], settles: "map"),
            // Started on the menu; the attract loop shows the gallery after two seconds; a tap ends it (the
            // first that does not fall in a transition, which ignores touches), and home, the map, fades in.
            Moment(
                name: "after the attract loop ends", scene: "menu",
                manifest: {
                    $0.replacingOccurrences(
                        of: #""idleTimeoutSeconds": 0,"#,
                        with: #""idleTimeoutSeconds": 0, "attract": {"afterSeconds": 2, "steps": "#
                            + #"[{"scene": "gallery", "seconds": 60, "advanceEverySeconds": 30}]},"#)
                },
                touches: [4000, 5500, 7000].flatMap { [($0, "DOWN", 0.5, 0.5), ($0 + 60, "UP", 0.5, 0.5)] },
                settles: "map"),
        ]

    /// Runs the kiosk on `renderer` as `moment` says; the capture of the whole X screen once the kiosk logged
    /// the settle it waits for, and its log.
    func capture(_ moment: Moment, renderer: String, config: String) throws -> (String, String) {
        let name = moment.name.replacingOccurrences(of: " ", with: "-")
        let out = dir.appendingPathComponent("\(name)-\(renderer).png").path
        let log = dir.appendingPathComponent("\(name)-\(renderer).log").path
        var events = LogWriter()
        for (t, phase, x, y) in moment.touches { events.finger(t, phase, 1, x, y) }
        let replay = try events.write(dir, "\(name)-\(renderer).jsonl")
        // The wait is a guard against a kiosk that never completes its picture (the bug this tests), not a pace.
        // The log exists before the kiosk starts: the shell may reach the first grep before the background
        // kiosk's redirection has made the file (a grep of no file ended the wait at once, and the kill came
        // before the first frame).
        let script = """
            : > "$3"
            "$0" --windowed 800x480 --config "$1" --scene "$2" --replay "$7" 2>"$3" &
            pid=$!
            i=0
            while [ "$(grep -c "pictureDidSettle: $5 complete" "$3")" -lt "$6" ] && [ $i -lt 600 ]; do
                sleep 0.05; i=$((i+1))
            done
            import -window root "$4"
            kill $pid; wait $pid
            """
        let screen = try VirtualScreen()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = [
            "-c", script, Kiosk.binary.path, config, moment.scene, log, out, moment.settles, "\(moment.count)", replay,
        ]
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = screen.display
        env["XDG_CACHE_HOME"] = Kiosk.testCache
        env["SDL_VIDEODRIVER"] = "x11"
        env["SDL_RENDER_DRIVER"] = renderer
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        _ = Kiosk.cacheWarmed
        try p.run()
        p.waitUntilExit()
        withExtendedLifetime(screen) {}
        return (out, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    /// How sharp a picture is: the mean difference between neighbouring pixels (a blurred stand-in has far less).
    static func sharpness(_ p: Picture) -> Double {
        var total = 0
        for y in stride(from: 0, to: p.height, by: 2) {
            for x in 0..<(p.width - 1) {
                let (r1, g1, b1) = p.rgb(x, y)
                let (r2, g2, b2) = p.rgb(x + 1, y)
                total += abs(r1 - r2) + abs(g1 - g2) + abs(b1 - b2)
            }
        }
        return Double(total) / Double(p.width * p.height / 2)
    }

    @Test(.enabled(if: cannotRun == nil, Comment(rawValue: cannotRun ?? "")), arguments: moments)
    func anUntouchedGPUKioskShowsTheSharpPicture(_ moment: Moment) throws {
        let config = try Kiosk.manifest(moment.manifest(Self.scenes), in: dir)
        let settled = "pictureDidSettle: \(moment.settles) complete"
        let (reference, softwareLog) = try capture(moment, renderer: "software", config: config)
        #expect(softwareLog.components(separatedBy: settled).count > moment.count, "software: \(softwareLog)")
        let expected = try #require(Picture(path: reference), "no capture: \(softwareLog)")
        for renderer in RendererTests.renderers.filter({ $0.cap == nil }).map(\.name) {
            let (shot, log) = try capture(moment, renderer: renderer, config: config)
            #expect(log.contains("renderer \(renderer),"), "\(renderer) was not the renderer: \(log)")
            #expect(log.components(separatedBy: settled).count > moment.count, "\(renderer) never completed: \(log)")
            let seen = try #require(Picture(path: shot), "\(renderer): no capture")
            let d = LookTests.difference(expected, seen)
            #expect(d <= RendererTests.tolerance, "\(renderer): \(d) from software's")
            let (a, b) = (Self.sharpness(expected), Self.sharpness(seen))
            #expect(b >= a * 0.9, "\(renderer): sharpness \(b) against software's \(a)")
        }
    }
}
