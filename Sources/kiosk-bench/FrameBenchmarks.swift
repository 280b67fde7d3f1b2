import CAllocCounter
import CSDL2
import EventLog
import Foundation
import Kiosk
import KioskSDL
import ScrollEngine
import TouchInput

/// Median and worst time of a whole frame (input, engine, scene, draw calls, present) on SDL's software
/// renderer at 1920x1080, while `gesture` plays in `scene` of the demo (or of `manifest`).
func frames(
    scene: String, gesture: [(Double, EventLog.Event)], count: Int, manifest: String = demoManifest
) -> (median: Double, worst: Double) {
    let session: HeadlessSession
    do { session = try HeadlessSession(manifestPath: manifest, width: 1920, height: 1080, scene: scene) } catch {
        print("kiosk-bench: cannot open the demo headless: \(error)")
        exit(1)
    }
    session.frame(at: 0)  // loads the images
    var times: [Double] = []
    var next = 0
    let clock = ContinuousClock()
    for n in 1...count {
        let t = Double(n) * 1000 / 60
        let start = clock.now
        while next < gesture.count && gesture[next].0 <= t {
            session.app.handle(gesture[next].1, at: gesture[next].0)
            next += 1
        }
        session.frame(at: t)
        let (s, atto) = (clock.now - start).components
        times.append(Double(s) * 1000 + Double(atto) / 1e15)
    }
    times.sort()
    return (times[times.count / 2], times.last ?? 0)
}

/// A finger from `a` to `b` (normalised) over `ms`, `times` times, 1.2 s apart.
func swipes(from a: Point, to b: Point, ms: Double, times: Int) -> [(Double, EventLog.Event)] {
    var out: [(Double, EventLog.Event)] = []
    for k in 0..<times {
        let t = Double(k) * 1200
        let steps = Int(ms / 8)
        for i in 0...steps {
            let p = a + (b - a) * (Double(i) / Double(steps))
            let phase: EventLog.FingerPhase = i == 0 ? .down : i == steps ? .up : .motion
            let event = EventLog.Event.finger(phase, touchId: 1, fingerId: 1, x: p.x, y: p.y, dx: 0, dy: 0, pressure: 1)
            out.append((t + Double(i) * 8, event))
        }
    }
    return out
}

/// A tour of a zoom scene through every level: from the fitted scale into the deepest (doubling each time, at
/// points spread over the image), pans at the top, and back out; `frames` at 60 Hz with the animations.
/// `pixels`: what each frame wrote, in screens (the same on every machine).
func tour(_ session: HeadlessSession, warm: Bool) -> (
    times: [Double], bare: [Double], lists: [[DrawCommand]], pixels: [Double]
) {
    let view = session.app.scene.view
    let image = view.contentSize.width / view.zoomScale
    var steps: [(ScrollView) -> Void] = []
    var scale = view.minimumZoomScale
    var k = 0
    while scale < view.maximumZoomScale {
        scale = min(view.maximumZoomScale, scale * 2)
        let s = scale
        let centre = Point(x: image * (0.3 + 0.05 * Double(k % 5)), y: image * (0.6 - 0.04 * Double(k % 4)))
        steps.append { $0.zoom(to: ZoomMath.zoomRect(scale: s, center: centre, frame: $0.bounds), animated: true) }
        k += 1
    }
    for (dx, dy) in [(900.0, 0.0), (0, 600), (-900, 0), (0, -600)] {
        steps.append { $0.setContentOffset($0.clampedOffset($0.contentOffset + Point(x: dx, y: dy)), animated: true) }
    }
    var out = view.maximumZoomScale
    while out > view.minimumZoomScale {
        out = max(view.minimumZoomScale, out / 2)
        let s = out
        steps.append { $0.setZoomScale(s, animated: true) }
    }
    var times: [Double] = []
    var bare: [Double] = []
    var lists: [[DrawCommand]] = []
    var pixels: [Double] = []
    let clock = ContinuousClock()
    var t = session.app.now
    for step in steps {
        step(view)
        for _ in 0..<22 {  // 0.3 s of animation and a few frames at rest
            t += 1000.0 / 60
            let start = clock.now
            let list = session.frame(at: t)
            let (s, atto) = (clock.now - start).components
            guard !warm else { continue }
            times.append(Double(s) * 1000 + Double(atto) / 1e15)
            lists.append(list)
            pixels.append(Double(session.lastFramePixels) / Double(session.screenPixels))
            // The same frame's SDL calls, exactly those, replayed bare right after it.
            let bareStart = clock.now
            session.replayCalls()
            let (bs, batto) = (clock.now - bareStart).components
            bare.append(Double(bs) * 1000 + Double(batto) / 1e15)
        }
    }
    return (times, bare, lists, pixels)
}

