import CAllocCounter
import CSDL2
import EventLog
import Foundation
import Kiosk
import KioskSDL
import ScrollEngine
import TouchInput

// kiosk-bench: measures the engine (and, as they arrive, the touch layer and frames) side by side in one run.
//   swift run -c release kiosk-bench [--json]

/// A delegate that only answers `viewForZooming`, so the engine's own cost is what is measured.
final class QuietDelegate: ScrollViewDelegate {
    func viewForZooming(in scrollView: ScrollView) -> Size? { Size(width: 1600, height: 1200) }
}

struct Measurement {
    var nanoseconds: Double = 0
    var count = 0
    var allocations: UInt64 = 0
    var perItemNs: Double { count > 0 ? nanoseconds / Double(count) : 0 }
    var allocationsPerItem: Double { count > 0 ? Double(allocations) / Double(count) : 0 }
}

/// Times `body` (which returns how many items it processed) and counts its heap allocations.
func measure(_ m: inout Measurement, _ body: () -> Int) {
    let clock = ContinuousClock()
    let allocationsBefore = kiosk_allocation_count()
    let start = clock.now
    let n = body()
    let elapsed = clock.now - start
    m.allocations += kiosk_allocation_count() - allocationsBefore
    let (seconds, attoseconds) = elapsed.components
    m.nanoseconds += Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    m.count += n
}

/// Steps `view` frame by frame until it rests; returns the number of steps.
func stepUntilRest(_ view: ScrollView, _ t: inout Double) -> Int {
    var steps = 0
    while !view.isAtRest {
        t += 1.0 / 60
        view.step(to: t)
        steps += 1
    }
    return steps
}

/// One `step` of a view that decelerates into an edge and bounces, then bounces back from an over-pinch.
func engineStep(rounds: Int) -> Measurement {
    let delegate = QuietDelegate()
    let view = ScrollView(bounds: Size(width: 800, height: 600), contentSize: Size(width: 1600, height: 1200))
    view.delegate = delegate
    view.maximumZoomScale = 4
    view.minimumZoomScale = 0.5
    var m = Measurement()
    var t = 0.0
    let frame = 1.0 / 60
    for round in 0..<rounds {
        // A fling toward the far corner: decelerates, crosses the edges, springs back.
        view.touchesBegan(at: t)
        view.beginDragging(at: t)
        view.drag(by: Point(x: -40, y: -30), at: t + frame)
        t += frame
        view.endDragging(velocity: Point(x: -6000 + Double(round % 7) * 100, y: -4500), at: t)
        measure(&m) { stepUntilRest(view, &t) }
        // A pinch past the maximum, released: the zoom bounces back about the focal point.
        view.touchesBegan(at: t)
        view.beginZooming(focalPoint: Point(x: 300, y: 200), at: t)
        view.zoom(by: 6, focalPoint: Point(x: 320, y: 210), at: t + frame)
        t += frame
        view.endZooming(at: t)
        view.touchesEnded(at: t)
        measure(&m) { stepUntilRest(view, &t) }
        view.setZoomScale(1, animated: false)
        view.contentOffset = .zero
    }
    return m
}

/// The counter must see an allocation it is shown, or a zero from it would mean nothing.
func allocationCounterWorks() -> Bool {
    var m = Measurement()
    measure(&m) {
        let a = [Int](repeating: 1, count: 64 + Int(kiosk_allocation_count() % 3))
        return a.count
    }
    return m.allocations > 0
}

guard allocationCounterWorks() else {
    print("kiosk-bench: the allocation counter does not see allocations; the figures would be wrong")
    exit(1)
}

