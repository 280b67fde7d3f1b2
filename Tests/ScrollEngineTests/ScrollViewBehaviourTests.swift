import ScrollEngine
import Testing

/// The ScrollView's options and geometry, one behaviour per test.
@Suite struct ScrollViewBehaviourTests {
    @Test func limitsFollowInsetsAndNeverCross() {
        let v = ScrollView(bounds: Size(width: 400, height: 600), contentSize: Size(width: 1000, height: 300))
        v.contentInset = EdgeInsets(top: 10, left: 20, bottom: 30, right: 40)
        #expect(v.offsetLimits(.horizontal) == -20...640)
        #expect(v.offsetLimits(.vertical) == -10 ... -10)  // content smaller than the bounds stays at the minimum
        #expect(v.canScroll(.horizontal) && !v.canScroll(.vertical))
    }

    @Test func centersSmallContentAsAPhotoViewer() {
        let v = ScrollView(bounds: Size(width: 400, height: 600), contentSize: Size(width: 200, height: 1000))
        v.centersContent = true
        #expect(v.adjustedContentInset == EdgeInsets(top: 0, left: 100, bottom: 0, right: 100))
        #expect(v.offsetLimits(.horizontal) == -100 ... -100)
        #expect(v.offsetLimits(.vertical) == 0...400)
    }

    @Test func dragFollowsTheFingerInsideTheLimits() {
        let b = Bench()
        b.view.contentOffset = Point(x: 0, y: 1000)
        b.drag(Point(x: 30, y: -250), velocity: .zero)
        #expect(b.view.contentOffset == Point(x: 0, y: 1250))  // no horizontal scroll: content fits
    }

    @Test func rubberBandWhileDraggingPastAnEdge() {
        let b = Bench()
        b.view.touchesBegan(at: 0)
        b.view.beginDragging(at: 0)
        b.view.drag(by: Point(x: 0, y: 100), at: 0.1)
        expectClose(b.view.contentOffset.y, -RubberBand.offset(overscroll: 100, dimension: 600), 1e-9)
        // Back the other way by the same amount: exactly where it started, no hysteresis.
        b.view.drag(by: Point(x: 0, y: -100), at: 0.2)
        expectClose(b.view.contentOffset.y, 0, 1e-9)
    }

    @Test func dragStartingWhileOverscrolledDoesNotJump() {
        let b = Bench()
        b.drag(Point(x: 0, y: 200), velocity: .zero)  // overscrolled, bouncing back
        b.run(0.05)
        let shown = b.view.contentOffset.y
        #expect(shown < 0)
        b.view.touchesBegan(at: b.t)
        b.view.beginDragging(at: b.t)
        b.view.drag(by: Point(x: 0, y: 0.001), at: b.t)
        expectClose(b.view.contentOffset.y, shown, 0.01)
    }

    @Test func withoutBouncesTheEdgeIsHard() {
        let b = Bench { $0.bounces = false }
        b.drag(Point(x: 0, y: 300), velocity: Point(x: 0, y: 3000))
        #expect(b.view.contentOffset.y == 0)
        b.settle()
        #expect(b.view.contentOffset.y == 0)
        // A fling into the far edge stops dead there.
        b.view.contentOffset = Point(x: 0, y: 2300)
        b.drag(Point(x: 0, y: -10), velocity: Point(x: 0, y: -8000))
        var maxSeen = 0.0
        while !b.view.isAtRest {
            b.run(Bench.frame)
            maxSeen = max(maxSeen, b.view.contentOffset.y)
        }
        #expect(maxSeen == 2400)
    }

    @Test func alwaysBounceVerticalLetsSmallContentRubberBand() {
        let b = Bench(content: Size(width: 400, height: 100)) { $0.alwaysBounceVertical = true }
        b.drag(Point(x: 0, y: 100), velocity: .zero)
        #expect(b.view.contentOffset.y < 0)
        b.settle()
        #expect(b.view.contentOffset.y == 0)
        let still = Bench(content: Size(width: 400, height: 100))
        still.drag(Point(x: 0, y: 100), velocity: .zero)
        #expect(still.view.contentOffset.y == 0)
        #expect(!still.log.events.contains(.didScroll))
    }