func median(_ v: [Double]) -> Double { v.isEmpty ? 0 : v.sorted()[v.count / 2] }

/// A finger tracing a figure eight about the screen's centre for `seconds` (never lifted, so nothing flings),
/// at 120 Hz: offsets land between pixels. Positions are normalised to the physical screen.
func figureEight(seconds: Double) -> [(Double, EventLog.Event)] {
    var out: [(Double, EventLog.Event)] = []
    let period = 5000.0
    var t = 0.0
    while t <= seconds * 1000 {
        let a = 2 * Double.pi * t / period
        let x = 0.5 + 0.17 * sin(a)
        let y = 0.5 + 0.15 * sin(2 * a)
        let phase: EventLog.FingerPhase = t == 0 ? .down : .motion
        out.append((t, .finger(phase, touchId: 1, fingerId: 1, x: x, y: y, dx: 0, dy: 0, pressure: 1)))
        t += 8.3
    }
    return out
}

/// Two fingers about the centre whose spread swings between 0.1 and 0.5 of the screen every 2 s: the zoom
/// changes every frame.
func pinching(seconds: Double) -> [(Double, EventLog.Event)] {
    var out: [(Double, EventLog.Event)] = []
    var t = 0.0
    while t <= seconds * 1000 {
        let spread = 0.3 + 0.2 * sin(2 * Double.pi * t / 2000)
        let phase: EventLog.FingerPhase = t == 0 ? .down : .motion
        for (id, sign) in [(Int64(1), -1.0), (Int64(2), 1.0)] {
            let x = 0.5 + sign * spread / 2
            out.append((t, .finger(phase, touchId: 1, fingerId: id, x: x, y: 0.5, dx: 0, dy: 0, pressure: 1)))
        }
        t += 8.3
    }
    return out
}

/// Median frames of the map while `gesture` plays, the view first set to `zoom` about the image's centre, in one
/// session per rotation of `rotations`, drawn side by side (a frame of each in turn, so both see the same
/// machine).
func mapFrames(
    zoom: Double?, rotations: [Rotation], gesture: [(Double, EventLog.Event)], manifest: String = demoManifest,
    inspect: (HeadlessSession) -> Void = { _ in }
) -> [Double] {
    let sessions = rotations.map { rotation in
        let session: HeadlessSession
        do {
            session = try HeadlessSession(
                manifestPath: manifest, width: 1920, height: 1080, scene: "map", synchronous: true,
                rotation: rotation)
        } catch {
            print("kiosk-bench: cannot open \(manifest) headless (rotated \(rotation.rawValue)): \(error)")
            exit(1)
        }
        let view = session.app.scene.view
        if let zoom {
            view.setZoomScale(zoom, animated: false)
            let c = Point(x: view.contentSize.width / 2, y: view.contentSize.height / 2)
            view.contentOffset = view.clampedOffset(
                Point(x: c.x - view.bounds.width / 2 + 0.37, y: c.y - view.bounds.height / 2 + 0.61))
        }
        return session
    }
    var t = 0.0
    for _ in 0..<30 {  // settles and loads
        for s in sessions { s.frame(at: t) }
        t += 1000.0 / 60
    }
    let start = t
    var next = 0
    var times = [[Double]](repeating: [], count: sessions.count)
    let clock = ContinuousClock()
    while next < gesture.count {
        t += 1000.0 / 60
        let first = next
        for (i, session) in sessions.enumerated() {
            let begin = clock.now
            next = first
            while next < gesture.count && start + gesture[next].0 <= t {
                session.app.handle(gesture[next].1, at: start + gesture[next].0)
                next += 1
            }
            session.frame(at: t)
            let (s, atto) = (clock.now - begin).components
            times[i].append(Double(s) * 1000 + Double(atto) / 1e15)
        }
    }
    sessions.forEach(inspect)
    return times.map(median)
}

