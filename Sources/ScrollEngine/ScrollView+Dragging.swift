extension ScrollView {
    /// A finger touched the view: motion stops under it (a deceleration stays pending, as in UIKit); a
    /// programmatic animation goes on until a drag or a pinch takes over.
    public func touchesBegan(at t: Double) {
        step(to: t)
        guard !isTracking else { return }
        stopMotion(byTouch: true, keepingAnimations: true)
        dragDecelerates = false
        isTracking = true
        zoomedDuringTouch = false
        rawOffset = unbandedOffset(offset)
        updateIndicatorClock()
    }

    /// The touch became a drag (the touch layer decided, after its slop). `translation` is the movement that
    /// started it; it decides the directional lock and does not move the content (no jump by the slop).
    public func beginDragging(translation: Point = .zero, at t: Double) {
        if !isTracking { touchesBegan(at: t) } else { step(to: t) }
        guard isScrollEnabled, !fingerDrags else { return }
        stopMotion(byTouch: true)
        fingerDrags = true
        lock = directionalLock(for: translation)
        if let axis = pagingAxis {
            dragStartPage = Paging.targetPage(
                offset: offset[axis], pageSize: bounds[axis], velocity: 0, pageCount: pageCount(axis))
        } else {
            dragStartPage = nil
        }
        rawOffset = unbandedOffset(offset)
        delegate?.scrollViewWillBeginDragging(self)
        updateIndicatorClock()
    }

    /// The finger moved by `delta` (points, finger motion: content follows the finger, so the offset moves the
    /// other way). Past an edge the content is rubber-banded (or stopped when `bounces` is false).
    public func drag(by delta: Point, at t: Double) {
        step(to: t)
        guard fingerDrags, delta.isFinite else { return }
        let d = constrained(delta)
        rawOffset = rawOffset - d
        apply(offset: bandedOffset(rawOffset))
    }

    /// The last finger lifted at the end of a drag, the finger moving at `velocity` (points per second, as a pan
    /// gesture measures it; the content's velocity is its opposite, which the delegate gets). The delegate gets
    /// `willEndDragging` (and may move the target), then `didEndDragging`; the view then decelerates, bounces or
    /// snaps to a page.
    public func endDragging(velocity: Point, at t: Double) {
        step(to: t)
        guard fingerDrags else {
            touchesEnded(at: t)
            return
        }
        // The last finger is up, so a pinch still running ends first (its bounce is settled below).
        if isZooming { endZooming(at: t) }
        var v = -constrained(sanitizedVelocity(velocity))
        if bounces {
            // While rubber-banding the content moves slower than the finger: it leaves with the banded velocity.
            for axis in Axis.allCases {
                let r = offsetLimits(axis)
                let over = rawOffset[axis] - rawOffset[axis].clamped(r.lowerBound, r.upperBound)
                if over != 0 { v[axis] *= RubberBand.slope(overscroll: over, dimension: bounds[axis]) }
            }
        }
        fingerDrags = false
        isTracking = false
        lock = .free
        endingDrag = true
        defer { endingDrag = false }

        if zoomNeedsBounce {
            var target = zoomBounceTarget().offset
            delegate?.scrollViewWillEndDragging(self, withVelocity: v / 1000, targetContentOffset: &target)
            delegate?.scrollViewDidEndDragging(self, willDecelerate: false)
            startZoomBounce()
            return
        }

        let natural = releasePlan(velocity: v)
        var target = Point(x: natural.x.target, y: natural.y.target)
        delegate?.scrollViewWillEndDragging(self, withVelocity: v / 1000, targetContentOffset: &target)
        if !target.isFinite { target = Point(x: natural.x.target, y: natural.y.target) }
        target = clampedOffset(target)

        var sims: (x: AxisSimulation?, y: AxisSimulation?) = (nil, nil)
        for axis in Axis.allCases {
            let plan = axis == .horizontal ? natural.x : natural.y
            var sim = plan.simulation
            if abs(target[axis] - plan.target) > 1e-9 {
                // The delegate moved the target: spring there from the release, keeping the finger's velocity.
                sim =
                    target[axis] != offset[axis] || v[axis] != 0
                    ? AxisSimulation(position: offset[axis], velocity: v[axis], target: target[axis]) : nil
            }
            if axis == .horizontal { sims.x = sim } else { sims.y = sim }
        }
        let willDecelerate = sims.x != nil || sims.y != nil
        delegate?.scrollViewDidEndDragging(self, willDecelerate: willDecelerate)
        if willDecelerate {
            startDeceleration(x: sims.x, y: sims.y, announce: true)
            dragDecelerates = true
        } else {
            endPendingDeceleration()
        }
        updateIndicatorClock()
    }

    /// The last finger lifted without a drag (a tap, a press, the end of a pinch). A view stopped mid-motion by
    /// the touch settles: it bounces back or snaps to its page, or its pending deceleration ends now.
    public func touchesEnded(at t: Double) {
        step(to: t)
        guard isTracking, !isZooming else { return }
        if fingerDrags {
            endDragging(velocity: .zero, at: t)
            return
        }
        isTracking = false
        if case .transition(let tr) = activity, tr.kind == .programmatic {
            updateIndicatorClock()  // the animation the touch rested on goes on
            return
        }
        if zoomNeedsBounce || (zoomedDuringTouch && clampedOffset(offset) != offset) {
            startZoomBounce()
        } else {
            let plan = releasePlan(velocity: .zero)
            if plan.x.simulation != nil || plan.y.simulation != nil {
                startDeceleration(x: plan.x.simulation, y: plan.y.simulation, announce: !isDecelerating)
            } else {
                endPendingDeceleration()
            }
        }
        updateIndicatorClock()
    }

    /// The touch was cancelled (the system took it): treated as a release without velocity.
    public func touchesCancelled(at t: Double) {
        if isZooming { endZooming(at: t) }
        if fingerDrags { endDragging(velocity: .zero, at: t) } else { touchesEnded(at: t) }
    }

    // MARK: Helpers

    struct AxisPlan {
        var target: Double
        var simulation: AxisSimulation?
    }

    /// Where each axis goes after a release at `v`: the natural deceleration (with its edge bounce), or the
    /// page snap, or nothing when it is already at rest.
    func releasePlan(velocity v: Point) -> (x: AxisPlan, y: AxisPlan) {
        func plan(_ axis: Axis) -> AxisPlan {
            let r = offsetLimits(axis)
            let position = offset[axis]
            let speed = abs(v[axis]) >= ScrollConstants.minimumFlingVelocity ? v[axis] : 0
            if axis == pagingAxis {
                let page = Paging.targetPage(
                    offset: position, pageSize: bounds[axis], velocity: v[axis], pageCount: pageCount(axis),
                    fromPage: dragStartPage)
                let target = pageOffset(page, axis)
                if target == position && speed == 0 { return AxisPlan(target: target, simulation: nil) }
                return AxisPlan(
                    target: target, simulation: AxisSimulation(position: position, velocity: speed, target: target))
            }
            let inside = position >= r.lowerBound && position <= r.upperBound
            if inside && speed == 0 { return AxisPlan(target: position, simulation: nil) }
            let sim = AxisSimulation(
                position: position, velocity: speed, lo: r.lowerBound, hi: r.upperBound,
                rate: decelerationRate.sanitized, bounces: bounces)
            return AxisPlan(target: sim.restPosition, simulation: sim)
        }
        return (plan(.horizontal), plan(.vertical))
    }

    func startDeceleration(x: AxisSimulation?, y: AxisSimulation?, announce: Bool) {
        activity = .decelerating(start: time, x: x, y: y)
        isDecelerating = true
        if announce { delegate?.scrollViewWillBeginDecelerating(self) }
    }

    /// A deceleration that a touch held and that has nothing left to do ends now.
    func endPendingDeceleration() {
        guard isDecelerating else { return }
        isDecelerating = false
        delegate?.scrollViewDidEndDecelerating(self)
    }

    func directionalLock(for translation: Point) -> DirectionalLock {
        guard isDirectionalLockEnabled, translation.isFinite, translation != .zero else { return .free }
        let angle = arcTangent2(abs(translation.y), abs(translation.x))
        if angle <= ScrollConstants.directionalLockAngle { return .horizontal }
        if angle >= Double.pi / 2 - ScrollConstants.directionalLockAngle { return .vertical }
        return .free
    }

    /// `delta` with the locked axis and the axes that cannot scroll removed.
    func constrained(_ delta: Point) -> Point {
        var d = delta
        if lock == .vertical || !canScroll(.horizontal) { d.x = 0 }
        if lock == .horizontal || !canScroll(.vertical) { d.y = 0 }
        return d
    }

    func sanitizedVelocity(_ v: Point) -> Point {
        let cap = ScrollConstants.maximumFlingVelocity
        func f(_ x: Double) -> Double { x.isFinite ? x.clamped(-cap, cap) : 0 }
        return Point(x: f(v.x), y: f(v.y))
    }

    /// The raw drag position shown as `offset`: rubber-banded past the limits, or clamped without bounces.
    func bandedOffset(_ raw: Point) -> Point {
        var p = raw
        for axis in Axis.allCases {
            let r = offsetLimits(axis)
            p[axis] =
                bounces
                ? RubberBand.band(raw[axis], r.lowerBound, r.upperBound, dimension: bounds[axis])
                : raw[axis].clamped(r.lowerBound, r.upperBound)
        }
        return p
    }

    /// The raw drag position that shows `shown` (the inverse of `bandedOffset`).
    func unbandedOffset(_ shown: Point) -> Point {
        guard bounces else { return shown }
        var p = shown
        for axis in Axis.allCases {
            let r = offsetLimits(axis)
            p[axis] = RubberBand.unband(shown[axis], r.lowerBound, r.upperBound, dimension: bounds[axis])
        }
        return p
    }
}
