import Foundation
import Testing

/// Deep zoom through the binary: a generated pyramid, toured at every level, never shows a hole; a broken tile
/// is a placeholder and one log line.
@Suite struct DeepZoomEndToEndTests {
    let dir = Kiosk.folder()

    /// Writes a 2048² demo pyramid into the test's folder with the project's own generator.
    func pyramid() throws -> String {
        let out = dir.appendingPathComponent("deep/demo.dzi").path
        try Kiosk.pyramid(size: 2048, out: out)
        return out
    }

    func manifest(_ image: String) throws -> String {
        try Kiosk.manifest(
            """
            {"kioskManifest": 1, "background": "#ff00ff", "scenes": [
              {"id": "deep", "type": "zoom", "image": "\(image)", "maxZoom": 4.0, "doubleTapZoom": 2.0}]}
            """, in: dir)
    }

    /// The part of the 800 x 480 screen the 2048² image covers in the frame shown at `t` (the first frame at or
    /// after it), a pixel in from its edges.
    func imageArea(_ r: Kiosk.Result, at t: Double) -> (x: Range<Int>, y: Range<Int>) {
        let line = r.trace.first { ($0["t"] as? Double ?? 0) >= t } ?? r.last
        let scale = r.number("deep", "zoomScale", at: line)
        let offset = r.offset("deep", at: line)
        let x0 = max(0, Int((-offset.0).rounded(.up)) + 1)
        let y0 = max(0, Int((-offset.1).rounded(.up)) + 1)
        let x1 = min(800, Int((2048 * scale - offset.0).rounded(.down)) - 1)
        let y1 = min(480, Int((2048 * scale - offset.1).rounded(.down)) - 1)
        return (x0..<max(x0, x1), y0..<max(y0, y1))
    }

    /// Magenta pixels (the background) inside `rect`.
    func holes(_ p: Picture, x: Range<Int>, y: Range<Int>) -> Int {
        var n = 0
        for yy in stride(from: y.lowerBound, to: y.upperBound, by: 2) {
            for xx in stride(from: x.lowerBound, to: x.upperBound, by: 2) where close(p.rgb(xx, yy), (255, 0, 255), 8) {
                n += 1
            }
        }
        return n
    }

    @Test func tourEveryLevelWithoutHoles() throws {
        let config = try manifest(try pyramid())
        // Double taps zoom in twice (fit 0.23 -> 2 ... then back to fit) with pinches and flings between.
        var log = LogWriter()
        log.tap(0.5, 0.5, at: 0)
        log.tap(0.5, 0.5, at: 120)
        log.drag(from: (0.7, 0.6), to: (0.3, 0.4), at: 800)
        log.finger(1600, "DOWN", 1, 0.45, 0.5)
        log.finger(1600, "DOWN", 2, 0.55, 0.5)
        for i in 1...20 {
            log.finger(1600 + Double(i) * 16, "MOTION", 1, 0.45 - Double(i) * 0.012, 0.5)
            log.finger(1600 + Double(i) * 16, "MOTION", 2, 0.55 + Double(i) * 0.012, 0.5)
        }
        log.finger(1940, "UP", 1, 0.21, 0.5)
        log.finger(1940, "UP", 2, 0.79, 0.5)
        let r = try replayWithoutHoles(log, config: config, times: [0, 150, 250, 400, 900, 1300, 1700, 1900, 2600])
        let scales = r.trace.map { r.number("deep", "zoomScale", at: $0) }
        #expect((scales.max() ?? 0) > 1.9)  // the tour reached the top levels
    }

