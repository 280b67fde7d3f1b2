extension ScrollView {
    /// Moves the content to `contentOffset`. UIKit does not limit a programmatic offset and neither does this.
    /// Animated: eased over `programmaticAnimationDuration`, didScroll each step, then didEndScrollingAnimation.
    /// Not animated: one didScroll. A non-finite offset is ignored.
    public func setContentOffset(_ contentOffset: Point, animated: Bool) {
        guard contentOffset.isFinite else { return }
        animate(to: (contentOffset, zoomScale), anchor: nil, animated: animated)
    }

    /// UIKit's scroll to the top (a tap on the status bar; here on a scene's title bar): when `scrollsToTop` and
    /// the delegate agrees (`scrollViewShouldScrollToTop`), the content scrolls, animated, to its top (the
    /// adjusted inset's), then `scrollViewDidScrollToTop`. True when it scrolls.
    @discardableResult
    public func scrollToTop() -> Bool {
        guard scrollsToTop, delegate?.scrollViewShouldScrollToTop(self) ?? true else { return false }
        let top = Point(x: offset.x, y: -adjustedContentInset.top)
        animate(to: (top, zoomScale), anchor: nil, animated: true)
        if case .transition(var tr) = activity, tr.kind == .programmatic {
            tr.endsAtTop = true
            activity = .transition(tr)
        } else {
            delegate?.scrollViewDidScrollToTop(self)
        }
        return true
    }

    /// Scrolls the least needed to show `rect` (content coordinates), within the offset limits.
    public func scrollRectToVisible(_ rect: Rect, animated: Bool) {
        guard rect.isFinite else { return }
        var p = offset
        for axis in Axis.allCases {
            let lo = rect.origin[axis]
            let hi = lo + rect.size[axis]
            if hi - lo > bounds[axis] || lo < p[axis] {
                p[axis] = lo
            } else if hi > p[axis] + bounds[axis] {
                p[axis] = hi - bounds[axis]
            }
        }
        setContentOffset(clampedOffset(p), animated: animated)
    }

    /// Zooms to `scale` (limited to the zoom limits) about the centre of the view. Nothing happens without a
    /// view for zooming.
    public func setZoomScale(_ scale: Double, animated: Bool) {
        guard scale.isFinite, scale > 0, captureZoomingSize() else { return }
        let target = scale.clamped(minimumZoomScale, effectiveMaximumZoomScale)
        let center = Point(x: bounds.width / 2, y: bounds.height / 2)
        let contentPoint = (offset + center) / zoomScale
        let to = clampedOffset(contentPoint * target - center, atScale: target)
        animate(to: (to, target), anchor: center, animated: animated)
    }

    /// Zooms so that `rect` (a rectangle of the unzoomed content) fills the view as far as the zoom limits allow,
    /// centred, within the offset limits.
    public func zoom(to rect: Rect, animated: Bool) {
        guard rect.isFinite, rect.width > 0, rect.height > 0, captureZoomingSize() else { return }
        let fit = Swift.min(bounds.width / rect.width, bounds.height / rect.height)
        let scale = fit.clamped(minimumZoomScale, effectiveMaximumZoomScale)
        let center = Point(x: rect.midX * scale - bounds.width / 2, y: rect.midY * scale - bounds.height / 2)
        animate(to: (clampedOffset(center, atScale: scale), scale), anchor: nil, animated: animated)
    }

    /// Shows the scroll indicators for `indicatorFlashDuration`, then fades them.
    public func flashScrollIndicators() {
        indicatorsVisibleUntil = Swift.max(indicatorsVisibleUntil, time + ScrollConstants.indicatorFlashDuration)
    }

    func animate(to target: (Point, Double), anchor: Point?, animated: Bool) {
        stopMotion(byTouch: false)
        if animated && (target.0 != offset || target.1 != zoomScale) {
            activity = .transition(
                Transition(
                    kind: .programmatic, start: time, from: (offset, zoomScale), to: target, anchor: anchor,
                    zoomingExtent: 0))
        } else {
            apply(offset: target.0, scale: target.1)
        }
        rawOffset = unbandedOffset(offset)
        updateIndicatorClock()
    }
}
