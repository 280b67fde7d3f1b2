import ScrollEngine
import Testing

/// Bad input is clamped or ignored as documented, never a trap or a NaN in the state.
@Suite struct SanitizingTests {
    static let bad = [Double.nan, .infinity, -.infinity, -5, 0]

    @Test func sizesAreSanitized() {
        for x in Self.bad {
            let v = ScrollView(bounds: Size(width: x, height: 300), contentSize: Size(width: 10, height: x))
            #expect(v.bounds.width >= 0 && v.bounds.width.isFinite)
            #expect(v.contentSize.height >= 0 && v.contentSize.height.isFinite)
            v.contentInset = EdgeInsets(top: x, left: x, bottom: x, right: x)
            #expect(v.contentInset.top.isFinite)
            #expect(v.offsetLimits(.horizontal).lowerBound.isFinite)
        }
    }

    @Test func nonFiniteOffsetsVelocitiesAndFocalPointsAreIgnored() {
        let b = Bench(zoomingSize: Size(width: 400, height: 3000)) { $0.maximumZoomScale = 3 }
        b.view.contentOffset = Point(x: 0, y: 100)
        b.view.contentOffset = Point(x: .nan, y: 5)
        b.view.setContentOffset(Point(x: .infinity, y: 0), animated: true)
        #expect(b.view.contentOffset == Point(x: 0, y: 100))
        b.view.touchesBegan(at: 0)
        b.view.beginDragging(translation: Point(x: .nan, y: .nan), at: 0)
        b.view.drag(by: Point(x: .nan, y: 10), at: 0.01)
        b.view.beginZooming(focalPoint: Point(x: .nan, y: 0), at: 0.02)
        #expect(!b.view.isZooming)
        b.view.beginZooming(focalPoint: Point(x: 10, y: 10), at: 0.02)
        b.view.zoom(by: .nan, focalPoint: Point(x: 10, y: 10), at: 0.03)
        b.view.zoom(by: -2, focalPoint: Point(x: 10, y: 10), at: 0.03)
        b.view.zoom(by: 2, focalPoint: Point(x: .infinity, y: 10), at: 0.03)
        #expect(b.view.zoomScale == 1)
        b.view.endZooming(at: 0.04)
        b.view.endDragging(velocity: Point(x: .nan, y: .infinity), at: 0.05)
        b.t = 0.05
        b.settle()
        #expect(b.view.contentOffset.isFinite)
        #expect(b.view.contentOffset == Point(x: 0, y: 100))
    }

    @Test func zoomLimitsThatMakeNoSense() {
        let b = Bench(zoomingSize: Size(width: 400, height: 3000))
        b.view.minimumZoomScale = .nan
        b.view.maximumZoomScale = -1
        #expect(b.view.minimumZoomScale == 1 && b.view.maximumZoomScale == 1)
        b.view.minimumZoomScale = 2
        b.view.maximumZoomScale = 0.5  // below the minimum: acts as the minimum, zooming is off
        b.view.setZoomScale(5, animated: false)
        #expect(b.view.zoomScale == 2)
        b.view.touchesBegan(at: 0)
        b.view.beginZooming(focalPoint: .zero, at: 0)
        #expect(!b.view.isZooming)
        b.view.setZoomScale(0, animated: false)
        b.view.setZoomScale(.infinity, animated: false)
        #expect(b.view.zoomScale == 2)
    }

    @Test func timesThatGoBackwardsOrAreNotFinite() {
        let b = Bench()
        b.drag(Point(x: 0, y: -200))
        b.view.step(to: 1)
        let at1 = b.view.contentOffset
        b.view.step(to: 0.5)
        b.view.step(to: .nan)
        b.view.step(to: -.infinity)
        #expect(b.view.contentOffset == at1)
        #expect(b.view.time == 1)
        b.view.step(to: .infinity)
        #expect(b.view.time == 1)
    }

    @Test func emptyContentAndZeroBounds() {
        for (bounds, content) in [
            (Size.zero, Size.zero), (Size(width: 300, height: 300), .zero), (.zero, Size(width: 100, height: 100)),
        ] {
            let b = Bench(bounds: bounds, content: content, zoomingSize: Size(width: 1, height: 1)) {
                $0.isPagingEnabled = true
                $0.maximumZoomScale = 2
            }
            b.drag(Point(x: -300, y: -300), velocity: Point(x: -5000, y: 5000))
            b.settle()
            #expect(b.view.isAtRest)
            #expect(b.view.contentOffset.isFinite)
            #expect(b.view.horizontalIndicator == nil || bounds != .zero)
        }
    }

    @Test func absurdDecelerationRatesStillStop() {
        for rate in [0.0, 1.0, 1.5, -1, .nan] {
            let b = Bench(content: Size(width: 400, height: 1e7)) {
                $0.decelerationRate = DecelerationRate(rawValue: rate)
            }
            b.drag(Point(x: 0, y: -100), velocity: Point(x: 0, y: -8000))
            let took = b.settle(limit: 120)
            #expect(b.view.isAtRest, "rate \(rate) still moving after \(took) s")
        }
    }
}