    @Test func scrollDisabledIgnoresDrags() {
        let b = Bench { $0.isScrollEnabled = false }
        b.drag(Point(x: 0, y: -300))
        b.settle()
        #expect(b.view.contentOffset == .zero)
        #expect(b.log.events.isEmpty)
    }

    @Test func flingPastTheEndBouncesBackWithoutVisibleOvershootTwice() {
        let b = Bench()
        b.view.contentOffset = Point(x: 0, y: 2200)
        b.drag(Point(x: 0, y: -100), velocity: Point(x: 0, y: -3000))
        var peak = 0.0
        var crossings = 0
        var wasOver = false
        while !b.view.isAtRest {
            b.run(Bench.frame)
            let over = b.view.contentOffset.y > 2400 + 1e-9
            if over != wasOver { crossings += 1 }
            wasOver = over
            peak = max(peak, b.view.contentOffset.y)
        }
        #expect(peak > 2400 && peak < 3000)
        #expect(crossings == 2)  // out once and back once: critically damped
        #expect(b.view.contentOffset.y == 2400)
    }

    @Test func decelerationRateFastStopsSooner() {
        func travel(_ rate: DecelerationRate) -> Double {
            let b = Bench(content: Size(width: 400, height: 100_000)) { $0.decelerationRate = rate }
            b.view.contentOffset = Point(x: 0, y: 1000)
            b.drag(Point(x: 0, y: -100), velocity: Point(x: 0, y: -2000))
            let start = b.view.contentOffset.y
            b.settle()
            return b.view.contentOffset.y - start
        }
        expectClose(travel(.normal), 2000 * 0.4995, 0.1)
        expectClose(travel(.fast), 2000 * 0.0995, 0.1)
        expectClose(
            travel(DecelerationRate(rawValue: 0.995)),
            DecelerationSimulation(position: 0, velocity: 2000, rate: 0.995).restPosition, 0.1)
    }

    @Test func pagingSnapsToTheNextPageAndAtMostOne() {
        let b = Bench(content: Size(width: 4000, height: 600)) { $0.isPagingEnabled = true }
        #expect(b.view.currentPage == 0)
        b.drag(Point(x: -120, y: 0), velocity: Point(x: -8000, y: 0))
        if case .willEndDragging(_, let target) = b.log.events.first(where: { $0.name == "scrollViewWillEndDragging" })
        {
            #expect(target == Point(x: 400, y: 0))
        } else {
            Issue.record("no willEndDragging")
        }
        b.settle()
        #expect(b.view.contentOffset.x == 400)
        #expect(b.view.currentPage == 1)
        // A slow, short drag goes back to the nearest page.
        b.drag(Point(x: -100, y: 0), velocity: .zero)
        b.settle()
        #expect(b.view.currentPage == 1)
        // More than half a page without velocity goes on.
        b.drag(Point(x: -250, y: 0), velocity: .zero)
        b.settle()
        #expect(b.view.currentPage == 2)
        #expect(b.view.contentOffset.x == 800)
    }

    @Test func delegateMayChangeTheTarget() {
        let b = Bench(content: Size(width: 400, height: 20000))
        b.log.retarget = { _, proposed in Point(x: proposed.x, y: (proposed.y / 100).rounded() * 100 + 50) }
        b.drag(Point(x: 0, y: -200), velocity: Point(x: 0, y: -2500))
        guard
            case .willEndDragging(_, let target) = b.log.events.first(where: { $0.name == "scrollViewWillEndDragging" })
        else {
            Issue.record("no willEndDragging")
            return
        }
        #expect(target.y.truncatingRemainder(dividingBy: 100) == 50)
        b.settle()
        #expect(b.view.contentOffset.y == target.y)
        #expect(b.discrete.suffix(2) == ["scrollViewWillBeginDecelerating", "scrollViewDidEndDecelerating"])
    }

