/// UIScrollView's model: geometry, zoom, options, state and delegate, with time injected.
///
/// Nothing here reads a clock: the owner drives the view with the touch calls (`touchesBegan`,
/// `beginDragging`, `drag(by:)`, `endDragging`, the zoom calls) and advances it with `step(to:)`.
/// Times are seconds on the owner's clock; they never go backwards (an earlier or non-finite time is
/// taken as the current time).
///
/// ```swift
/// let view = ScrollView(bounds: Size(width: 400, height: 600), contentSize: Size(width: 400, height: 3000))
/// view.touchesBegan(at: 0)
/// view.beginDragging(translation: Point(x: 0, y: -12), at: 0.05)
/// view.drag(by: Point(x: 0, y: -100), at: 0.1)
/// view.endDragging(velocity: Point(x: 0, y: -1500), at: 0.1)
/// view.step(to: 0.5)  // decelerating
/// ```
///
/// More than 15 stored properties, as UIScrollView has: its own public ones (bounds, contentSize, contentInset,
/// zoom limits, the options from `bounces` to `canCancelContentTouches`, the `is…` states) and a gesture's state.
public final class ScrollView {
    public weak var delegate: (any ScrollViewDelegate)?

    // MARK: Geometry

    /// The size of the visible area (UIKit's `bounds.size`). Negative or non-finite extents become 0.
    public var bounds: Size {
        didSet {
            bounds = bounds.sanitized
            noteAdjustedContentInset()
        }
    }
    /// The scrollable content's size in points, already multiplied by `zoomScale` when zooming.
    public var contentSize: Size {
        didSet { contentSize = contentSize.sanitized }
    }
    /// Extra scrollable space around the content. Non-finite insets become 0.
    public var contentInset: EdgeInsets = .zero {
        didSet {
            contentInset = contentInset.sanitized
            noteAdjustedContentInset()
        }
    }
    /// Centre content smaller than the bounds, as a photo viewer does (a kiosk addition: UIKit apps do this
    /// by adjusting the inset in `scrollViewDidZoom`). The centring appears in `adjustedContentInset`.
    public var centersContent = false {
        didSet { noteAdjustedContentInset() }
    }

    /// The point of the content at the view's top-left corner. Setting it is
    /// `setContentOffset(_:animated: false)`; non-finite values are ignored.
    public var contentOffset: Point {
        get { offset }
        set { setContentOffset(newValue, animated: false) }
    }

    // MARK: Zoom

    public private(set) var zoomScale: Double = 1
    /// Values that are not finite and positive are ignored, others clamped into `zoomScaleLimits`.
    public var minimumZoomScale: Double = 1 {
        didSet { minimumZoomScale = Self.zoomLimit(minimumZoomScale, else: oldValue) }
    }
    /// Values that are not finite and positive are ignored, others clamped into `zoomScaleLimits`; a maximum
    /// below the minimum acts as the minimum.
    public var maximumZoomScale: Double = 1 {
        didSet { maximumZoomScale = Self.zoomLimit(maximumZoomScale, else: oldValue) }
    }

    static func zoomLimit(_ value: Double, else old: Double) -> Double {
        guard value.isFinite && value > 0 else { return old }
        return value.clamped(ScrollConstants.zoomScaleLimits.lowerBound, ScrollConstants.zoomScaleLimits.upperBound)
    }

    // MARK: Options (UIKit's names and defaults)

    public var bounces = true
    /// Whether `scrollToTop` scrolls (UIKit: a tap on the status bar).
    public var scrollsToTop = true
    public var alwaysBounceHorizontal = false
    public var alwaysBounceVertical = false
    public var bouncesZoom = true
    public var isPagingEnabled = false
    public var isDirectionalLockEnabled = false
    public var isScrollEnabled = true
    public var decelerationRate: DecelerationRate = .normal
    public var showsHorizontalScrollIndicator = true
    public var showsVerticalScrollIndicator = true
    public var indicatorStyle: IndicatorStyle = .default
    /// Where the vertical indicator runs (UIKit's `verticalScrollIndicatorInsets`): inside the bounds by these,
    /// below a bar over the content, beside a table's index.
    public var verticalScrollIndicatorInsets = EdgeInsets.zero
    /// Where the horizontal indicator runs (UIKit's `horizontalScrollIndicatorInsets`).
    public var horizontalScrollIndicatorInsets = EdgeInsets.zero
    /// UIView's: `.forceRightToLeft` lays the view out right to left (the vertical indicator on the left edge,
    /// as UIKit puts it in a right-to-left language).
    public var semanticContentAttribute = SemanticContentAttribute.unspecified
    /// Read by the touch layer: hold touches on content for `delaysContentTouchesDuration` before handing them on.
    public var delaysContentTouches = true
    /// Read by the touch layer: a touch that turns into a scroll cancels the content's touch.
    public var canCancelContentTouches = true

