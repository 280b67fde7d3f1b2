import Foundation
import Testing

/// The GL renderers proven: every demo scene, a deep-zoom tour and a rotated run, in a real window
/// under Xvfb with SDL's `opengl`, `opengles2` and `software` renderers (Mesa's llvmpipe draws the GL ones),
/// the same replay, the screenshots compared. The moments shot are at rest or held still (a window runs on the
/// real clock, so a moment mid-animation would differ by the frame it falls on).
@Suite struct RendererTests {
    let dir = Kiosk.folder()

    /// Why windows cannot be opened here, or nil.
    static let cannotRun = VirtualScreen.cannotRun

    /// The renderers compared with software, each with a texture cap where it has one (`--max-texture`): the
    /// 4096 pixels of a Raspberry Pi 5's V3D and the 2048 of a Pi 4 under Vulkan-class limits, which Mesa's
    /// llvmpipe (16384) never imposes. Every picture over the cap is tiled: drawn the same, none black. kmsdrm's
    /// renderer (opengles2) takes both caps.
    static let renderers: [(name: String, cap: Int?)] = [
        ("opengl", nil), ("opengl", 2048), ("opengles2", nil), ("opengles2", 4096), ("opengles2", 2048),
    ]

    /// At most this mean difference per channel (0-255, over 4 x 4 blocks) between a GL renderer's screenshot
    /// and software's: filtering differs by a little (observed 0 to 0.2), a wrong picture by far more.
    static let tolerance = 1.5

    struct Run: CustomTestStringConvertible, Sendable {
        let name: String
        let scene: String
        let rotate: Int
        /// Finger events: (ms, phase, x, y).
        let touches: [RendererTests.Touch]
        let shots: [Double]
        var testDescription: String { "\(name) in \(scene), rotated \(rotate)" }
    }

    typealias Touch = (Double, String, Double, Double)

    static func doubleTap(_ x: Double, _ y: Double, at t: Double = 500) -> [Touch] {
        [(t, "DOWN", x, y), (t + 60, "UP", x, y), (t + 200, "DOWN", x, y), (t + 260, "UP", x, y)]
    }

    /// A finger down at (x, y0), moved to y1 (or x to x1) in ten steps `stepMs` apart, lifted at `up`.
    static func slide(_ x0: Double, _ y0: Double, to x1: Double, _ y1: Double, stepMs: Double, up: Double) -> [Touch] {
        var touches: [Touch] = [(500, "DOWN", x0, y0)]
        for i in 1...10 {
            let k = Double(i) / 10
            touches.append((500 + Double(i) * stepMs, "MOTION", x0 + (x1 - x0) * k, y0 + (y1 - y0) * k))
        }
        touches.append((up, "UP", x1, y1))
        return touches
    }

    static let runs: [Run] = [
        Run(name: "double tap", scene: "map", rotate: 0, touches: doubleTap(0.5, 0.5), shots: [300, 2500]),
        Run(name: "double tap", scene: "map", rotate: 90, touches: doubleTap(0.3, 0.6), shots: [300, 2500]),
        Run(
            name: "swipe", scene: "gallery", rotate: 0, touches: slide(0.8, 0.5, to: 0.3, 0.5, stepMs: 16, up: 676),
            shots: [300, 2500]),
        Run(
            name: "held drag", scene: "menu", rotate: 270, touches: slide(0.5, 0.8, to: 0.5, 0.4, stepMs: 30, up: 2500),
            shots: [300, 2000]),
        // Tiles arrive on the real clock: each moment is shot seconds after the view came to rest, when every
        // tile it shows has arrived, even on a loaded machine.
        // A tour: in at one place, back out, in at another.
        Run(
            name: "deep-zoom tour", scene: "deep", rotate: 0,
            touches: doubleTap(0.4, 0.4, at: 3000) + doubleTap(0.5, 0.5, at: 7500) + doubleTap(0.7, 0.6, at: 12_000),
            shots: [2500, 7000, 11_500, 16_000]),
    ]