    @Test func directionalLockLocksAStraightStartButNotADiagonalOne() {
        func run(initial: Point) -> Point {
            let b = Bench(content: Size(width: 4000, height: 4000)) { $0.isDirectionalLockEnabled = true }
            b.view.contentOffset = Point(x: 1000, y: 1000)
            b.view.touchesBegan(at: 0)
            b.view.beginDragging(translation: initial, at: 0)
            b.view.drag(by: Point(x: -100, y: -60), at: 0.1)
            return b.view.contentOffset
        }
        #expect(run(initial: Point(x: -12, y: -2)) == Point(x: 1100, y: 1000))
        #expect(run(initial: Point(x: 1, y: -12)) == Point(x: 1000, y: 1060))
        #expect(run(initial: Point(x: -9, y: -8)) == Point(x: 1100, y: 1060))
        let free = Bench(content: Size(width: 4000, height: 4000))
        free.view.touchesBegan(at: 0)
        free.view.beginDragging(translation: Point(x: -12, y: 0), at: 0)
        free.view.drag(by: Point(x: -100, y: -60), at: 0.1)
        #expect(free.view.contentOffset == Point(x: 100, y: 60))
    }

    @Test func pinchKeepsTheContentPointUnderTheFingers() {
        let b = Bench(
            bounds: Size(width: 800, height: 600), content: Size(width: 1600, height: 1200),
            zoomingSize: Size(width: 1600, height: 1200)
        ) {
            $0.minimumZoomScale = 0.5
            $0.maximumZoomScale = 4
        }
        b.view.contentOffset = Point(x: 300, y: 200)
        var focal = Point(x: 350, y: 260)
        let anchor = (b.view.contentOffset + focal) / b.view.zoomScale
        b.view.touchesBegan(at: 0)
        b.view.beginZooming(focalPoint: focal, at: 0)
        for i in 1...30 {
            focal = focal + Point(x: 3, y: -2)
            b.view.zoom(by: 1.03, focalPoint: focal, at: Double(i) / 60)
            let under = (b.view.contentOffset + focal) / b.view.zoomScale
            expectClose(under.x, anchor.x, 1e-6)
            expectClose(under.y, anchor.y, 1e-6)
        }
    }

    @Test func noViewForZoomingMeansNoZoom() {
        let b = Bench { $0.maximumZoomScale = 4 }
        b.view.touchesBegan(at: 0)
        b.view.beginZooming(focalPoint: Point(x: 10, y: 10), at: 0)
        b.view.zoom(by: 2, focalPoint: Point(x: 10, y: 10), at: 0.1)
        b.view.setZoomScale(3, animated: false)
        #expect(b.view.zoomScale == 1)
        #expect(!b.view.isZooming)
        #expect(b.log.events.isEmpty)
    }

    @Test func zoomOutPastTheMinimumBouncesBackCentred() {
        let b = Bench(
            bounds: Size(width: 800, height: 600), content: Size(width: 800, height: 600),
            zoomingSize: Size(width: 800, height: 600)
        ) {
            $0.maximumZoomScale = 3
            $0.centersContent = true
        }
        b.view.touchesBegan(at: 0)
        b.view.beginZooming(focalPoint: Point(x: 100, y: 100), at: 0)
        b.view.zoom(by: 0.5, focalPoint: Point(x: 150, y: 120), at: 0.1)
        #expect(b.view.zoomScale < 1 && b.view.zoomScale > 0.5)
        b.t = 0.1
        b.view.endZooming(at: 0.1)
        b.view.touchesEnded(at: 0.1)
        b.settle()
        #expect(b.view.zoomScale == 1)
        #expect(b.view.contentOffset == .zero)
    }

    @Test func pinchThenPanThenRelease() {
        let b = Bench(
            bounds: Size(width: 400, height: 400), content: Size(width: 400, height: 400),
            zoomingSize: Size(width: 400, height: 400)
        ) { $0.maximumZoomScale = 4 }
        b.view.touchesBegan(at: 0)
        b.view.beginDragging(at: 0)
        b.view.beginZooming(focalPoint: Point(x: 200, y: 200), at: 0)
        b.view.zoom(by: 2, focalPoint: Point(x: 200, y: 200), at: 0.1)
        b.view.endZooming(at: 0.1)  // one finger lifted: the other pans on
        let before = b.view.contentOffset
        b.view.drag(by: Point(x: -50, y: 0), at: 0.2)
        #expect(b.view.contentOffset == before + Point(x: 50, y: 0))
        b.t = 0.2
        b.view.endDragging(velocity: .zero, at: 0.2)
        b.settle()
        #expect(b.view.zoomScale == 2)
        #expect(b.view.isAtRest)
    }
}
