import ScrollEngine
@_exported import TestSupport
import Testing

/// A scroll view with an event log and a virtual 60 fps clock: the engine's test bench.
final class Bench {
    static let frame = 1.0 / 60
    let view: ScrollView
    let log: ScrollViewEventLog
    var t: Double = 0

    init(
        bounds: Size = Size(width: 400, height: 600), content: Size = Size(width: 400, height: 3000),
        zoomingSize: Size? = nil, configure: (ScrollView) -> Void = { _ in }
    ) {
        view = ScrollView(bounds: bounds, contentSize: content)
        log = ScrollViewEventLog(zoomingSize: zoomingSize)
        view.delegate = log
        configure(view)
    }

    /// Steps frame by frame for `seconds`.
    func run(_ seconds: Double) {
        let end = t + seconds
        while t < end - 1e-9 {
            t += Self.frame
            view.step(to: t)
        }
    }

    /// Steps until the view is at rest (at most `limit` seconds); returns the time it took.
    @discardableResult
    func settle(limit: Double = 30) -> Double {
        let start = t
        while !view.isAtRest && t - start < limit {
            t += Self.frame
            view.step(to: t)
        }
        return t - start
    }

    /// A one-finger drag: touch, start after the slop, move `distance` in `steps` frames, release at `velocity`.
    func drag(_ distance: Point, steps: Int = 10, velocity: Point? = nil) {
        view.touchesBegan(at: t)
        view.beginDragging(translation: distance / Double(steps), at: t)
        for _ in 0..<steps {
            t += Bench.frame
            view.drag(by: distance / Double(steps), at: t)
        }
        view.endDragging(velocity: velocity ?? (distance / (Double(steps) * Bench.frame)), at: t)
    }

    /// Event names without the continuous ones, in order.
    var discrete: [String] {
        log.events.filter { $0 != .didScroll && $0 != .didZoom }.map(\.name)
    }

    /// Event names with runs of the same name collapsed to one ("didScroll…").
    var collapsed: [String] {
        var out: [String] = []
        for e in log.events.map(\.name) where out.last != e { out.append(e) }
        return out
    }
}
