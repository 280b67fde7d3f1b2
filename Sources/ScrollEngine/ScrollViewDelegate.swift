/// UIScrollViewDelegate, with the same methods and meanings. Every method has an empty default.
///
/// Velocities handed to the delegate are in points per millisecond, UIKit's unit.
public protocol ScrollViewDelegate: AnyObject {
    func scrollViewDidScroll(_ scrollView: ScrollView)
    func scrollViewWillBeginDragging(_ scrollView: ScrollView)
    /// The delegate may change `targetContentOffset`; the view then decelerates (springs) to the new target.
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point)
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool)
    func scrollViewWillBeginDecelerating(_ scrollView: ScrollView)
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView)
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView)
    /// UIKit returns the view to zoom. The model's content view is known by its unzoomed size: return it to make
    /// the scroll view zoomable, nil (the default) to keep it from zooming.
    func viewForZooming(in scrollView: ScrollView) -> Size?
    func scrollViewWillBeginZooming(_ scrollView: ScrollView)
    func scrollViewDidZoom(_ scrollView: ScrollView)
    func scrollViewDidEndZooming(_ scrollView: ScrollView, atScale scale: Double)
    /// Asked before a scroll to the top (UIKit: a tap on the status bar; here on the scene's title bar): false
    /// keeps the view where it is.
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool
    /// The scroll to the top has arrived (instead of `scrollViewDidEndScrollingAnimation`).
    func scrollViewDidScrollToTop(_ scrollView: ScrollView)
    /// `adjustedContentInset` changed: its `contentInset`, its bounds, or the centring of content smaller than
    /// the bounds (`centersContent`), which moves with every step of a zoom.
    func scrollViewDidChangeAdjustedContentInset(_ scrollView: ScrollView)
}

extension ScrollViewDelegate {
    public func scrollViewDidScroll(_ scrollView: ScrollView) {}
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {}
    public func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point
    ) {}
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {}
    public func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {}
    public func viewForZooming(in scrollView: ScrollView) -> Size? { nil }
    public func scrollViewWillBeginZooming(_ scrollView: ScrollView) {}
    public func scrollViewDidZoom(_ scrollView: ScrollView) {}
    public func scrollViewDidEndZooming(_ scrollView: ScrollView, atScale scale: Double) {}
    public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool { true }
    public func scrollViewDidScrollToTop(_ scrollView: ScrollView) {}
    public func scrollViewDidChangeAdjustedContentInset(_ scrollView: ScrollView) {}
}

/// One delegate call, as the trace names it (`docs/event-log-and-trace.md`).
public enum ScrollViewEvent: Equatable, Sendable {
    case didScroll
    case willBeginDragging
    /// `velocity` in points per millisecond; `targetContentOffset` after the delegate had its say.
    case willEndDragging(velocity: Point, targetContentOffset: Point)
    case didEndDragging(willDecelerate: Bool)
    case willBeginDecelerating
    case didEndDecelerating
    case didEndScrollingAnimation
    case willBeginZooming
    case didZoom
    case didEndZooming(scale: Double)
    /// The view was asked whether it may scroll to the top (the answer is the delegate's).
    case shouldScrollToTop
    case didScrollToTop
    case didChangeAdjustedContentInset

    /// The UIScrollViewDelegate method's name, as the trace writes it.
    public var name: String {
        switch self {
        case .didScroll: "scrollViewDidScroll"
        case .willBeginDragging: "scrollViewWillBeginDragging"
        case .willEndDragging: "scrollViewWillEndDragging"
        case .didEndDragging: "scrollViewDidEndDragging"
        case .willBeginDecelerating: "scrollViewWillBeginDecelerating"
        case .didEndDecelerating: "scrollViewDidEndDecelerating"
        case .didEndScrollingAnimation: "scrollViewDidEndScrollingAnimation"
        case .willBeginZooming: "scrollViewWillBeginZooming"
        case .didZoom: "scrollViewDidZoom"
        case .didEndZooming: "scrollViewDidEndZooming"
        case .shouldScrollToTop: "scrollViewShouldScrollToTop"
        case .didScrollToTop: "scrollViewDidScrollToTop"
        case .didChangeAdjustedContentInset: "scrollViewDidChangeAdjustedContentInset"
        }
    }
}

/// A delegate that records every call as a `ScrollViewEvent`: for traces and tests.
///
/// ```swift
/// let log = ScrollViewEventLog(zoomingSize: Size(width: 1600, height: 1200))
/// scrollView.delegate = log
/// // ... drive the view ...
/// log.events.map(\.name)
/// ```
public final class ScrollViewEventLog: ScrollViewDelegate {
    public var events: [ScrollViewEvent] = []
    /// Answered to `viewForZooming(in:)`.
    public var zoomingSize: Size?
    /// When set, `scrollViewWillEndDragging` replaces the target with what this returns.
    public var retarget: ((ScrollView, Point) -> Point)?
    /// When false, `didScroll`, `didZoom` and `didChangeAdjustedContentInset` are not recorded (they are most
    /// of a log).
    public var recordsContinuousEvents = true

    public init(zoomingSize: Size? = nil) { self.zoomingSize = zoomingSize }

    /// The events since the last call, and forget them.
    public func drain() -> [ScrollViewEvent] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    public func scrollViewDidScroll(_ scrollView: ScrollView) {
        if recordsContinuousEvents { events.append(.didScroll) }
    }
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) { events.append(.willBeginDragging) }
    public func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point
    ) {
        if let retarget { targetContentOffset = retarget(scrollView, targetContentOffset) }
        events.append(.willEndDragging(velocity: velocity, targetContentOffset: targetContentOffset))
    }
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        events.append(.didEndDragging(willDecelerate: decelerate))
    }
    public func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) { events.append(.willBeginDecelerating) }
    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) { events.append(.didEndDecelerating) }
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {
        events.append(.didEndScrollingAnimation)
    }
    public func viewForZooming(in scrollView: ScrollView) -> Size? { zoomingSize }
    public func scrollViewWillBeginZooming(_ scrollView: ScrollView) { events.append(.willBeginZooming) }
    public func scrollViewDidZoom(_ scrollView: ScrollView) {
        if recordsContinuousEvents { events.append(.didZoom) }
    }
    public func scrollViewDidEndZooming(_ scrollView: ScrollView, atScale scale: Double) {
        events.append(.didEndZooming(scale: scale))
    }
    public func scrollViewDidChangeAdjustedContentInset(_ scrollView: ScrollView) {
        if recordsContinuousEvents { events.append(.didChangeAdjustedContentInset) }
    }
    public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        events.append(.shouldScrollToTop)
        return true
    }
    public func scrollViewDidScrollToTop(_ scrollView: ScrollView) { events.append(.didScrollToTop) }
}
