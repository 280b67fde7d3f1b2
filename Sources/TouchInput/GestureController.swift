import ScrollEngine

/// Turns finger events into UIScrollView behaviour: pan (one finger or several by their centroid), pinch about
/// the fingers, tap and double tap, delayed and cancellable touches on hit targets, and a paging scroll view
/// whose pages are themselves zoomable scroll views (a photo viewer).
///
/// Pure: it reads no clock. Feed it `handle(_:)` in timestamp order and call `step(to:)` every frame (its
/// timers: the single-tap confirmation and the content-touch delay) before stepping the scroll views.
///
/// ```swift
/// let touch = GestureController(scrollView: view)
/// touch.handle(InputEvent(.down, finger: 1, at: Point(x: 100, y: 400), time: 0))
/// touch.handle(InputEvent(.move, finger: 1, at: Point(x: 100, y: 300), time: 16))
/// touch.handle(InputEvent(.up, finger: 1, at: Point(x: 100, y: 250), time: 32))
/// ```
public final class GestureController {
    /// The scroll view the fingers are on (a carousel's paging view, or the only one).
    public let scrollView: ScrollView
    /// The zoomable pages of a paging `scrollView`, page i at x = i × its width. Empty for a single view.
    public var pages: [ScrollView] = []
    /// The hit target (hotspot) under a point of `scrollView`'s view coordinates, if any.
    public var hitTest: ((Point) -> String?)?
    /// The scale a double tap zooms to; nil means each view's `maximumZoomScale`.
    public var doubleTapZoomScale: Double?
    /// What happened since the owner last cleared it (`events.removeAll(keepingCapacity: true)`).
    public var events: [GestureEvent] = []

    struct Finger {
        var id: Int64
        var position: Point
    }

    enum ContentTouch {
        case none
        case pending(id: String, deliverAt: Double)
        case delivered(id: String)
    }

    var fingers: [Finger] = []
    /// The kiosk's clock in milliseconds: the newest event or step.
    public private(set) var now: Double = 0

    // One touch sequence: from the first finger down to the last finger up.
    var centroid: Point = .zero
    /// The fingers' accumulated movement (re-anchoring on finger changes adds nothing).
    var translation: Point = .zero
    var tracker = VelocityTracker()
    var panning = false
    var panStartTranslation: Point = .zero
    /// The page under the first finger, when `pages` is set.
    var inner: ScrollView?
    var innerPage: Int?
    /// `scrollView`'s offset on the page it rested on when the sequence began.
    var startPageOffset = 0.0
    var zoomView: ScrollView?
    var zoomViewOrigin: Point = .zero
    var lastSpan = 0.0
    var pinchStartSpan = 0.0
    /// The most fingers down at once in this sequence.
    var maximumFingers = 0
    var tapPossible = false
    var tapStart: (time: Double, position: Point) = (0, .zero)
    var secondTapCandidate = false
    var lastTap: (time: Double, position: Point)?
    var pendingSingleTap: (fireAt: Double, position: Point)?
    var contentTouch = ContentTouch.none

    public init(scrollView: ScrollView) {
        self.scrollView = scrollView
        fingers.reserveCapacity(16)
        events.reserveCapacity(16)
    }

    /// Whether any finger is down.
    public var isTouching: Bool { !fingers.isEmpty }

    /// Whether nothing is down and no timer is pending (a single tap awaiting confirmation, a delayed touch).
    public var isIdle: Bool {
        guard fingers.isEmpty, pendingSingleTap == nil else { return false }
        if case .pending = contentTouch { return false }
        return true
    }

    // MARK: Input

    public func handle(_ event: InputEvent) {
        guard event.position.isFinite else { return }
        advanceTimers(to: event.timestamp)
        let index = fingers.firstIndex { $0.id == event.finger }
        switch event.kind {
        case .down:
            // A finger id reused while down: the old touch is lifted first.
            if let index { lift(at: index, position: fingers[index].position, cancelled: false) }
            add(Finger(id: event.finger, position: event.position))
        case .move:
            guard let index else {
                // A move for a finger we never saw go down starts it.
                add(Finger(id: event.finger, position: event.position))
                return
            }
            fingers[index].position = event.position
            moved()
        case .up, .cancel:
            // An up for a finger that is not down is ignored (SDL does the same).
            guard let index else { return }
            fingers[index].position = event.position
            moved()
            lift(at: index, position: event.position, cancelled: event.kind == .cancel)
        }
    }