/// One input event through the gesture controller and the engine: one-finger drags and two-finger pinches
/// with their releases, at 120 Hz touch samples, the controller stepped every 60 Hz frame.
func inputEvent(gestures: Int) -> Measurement {
    let delegate = QuietDelegate()
    let view = ScrollView(bounds: Size(width: 800, height: 600), contentSize: Size(width: 1600, height: 1200))
    view.delegate = delegate
    view.maximumZoomScale = 4
    view.minimumZoomScale = 0.5
    let touch = GestureController(scrollView: view)
    // The events are made before measuring, so only their handling is timed.
    var events: [InputEvent] = []
    var t = 0.0
    for g in 0..<gestures {
        let start = Point(x: 200 + Double(g % 13) * 20, y: 300)
        if g % 2 == 0 {
            events.append(InputEvent(.down, finger: 1, at: start, time: t))
            for i in 1...40 {
                t += 8
                events.append(
                    InputEvent(.move, finger: 1, at: start + Point(x: Double(i) * 7, y: Double(i) * -5), time: t))
            }
            events.append(InputEvent(.up, finger: 1, at: start + Point(x: 280, y: -200), time: t))
        } else {
            events.append(InputEvent(.down, finger: 1, at: start, time: t))
            events.append(InputEvent(.down, finger: 2, at: start + Point(x: 100, y: 0), time: t))
            for i in 1...40 {
                t += 8
                let spread = Double(i) * (g % 4 == 1 ? 4 : -1)
                events.append(InputEvent(.move, finger: 1, at: start - Point(x: spread, y: 0), time: t))
                events.append(InputEvent(.move, finger: 2, at: start + Point(x: 100 + spread, y: 0), time: t))
            }
            events.append(InputEvent(.up, finger: 1, at: start, time: t))
            events.append(InputEvent(.up, finger: 2, at: start, time: t))
        }
        t += 2000
    }
    var m = Measurement()
    measure(&m) {
        var frame = 0.0
        for e in events {
            while frame < e.timestamp {
                frame += 1000.0 / 60
                touch.step(to: frame)
            }
            touch.handle(e)
            touch.events.removeAll(keepingCapacity: true)
        }
        return events.count
    }
    return m
}

