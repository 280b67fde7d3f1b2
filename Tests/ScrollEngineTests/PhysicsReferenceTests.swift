import ScrollEngine
import Testing

/// The physics' reference cases (docs/scroll-engine.md, "Reference cases"), to their stated precision.
@Suite struct PhysicsReferenceTests {
    @Test(arguments: [(0.998, 1000.0, 499.0), (0.998, 3000, 1497.0), (0.99, 1000, 99.0), (0.99, 3000, 297.0)])
    func discreteProjection(rate: Double, velocity: Double, expected: Double) {
        expectClose(DecelerationSimulation.projectedDistance(velocity: velocity, rate: rate), expected, 1e-9)
    }

    @Test func decayNormal() {
        let s = DecelerationSimulation(position: 0, velocity: 1000, rate: 0.998)
        expectClose(s.x(0.5), 315.9280, 5e-5)
        expectClose(s.dx(0.5), 367.5113, 5e-5)
        expectClose(s.restPosition, 499.4998, 5e-5)
        expectClose(s.duration, 3.4499, 5e-5)
        #expect(!s.isDone(3.44))
        #expect(s.isDone(3.45))
    }

    @Test func decayFast() {
        let s = DecelerationSimulation(position: 0, velocity: 1000, rate: 0.99)
        expectClose(s.restPosition, 99.4992, 5e-5)
        expectClose(s.duration, 0.5267, 5e-5)
    }

    @Test func decayReachesTarget() throws {
        let s = DecelerationSimulation(position: 10, velocity: -800, rate: 0.998)
        let t = try #require(s.time(toReach: -100))
        expectClose(s.x(t), -100, 1e-9)
        #expect(s.time(toReach: -1000) == nil)  // beyond its rest
        #expect(s.time(toReach: 20) == nil)  // behind it
    }

    @Test(arguments: [
        (100.0, 500.0, 49.549550), (500, 500, 177.419355), (1000, 812, 327.900147), (50, 300, 25.190840),
        (10000, 500, 458.333333),
    ])
    func rubberBand(x: Double, dim: Double, expected: Double) {
        expectClose(RubberBand.offset(overscroll: x, dimension: dim), expected, 5e-7)
        expectClose(RubberBand.offset(overscroll: -x, dimension: dim), -expected, 5e-7)
        expectClose(RubberBand.overscroll(showing: expected, dimension: dim), x, 1e-6 * x)
    }

    @Test func criticallyDampedSpring() {
        let s = SpringSimulation(start: 500, target: 0, velocity: 0)
        expectClose(s.x(0.25), 143.6487, 5e-5)
        expectClose(s.x(0.5), 20.2138, 5e-5)
        expectClose(s.x(0.75), 2.3506, 5e-5)
        #expect(!s.isDone(0.5))
        #expect(s.isDone(2))
    }

    @Test func underAndOverdampedSpringsReachTheTarget() {
        for zeta in [0.5, 1.1, 2.0] {
            let s = SpringSimulation(start: 200, target: 50, velocity: -300, dampingRatio: zeta)
            expectClose(s.x(0), 200, 1e-9)
            expectClose(s.dx(0), -300, 1e-9)
            // dx is the derivative of x.
            let h = 1e-6
            expectClose((s.x(0.3 + h) - s.x(0.3 - h)) / (2 * h), s.dx(0.3), 1e-3)
            #expect(s.isDone(5))
            expectClose(s.x(5), 50, 0.5)
        }
    }

    @Test(arguments: [
        (450.0, 100.0, 800.0), (450, 0, 400), (450, -100, 400), (599, 0, 400), (600, 0, 800), (610, -21, 400),
    ])
    func paging(offset: Double, velocity: Double, expected: Double) {
        let page = Paging.targetPage(offset: offset, pageSize: 400, velocity: velocity, pageCount: 10)
        #expect(Double(page) * 400 == expected)
    }

    @Test func pagingNeverMovesMoreThanOnePage() {
        #expect(Paging.targetPage(offset: 1900, pageSize: 400, velocity: 5000, pageCount: 10, fromPage: 2) == 3)
        #expect(Paging.targetPage(offset: -300, pageSize: 400, velocity: -5000, pageCount: 10, fromPage: 0) == 0)
        #expect(Paging.targetPage(offset: 9000, pageSize: 400, velocity: 5000, pageCount: 3) == 2)
    }

    @Test func doubleTapZoomRect() {
        let r = ZoomMath.zoomRect(scale: 2, center: Point(x: 150, y: 200), frame: Size(width: 320, height: 480))
        #expect(r == Rect(x: 70, y: 80, width: 160, height: 240))
    }

    @Test func zoomRubberBandIsMonotonicBoundedAndInvertible() {
        var previous = 0.0
        for i in 1...400 {
            let requested = Double(i) * 0.05
            let shown = ZoomMath.bandedScale(requested, min: 1, max: 4)
            #expect(shown >= previous)
            #expect(shown > 0.5 && shown < 8)
            expectClose(ZoomMath.unbandedScale(shown, min: 1, max: 4), requested, 1e-6 * requested)
            previous = shown
        }
        #expect(ZoomMath.bandedScale(2.5, min: 1, max: 4) == 2.5)
    }
}