    /// Advances everything to `ms`: the touch layer's timers (the content-touch delay, the single-tap
    /// confirmation), then the scroll view and its pages. Zoomed pages that have left the screen are reset to
    /// their minimum zoom. Call it once per frame, after handling the frame's input.
    public func step(to ms: Double) {
        advanceTimers(to: ms)
        scrollView.step(to: seconds)
        for page in pages { page.step(to: seconds) }
        resetPagesOffScreen()
    }

    func advanceTimers(to ms: Double) {
        if ms.isFinite, ms > now { now = ms }
        if case .pending(let id, let deliverAt) = contentTouch, now >= deliverAt {
            contentTouch = .delivered(id: id)
            events.append(.contentTouchBegan(id))
        }
        if let pending = pendingSingleTap, now >= pending.fireAt {
            pendingSingleTap = nil
            events.append(.tap(pending.position))
        }
    }

    var seconds: Double { now / 1000 }

    // MARK: Fingers

    func add(_ finger: Finger) {
        let first = fingers.isEmpty
        fingers.append(finger)
        maximumFingers = first ? 1 : Swift.max(maximumFingers, fingers.count)
        if first {
            beginSequence(at: finger.position)
        } else {
            tapPossible = false
            cancelContentTouch()
        }
        reanchor()
    }

    func lift(at index: Int, position: Point, cancelled: Bool) {
        fingers.remove(at: index)
        if cancelled { tapPossible = false }
        if fingers.isEmpty {
            endSequence(at: position, cancelled: cancelled)
            return
        }
        if fingers.count == 1, let zoomView {
            zoomView.endZooming(at: seconds)
            self.zoomView = nil
            // The finger that remains pans on at once: the gesture is already under way, no new slop.
            if !panning { beginPan() }
        }
        reanchor()
    }

    /// The finger set changed: the centroid, focal point and span start again from here, so nothing jumps.
    func reanchor() {
        centroid = PinchGeometry.focalPoint(fingers.lazy.map(\.position))
        lastSpan = PinchGeometry.span(fingers.lazy.map(\.position))
        pinchStartSpan = lastSpan
        zoomView?.reanchorZoom(at: centroid - zoomViewOrigin)
    }

    func moved() {
        let c = PinchGeometry.focalPoint(fingers.lazy.map(\.position))
        let delta = c - centroid
        centroid = c
        translation = translation + delta
        tracker.add(translation, at: seconds)
        if translation.length > TouchConstants.panSlop { tapPossible = false }
        if fingers.count >= 2 { pinch() }
        if zoomView != nil { return }  // the zoom's focal point carries the content
        if !panning {
            let slop = maximumFingers > 1 ? TouchConstants.multiFingerPanSlop : TouchConstants.panSlop
            let distance = translation.length
            guard distance > slop else { return }
            beginPan()
            // The slop itself never moves the content; what the fingers went beyond it does, so from here the
            // content follows them exactly, a slop behind.
            if panning { routeDrag(translation * ((distance - slop) / distance)) }
            return
        }
        routeDrag(delta)
    }

    // MARK: Sequence

    func beginSequence(at p: Point) {
        translation = .zero
        tracker.reset()
        tracker.add(.zero, at: seconds)
        panning = false
        zoomView = nil
        innerPage = pageIndex(at: p)
        inner = innerPage.map { pages[$0] }
        startPageOffset = scrollView.currentPage.map { scrollView.pageOffset($0, .horizontal) } ?? 0
        scrollView.touchesBegan(at: seconds)
        inner?.touchesBegan(at: seconds)
        // Tap bookkeeping: a second tap close in time and place may make a double tap.
        tapPossible = true
        tapStart = (now, p)
        if let last = lastTap, now - last.time <= TouchConstants.doubleTapTimeout * 1000,
            (p - last.position).length <= TouchConstants.doubleTapSlop
        {
            secondTapCandidate = true
            pendingSingleTap = nil
        } else {
            secondTapCandidate = false
            if let pending = pendingSingleTap {
                // A touch elsewhere: the first tap can no longer become a double tap.
                pendingSingleTap = nil
                events.append(.tap(pending.position))
            }
        }
        lastTap = nil
        if let id = hitTest?(p) {
            if scrollView.delaysContentTouches {
                contentTouch = .pending(id: id, deliverAt: now + TouchConstants.contentTouchDelay * 1000)
            } else {
                contentTouch = .delivered(id: id)
                events.append(.contentTouchBegan(id))
            }
        } else {
            contentTouch = .none
        }
    }

