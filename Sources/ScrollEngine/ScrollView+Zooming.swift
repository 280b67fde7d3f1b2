extension ScrollView {
    /// A pinch began with its focal point at `focalPoint` (view coordinates: points from the view's top-left).
    /// Nothing happens unless the delegate's `viewForZooming(in:)` answers and `maximumZoomScale` exceeds the
    /// minimum.
    public func beginZooming(focalPoint: Point, at t: Double) {
        if !isTracking { touchesBegan(at: t) } else { step(to: t) }
        guard !isZooming, isZoomEnabled, focalPoint.isFinite, captureZoomingSize() else { return }
        stopMotion(byTouch: true)
        isZooming = true
        zoomedDuringTouch = true
        zoomFocalPoint = focalPoint
        rawScale = ZoomMath.unbandedScale(zoomScale, min: minimumZoomScale, max: effectiveMaximumZoomScale)
        delegate?.scrollViewWillBeginZooming(self)
        updateIndicatorClock()
    }

    /// The pinch's span changed by `factor` (new span / previous span) and its focal point moved to `focalPoint`.
    /// The content point under the previous focal point ends under the new one; beyond the zoom limits the scale
    /// is rubber-banded (`bouncesZoom`) or stopped.
    public func zoom(by factor: Double, focalPoint: Point, at t: Double) {
        step(to: t)
        guard isZooming, factor.isFinite, factor > 0, focalPoint.isFinite, zoomScale > 0 else { return }
        let lo = minimumZoomScale
        let hi = effectiveMaximumZoomScale
        let contentPoint = (offset + zoomFocalPoint) / zoomScale
        rawScale *= factor
        let scale: Double
        if bouncesZoom {
            rawScale = rawScale.clamped(lo / 1e3, hi * 1e3)
            scale = ZoomMath.bandedScale(rawScale, min: lo, max: hi)
        } else {
            rawScale = rawScale.clamped(lo, hi)
            scale = rawScale
        }
        zoomFocalPoint = focalPoint
        let newOffset = contentPoint * scale - focalPoint
        if let size = zoomingSize {
            // The limits at the new scale decide how far the content may follow the fingers.
            contentSize = size * scale
        }
        let shown = bounces ? newOffset : clampedOffset(newOffset)
        apply(offset: shown, scale: scale)
        rawOffset = unbandedOffset(shown)
    }

    /// The pinch's focal point moved without the fingers moving (a finger was added or lifted mid-pinch): the
    /// pinch continues about `focalPoint` with the content where it is, so nothing jumps.
    public func reanchorZoom(at focalPoint: Point) {
        guard isZooming, focalPoint.isFinite else { return }
        zoomFocalPoint = focalPoint
    }

    /// The pinch ended (fewer than two fingers remain). `scrollViewDidEndZooming` reports the scale the view
    /// settles at; the bounce back into the limits runs once the last finger has lifted.
    public func endZooming(at t: Double) {
        step(to: t)
        guard isZooming else { return }
        isZooming = false
        let target = zoomScale.clamped(minimumZoomScale, effectiveMaximumZoomScale)
        delegate?.scrollViewDidEndZooming(self, atScale: target)
        if fingerDrags {
            rawOffset = unbandedOffset(offset)
        } else if !isTracking {
            startZoomBounce()
        }
        updateIndicatorClock()
    }

    // MARK: Helpers

    var zoomNeedsBounce: Bool {
        zoomingSize != nil && zoomScale != zoomScale.clamped(minimumZoomScale, effectiveMaximumZoomScale)
    }

    /// Asks the delegate for the view to zoom; false when there is none.
    func captureZoomingSize() -> Bool {
        guard let size = delegate?.viewForZooming(in: self)?.sanitized, size.width > 0, size.height > 0 else {
            return false
        }
        zoomingSize = size
        return true
    }

    /// Where the post-pinch bounce ends: the scale back within its limits about the last focal point, and the
    /// offset inside the limits at that scale.
    func zoomBounceTarget() -> (offset: Point, scale: Double) {
        let scale = zoomScale.clamped(minimumZoomScale, effectiveMaximumZoomScale)
        let contentPoint = (offset + zoomFocalPoint) / zoomScale
        return (clampedOffset(contentPoint * scale - zoomFocalPoint, atScale: scale), scale)
    }

    /// `clampedOffset` evaluated with the content size the view will have at `scale`.
    func clampedOffset(_ p: Point, atScale scale: Double) -> Point {
        guard let size = zoomingSize, scale != zoomScale else { return clampedOffset(p) }
        let saved = contentSize
        contentSize = size * scale
        defer { contentSize = saved }
        return clampedOffset(p)
    }

    /// Animates scale and offset back within their limits with the bounce spring (no deceleration events:
    /// UIKit reports only didScroll and didZoom here). A deceleration a touch held ends first.
    func startZoomBounce() {
        endPendingDeceleration()
        let target = zoomBounceTarget()
        guard target.offset != offset || target.scale != zoomScale else { return }
        isZoomBouncing = target.scale != zoomScale
        let extent = zoomingSize.map { Swift.max($0.width, $0.height) } ?? 0
        activity = .transition(
            Transition(
                kind: .zoomBounce, start: time, from: (offset, zoomScale), to: target,
                anchor: zoomFocalPoint, zoomingExtent: extent))
    }
}
