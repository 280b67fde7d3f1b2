import CAllocCounter
import ScrollEngine

#if canImport(Glibc)
    import Glibc
#endif

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
        measure(&m) {
            var steps = 0
            while !view.isAtRest {
                t += frame
                view.step(to: t)
                steps += 1
            }
            return steps
        }
        // A pinch past the maximum, released: the zoom bounces back about the focal point.
        view.touchesBegan(at: t)
        view.beginZooming(focalPoint: Point(x: 300, y: 200), at: t)
        view.zoom(by: 6, focalPoint: Point(x: 320, y: 210), at: t + frame)
        t += frame
        view.endZooming(at: t)
        view.touchesEnded(at: t)
        measure(&m) {
            var steps = 0
            while !view.isAtRest {
                t += frame
                view.step(to: t)
                steps += 1
            }
            return steps
        }
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

let json = CommandLine.arguments.contains("--json")
_ = engineStep(rounds: 50)  // warm up
let step = engineStep(rounds: 2000)

if json {
    print(
        "{\"engineStepNs\": \(Int(step.perItemNs.rounded())), \"engineStepAllocations\": \(step.allocationsPerItem)}")
} else {
    print("measure                     value        target")
    print("engineStepNs                \(Int(step.perItemNs.rounded())) ns\(pad(step.perItemNs)) <= 2000")
    print("engineStep allocations      \(step.allocationsPerItem) per step   0")
    print("(\(step.count) steps of a decelerating, bouncing, zooming view)")
}

func pad(_ v: Double) -> String { String(repeating: " ", count: max(1, 10 - String(Int(v.rounded())).count)) }