    func endSequence(at p: Point, cancelled: Bool) {
        if let zoomView {
            zoomView.endZooming(at: seconds)
            self.zoomView = nil
        }
        release(velocity: cancelled ? .zero : tracker.velocity(at: seconds))
        panning = false
        if cancelled {
            cancelContentTouch()
            return
        }
        let isTap = tapPossible && now - tapStart.time <= TouchConstants.tapMaximumDuration * 1000
        switch contentTouch {
        case .pending(let id, _), .delivered(let id):
            // Fires as UIKit's touchUpInside: the touch was not taken by a scroll and lifts on the target.
            contentTouch = .none
            if maximumFingers == 1, hitTest?(p) == id {
                events.append(.hotspotTapped(id))
                return
            }
        case .none:
            break
        }
        guard isTap else { return }
        if secondTapCandidate {
            secondTapCandidate = false
            doubleTap(at: p)
        } else if listensForDoubleTap(at: p) {
            lastTap = (now, p)
            pendingSingleTap = (now + TouchConstants.doubleTapTimeout * 1000, p)
        } else {
            events.append(.tap(p))
        }
    }

    func cancelContentTouch() {
        switch contentTouch {
        case .none: break
        case .pending: contentTouch = .none
        case .delivered(let id):
            contentTouch = .none
            events.append(.contentTouchCancelled(id))
        }
    }

    // MARK: Pan

    func beginPan() {
        // A hit target that already has the touch keeps it unless the scroll view may cancel it (UIKit).
        if case .delivered = contentTouch, !scrollView.canCancelContentTouches { return }
        panning = true
        tapPossible = false
        panStartTranslation = translation
        cancelContentTouch()
        // A single view says willBeginDragging now; in a carousel each view does when the movement reaches it.
        if inner == nil { ensureDragging(scrollView) }
    }

    func ensureDragging(_ view: ScrollView) {
        if !view.isDragging { view.beginDragging(translation: panStartTranslation, at: seconds) }
    }

    /// A single view takes the whole movement. In a carousel the movement goes first to bring a displaced
    /// carousel back to its page, then to the zoomed page up to its edge, then to the carousel.
    func routeDrag(_ d: Point) {
        guard let inner else {
            ensureDragging(scrollView)
            scrollView.drag(by: d, at: seconds)
            return
        }
        var rest = d.x
        let displacement = scrollView.contentOffset.x - startPageOffset
        if displacement != 0, rest != 0, (displacement > 0) == (rest > 0) {
            let take = rest > 0 ? Swift.min(rest, displacement) : Swift.max(rest, displacement)
            ensureDragging(scrollView)
            scrollView.drag(by: Point(x: take, y: 0), at: seconds)
            rest -= take
        }
        var innerDelta = Point(x: 0, y: d.y)
        if rest != 0, inner.canScroll(.horizontal) {
            let r = inner.offsetLimits(.horizontal)
            let o = inner.contentOffset.x
            let capacity = rest > 0 ? Swift.max(0, o - r.lowerBound) : Swift.max(0, r.upperBound - o)
            innerDelta.x = rest > 0 ? Swift.min(rest, capacity) : Swift.max(rest, -capacity)
            rest -= innerDelta.x
        }
        if innerDelta != .zero, inner.canScroll(.horizontal) || inner.canScroll(.vertical) {
            ensureDragging(inner)
            inner.drag(by: innerDelta, at: seconds)
        }
        if rest != 0 {
            ensureDragging(scrollView)
            scrollView.drag(by: Point(x: rest, y: 0), at: seconds)
        }
    }

