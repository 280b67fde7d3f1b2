import ScrollEngine
import Testing
import TouchInput

/// Synthetic gestures, one rule each.
@Suite struct GestureTests {
    @Test func panStartsAfterTheSlopWithoutAJump() {
        let rig = Rig.scroll()
        var g = Gesture()
        g.down(1, Point(x: 400, y: 300))
        for y in [296.0, 293, 291] {  // 9 pt: inside the slop
            g.wait(16)
            g.move(1, Point(x: 400, y: y))
        }
        rig.replay(g.events, settle: false)
        #expect(rig.view.contentOffset.y == 1000)
        #expect(!rig.view.isDragging)
        g = Gesture()
        g.move(1, Point(x: 400, y: 288))  // 12 pt: the drag starts here, with the 2 pt beyond the slop
        rig.replay(g.events, settle: false)
        #expect(rig.view.isDragging)
        #expect(rig.view.contentOffset.y == 1002)
        g = Gesture()
        g.move(1, Point(x: 400, y: 280))
        rig.replay(g.events, settle: false)
        #expect(rig.view.contentOffset.y == 1010)  // from now on exactly the finger's motion, a slop behind
    }

    @Test func velocityTrackerFitsALine() {
        var v = VelocityTracker()
        for i in 0..<10 { v.add(Point(x: Double(i) * 10, y: -Double(i) * 5), at: Double(i) * 0.008) }
        let velocity = v.velocity(at: 0.072)
        expectClose(velocity.x, 1250, 1e-6)
        expectClose(velocity.y, -625, 1e-6)
    }

    @Test func velocityTrackerCopesWithClumpedTimestamps() {
        // Samples arrive three at a time with the same timestamp, as SDL stamps evdev touches when it polls.
        var v = VelocityTracker()
        var x = 0.0
        for frame in 0..<8 {
            for _ in 0..<3 {
                x += 1000 * (1.0 / 60) / 3  // 1000 pt/s
                v.add(Point(x: x, y: 0), at: Double(frame) / 60)
            }
        }
        let velocity = v.velocity(at: 7.0 / 60)
        #expect(velocity.x.isFinite)
        expectClose(velocity.x, 1000, 60)
        // All samples at one instant: no information, no velocity, no division by zero.
        var same = VelocityTracker()
        for i in 0..<5 { same.add(Point(x: Double(i) * 30, y: 0), at: 1) }
        #expect(same.velocity(at: 1) == .zero)
    }

    @Test func velocityTrackerIsCapped() {
        var v = VelocityTracker()
        for i in 0..<5 { v.add(Point(x: Double(i) * 1000, y: 0), at: Double(i) * 0.008) }
        #expect(v.velocity(at: 0.032).x == ScrollConstants.maximumFlingVelocity)
    }

    @Test func pauseBeforeReleaseGivesNoFling() {
        let rig = Rig.scroll()
        var g = Gesture()
        g.drag(from: Point(x: 400, y: 400), to: Point(x: 400, y: 100), duration: 150, lift: false)
        g.wait(60)  // the finger rests 60 ms (no samples) before lifting
        g.up(1, Point(x: 400, y: 100))
        rig.replay(g.events)
        #expect(rig.log.events.contains(.didEndDragging(willDecelerate: false)))
        // Without the pause the same drag flings.
        let fling = Rig.scroll()
        var f = Gesture()
        f.drag(from: Point(x: 400, y: 400), to: Point(x: 400, y: 100), duration: 150)
        fling.replay(f.events)
        #expect(fling.log.events.contains(.didEndDragging(willDecelerate: true)))
        #expect(fling.view.contentOffset.y > 1300 + 500)
    }

    @Test func pinchGeometryReferenceCase() {
        let a = [Point(x: 100, y: 100), Point(x: 300, y: 100)]
        let b = [Point(x: 50, y: 100), Point(x: 350, y: 100)]
        #expect(PinchGeometry.focalPoint(a) == Point(x: 200, y: 100))
        #expect(PinchGeometry.span(a) == 200)
        #expect(PinchGeometry.span(b) == 300)
        #expect(PinchGeometry.span(b) / PinchGeometry.span(a) == 1.5)
    }