    // MARK: State

    public internal(set) var isTracking = false
    /// UIKit's: true from the drag's start (`scrollViewWillBeginDragging`) through `scrollViewWillEndDragging` and
    /// `scrollViewDidEndDragging` at the lift, and on through the deceleration that follows until it ends (UIKit
    /// keeps it so: a drag's fling is still the drag).
    public var isDragging: Bool { fingerDrags || endingDrag || (dragDecelerates && isDecelerating) }
    public internal(set) var isDecelerating = false
    public internal(set) var isZooming = false
    public internal(set) var isZoomBouncing = false
    /// The engine's clock: the latest time it was stepped or driven to (seconds).
    public internal(set) var time: Double = 0

    // MARK: Internal state

    /// A finger drags the content now (the touch layer began a drag and has not lifted).
    var fingerDrags = false
    /// The delegate is being told the drag ends (`isDragging` is still true inside those calls).
    var endingDrag = false
    /// The deceleration running was started by a drag's lift.
    var dragDecelerates = false
    /// The `adjustedContentInset` the delegate last heard of.
    var lastAdjustedContentInset = EdgeInsets.zero

    var offset: Point = .zero
    /// The unzoomed size of the view for zooming, captured when a zoom starts.
    var zoomingSize: Size?
    var activity: Activity = .idle
    /// The drag position before the rubber band: `contentOffset` is this, banded at the limits.
    var rawOffset: Point = .zero
    /// The pinch scale before the zoom rubber band.
    var rawScale: Double = 1
    var zoomFocalPoint: Point = .zero
    /// A pinch happened during this touch sequence: its end settles with a zoom bounce.
    var zoomedDuringTouch = false
    var lock: DirectionalLock = .free
    var dragStartPage: Int?
    /// Indicators are fully visible until this time, then fade (-inf: never shown yet; +inf: active).
    var indicatorsVisibleUntil = -Double.infinity

    enum Activity {
        case idle
        /// One simulation per moving axis, times measured from `start`.
        case decelerating(start: Double, x: AxisSimulation?, y: AxisSimulation?)
        case transition(Transition)
    }

    enum DirectionalLock { case free, horizontal, vertical }

    public init(bounds: Size, contentSize: Size = .zero) {
        self.bounds = bounds.sanitized
        self.contentSize = contentSize.sanitized
    }

    // MARK: Limits

    /// `contentInset` plus the centring of content smaller than the bounds (when `centersContent`).
    public var adjustedContentInset: EdgeInsets {
        guard centersContent else { return contentInset }
        let extraX = Swift.max(0, (bounds.width - contentSize.width - contentInset.left - contentInset.right) / 2)
        let extraY = Swift.max(0, (bounds.height - contentSize.height - contentInset.top - contentInset.bottom) / 2)
        return contentInset + EdgeInsets(top: extraY, left: extraX, bottom: extraY, right: extraX)
    }

    /// The smallest and largest resting offset along `axis`:
    /// `-inset.leading ... contentSize + inset.trailing - bounds`, the maximum never below the minimum.
    public func offsetLimits(_ axis: Axis) -> ClosedRange<Double> {
        let inset = adjustedContentInset
        let lo = -inset.leading(axis)
        let hi = contentSize[axis] + inset.trailing(axis) - bounds[axis]
        return lo...Swift.max(lo, hi)
    }

    /// The offset limited to the resting range on both axes.
    public func clampedOffset(_ p: Point) -> Point {
        let h = offsetLimits(.horizontal)
        let v = offsetLimits(.vertical)
        return Point(x: p.x.clamped(h.lowerBound, h.upperBound), y: p.y.clamped(v.lowerBound, v.upperBound))
    }