    /// The last finger lifted: the dragged views fling (a displaced carousel takes the horizontal velocity,
    /// else the page does), the others just end their touch.
    func release(velocity v: Point) {
        guard let inner else {
            end(scrollView, velocity: v)
            return
        }
        let displaced = abs(scrollView.contentOffset.x - startPageOffset) > ScrollConstants.sameTolerance
        end(inner, velocity: Point(x: displaced ? 0 : v.x, y: v.y))
        end(scrollView, velocity: Point(x: displaced ? v.x : 0, y: 0))
    }

    func end(_ view: ScrollView, velocity: Point) {
        if view.isDragging {
            view.endDragging(velocity: velocity, at: seconds)
        } else {
            view.touchesEnded(at: seconds)
        }
    }

    // MARK: Pinch

    func pinch() {
        let span = PinchGeometry.span(fingers.lazy.map(\.position))
        defer { lastSpan = span }
        if let zoomView {
            guard lastSpan > 0, span > 0 else { return }
            zoomView.zoom(by: span / lastSpan, focalPoint: centroid - zoomViewOrigin, at: seconds)
            return
        }
        // In a carousel the pinch zooms the page the touch began on (the one that had touchesBegan).
        guard abs(span - pinchStartSpan) > TouchConstants.pinchSpanSlop,
            let (view, origin) = zoomTarget(page: innerPage)
        else { return }
        if case .delivered = contentTouch, !scrollView.canCancelContentTouches { return }
        view.beginZooming(focalPoint: centroid - origin, at: seconds)
        guard view.isZooming else { return }
        zoomView = view
        zoomViewOrigin = origin
        tapPossible = false
        cancelContentTouch()
    }

    /// The view a pinch or double tap at `p` zooms, and its origin in `scrollView`'s view coordinates.
    func zoomTarget(at p: Point) -> (ScrollView, Point)? { zoomTarget(page: pageIndex(at: p)) }

    /// The view page `page` zooms (the scroll view itself when there are no pages), and its origin.
    func zoomTarget(page: Int?) -> (ScrollView, Point)? {
        if let page {
            let view = pages[page]
            let origin = Point(x: Double(page) * scrollView.bounds.width - scrollView.contentOffset.x, y: 0)
            return view.canZoom ? (view, origin) : nil
        }
        return scrollView.canZoom ? (scrollView, .zero) : nil
    }

    func pageIndex(at p: Point) -> Int? {
        guard !pages.isEmpty, scrollView.bounds.width > 0 else { return nil }
        let x = (scrollView.contentOffset.x + p.x) / scrollView.bounds.width
        guard x.isFinite else { return nil }
        return Int(x.rounded(.down).clamped(0, Double(pages.count - 1)))
    }

    // MARK: Taps

    func listensForDoubleTap(at p: Point) -> Bool { zoomTarget(at: p) != nil }

    /// A double tap toggles the zoom of the view under it: zoomed in, back to the minimum; at the minimum, to the
    /// double-tap scale with the tapped content point in the middle of the view (clamped to the content's edges).
    func doubleTap(at p: Point) {
        events.append(.doubleTap(p))
        guard let (view, origin) = zoomTarget(at: p) else { return }
        let local = p - origin
        if view.zoomScale > view.minimumZoomScale + ScrollConstants.sameTolerance {
            view.setZoomScale(view.minimumZoomScale, animated: true)
        } else {
            let scale = doubleTapZoomScale ?? view.maximumZoomScale
            let contentPoint = (view.contentOffset + local) / view.zoomScale
            view.zoom(to: ZoomMath.zoomRect(scale: scale, center: contentPoint, frame: view.bounds), animated: true)
        }
    }

    /// Pages that no longer show any part of themselves go back to their minimum zoom, as a photo viewer does.
    func resetPagesOffScreen() {
        guard !pages.isEmpty else { return }
        let width = scrollView.bounds.width
        let visible = scrollView.contentOffset.x..<(scrollView.contentOffset.x + width)
        for (i, page) in pages.enumerated() where page !== zoomView && page.zoomScale != page.minimumZoomScale {
            let x = Double(i) * width
            if x + width <= visible.lowerBound || x >= visible.upperBound {
                page.setZoomScale(page.minimumZoomScale, animated: false)
            }
        }
    }
}

extension Double {
    fileprivate func clamped(_ lo: Double, _ hi: Double) -> Double { Swift.min(Swift.max(self, lo), hi) }
}