    func manifest() throws -> String {
        let dzi = dir.appendingPathComponent("deep/demo.dzi").path
        try Kiosk.pyramid(size: 4096, out: dzi)
        let scenes = Kiosk.demo.replacingOccurrences(
            of: #"{"id": "menu", "type": "scroll", "image": "images/menu-long.png", "axis": "vertical"}"#,
            with: #"{"id": "menu", "type": "scroll", "image": "images/menu-long.png", "axis": "vertical"}, "#
                + #"{"id": "deep", "type": "zoom", "image": "\#(dzi)", "maxZoom": 4.0, "doubleTapZoom": 2.0}"#)
        return try Kiosk.manifest(scenes, in: dir)
    }

    /// Runs the kiosk in an 800 x 480 window under Xvfb with `renderer`; the screenshots' paths.
    func shoot(_ run: Run, renderer: String, cap: Int? = nil, config: String) throws -> [String] {
        var log = LogWriter()
        for (t, phase, x, y) in run.touches { log.finger(t, phase, 1, x, y) }
        let end = (run.shots.max() ?? 0) + 500
        log.lines.append(#"{"timestamp": \#(end), "type": "SDL_QUIT"}"#)
        let name = renderer + (cap.map { "-\($0)" } ?? "")
        let paths = run.shots.map { dir.appendingPathComponent("\(name)-\(Int($0)).png").path }
        let arguments =
            [
                "--windowed", "800x480", "--rotate", "\(run.rotate)", "--config", config, "--scene", run.scene,
                "--replay", try log.write(dir, "\(name).jsonl"),
            ] + (cap.map { ["--max-texture", "\($0)"] } ?? [])
            + zip(run.shots, paths).flatMap { ["--screenshot", "\(Int($0)):\($1)"] }
        let screen = try VirtualScreen()
        let (p, err) = try Kiosk.launch(
            arguments,
            environment: ["SDL_VIDEODRIVER": "x11", "SDL_RENDER_DRIVER": renderer, "DISPLAY": screen.display])
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        withExtendedLifetime(screen) {}
        #expect(p.terminationStatus == 0, "\(renderer): \(text)")
        #expect(text.contains("renderer \(renderer),"), "\(renderer) was not the renderer: \(text)")
        if let cap { #expect(text.contains("max texture \(cap) (--max-texture \(cap);"), "\(name): \(text)") }
        return paths
    }

    /// The tone the kiosk draws where a picture is still on its way from a worker (`Renderer.loading`).
    static let loadingTone = (0x3A, 0x3A, 0x42)

    /// Whether a screenshot shows a picture still loading: over a fifth of it in the loading tone.
    static func showsLoading(_ p: Picture) -> Bool {
        var count = 0
        var seen = 0
        for y in stride(from: 0, to: p.height, by: 8) {
            for x in stride(from: 0, to: p.width, by: 8) {
                let (r, g, b) = p.rgb(x, y)
                seen += 1
                if abs(r - loadingTone.0) <= 2 && abs(g - loadingTone.1) <= 2 && abs(b - loadingTone.2) <= 2 {
                    count += 1
                }
            }
        }
        return count * 5 > seen
    }

    /// `shoot`, again (at most twice more) while a shot shows a picture still loading: on the real clock a
    /// loaded machine decodes late, and a moment caught before its picture arrived says nothing of a renderer.
    func shootLoaded(_ run: Run, renderer: String, cap: Int? = nil, config: String) throws -> [String] {
        var paths = try shoot(run, renderer: renderer, cap: cap, config: config)
        for _ in 0..<2 where paths.contains(where: { Picture(path: $0).map(Self.showsLoading) ?? false }) {
            paths = try shoot(run, renderer: renderer, cap: cap, config: config)
        }
        return paths
    }

    @Test(.enabled(if: cannotRun == nil, Comment(rawValue: cannotRun ?? "")), arguments: runs)
    func theGLRenderersDrawWhatSoftwareDraws(_ run: Run) throws {
        let config = try manifest()
        let reference = try shootLoaded(run, renderer: "software", config: config)
        for (renderer, cap) in Self.renderers {
            let shots = try shootLoaded(run, renderer: renderer, cap: cap, config: config)
            for (a, b) in zip(reference, shots) {
                guard let pa = Picture(path: a), let pb = Picture(path: b) else {
                    Issue.record("\(b): missing")
                    continue
                }
                let d = LookTests.difference(pa, pb)
                #expect(
                    d <= Self.tolerance,
                    "\(renderer) cap \(cap ?? 0) \(URL(fileURLWithPath: b).lastPathComponent): \(d)")
            }
        }
    }
}