/// Median and worst time of a whole frame (input, engine, scene, draw calls, present) on SDL's software
/// renderer at 1920x1080, while `gesture` plays in `scene` of the demo.
func frames(scene: String, gesture: [(Double, EventLog.Event)], count: Int) -> (median: Double, worst: Double) {
    guard let session = try? HeadlessSession(manifestPath: demoManifest, width: 1920, height: 1080, scene: scene) else {
        print("kiosk-bench: cannot open the demo headless")
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
func tour(_ session: HeadlessSession, warm: Bool) -> (times: [Double], bare: [Double], lists: [[DrawCommand]]) {
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
            // The same frame's SDL calls, exactly those, replayed bare right after it.
            let bareStart = clock.now
            session.replayCalls()
            let (bs, batto) = (clock.now - bareStart).components
            bare.append(Double(bs) * 1000 + Double(batto) / 1e15)
        }
    }
    return (times, bare, lists)
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
func mapFrames(zoom: Double?, rotations: [Rotation], gesture: [(Double, EventLog.Event)]) -> [Double] {
    let sessions = rotations.map { rotation in
        guard
            let session = try? HeadlessSession(
                manifestPath: demoManifest, width: 1920, height: 1080, scene: "map", synchronous: true,
                rotation: rotation)
        else {
            print("kiosk-bench: cannot open the demo headless")
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
    return times.map(median)
}

/// The pixels a frame's commands cover, over the screen's: 1 is every pixel drawn once.
func overdraw(_ list: [DrawCommand], screen: Size) -> Double {
    var covered = 0.0
    for command in list.flatMap(\.flattened) {
        switch command {
        case .image(_, _, let d), .tile(_, _, let d, _), .placeholder(let d), .fill(let d, _), .homeButton(let d),
            .background(let d):
            let w = max(0, min(d.maxX, screen.width) - max(d.minX, 0))
            let h = max(0, min(d.maxY, screen.height) - max(d.minY, 0))
            covered += w * h
        case .dot(_, let r, _):
            covered += 4 * r * r
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
func measuredTour(_ manifest: String) -> (median: Double, sdlOnly: Double, overdraw: Double, peakMiB: Double) {
    guard let session = try? HeadlessSession(manifestPath: manifest, width: 1920, height: 1080, synchronous: true)
    else {
        print("kiosk-bench: cannot open \(manifest)")
        exit(1)
    }
    session.frame(at: 0)
    _ = tour(session, warm: true)
    session.app.scene.reset()
    let (times, sdl, lists) = tour(session, warm: false)
    let screen = Size(width: 1920, height: 1080)
    let mean = lists.map { overdraw($0, screen: screen) }.reduce(0, +) / Double(max(1, lists.count))
    return (median(times), median(sdl), mean, Double(session.peakTextureBytes) / 1_048_576)
}

/// The demo's manifest, `Assets/kiosk.json`.
nonisolated var demoManifest: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/kiosk.json").path
}

func formatted(_ v: Double) -> String { String(format: "%.2f", v) }

let json = CommandLine.arguments.contains("--json")
// Frames drawn in this process are measured on one CPU; the kiosk processes it starts run free (a child
// inherits its parent's CPUs, and the real-time kiosk's decoding threads must not share the frame loop's core).
if CommandLine.arguments.contains("--transition-only") {
    _ = kiosk_pin_to_last_cpu()
    let folder = NSTemporaryDirectory() + "/kiosk-bench"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let r = transitionFrames(folder: folder)
    let a = attractFrames()
    print(
        "frameTransitionMs \(formatted(r.median)) frameTransitionWorstMs \(formatted(r.worst)) "
            + "frameAttractMs \(formatted(a.median)) frameAttractWorstMs \(formatted(a.worst)) "
            + "frameAttractWorstOneRunMs \(formatted(a.worstOneRun))")
    exit(0)
}
if CommandLine.arguments.contains("--reload-only") {
    let folder = NSTemporaryDirectory() + "/kiosk-bench"
    let r = reloadFigures(folder: folder, cache: folder + "/cache")
    print("reloadWorstFrameMs \(formatted(r.worstFrame)) reloadRssGrowth \(formatted(r.rssGrowth))")
    exit(0)
}
if CommandLine.arguments.contains("--settle-only") {
    let folder = NSTemporaryDirectory() + "/kiosk-bench"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let dzi = URL(fileURLWithPath: demoManifest).deletingLastPathComponent().appendingPathComponent("deepzoom/demo.dzi")
    if !FileManager.default.fileExists(atPath: dzi.path) { generate(size: 16384, flat: false, out: dzi.path) }
    print("settleToSharpMs \(formatted(settleToSharp(folder: folder, cache: folder + "/cache")))")
    exit(0)
}
if CommandLine.arguments.contains("--tour-only") {
    let folder = NSTemporaryDirectory() + "/kiosk-bench"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let copies = referenceCopies(seconds: 10)
    let t = realtimeTours(folder: folder, cache: folder + "/cache")
    print(
        "tourPeakRssMiB \(formatted(t.peak)) tourSettledRssMiB \(formatted(t.settled)) "
            + "tourWorstFrameMs \(formatted(t.worstFrame)) tourLateFrames \(Int(t.late)) "
            + "tourWorstFrameOneRunMs \(formatted(t.worstOneRun)) tourLateFramesOneRun \(Int(t.lateOneRun)) "
            + "copyFrameMs \(formatted(copies.median)) copyFrameWorstMs \(formatted(copies.worst))")
    exit(0)
}
_ = kiosk_pin_to_last_cpu()
let onlyPans = CommandLine.arguments.contains("--pan-only")
let eight = figureEight(seconds: 10)
let pans = mapFrames(zoom: 1, rotations: [.none, .quarter], gesture: eight)
let panZoomed = mapFrames(zoom: 0.53, rotations: [.none], gesture: eight)[0]
let pinch = mapFrames(zoom: nil, rotations: [.none], gesture: pinching(seconds: 10))[0]
if onlyPans {
    print(
        "framePan1xMs \(formatted(pans[0])) framePanZoomedMs \(formatted(panZoomed)) framePinchMs \(formatted(pinch))"
            + " rotationRatio \(formatted(pans[1] / pans[0]))")
    exit(0)
}
_ = engineStep(rounds: 50)  // warm up
_ = inputEvent(gestures: 20)
let step = engineStep(rounds: 2000)
let event = inputEvent(gestures: 2000)
let carousel = frames(
    scene: "gallery", gesture: swipes(from: Point(x: 0.8, y: 0.5), to: Point(x: 0.3, y: 0.5), ms: 300, times: 5),
    count: 400)
let map = frames(
    scene: "map", gesture: swipes(from: Point(x: 0.3, y: 0.6), to: Point(x: 0.7, y: 0.3), ms: 250, times: 5), count: 400
)
let menu = frames(
    scene: "menu", gesture: swipes(from: Point(x: 0.5, y: 0.9), to: Point(x: 0.5, y: 0.2), ms: 150, times: 5),
    count: 400)

// Deep zoom: the 16384² demo, and flat pyramids of 2048² and 32768² for the scaling ratio.
let folder = NSTemporaryDirectory() + "/kiosk-bench"
try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
let demoDZI = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Assets/deepzoom/demo.dzi").path
if !FileManager.default.fileExists(atPath: demoDZI) { generate(size: 16384, flat: false, out: demoDZI) }
let firstFrameClock = ContinuousClock()
let firstStart = firstFrameClock.now
guard let first = try? HeadlessSession(manifestPath: manifest(for: demoDZI, in: folder), width: 1920, height: 1080)
else {
    print("kiosk-bench: cannot open the deep-zoom demo")
    exit(1)
}
first.frame(at: 0)
let (ffs, ffa) = (firstFrameClock.now - firstStart).components
let firstFrameMs = Double(ffs) * 1000 + Double(ffa) / 1e15
let zoom = measuredTour(manifest(for: demoDZI, in: folder))
generate(size: 2048, flat: true, out: folder + "/small/flat.dzi")
generate(size: 32768, flat: true, out: folder + "/large/flat.dzi")
let small = measuredTour(manifest(for: folder + "/small/flat.dzi", in: folder + "/small"))
let transition = transitionFrames(folder: folder)
let attracting = attractFrames()
let large = measuredTour(manifest(for: folder + "/large/flat.dzi", in: folder + "/large"))
kiosk_unpin()
let cache = folder + "/cache"
let panRss = panPeakRss(folder: folder, cache: cache)
let cold = coldStart(folder: folder, cache: cache)
let quiet = idleProcess(folder: folder, cache: cache)
// 03:00, when the demo is closed: a blank screen.
let closed = idleProcess(folder: folder, cache: cache, extra: ["--clock", "2026-01-05T03:00:00"])
let copies = referenceCopies(seconds: 10)
let realtime = realtimeTours(folder: folder, cache: cache)
let reload = reloadFigures(folder: folder, cache: cache)
let check = checkDemo()
let sharp = settleToSharp(folder: folder, cache: cache)
let budgetMiB = 128.0

let rows: [(key: String, value: String, unit: String, target: String)] = [
    ("engineStepNs", "\(Int(step.perItemNs.rounded()))", "ns", "<= 2000"),
    ("engineStepAllocations", "\(step.allocationsPerItem)", "per step", "0"),
    ("eventNs", "\(Int(event.perItemNs.rounded()))", "ns", "<= 2000"),
    ("eventAllocations", "\(event.allocationsPerItem)", "per event", "0"),
    ("frameMapMs", formatted(map.median), "ms median", "<= 8"),
    ("frameCarouselMs", formatted(carousel.median), "ms median", "<= 8"),
    ("frameMenuMs", formatted(menu.median), "ms median", "<= 8"),
    ("frameWorstMs", formatted(max(map.worst, carousel.worst, menu.worst)), "ms", ""),
    ("frameZoomMs", formatted(zoom.median), "ms median", "<= 8"),
    ("frameSdlOnlyMs", formatted(zoom.sdlOnly), "ms median", ""),
    ("overheadRatio", formatted(zoom.median / max(zoom.sdlOnly, 1e-9)), "", "<= 1.10"),
    ("overdraw", formatted(zoom.overdraw), "", "<= 1.25"),
    ("scaleRatio", formatted(large.median / max(small.median, 1e-9)), "", "<= 1.25"),
    ("peakTextureMiB", formatted(zoom.peakMiB), "MiB", "<= 128"),
    ("firstFrameMs", formatted(firstFrameMs), "ms", "< 300"),
    ("idleCpuPercent", formatted(quiet.cpuPercent), "%", "<= 0.1"),
    ("idleFramesRendered", "\(quiet.frames)", "frames", "0"),
    ("idleWakeupsPerSecond", formatted(quiet.wakeups), "per s", "<= 2"),
    ("framePan1xMs", formatted(pans[0]), "ms median", "<= 1.5"),
    ("framePanZoomedMs", formatted(panZoomed), "ms median", "<= 2.0"),
    ("framePinchMs", formatted(pinch), "ms median", "<= 8"),
    ("rotationRatio", formatted(pans[1] / pans[0]), "", "<= 1.15"),
    ("panPeakRssMiB", formatted(panRss.warm), "MiB", "<= 95"),
    ("panPeakRssFirstRunMiB", formatted(panRss.first), "MiB", ""),
    ("coldStartMs", formatted(cold), "ms median", "<= 150"),
    ("tourPeakRssMiB", formatted(realtime.peak), "MiB", "<= \(Int(budgetMiB) + 48)"),
    ("tourSettledRssMiB", formatted(realtime.settled), "MiB", "<= 96"),
    ("tourWorstFrameMs", formatted(realtime.worstFrame), "ms", "<= 16.7"),
    ("tourLateFrames", "\(Int(realtime.late))", "frames", ""),
    ("tourWorstFrameOneRunMs", formatted(realtime.worstOneRun), "ms", ""),
    ("tourLateFramesOneRun", "\(Int(realtime.lateOneRun))", "frames", ""),
    ("copyFrameMs", formatted(copies.median), "ms median", ""),
    ("copyFrameWorstMs", formatted(copies.worst), "ms", ""),
    ("reloadWorstFrameMs", formatted(reload.worstFrame), "ms", "<= 16.7"),
    ("reloadRssGrowth", formatted(reload.rssGrowth), "", "<= 1.10"),
    ("checkDemoMs", formatted(check), "ms median", "< 2000"),
    ("frameTransitionMs", formatted(transition.median), "ms median", "<= 8"),
    ("frameTransitionWorstMs", formatted(transition.worst), "ms", ""),
    ("frameAttractMs", formatted(attracting.median), "ms median", "<= 8"),
    ("frameAttractWorstMs", formatted(attracting.worst), "ms", "<= 16.7"),
    ("frameAttractWorstOneRunMs", formatted(attracting.worstOneRun), "ms", ""),
    ("closedCpuPercent", formatted(closed.cpuPercent), "%", "<= 0.1"),
    ("closedFramesRendered", "\(closed.frames)", "frames", "0"),
    ("closedWakeupsPerSecond", formatted(closed.wakeups), "per s", "<= 2"),
    ("settleToSharpMs", formatted(sharp), "ms", "<= 500"),
]
if json {
    print("{" + rows.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}")
} else {
    func cell(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(1, width - s.count)) }
    print(cell("measure", 24) + cell("value", 12) + cell("unit", 12) + "target")
    for r in rows { print(cell(r.key, 24) + cell(r.value, 12) + cell(r.unit, 12) + r.target) }
    print("(\(step.count) engine steps; \(event.count) input events of drags and pinches;")
    print(" 400 frames of each demo scene at 1920x1080 on SDL's software renderer while a finger swipes;")
    print(" the deep-zoom tour: every level in and out with pans, after a warming pass; idle: 5 s with no input;")
    print(" reload: flings on the map while SIGHUP loads the 16384² demo and four 4000-px pages, then 20 reloads)")
}