    /// Whether a drag along `axis` moves the content (it is larger than the bounds, or always bounces).
    public func canScroll(_ axis: Axis) -> Bool {
        let r = offsetLimits(axis)
        return r.upperBound > r.lowerBound
            || (bounces && (axis == .horizontal ? alwaysBounceHorizontal : alwaysBounceVertical))
    }

    var effectiveMaximumZoomScale: Double { Swift.max(minimumZoomScale, maximumZoomScale) }

    /// Whether a pinch or a zoom call would zoom: the zoom range is not empty and the delegate names a view
    /// for zooming.
    public var canZoom: Bool { isZoomEnabled && delegate?.viewForZooming(in: self) != nil }
    var isZoomEnabled: Bool { effectiveMaximumZoomScale > minimumZoomScale }

    // MARK: Paging

    /// The axis a paging view pages along: the one with more than one page (horizontal first).
    public var pagingAxis: Axis? {
        guard isPagingEnabled else { return nil }
        if pageCount(.horizontal) > 1 { return .horizontal }
        if pageCount(.vertical) > 1 { return .vertical }
        return .horizontal
    }

    public func pageCount(_ axis: Axis) -> Int {
        guard bounds[axis] > 0 else { return 1 }
        let n = (contentSize[axis] / bounds[axis] - ScrollConstants.sameTolerance).rounded(.up)
        return n.isFinite ? Swift.max(1, Int(Swift.min(n, 1e9))) : 1
    }

    /// The current page of a paging view (the nearest page boundary), else nil.
    public var currentPage: Int? {
        guard let axis = pagingAxis else { return nil }
        return Paging.targetPage(offset: offset[axis], pageSize: bounds[axis], velocity: 0, pageCount: pageCount(axis))
    }

    /// The resting offset of `page` along `axis` (within the limits).
    public func pageOffset(_ page: Int, _ axis: Axis) -> Double {
        let r = offsetLimits(axis)
        return (Double(page) * bounds[axis]).clamped(r.lowerBound, r.upperBound)
    }

    // MARK: Applying state

    /// Sets offset and scale and tells the delegate, didScroll before didZoom as UIKit does.
    func apply(offset newOffset: Point, scale newScale: Double? = nil) {
        var zoomed = false
        if let s = newScale, s != zoomScale, s.isFinite, s > 0, let size = zoomingSize {
            zoomScale = s
            contentSize = size * s
            zoomed = true
        }
        let scrolled = newOffset != offset && newOffset.isFinite
        if scrolled { offset = newOffset }
        if scrolled { delegate?.scrollViewDidScroll(self) }
        if zoomed {
            delegate?.scrollViewDidZoom(self)
            noteAdjustedContentInset()
        }
    }

    /// Tells the delegate when `adjustedContentInset` is not what it last told
    /// (`scrollViewDidChangeAdjustedContentInset`).
    func noteAdjustedContentInset() {
        let now = adjustedContentInset
        guard now != lastAdjustedContentInset else { return }
        lastAdjustedContentInset = now
        delegate?.scrollViewDidChangeAdjustedContentInset(self)
    }

    /// `t` if it is a usable time, else the current time; never earlier than the current time.
    func sanitizedTime(_ t: Double) -> Double { t.isFinite ? Swift.max(t, time) : time }

    /// Whether the zoom scale is changing: a pinch, its bounce back, or a zoom animation. (A kiosk addition: a
    /// renderer draws a moving zoom more cheaply and sharpens it once it holds still.)
    public var isZoomChanging: Bool {
        if isZooming || isZoomBouncing { return true }
        if case .transition(let t) = activity { return t.fromScale != t.toScale }
        return false
    }

    var isActive: Bool {
        if isTracking || fingerDrags || isDecelerating || isZooming || isZoomBouncing { return true }
        if case .transition = activity { return true }
        return false
    }

    /// Keeps the indicators' visibility in step with activity: shown while active, then held and faded.
    func updateIndicatorClock() {
        if isActive {
            indicatorsVisibleUntil = .infinity
        } else if indicatorsVisibleUntil == .infinity {
            indicatorsVisibleUntil = time + ScrollConstants.indicatorHideDelay
        }
    }
}
