import CAllocCounter
import EventLog
import Foundation
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
    let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/kiosk.json").path
    guard let session = try? HeadlessSession(manifestPath: manifest, width: 1920, height: 1080, scene: scene) else {
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

func formatted(_ v: Double) -> String { String(format: "%.2f", v) }

let json = CommandLine.arguments.contains("--json")
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

let rows: [(key: String, value: String, unit: String, target: String)] = [
    ("engineStepNs", "\(Int(step.perItemNs.rounded()))", "ns", "<= 2000"),
    ("engineStepAllocations", "\(step.allocationsPerItem)", "per step", "0"),
    ("eventNs", "\(Int(event.perItemNs.rounded()))", "ns", "<= 2000"),
    ("eventAllocations", "\(event.allocationsPerItem)", "per event", "0"),
    ("frameMapMs", formatted(map.median), "ms median", "<= 8"),
    ("frameCarouselMs", formatted(carousel.median), "ms median", "<= 8"),
    ("frameMenuMs", formatted(menu.median), "ms median", "<= 8"),
    ("frameWorstMs", formatted(max(map.worst, carousel.worst, menu.worst)), "ms", ""),
]
if json {
    print("{" + rows.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}")
} else {
    func cell(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(1, width - s.count)) }
    print(cell("measure", 24) + cell("value", 12) + cell("unit", 12) + "target")
    for r in rows { print(cell(r.key, 24) + cell(r.value, 12) + cell(r.unit, 12) + r.target) }
    print("(\(step.count) engine steps; \(event.count) input events of drags and pinches;")
    print(" 400 frames of each demo scene at 1920x1080 on SDL's software renderer while a finger swipes)")
}
