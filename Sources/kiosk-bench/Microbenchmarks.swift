import CAllocCounter
import CSDL2
import EventLog
import Foundation
import Kiosk
import KioskSDL
import ScrollEngine
import TouchInput

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
