import ScrollEngine
import Testing

/// Every start position × velocity × edge × rate × zoom × paging: the engine always comes to rest, within its
/// limits, without NaN, never past the rubber band's bound, and a paging view rests on a page boundary.
@Suite struct PropertyTests {
    struct Case: CustomStringConvertible {
        var start: Point
        var velocity: Point
        var rate: DecelerationRate
        var zoom: Double
        var paging: Bool
        var description: String { "start \(start) v \(velocity) rate \(rate.rawValue) zoom \(zoom) paging \(paging)" }
    }

    static func cases() -> [Case] {
        let velocities = [-8000.0, -1500, -30, 0, 1500, 8000]
        var out: [Case] = []
        for rate in [DecelerationRate.normal, .fast] {
            for zoom in [1.0, 2.0] {
                for paging in [false, true] {
                    // Limits at this zoom: content 1200 x 1800 in 400 x 600 bounds.
                    let maxX = 1200 * zoom - 400
                    let maxY = 1800 * zoom - 600
                    for sx in [-150.0, 0, maxX / 2 + 37, maxX, maxX + 120] {
                        for sy in [-200.0, 0, maxY / 3 + 11, maxY] {
                            for vx in velocities {
                                for vy in velocities where (vx * 7 + vy).truncatingRemainder(dividingBy: 3) == 0 {
                                    out.append(
                                        Case(
                                            start: Point(x: sx, y: sy), velocity: Point(x: vx, y: vy), rate: rate,
                                            zoom: zoom, paging: paging))
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    @Test func everyReleaseComesToRestWithinLimits() {
        let all = Self.cases()
        #expect(all.count > 1000)
        var failures = 0
        for c in all where !check(c) {
            failures += 1
            if failures > 5 { break }
        }
        #expect(failures == 0)
    }

    /// Runs one case; records an issue and returns false when it breaks a property.
    func check(_ c: Case) -> Bool {
        let b = Bench(
            bounds: Size(width: 400, height: 600), content: Size(width: 1200, height: 1800),
            zoomingSize: Size(width: 1200, height: 1800)
        ) {
            $0.maximumZoomScale = 3
            $0.decelerationRate = c.rate
            $0.isPagingEnabled = c.paging
        }
        b.view.setZoomScale(c.zoom, animated: false)
        b.view.contentOffset = c.start
        b.view.touchesBegan(at: 0)
        b.view.beginDragging(translation: Point(x: 0, y: 10), at: 0)
        b.t = Bench.frame
        b.view.drag(by: Point(x: 3, y: -2), at: b.t)
        b.view.endDragging(velocity: c.velocity, at: b.t)
        var worst = 0.0
        while !b.view.isAtRest && b.t < 30 {
            b.t += Bench.frame
            b.view.step(to: b.t)
            let o = b.view.contentOffset
            guard o.isFinite, b.view.zoomScale.isFinite else {
                Issue.record("non-finite state: \(c)")
                return false
            }
            for axis in Axis.allCases {
                let r = b.view.offsetLimits(axis)
                worst = max(worst, (r.lowerBound - o[axis]) / b.view.bounds[axis])
                worst = max(worst, (o[axis] - r.upperBound) / b.view.bounds[axis])
            }
        }
        var ok = true
        if !b.view.isAtRest || b.view.isDecelerating {
            Issue.record("not at rest after 30 s: \(c)")
            ok = false
        }
        if b.view.clampedOffset(b.view.contentOffset) != b.view.contentOffset {
            Issue.record("rests outside its limits at \(b.view.contentOffset): \(c)")
            ok = false
        }
        if worst >= 1 {
            Issue.record("overscrolled past the rubber band's bound (\(worst) of the bounds): \(c)")
            ok = false
        }
        if c.paging {
            let x = b.view.contentOffset.x
            let page = (x / 400).rounded()
            if abs(x - page * 400) > 1e-9 && abs(x - b.view.offsetLimits(.horizontal).upperBound) > 1e-9 {
                Issue.record("paging view rests between pages at \(x): \(c)")
                ok = false
            }
        }
        let ends = b.log.events.filter { $0 == .didEndDecelerating }.count
        let begins = b.log.events.filter { $0 == .willBeginDecelerating }.count
        if ends != begins {
            Issue.record("\(begins) willBeginDecelerating but \(ends) didEndDecelerating: \(c)")
            ok = false
        }
        return ok
    }

    @Test func randomGestureStreamsStayFiniteAndSettle() {
        var rng = SplitMix(seed: 0x5EED)
        for _ in 0..<300 {
            let b = Bench(
                bounds: Size(width: rng.range(100, 900), height: rng.range(100, 900)),
                content: Size(width: rng.range(0, 3000), height: rng.range(0, 3000)),
                zoomingSize: Size(width: rng.range(50, 3000), height: rng.range(50, 3000))
            ) {
                $0.maximumZoomScale = rng.range(0.5, 5)
                $0.minimumZoomScale = rng.range(0.1, 1.5)
                $0.isPagingEnabled = rng.unit() < 0.3
                $0.bounces = rng.unit() < 0.8
                $0.centersContent = rng.unit() < 0.5
                $0.isDirectionalLockEnabled = rng.unit() < 0.3
            }
            b.view.setZoomScale(b.view.minimumZoomScale, animated: false)
            var ops: [Int] = []
            for _ in 0..<40 {
                b.t += rng.range(0, 0.05)
                let p = Point(x: rng.range(-100, 1000), y: rng.range(-100, 1000))
                let op = Int(rng.next() % 9)
                ops.append(op)
                switch op {
                case 0: b.view.touchesBegan(at: b.t)
                case 1: b.view.beginDragging(translation: Point(x: rng.range(-20, 20), y: rng.range(-20, 20)), at: b.t)
                case 2, 3: b.view.drag(by: Point(x: rng.range(-300, 300), y: rng.range(-300, 300)), at: b.t)
                case 4:
                    b.view.endDragging(velocity: Point(x: rng.range(-9000, 9000), y: rng.range(-9000, 9000)), at: b.t)
                case 5: b.view.beginZooming(focalPoint: p, at: b.t)
                case 6: b.view.zoom(by: rng.range(0.5, 2), focalPoint: p, at: b.t)
                case 7: b.view.endZooming(at: b.t)
                default: b.view.touchesEnded(at: b.t)
                }
                b.view.step(to: b.t)
                #expect(b.view.contentOffset.isFinite && b.view.zoomScale.isFinite)
            }
            b.view.touchesCancelled(at: b.t)
            let took = b.settle(limit: 60)
            #expect(b.view.isAtRest, "did not settle in \(took) s")
            #expect(
                !b.view.isTracking && !b.view.isDragging && !b.view.isZooming && !b.view.isDecelerating,
                "ops \(ops)")
            #expect(b.view.zoomScale >= b.view.minimumZoomScale - 1e-9)
            #expect(b.view.zoomScale <= max(b.view.minimumZoomScale, b.view.maximumZoomScale) + 1e-9)
        }
    }
}
