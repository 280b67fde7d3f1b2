import Foundation
import Testing

/// `kiosk --edit` (docs/authoring.md): a rectangle dragged with the right mouse button is printed as a hotspot in
/// the picture's pixels, and nothing is written to the state folder; in a real window under Xvfb a manifest saved
/// with a title shows it (the X server's screen captured), a broken save shows the banner over the old content,
/// and the fix takes the banner away. No signal is sent: the saves alone reload.
@Suite struct EditTests {
    let dir = Kiosk.folder()

    /// The demo's map alone (4800 x 3000 pixels, whole in 800 x 500: six pixels a point), untitled.
    static let map = """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 30,
         "scenes": [{"id": "map", "type": "zoom", "image": "images/floorplan.png", "maxZoom": 2.0,
                     "hotspots": [{"id": "cafe", "rect": [1200, 800, 700, 500]}]}]}
        """

    /// A right-button drag from (100, 100) to (250, 200) in an 800 x 500 window, after `at` ms, and `G`.
    static func rightDrag(at t: Double) -> String {
        let lines = [
            #"{"kioskEventLog": 1, "display": {"w": 800, "h": 500}, "source": "test"}"#,
            #"{"timestamp": \#(t), "type": "SDL_KEYDOWN", "key": "G", "repeat": false}"#,
            #"{"timestamp": \#(t + 20), "type": "SDL_KEYUP", "key": "G", "repeat": false}"#,
            #"{"timestamp": \#(t + 100), "type": "SDL_MOUSEBUTTONDOWN", "button": 3, "clicks": 1, "x": 100, "y": 100}"#,
            #"{"timestamp": \#(t + 150), "type": "SDL_MOUSEMOTION", "x": 200, "y": 150, "xrel": 100, "yrel": 50, "state": 4}"#,
            #"{"timestamp": \#(t + 200), "type": "SDL_MOUSEMOTION", "x": 250, "y": 200, "xrel": 50, "yrel": 50, "state": 4}"#,
            #"{"timestamp": \#(t + 250), "type": "SDL_MOUSEBUTTONUP", "button": 3, "clicks": 1, "x": 250, "y": 200}"#,
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    static let drawn = #"{"id": "map-2", "rect": [600, 600, 900, 600]}"#

    @Test func aRightDragPrintsTheHotspotAndNothingIsKept() throws {
        let config = try Kiosk.manifest(Self.map, in: dir)
        let log = dir.appendingPathComponent("drag.jsonl").path
        try Self.rightDrag(at: 500).write(toFile: log, atomically: true, encoding: .utf8)
        let state = dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let r = try Kiosk.run(
            ["--edit", "--headless", "800x500", "--config", config, "--replay", log], in: dir,
            environment: ["STATE_DIRECTORY": state.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == Self.drawn + "\n")
        // The map did not move under the drag: the editor took it.
        let map = r.trace.compactMap { ($0["views"] as? [String: Any])?["map"] as? [String: Any] }
        #expect(map.count > 30)
        #expect(!map.contains { $0["isTracking"] as? Bool == true })
        // No visits, state or metrics from the person editing.
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).isEmpty)
    }

    @Test func aManifestBrokenAtTheStartOpensOnTheBanner() throws {
        let config = try Kiosk.manifest(String(Self.map.prefix(80)), in: dir)
        var events = LogWriter(width: 800, height: 500)
        events.tap(0.5, 0.5, at: 500)
        let replay = try events.write(dir, "tap.jsonl")
        let shot = dir.appendingPathComponent("waiting.png").path
        let r = try Kiosk.run(
            ["--edit", "--headless", "800x500", "--config", config, "--replay", replay, "--screenshot", "700:\(shot)"],
            in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("not valid JSON") && r.stderr.contains("a good save shows the content"))
        let p = try #require(Picture(path: shot))
        var red = 0
        for y in 482..<496 {
            for x in stride(from: 0, to: 800, by: 4) {
                let (r, g, b) = p.rgb(x, y)
                if abs(r - Self.banner.0) + abs(g - Self.banner.1) + abs(b - Self.banner.2) < 40 { red += 1 }
            }
        }
        #expect(red > 14 * 200 * 6 / 10, "\(red) of the banner's pixels")
        // A kiosk (not editing) refuses the same manifest, as always.
        let kiosk = try Kiosk.run(["--headless", "800x500", "--config", config], in: dir)
        #expect(kiosk.status == 3)
    }

    static let cannotRun = UntouchedScreenTests.cannotRun

    /// Where the kiosk's window is on the X screen: the box of what is not the root's black.
    static func window(in p: Picture) -> (x: Int, y: Int, w: Int, h: Int) {
        var (x0, y0, x1, y1) = (p.width, p.height, -1, -1)
        for y in stride(from: 0, to: p.height, by: 2) {
            for x in stride(from: 0, to: p.width, by: 2) {
                let (r, g, b) = p.rgb(x, y)
                if r + g + b > 30 { (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y)) }
            }
        }
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// The share of a band of the window (rows `rows`, as fractions of its height) that is `colour`-ish.
    static func share(_ p: Picture, rows: ClosedRange<Double>, near colour: (Int, Int, Int)) -> Double {
        let w = window(in: p)
        var hits = 0
        var all = 0
        for y in Int(Double(w.h) * rows.lowerBound)..<Int(Double(w.h) * rows.upperBound) {
            for x in stride(from: 4, to: w.w - 4, by: 3) {
                let (r, g, b) = p.rgb(w.x + x, w.y + y)
                all += 1
                if abs(r - colour.0) + abs(g - colour.1) + abs(b - colour.2) < 40 { hits += 1 }
            }
        }
        return Double(hits) / Double(max(1, all))
    }

    /// The title bar's grey and the banner's red (`WordStyle`'s plate and `ContentEditor.Look.banner`).
    static let titleBar = (44, 44, 46)
    static let banner = (153, 13, 26)

    @Test(.enabled(if: cannotRun == nil, Comment(rawValue: cannotRun ?? "")))
    func savedFilesShowInARealWindowAndABrokenOneShowsTheBanner() throws {
        let config = try Kiosk.manifest(Self.map, in: dir)
        let replay = dir.appendingPathComponent("drag.jsonl").path
        try Self.rightDrag(at: 1500).write(toFile: replay, atomically: true, encoding: .utf8)
        let screen = try VirtualScreen()
        let out = Pipe()
        let (kiosk, err) = try Kiosk.launch(
            ["--edit", "--windowed", "800x500", "--config", config, "--replay", replay],
            environment: ["DISPLAY": screen.display, "SDL_VIDEODRIVER": "x11", "SDL_RENDER_DRIVER": "software"],
            output: out)
        let log = LogFollower(err)
        let printed = LogFollower(out)
        defer {
            kiosk.terminate()
            kiosk.waitUntilExit()
            withExtendedLifetime(screen) {}
        }
        var shot = 0
        /// The X screen once `ready` says so of it (the wait is a guard against a kiosk that never shows it).
        func capture(until ready: (Picture) -> Bool) throws -> Picture? {
            for _ in 0..<100 {
                shot += 1
                let path = dir.appendingPathComponent("screen-\(shot).png").path
                let p = Process()
                p.executableURL = URL(fileURLWithPath: "/usr/bin/import")
                p.arguments = ["-display", screen.display, "-window", "root", path]
                try p.run()
                p.waitUntilExit()
                if let picture = Picture(path: path), ready(picture) { return picture }
                usleep(100_000)
            }
            return nil
        }
        #expect(log.wait(for: "pictureDidSettle: map complete"), "\(log.text)")
        // On a screen every present waits for the refresh (no asynchronous page flips), and the start says so.
        #expect(log.text.contains("vsync on (never asynchronous page flips)"), "\(log.text)")
        let untitled = try #require(try capture { Self.share($0, rows: 0.02...0.1, near: Self.titleBar) < 0.2 })
        #expect(Self.share(untitled, rows: 0.9...0.98, near: Self.banner) < 0.05)
        // The right-button drag, replayed while the window shows the map.
        #expect(log.wait(for: "edit: watching"))
        // Saved with a title: its bar appears.
        try Self.map.replacingOccurrences(of: #""maxZoom": 2.0,"#, with: #""maxZoom": 2.0, "title": "Edited","#)
            .write(toFile: config, atomically: true, encoding: .utf8)
        let good = try String(contentsOfFile: config, encoding: .utf8)
        #expect(try capture { Self.share($0, rows: 0.02...0.1, near: Self.titleBar) > 0.6 } != nil, "\(log.text)")
        // Saved half-written: the banner, over the titled map kept.
        try String(good.prefix(good.count / 2)).write(toFile: config, atomically: false, encoding: .utf8)
        let broken = try #require(
            try capture { Self.share($0, rows: 0.94...0.98, near: Self.banner) > 0.6 }, "no banner: \(log.text)")
        #expect(Self.share(broken, rows: 0.02...0.1, near: Self.titleBar) > 0.6)
        #expect(log.text.contains("not valid JSON"))
        // Fixed: the banner goes.
        try good.write(toFile: config, atomically: true, encoding: .utf8)
        let fixed = try capture { Self.share($0, rows: 0.94...0.98, near: Self.banner) < 0.05 }
        #expect(fixed.map { Self.share($0, rows: 0.02...0.1, near: Self.titleBar) } ?? 0 > 0.6, "\(log.text)")
        // The drag was replayed from 1.6 s on the kiosk's clock, in the window, whatever the saves did.
        #expect(printed.wait(for: "\n"))
        #expect(printed.text == Self.drawn + "\n")
        #expect(!log.text.contains("SIGHUP"))
    }
}

extension EditTests {
    /// Started in its content's folder with a relative `--config`, and the folder removed and made again (a
    /// curator's `rm -r` and a fresh copy, or a checkout): the kiosk follows its path by name, not the folder it
    /// started in (which is gone for good), and shows the new content once it is saved.
    @Test func aRelativeConfigSurvivesItsFolderMadeAgain() throws {
        let content = dir.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        _ = try Kiosk.manifest(Self.map, in: content)
        let (kiosk, err) = try Kiosk.launch(
            ["--edit", "--headless", "320x200", "--realtime", "--config", "kiosk.json"], environment: [:],
            in: content)
        let log = LogFollower(err)
        defer {
            kiosk.terminate()
            kiosk.waitUntilExit()
        }
        #expect(log.wait(for: "edit: watching"), "\(log.text)")
        try FileManager.default.removeItem(at: content)
        #expect(log.wait(for: "cannot read the manifest"), "\(log.text)")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        _ = try Kiosk.manifest(
            Self.map.replacingOccurrences(of: #""maxZoom": 2.0,"#, with: #""maxZoom": 2.0, "title": "Again","#),
            in: content)
        #expect(log.wait(for: "1 scenes; showing map"), "\(log.text)")
    }
}

/// A running kiosk's standard error, read as it comes.
final class LogFollower: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = ""
    init(_ pipe: Pipe) {
        pipe.fileHandleForReading.readabilityHandler = { [weak self] h in
            let data = h.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.lock()
            self.buffer += String(decoding: data, as: UTF8.self)
            self.lock.unlock()
        }
    }
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return buffer
    }
    /// Waits until `line` is in the log (a guard of 30 s against a kiosk that never says it); true when it is.
    func wait(for line: String) -> Bool {
        for _ in 0..<600 {
            if text.contains(line) { return true }
            usleep(50_000)
        }
        return false
    }
}
