import ScrollEngine
import Testing

/// UIKit's delegate event sequences (docs/scroll-engine.md, "Event order").
@Suite struct EventOrderTests {
    @Test func fling() {
        let b = Bench()
        b.drag(Point(x: 0, y: -200))
        b.settle()
        #expect(
            b.collapsed == [
                "scrollViewWillBeginDragging", "scrollViewDidScroll", "scrollViewWillEndDragging",
                "scrollViewDidEndDragging", "scrollViewWillBeginDecelerating", "scrollViewDidScroll",
                "scrollViewDidEndDecelerating",
            ])
        #expect(b.log.events.contains(.didEndDragging(willDecelerate: true)))
        #expect(!b.view.isDecelerating && !b.view.isDragging && !b.view.isTracking)
    }

    @Test func flingTravelsTheProjectedDistanceAndReportsItAsTarget() throws {
        let b = Bench(content: Size(width: 400, height: 20000))
        b.view.contentOffset = Point(x: 0, y: 1000)
        b.log.events.removeAll()
        b.drag(Point(x: 0, y: -100), velocity: Point(x: 0, y: -2000))
        let start = b.view.contentOffset.y
        guard
            case .willEndDragging(let v, let target) = try #require(
                b.log.events.first { $0.name == "scrollViewWillEndDragging" })
        else { return }
        #expect(v == Point(x: 0, y: 2))  // points per millisecond, content moving down the page
        expectClose(target.y, start + 2000 * 0.4995, 0.1)
        b.settle()
        expectClose(b.view.contentOffset.y, target.y, 1e-9)
    }

    @Test func dragThatStopsBeforeRelease() {
        let b = Bench()
        b.drag(Point(x: 0, y: -200), velocity: .zero)
        b.settle()
        #expect(
            b.collapsed == [
                "scrollViewWillBeginDragging", "scrollViewDidScroll", "scrollViewWillEndDragging",
                "scrollViewDidEndDragging",
            ])
        #expect(b.log.events.contains(.didEndDragging(willDecelerate: false)))
        expectClose(b.view.contentOffset.y, 200, 1e-9)
    }

    @Test func slowReleaseDoesNotDecelerate() {
        let b = Bench()
        b.drag(Point(x: 0, y: -200), velocity: Point(x: 0, y: -20))
        #expect(b.log.events.contains(.didEndDragging(willDecelerate: false)))
    }

    @Test func releaseWhileOverscrolledBouncesAsADeceleration() {
        let b = Bench()
        b.drag(Point(x: 0, y: 300), velocity: .zero)  // pull down past the top
        #expect(b.view.contentOffset.y < 0)
        #expect(b.view.contentOffset.y > -300)  // rubber-banded
        b.settle()
        #expect(
            b.discrete == [
                "scrollViewWillBeginDragging", "scrollViewWillEndDragging", "scrollViewDidEndDragging",
                "scrollViewWillBeginDecelerating", "scrollViewDidEndDecelerating",
            ])
        #expect(b.log.events.contains(.didEndDragging(willDecelerate: true)))
        #expect(b.view.contentOffset.y == 0)
    }

    @Test func touchDuringDecelerationThenFlingAgain() {
        let b = Bench(content: Size(width: 400, height: 20000))
        b.drag(Point(x: 0, y: -200))
        b.run(0.2)
        b.view.touchesBegan(at: b.t)
        let held = b.view.contentOffset
        b.run(0.1)
        #expect(b.view.contentOffset == held)  // stopped under the finger
        #expect(b.view.isDecelerating && b.view.isTracking)
        b.log.events.removeAll()
        b.view.beginDragging(translation: Point(x: 0, y: -12), at: b.t)
        #expect(b.view.isDragging && b.view.isDecelerating)
        b.drag(Point(x: 0, y: -150))
        b.settle()
        #expect(
            b.discrete == [
                "scrollViewWillBeginDragging", "scrollViewWillEndDragging", "scrollViewDidEndDragging",
                "scrollViewWillBeginDecelerating", "scrollViewDidEndDecelerating",
            ])
    }

    @Test func touchDuringDecelerationThenReleaseWithoutVelocity() {
        let b = Bench(content: Size(width: 400, height: 20000))
        b.drag(Point(x: 0, y: -200))
        b.run(0.2)
        b.log.events.removeAll()
        b.view.touchesBegan(at: b.t)
        b.drag(Point(x: 0, y: -50), velocity: .zero)
        #expect(
            b.discrete == [
                "scrollViewWillBeginDragging", "scrollViewWillEndDragging", "scrollViewDidEndDragging",
                "scrollViewDidEndDecelerating",
            ])
        #expect(b.log.events.contains(.didEndDragging(willDecelerate: false)))
        #expect(!b.view.isDecelerating)
    }

    @Test func tapDuringDecelerationStopsIt() {
        let b = Bench(content: Size(width: 400, height: 20000))
        b.drag(Point(x: 0, y: -200))
        b.run(0.2)
        b.log.events.removeAll()
        b.view.touchesBegan(at: b.t)
        let held = b.view.contentOffset
        b.t += 0.08
        b.view.touchesEnded(at: b.t)
        b.settle()
        #expect(b.discrete == ["scrollViewDidEndDecelerating"])
        #expect(b.view.contentOffset == held)
    }

    @Test func pinch() {
        let b = Bench(
            bounds: Size(width: 400, height: 400), content: Size(width: 400, height: 400),
            zoomingSize: Size(width: 400, height: 400)
        ) { $0.maximumZoomScale = 4 }
        b.view.touchesBegan(at: 0)
        b.view.beginZooming(focalPoint: Point(x: 200, y: 200), at: 0)
        for i in 1...10 {
            b.t = Double(i) * Bench.frame
            b.view.zoom(by: 1.1, focalPoint: Point(x: 200, y: 200), at: b.t)
        }
        b.view.endZooming(at: b.t)
        b.view.touchesEnded(at: b.t)
        b.settle()
        #expect(
            b.collapsed.prefix(3) == ["scrollViewWillBeginZooming", "scrollViewDidScroll", "scrollViewDidZoom"])
        #expect(b.discrete == ["scrollViewWillBeginZooming", "scrollViewDidEndZooming"])
        expectClose(b.view.zoomScale, 2.5937, 1e-3)
        #expect(b.view.contentSize.width == 400 * b.view.zoomScale)
    }

    @Test func pinchPastTheMaximumBouncesBackAfterDidEndZooming() throws {
        let b = Bench(
            bounds: Size(width: 400, height: 400), content: Size(width: 400, height: 400),
            zoomingSize: Size(width: 400, height: 400)
        ) { $0.maximumZoomScale = 2 }
        b.view.touchesBegan(at: 0)
        b.view.beginZooming(focalPoint: Point(x: 100, y: 100), at: 0)
        b.view.zoom(by: 3, focalPoint: Point(x: 100, y: 100), at: 0.1)
        #expect(b.view.zoomScale > 2 && b.view.zoomScale < 3)  // resisted
        b.t = 0.1
        b.view.endZooming(at: b.t)
        b.view.touchesEnded(at: b.t)
        #expect(b.view.isZoomBouncing)
        let end = try #require(b.log.events.firstIndex(of: .didEndZooming(scale: 2)))
        b.settle()
        #expect(b.log.events[(end + 1)...].allSatisfy { $0 == .didScroll || $0 == .didZoom })
        #expect(b.log.events[(end + 1)...].contains(.didScroll))
        #expect(b.view.zoomScale == 2)
        #expect(!b.view.isZoomBouncing)
        #expect(b.view.clampedOffset(b.view.contentOffset) == b.view.contentOffset)
    }

    /// `bouncesZoom = false`: a pinch past the maximum stops at it (no resistance past it, no bounce back).
    @Test func pinchPastTheMaximumStopsThereWithoutBouncesZoom() {
        let b = Bench(
            bounds: Size(width: 400, height: 400), content: Size(width: 400, height: 400),
            zoomingSize: Size(width: 400, height: 400)
        ) {
            $0.maximumZoomScale = 2
            $0.bouncesZoom = false
        }
        b.view.touchesBegan(at: 0)
        b.view.beginZooming(focalPoint: Point(x: 100, y: 100), at: 0)
        b.view.zoom(by: 3, focalPoint: Point(x: 100, y: 100), at: 0.1)
        #expect(b.view.zoomScale == 2)
        b.t = 0.1
        b.view.endZooming(at: b.t)
        b.view.touchesEnded(at: b.t)
        #expect(!b.view.isZoomBouncing)
        b.settle()
        #expect(b.discrete == ["scrollViewWillBeginZooming", "scrollViewDidEndZooming"])
        #expect(b.view.zoomScale == 2)
    }

    /// `scrollViewDidChangeAdjustedContentInset`: told after `scrollViewDidZoom` when the centring of content
    /// smaller than the bounds moves with the zoom, and when `contentInset` changes; not while it holds.
    @Test func theAdjustedInsetIsToldWhenItChanges() {
        let b = Bench(
            bounds: Size(width: 400, height: 400), content: Size(width: 400, height: 200),
            zoomingSize: Size(width: 400, height: 200)
        ) {
            $0.maximumZoomScale = 4
            $0.centersContent = true
        }
        b.view.touchesBegan(at: 0)
        b.view.beginZooming(focalPoint: Point(x: 200, y: 200), at: 0)
        b.view.zoom(by: 1.5, focalPoint: Point(x: 200, y: 200), at: 0.05)
        let names = b.log.events.map(\.name)
        let zoom = names.firstIndex(of: "scrollViewDidZoom") ?? names.count
        #expect(names[zoom...].contains("scrollViewDidChangeAdjustedContentInset"), "\(names)")
        #expect(b.view.adjustedContentInset.top == 50)
        b.log.events.removeAll()
        // Taller than the bounds: no centring left, and it stays none.
        b.view.zoom(by: 2, focalPoint: Point(x: 200, y: 200), at: 0.1)
        b.view.zoom(by: 1.1, focalPoint: Point(x: 200, y: 200), at: 0.15)
        #expect(b.log.events.filter { $0 == .didChangeAdjustedContentInset }.count == 1)
        b.log.events.removeAll()
        b.view.contentInset.top = 64
        #expect(b.log.events == [.didChangeAdjustedContentInset])
    }

    @Test func setContentOffsetAnimated() {
        let b = Bench()
        b.view.setContentOffset(Point(x: 0, y: 500), animated: true)
        b.settle()
        #expect(b.collapsed == ["scrollViewDidScroll", "scrollViewDidEndScrollingAnimation"])
        #expect(b.log.events.filter { $0 == .didScroll }.count >= 17)  // one per frame over 0.3 s
        #expect(b.view.contentOffset == Point(x: 0, y: 500))
    }

    /// UIKit's scroll to the top: asked first, animated to the top of the adjusted inset, ended by
    /// `scrollViewDidScrollToTop` (not `scrollViewDidEndScrollingAnimation`); `scrollsToTop = false` keeps it still.
    @Test func scrollToTop() {
        let b = Bench()
        b.view.contentInset.top = 64
        b.view.setContentOffset(Point(x: 0, y: 900), animated: false)
        b.view.scrollsToTop = false
        #expect(!b.view.scrollToTop())
        b.view.scrollsToTop = true
        _ = b.log.drain()
        #expect(b.view.scrollToTop())
        b.settle()
        #expect(b.collapsed == ["scrollViewShouldScrollToTop", "scrollViewDidScroll", "scrollViewDidScrollToTop"])
        #expect(b.view.contentOffset == Point(x: 0, y: -64))
    }

    @Test func setContentOffsetNotAnimated() {
        let b = Bench()
        b.view.setContentOffset(Point(x: 0, y: 500), animated: false)
        b.settle()
        #expect(b.log.events == [.didScroll])
    }

    @Test func setZoomScaleAnimatedAndNot() {
        let b = Bench(content: Size(width: 400, height: 600), zoomingSize: Size(width: 400, height: 600)) {
            $0.maximumZoomScale = 3
        }
        b.view.setZoomScale(2, animated: true)
        b.settle()
        #expect(b.collapsed.last == "scrollViewDidEndScrollingAnimation")
        #expect(b.log.events.filter { $0 == .didZoom }.count >= 17)
        #expect(b.view.zoomScale == 2)
        // Zoomed about the centre: the centre of the content stays in the centre.
        #expect(b.view.contentOffset == Point(x: 200, y: 300))
        b.log.events.removeAll()
        b.view.setZoomScale(1, animated: false)
        #expect(b.log.events == [.didScroll, .didZoom])
    }

    @Test func zoomToRectAnimated() {
        let b = Bench(content: Size(width: 400, height: 600), zoomingSize: Size(width: 400, height: 600)) {
            $0.maximumZoomScale = 4
        }
        b.view.zoom(to: Rect(x: 100, y: 150, width: 100, height: 150), animated: true)
        b.settle()
        #expect(b.discrete == ["scrollViewDidEndScrollingAnimation"])
        #expect(b.view.zoomScale == 4)
        #expect(b.view.contentOffset == Point(x: 400, y: 600))
    }

    @Test func scrollRectToVisible() {
        let b = Bench()
        b.view.scrollRectToVisible(Rect(x: 0, y: 1000, width: 10, height: 100), animated: false)
        #expect(b.view.contentOffset.y == 500)  // the least scroll: rect's bottom at the view's bottom
        b.view.scrollRectToVisible(Rect(x: 0, y: 100, width: 10, height: 100), animated: true)
        b.settle()
        #expect(b.view.contentOffset.y == 100)
        b.view.scrollRectToVisible(Rect(x: 0, y: 2990, width: 10, height: 100), animated: false)
        #expect(b.view.contentOffset.y == 2400)  // limited to the content
    }

    @Test func interruptedAnimationStillEnds() {
        let b = Bench()
        b.view.setContentOffset(Point(x: 0, y: 500), animated: true)
        b.run(0.1)
        b.view.touchesBegan(at: b.t)
        #expect(b.discrete.isEmpty)  // a resting finger does not stop it
        b.run(0.05)
        b.view.beginDragging(at: b.t)  // a drag does
        #expect(b.discrete == ["scrollViewDidEndScrollingAnimation", "scrollViewWillBeginDragging"])
        #expect(b.view.contentOffset.y > 0 && b.view.contentOffset.y < 500)
    }
}