    /// Two fingers spreading about a moving centre: the content point first under the centre stays under it.
    @Test func pinchKeepsTheContentUnderTheFingersWithinAPoint() {
        let rig = Rig.zoom()
        let v = rig.view
        var g = Gesture()
        var centre = Point(x: 300, y: 250)
        var half = 60.0
        g.down(1, centre - Point(x: half, y: 0))
        g.down(2, centre + Point(x: half, y: 0))
        rig.replay(g.events, settle: false)
        var anchor: Point?
        for _ in 0..<40 {
            g = Gesture()
            half += 4
            centre = centre + Point(x: 2, y: 1)
            g.move(1, centre - Point(x: half, y: 0))
            g.move(2, centre + Point(x: half, y: 0))
            rig.replay(g.events, settle: false)
            guard v.isZooming else { continue }
            let under = (v.contentOffset + centre) / v.zoomScale
            if let anchor {
                expectClose(under.x, anchor.x, 1 / v.zoomScale)
                expectClose(under.y, anchor.y, 1 / v.zoomScale)
            } else {
                anchor = under
            }
        }
        #expect(anchor != nil)
        #expect(v.zoomScale > v.minimumZoomScale * 2)
    }

    @Test func pinchFallsBackToAPanAndBackToAPinch() {
        let rig = Rig.zoom()
        let v = rig.view
        v.setZoomScale(v.minimumZoomScale * 2, animated: false)
        var g = Gesture()
        g.down(1, Point(x: 300, y: 240))
        g.down(2, Point(x: 500, y: 240))
        for i in 1...10 {
            g.wait(16)
            g.move(1, Point(x: 300 - Double(i) * 5, y: 240))
            g.move(2, Point(x: 500 + Double(i) * 5, y: 240))
        }
        rig.replay(g.events, settle: false)
        #expect(v.isZooming)
        // Lift one finger: the other pans, without a jump.
        g = Gesture()
        g.up(2, Point(x: 550, y: 240))
        rig.replay(g.events, settle: false)
        #expect(!v.isZooming)
        let before = v.contentOffset
        g = Gesture()
        for i in 1...5 {
            g.wait(16)
            g.move(1, Point(x: 250, y: 240 - Double(i) * 10))
        }
        rig.replay(g.events, settle: false)
        expectClose(v.contentOffset.y, before.y + 50, 1e-6)
        expectClose(v.contentOffset.x, before.x, 1e-6)
        // Put a second finger back: a new pinch, anchored where the fingers are now.
        let scale = v.zoomScale
        g = Gesture()
        g.down(3, Point(x: 450, y: 190))
        for i in 1...10 {
            g.wait(16)
            g.move(1, Point(x: 250 - Double(i) * 4, y: 190))
            g.move(3, Point(x: 450 + Double(i) * 4, y: 190))
        }
        rig.replay(g.events, settle: false)
        #expect(v.isZooming)
        #expect(v.zoomScale > scale)
        g = Gesture()
        g.up(1, Point(x: 210, y: 190))
        g.up(3, Point(x: 490, y: 190))
        rig.replay(g.events)
        #expect(v.isAtRest)
    }

    @Test func doubleTapTimingAndDistanceLimits() {
        func gestures(gap: Double, distance: Double) -> [GestureEvent] {
            let rig = Rig.zoom()
            var g = Gesture()
            g.tap(Point(x: 300, y: 200))
            g.wait(gap)
            g.tap(Point(x: 300 + distance, y: 200))
            rig.replay(g.events)
            return rig.gestures
        }
        #expect(gestures(gap: 250, distance: 0) == [.doubleTap(Point(x: 300, y: 200))])
        #expect(gestures(gap: 100, distance: 90) == [.doubleTap(Point(x: 390, y: 200))])
        #expect(gestures(gap: 350, distance: 0) == [.tap(Point(x: 300, y: 200)), .tap(Point(x: 300, y: 200))])
        #expect(gestures(gap: 100, distance: 120) == [.tap(Point(x: 300, y: 200)), .tap(Point(x: 420, y: 200))])
    }

    @Test func singleTapWaitsForTheDoubleTapWindowOnlyWhereSomethingListens() {
        let zoom = Rig.zoom()
        var g = Gesture()
        g.tap(Point(x: 100, y: 100))
        zoom.replay(g.events, settle: false)
        #expect(zoom.gestures.isEmpty)  // could still become a double tap
        zoom.run(until: zoom.ms + 320)
        #expect(zoom.gestures == [.tap(Point(x: 100, y: 100))])

        let scroll = Rig.scroll()  // nothing zooms: the tap is reported on the finger's lift
        scroll.replay(g.events, settle: false)
        #expect(scroll.gestures == [.tap(Point(x: 100, y: 100))])
    }