    /// Replays `log` over the pyramid with a screenshot at each of `times`: the part of the screen the image
    /// covers in each must be all picture.
    func replayWithoutHoles(_ log: LogWriter, config: String, times: [Int], options: [String] = []) throws
        -> Kiosk.Result
    {
        let shots = times.map { dir.appendingPathComponent("shot-\($0).png").path }
        let r = try Kiosk.run(
            ["--headless", "800x480", "--config", config, "--replay", try log.write(dir)] + options
                + zip(times, shots).flatMap { ["--screenshot", "\($0):\($1)"] }, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        for (t, path) in zip(times, shots) {
            let p = try #require(Picture(path: path))
            let area = imageArea(r, at: Double(t))
            #expect(holes(p, x: area.x, y: area.y) == 0, "a hole at \(t) ms")
        }
        return r
    }

    /// In real time tiles come from the worker threads and nothing waits: lower levels stand in meanwhile.
    @Test func realTimeLoadingNeverShowsAHole() throws {
        let config = try manifest(try pyramid())
        var log = LogWriter()
        log.tap(0.3, 0.4, at: 0)
        log.tap(0.3, 0.4, at: 100)
        log.drag(from: (0.8, 0.8), to: (0.2, 0.2), at: 600)
        _ = try replayWithoutHoles(
            log, config: config, times: [150, 250, 350, 700, 800, 1200], options: ["--realtime"])
    }

    @Test func aCorruptTileIsAPlaceholderAndOneLogLine() throws {
        let dzi = try pyramid()
        // Break every tile of the top level: whatever the view, it is a placeholder.
        let top = dir.appendingPathComponent("deep/demo_files/11")
        for file in try FileManager.default.contentsOfDirectory(atPath: top.path) {
            try Data("garbage".utf8).write(to: top.appendingPathComponent(file))
        }
        var log = LogWriter()
        log.tap(0.5, 0.5, at: 0)
        log.tap(0.5, 0.5, at: 120)
        let shot = dir.appendingPathComponent("broken.png").path
        let r = try Kiosk.run(
            [
                "--headless", "800x480", "--config", try manifest(dzi), "--replay", try log.write(dir), "--screenshot",
                "1000:\(shot)",
            ],
            in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("cannot load the tile") }
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.hasPrefix("<4>kiosk: ") && $0.contains("demo_files/11/") })
        #expect(Set(lines).count == lines.count, "one line per tile")
        let p = try #require(Picture(path: shot))
        // Placeholder panels (their frames and crosses aside) fill the screen.
        let fill = (0..<40).filter { i in close(p.rgb(20 + i * 19, 30 + i * 10), (0x3A, 0x3A, 0x42)) }.count
        #expect(fill > 30, "placeholder colour")
    }

    @Test func aMalformedDescriptorIsAPlaceholderNotAFailure() throws {
        let dzi = dir.appendingPathComponent("bad.dzi").path
        try "<Image TileSize=\"abc\"/>".write(toFile: dzi, atomically: true, encoding: .utf8)
        let shot = dir.appendingPathComponent("bad.png").path
        let r = try Kiosk.run(
            ["--headless", "320x240", "--config", try manifest("bad.dzi"), "--screenshot", "0:\(shot)"], in: dir)
        #expect(r.status == 0)
        #expect(r.stderr.contains("<4>kiosk: \(dzi): Image TileSize=\"abc\""))
    }
}

/// Deep zoom in real time keeps within its memory budget: everything the loader holds, decoded tiles
/// in flight included, stays within `textureBudgetMiB` plus a fixed allowance, and memory settles once the
/// visitor is back at the fitted view.
@Suite struct DeepZoomMemoryTests {
    /// What the process may hold beyond the texture budget (the program, SDL, the screen, tiles in flight).
    static let allowanceMiB = 48.0

    @Test func aRealTimeTourStaysWithinTheBudgetAndSettles() throws {
        let dir = Kiosk.folder()
        let dzi = dir.appendingPathComponent("deep/demo.dzi").path
        try Kiosk.pyramid(size: 4096, out: dzi)
        let budget = 16.0
        let config = try Kiosk.manifest(
            """
            {"kioskManifest": 1, "textureBudgetMiB": \(Int(budget)), "scenes": [
              {"id": "deep", "type": "zoom", "image": "\(dzi)", "maxZoom": 2.0, "doubleTapZoom": 1.0}]}
            """, in: dir)
        // Into two places at full resolution and back out, 2 s each; a tap 3 s after the tour keeps it running.
        var log = LogWriter()
        var t = 300.0
        for (x, y) in [(0.3, 0.35), (0.7, 0.6)] {
            log.tap(x, y, at: t)
            log.tap(x, y, at: t + 120)
            t += 2000
            log.tap(0.5, 0.5, at: t)
            log.tap(0.5, 0.5, at: t + 120)
            t += 2000
        }
        log.tap(0.9, 0.9, at: t + 3000)
        let r = try Kiosk.run(
            ["--headless", "800x480", "--realtime", "--config", config, "--replay", try log.write(dir)], in: dir,
            trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        // "<6>kiosk: memory: resident N KiB, textures M KiB, kept pictures K KiB, peak P KiB" at exit.
        let line = r.stderr.split(separator: "\n").last { $0.contains("memory: resident") } ?? ""
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Double($0) }
        #expect(numbers.count >= 5, "\(r.stderr)")
        guard numbers.count >= 5 else { return }
        let (resident, textures, peak) = (numbers[1] / 1024, numbers[2] / 1024, numbers[4] / 1024)
        #expect(peak <= budget + Self.allowanceMiB, "peak \(peak) MiB")
        #expect(textures <= budget)
        // Back at the fitted view and idle: what the zoomed views needed was let go.
        #expect(resident < peak - 4, "resident \(resident) MiB at the end, peak \(peak) MiB")
    }
}