/// The pixels a frame's commands cover, over the screen's: 1 is every pixel drawn once.
func overdraw(_ list: [DrawCommand], screen: Size) -> Double {
    var covered = 0.0
    for command in list.flatMap(\.flattened) {
        switch command {
        case .image(_, _, let d), .tile(_, _, let d, _), .placeholder(let d), .fill(let d, _), .homeButton(let d),
            .background(let d), .thumbnail(_, let d):
            let w = max(0, min(d.maxX, screen.width) - max(d.minX, 0))
            let h = max(0, min(d.maxY, screen.height) - max(d.minY, 0))
            covered += w * h
        case .dot(_, let r, _):
            covered += 4 * r * r
        case .text(let run):
            // Words are drawn over the picture: their box counts (an upper bound of the pixels they write).
            let d = run.rect
            covered +=
                max(0, min(d.maxX, screen.width) - max(d.minX, 0)) * max(0, min(d.maxY, screen.height) - max(d.minY, 0))
        case .video(let shot):
            let d = shot.box
            covered +=
                max(0, min(d.maxX, screen.width) - max(d.minX, 0)) * max(0, min(d.maxY, screen.height) - max(d.minY, 0))
        case .picture:
            break
        }
    }
    return covered / (screen.width * screen.height)
}

/// A manifest showing one `.dzi` as a zoom scene (for the benchmark's own pyramids).
func manifest(for dzi: String, in folder: String) -> String {
    let path = folder + "/kiosk.json"
    let text = """
        {"kioskManifest": 1, "scenes": [{"id": "deep", "type": "zoom", "image": "\(dzi)", "maxZoom": 2.0}]}
        """
    try? text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// Runs a generator beside this binary.
func generate(size: Int, flat: Bool, out: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("kiosk-deepzoom-demo")
    p.arguments = ["--size", "\(size)", "--out", out] + (flat ? ["--flat"] : [])
    p.standardOutput = FileHandle.nullDevice
    do {
        try p.run()
        p.waitUntilExit()
    } catch {
        print("kiosk-bench: cannot run kiosk-deepzoom-demo (build it: swift build -c release): \(error)")
        exit(1)
    }
}

/// Median frame of the tour over a session (after a first, warming pass), with its draw lists.
/// `worstPixels`, `medianPixels`: the most and the median a frame wrote, in screens.
func measuredTour(_ manifest: String) -> (
    median: Double, sdlOnly: Double, overdraw: Double, peakMiB: Double, worstPixels: Double, medianPixels: Double
) {
    guard let session = try? HeadlessSession(manifestPath: manifest, width: 1920, height: 1080, synchronous: true)
    else {
        print("kiosk-bench: cannot open \(manifest)")
        exit(1)
    }
    session.frame(at: 0)
    _ = tour(session, warm: true)
    session.app.scene.reset()
    let (times, sdl, lists, pixels) = tour(session, warm: false)
    let screen = Size(width: 1920, height: 1080)
    let mean = lists.map { overdraw($0, screen: screen) }.reduce(0, +) / Double(max(1, lists.count))
    return (
        median(times), median(sdl), mean, Double(session.peakTextureBytes) / 1_048_576, pixels.max() ?? 0,
        median(pixels)
    )
}

/// The demo's manifest, `Assets/kiosk.json`.
nonisolated var demoManifest: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/kiosk.json").path
}

/// The benchmark's own folder (its manifests, logs and tile cache), made if need be.
func benchFolder() -> String {
    let folder = NSTemporaryDirectory() + "/kiosk-bench"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

/// The 16384² deep-zoom demo (Assets/deepzoom/demo.dzi, beside the demo's manifest), drawn if it is not there.
func demoPyramid() -> String {
    let dzi = URL(fileURLWithPath: demoManifest).deletingLastPathComponent().appendingPathComponent(
        "deepzoom/demo.dzi"
    ).path
    if !FileManager.default.fileExists(atPath: dzi) { generate(size: 16384, flat: false, out: dzi) }
    return dzi
}

/// The demo's manifest written to `path` with `edit` made (`"transition": "zoom"` to `"fade"`, …) and its
/// pictures', pyramid's, film's and rows' paths made absolute, so that it reads the demo's files from anywhere.
func demoManifest(editing edit: (from: String, to: String), at path: String) -> String {
    let assets = URL(fileURLWithPath: demoManifest).deletingLastPathComponent().path
    let text = ((try? String(contentsOfFile: demoManifest, encoding: .utf8)) ?? "")
        .replacingOccurrences(of: edit.from, with: edit.to)
        .replacingOccurrences(of: "\"images/", with: "\"\(assets)/images/")
        .replacingOccurrences(of: "\"deepzoom/", with: "\"\(assets)/deepzoom/")
        .replacingOccurrences(of: "\"media/", with: "\"\(assets)/media/")
        .replacingOccurrences(of: "\"rows\": \"", with: "\"rows\": \"\(assets)/")
    try? text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

func formatted(_ v: Double) -> String { String(format: "%.2f", v) }