    @Test func doubleTapZoomsTowardThePointAndBackOut() {
        let rig = Rig.zoom(size: Size(width: 800, height: 600), image: Size(width: 1600, height: 1200), maxZoom: 4)
        let v = rig.view
        #expect(v.zoomScale == 0.5)
        var g = Gesture()
        g.tap(Point(x: 200, y: 150))
        g.wait(100)
        g.tap(Point(x: 200, y: 150))
        rig.replay(g.events)
        #expect(v.zoomScale == 2)
        // The image point under the taps (400, 300) ends in the middle of the view.
        #expect(v.contentOffset == Point(x: 400 * 2 - 400, y: 300 * 2 - 300))
        #expect(rig.log.events.last == .didEndScrollingAnimation)
        // Near a corner the point cannot reach the middle: clamped to the content's edges.
        g = Gesture()
        g.tap(Point(x: 400, y: 300))
        g.wait(100)
        g.tap(Point(x: 400, y: 300))
        rig.replay(g.events)
        #expect(v.zoomScale == 0.5)  // toggled back out
        g = Gesture()
        g.tap(Point(x: 5, y: 5))
        g.wait(100)
        g.tap(Point(x: 5, y: 5))
        rig.replay(g.events)
        #expect(v.zoomScale == 2)
        #expect(v.contentOffset == .zero)
    }

    @Test func hotspotTapFiresOnceAfterItsDelay() {
        let rig = Rig.scroll()
        rig.controller.hitTest = { p in p.x < 200 ? "cafe" : nil }
        var g = Gesture()
        g.tap(Point(x: 100, y: 100), duration: 80)  // shorter than the 150 ms delay: delivered at the lift
        rig.replay(g.events)
        #expect(rig.gestures == [.contentTouchBegan("cafe"), .hotspotTapped("cafe")])
        rig.gestures = []
        g = Gesture()
        g.tap(Point(x: 100, y: 100), duration: 400)  // held: the hotspot gets the touch at 150 ms
        rig.replay(g.events)
        #expect(rig.gestures == [.contentTouchBegan("cafe"), .hotspotTapped("cafe")])
    }

    @Test func aScrollCancelsTheHotspotsTouch() {
        let rig = Rig.scroll()
        rig.controller.hitTest = { _ in "cafe" }
        var g = Gesture()
        g.down(1, Point(x: 100, y: 300))
        g.wait(200)
        g.drag(from: Point(x: 100, y: 300), to: Point(x: 100, y: 100), duration: 100, press: false)
        rig.replay(g.events)
        #expect(rig.gestures == [.contentTouchBegan("cafe"), .contentTouchCancelled("cafe")])
        #expect(rig.view.contentOffset.y > 1100)
        // A scroll that starts within the delay: the hotspot never hears of it.
        let quick = Rig.scroll()
        quick.controller.hitTest = { _ in "cafe" }
        var q = Gesture()
        q.drag(from: Point(x: 100, y: 300), to: Point(x: 100, y: 100), duration: 100)
        quick.replay(q.events)
        #expect(quick.gestures.isEmpty)
    }

    @Test func contentTouchOptions() {
        // Without the delay the hotspot hears the touch at once.
        let direct = Rig.scroll()
        direct.view.delaysContentTouches = false
        direct.controller.hitTest = { _ in "cafe" }
        var g = Gesture()
        g.down(1, Point(x: 100, y: 300))
        direct.replay(g.events, settle: false)
        #expect(direct.gestures == [.contentTouchBegan("cafe")])
        // A scroll view that may not cancel content touches does not scroll once the hotspot has the touch.
        let keep = Rig.scroll()
        keep.view.canCancelContentTouches = false
        keep.controller.hitTest = { p in p.y > 250 ? "cafe" : nil }
        var k = Gesture()
        k.down(1, Point(x: 100, y: 300))
        k.wait(200)
        k.drag(from: Point(x: 100, y: 300), to: Point(x: 100, y: 100), duration: 100, press: false)
        keep.replay(k.events)
        #expect(keep.view.contentOffset.y == 1000)
        #expect(keep.gestures == [.contentTouchBegan("cafe")])  // lifted outside it: no tap
        // Lifted on it again, it fires, as UIKit's touchUpInside.
        let back = Rig.scroll()
        back.view.canCancelContentTouches = false
        back.controller.hitTest = { p in p.y > 250 ? "cafe" : nil }
        var b = Gesture()
        b.down(1, Point(x: 100, y: 300))
        b.wait(200)
        b.drag(from: Point(x: 100, y: 300), to: Point(x: 100, y: 600), duration: 100, press: false)
        back.replay(b.events)
        #expect(back.gestures == [.contentTouchBegan("cafe"), .hotspotTapped("cafe")])
        #expect(back.view.contentOffset.y == 1000)
    }

    @Test func nestedPanMovesTheZoomedPageToItsEdgeThenTheCarousel() {
        let rig = Rig.carousel(count: 3, page: 1)
        let page = rig.pages[1]
        page.setZoomScale(page.maximumZoomScale, animated: false)
        let r = page.offsetLimits(.horizontal)
        page.contentOffset = Point(x: r.upperBound - 100, y: page.contentOffset.y)  // 100 pt from its right edge
        var g = Gesture()
        g.drag(from: Point(x: 600, y: 240), to: Point(x: 300, y: 240), duration: 300, lift: false)
        rig.replay(g.events, settle: false)
        // 300 pt of finger, less the slop: 100 to the page's edge, the rest moves the carousel.
        expectClose(page.contentOffset.x, r.upperBound, 1e-9)
        let carouselMoved = rig.view.contentOffset.x - 800
        expectClose(carouselMoved, 300 - 100 - (TouchConstants.panSlop + 8), 8.5)
        #expect(carouselMoved > 150)
        // Back the other way: the carousel returns to its page first, then the page scrolls.
        g = Gesture()
        g.t = 0
        for i in 1...30 {
            g.wait(8)
            g.move(1, Point(x: 300 + Double(i) * 10, y: 240))
        }
        rig.replay(g.events, settle: false)
        #expect(rig.view.contentOffset.x == 800)
        expectClose(page.contentOffset.x, r.upperBound - (300 - carouselMoved), 1e-6)
    }

    @Test func swipeOnAPageAtMinimumZoomPagesTheCarouselAtOnce() {
        let rig = Rig.carousel(count: 3, page: 1)
        var g = Gesture()
        g.drag(from: Point(x: 600, y: 240), to: Point(x: 450, y: 240), duration: 120)
        rig.replay(g.events)
        #expect(rig.view.currentPage == 2)
        #expect(rig.names().first == "scrollViewWillBeginDragging")
        #expect(rig.names(rig.pageLogs[1]).isEmpty)
    }

    @Test func aPageLeavingTheScreenGoesBackToItsMinimumZoom() {
        let rig = Rig.carousel(count: 3, page: 1)
        let page = rig.pages[1]
        page.setZoomScale(page.maximumZoomScale, animated: false)
        page.contentOffset = Point(x: page.offsetLimits(.horizontal).upperBound, y: 0)
        var g = Gesture()
        g.drag(from: Point(x: 600, y: 240), to: Point(x: 400, y: 240), duration: 120)
        rig.replay(g.events)
        #expect(rig.view.currentPage == 2)
        #expect(page.zoomScale == page.minimumZoomScale)
    }

    @Test func robustness() {
        let rig = Rig.scroll()
        var g = Gesture()
        g.up(9, Point(x: 10, y: 10))  // up for a finger that is not down: ignored
        g.move(4, Point(x: 100, y: 300))  // move for an unknown finger: starts it
        g.wait(16)
        g.down(4, Point(x: 100, y: 300))  // reused id while down: the old touch is lifted first
        g.wait(16)
        g.move(4, Point(x: 100, y: 200))
        g.wait(16)
        g.events.append(InputEvent(.move, finger: 4, at: Point(x: .nan, y: 3), time: g.t))
        g.up(4, Point(x: 100, y: 200))
        rig.replay(g.events)
        #expect(rig.view.isAtRest && !rig.controller.isTouching)
        #expect(rig.view.contentOffset.isFinite)
    }

    @Test func tenFingersOffScreenWithRepeatedTimestamps() {
        let rig = Rig.zoom()
        var g = Gesture()
        for f in 0..<10 { g.down(Int64(f), Point(x: -50 + Double(f) * 100, y: 900)) }
        for step in 0..<30 {
            if step % 3 == 0 { g.wait(16) }  // three batches share each timestamp
            for f in 0..<10 {
                g.move(Int64(f), Point(x: -50 + Double(f) * (100 - Double(step)), y: 900 - Double(step) * 20))
            }
        }
        for f in 0..<10 { g.up(Int64(f), Point(x: 0, y: 0)) }
        rig.replay(g.events)
        #expect(rig.view.isAtRest && rig.controller.isIdle)
        #expect(rig.view.zoomScale >= rig.view.minimumZoomScale - 1e-9)
        #expect(rig.view.clampedOffset(rig.view.contentOffset) == rig.view.contentOffset)
    }

    @Test func cancelledTouchNeitherTapsNorFlings() {
        let rig = Rig.scroll()
        rig.controller.hitTest = { _ in "cafe" }
        var g = Gesture()
        g.drag(from: Point(x: 100, y: 400), to: Point(x: 100, y: 100), duration: 100, lift: false)
        g.events.append(InputEvent(.cancel, finger: 1, at: Point(x: 100, y: 100), time: g.t))
        rig.replay(g.events)
        #expect(rig.log.events.contains(.didEndDragging(willDecelerate: false)))
        #expect(rig.gestures.isEmpty)
    }
}
