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
    /// A control over the scroll view (a table's section index) that takes a touch beginning on it whole, as
    /// UITableView's index takes its touches from the table: asked with the first finger's down, it answers
    /// whether it takes the touch; then it has every position of that finger until it lifts, and the scroll
    /// views none.
    public var control: ((InputEvent) -> Bool)?
    /// The finger a control has.
    var controlFinger: Int64?

    struct Finger {
        var id: Int64
        var position: Point
    }

    /// Which gesture has taken the touch sequence. A pinch may take over from a pan; when it ends with one
    /// finger left, the pan goes on.
    enum Claim {
        case none
        case pan
        case pinch(view: ScrollView, origin: Point, afterPan: Bool)

        /// The view a pinch zooms.
        var zoomView: ScrollView? {
            if case .pinch(let view, _, _) = self { return view }
            return nil
        }
    }

    var fingers: [Finger] = []
    /// The kiosk's clock in milliseconds: the newest event or step.
    public private(set) var now: Double = 0

    // One touch sequence: from the first finger down to the last finger up.
    var motion = FingerMotion()
    var claim = Claim.none
    var tap = TapRecognizer()
    var contentTouch = ContentTouch.none
    /// No timer (the content touch's delay, the single tap's confirmation) is due before this: each call looks
    /// at this one number only. It may be early (a timer cancelled since), never late.
    var nextTimerAt = Double.infinity
    /// The drag's routing when `pages` is set: the page under the first finger.
    var carousel: CarouselDrag?

    public init(scrollView: ScrollView) {
        self.scrollView = scrollView
        fingers.reserveCapacity(16)
        events.reserveCapacity(16)
    }

    /// Whether any finger is down.
    public var isTouching: Bool { !fingers.isEmpty || controlFinger != nil }

    /// Whether nothing is down and no timer is pending (a single tap awaiting confirmation, a delayed touch).
    public var isIdle: Bool {
        guard fingers.isEmpty, controlFinger == nil, !tap.isWaiting else { return false }
        if case .pending = contentTouch { return false }
        return true
    }

    // MARK: Input

    public func handle(_ event: InputEvent) {
        guard event.position.isFinite else { return }
        advanceTimers(to: event.timestamp)
        if let finger = controlFinger {
            guard event.finger == finger else { return }
            _ = control?(event)
            if event.kind == .up || event.kind == .cancel { controlFinger = nil }
            return
        }
        if event.kind == .down, fingers.isEmpty, let control, control(event) {
            controlFinger = event.finger
            return
        }
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
        // Most calls (every event and frame) move the clock and find no timer due: they touch two stored numbers,
        // once each (each access to a stored property costs an exclusivity check at run time).
        let now = Self.advance(&self.now, to: ms)
        guard now >= nextTimerAt else { return }
        if let id = contentTouch.deliver(at: now) { events.append(.contentTouchBegan(id)) }
        if let position = tap.confirmedTap(at: now) { events.append(.tap(position)) }
        nextTimerAt = min(contentTouch.dueAt ?? .infinity, tap.dueAt ?? .infinity)
    }

    /// Moves `clock` on to `ms` (never back, never to a non-finite time); returns where it is.
    static func advance(_ clock: inout Double, to ms: Double) -> Double {
        if ms.isFinite, ms > clock { clock = ms }
        return clock
    }

    var seconds: Double { now / 1000 }

    var positions: LazyMapSequence<[Finger], Point> { fingers.lazy.map(\.position) }

    // MARK: Fingers

    func add(_ finger: Finger) {
        let first = fingers.isEmpty
        fingers.append(finger)
        motion.maximumFingers = first ? 1 : Swift.max(motion.maximumFingers, fingers.count)
        if first {
            beginSequence(at: finger.position)
        } else {
            interrupt()
        }
        reanchor()
    }

    func lift(at index: Int, position: Point, cancelled: Bool) {
        fingers.remove(at: index)
        if cancelled { tap.fail() }
        if fingers.isEmpty {
            endSequence(at: position, cancelled: cancelled)
            return
        }
        if fingers.count == 1, case .pinch(let view, _, let afterPan) = claim {
            view.endZooming(at: seconds)
            claim = .none
            // The finger that remains pans on at once: the gesture is already under way, no new slop.
            if afterPan { claim = .pan } else { beginPan() }
        }
        reanchor()
    }

    /// The finger set changed: the centroid, focal point and span start again from here, so nothing jumps.
    func reanchor() {
        motion.reanchor(positions)
        if case .pinch(let view, let origin, _) = claim { view.reanchorZoom(at: motion.centroid - origin) }
    }

    func moved() {
        let (delta, distance) = motion.move(positions, at: seconds)
        if distance > TouchConstants.panSlop { tap.fail() }
        if fingers.count >= 2 { pinch() }
        switch claim {
        case .pinch: return  // the zoom's focal point carries the content
        case .pan: routeDrag(delta)
        case .none:
            let slop = motion.maximumFingers > 1 ? TouchConstants.multiFingerPanSlop : TouchConstants.panSlop
            guard distance > slop else { return }
            beginPan()
            // The slop itself never moves the content; what the fingers went beyond it does, so from here the
            // content follows them exactly, a slop behind.
            if case .pan = claim { routeDrag(motion.translation * ((distance - slop) / distance)) }
        }
    }

    // MARK: Claims

    /// Whether a gesture may take the touch: a hit target that already has it keeps it unless the scroll view
    /// may cancel it (UIScrollView's `canCancelContentTouches`).
    var mayClaim: Bool { contentTouch.deliveredID == nil || scrollView.canCancelContentTouches }

    /// A gesture takes the touch sequence: the one place a claim is made, and so the one place the tap fails and
    /// the hit target loses the touch for it.
    func take(_ new: Claim) {
        claim = new
        interrupt()
    }

    /// The sequence can no longer be a tap nor a hit target's touch (a claim, or a second finger).
    func interrupt() {
        tap.fail()
        cancelContentTouch()
    }

    func cancelContentTouch() {
        if let id = contentTouch.cancel() { events.append(.contentTouchCancelled(id)) }
    }

    // MARK: Sequence

    func beginSequence(at p: Point) {
        motion.begin(at: seconds)
        claim = .none
        carousel = pageIndex(at: p).map { CarouselDrag(carousel: scrollView, page: pages[$0], pageIndex: $0) }
        scrollView.touchesBegan(at: seconds)
        carousel?.page.touchesBegan(at: seconds)
        // A second tap close in time and place may make a double tap; a touch elsewhere confirms a waiting one.
        if let confirmed = tap.begin(at: p, now: now) { events.append(.tap(confirmed)) }
        contentTouch = ContentTouch(id: hitTest?(p), now: now, delays: scrollView.delaysContentTouches)
        if let id = contentTouch.deliveredID { events.append(.contentTouchBegan(id)) }
        if let due = contentTouch.dueAt { nextTimerAt = min(nextTimerAt, due) }
    }

    func endSequence(at p: Point, cancelled: Bool) {
        claim.zoomView?.endZooming(at: seconds)
        claim = .none
        release(velocity: cancelled ? .zero : motion.velocity(at: seconds))
        if cancelled {
            cancelContentTouch()
            return
        }
        if let id = contentTouch.targetID {
            // Fires as UIKit's touchUpInside: the touch was not taken by a scroll and lifts on the target. A touch
            // still held back (a tap shorter than the delay, most taps) is delivered first, as UIScrollView
            // delivers it at the lift: the target shows its highlight before it acts.
            let delivered = contentTouch.deliveredID != nil
            contentTouch = .none
            if motion.maximumFingers == 1, hitTest?(p) == id {
                if !delivered { events.append(.contentTouchBegan(id)) }
                events.append(.hotspotTapped(id))
                return
            }
        }
        switch tap.end(now: now) {
        case nil: break
        case .second: doubleTap(at: p)
        case .first:
            if listensForDoubleTap(at: p) {
                tap.awaitSecondTap(at: p, now: now)
                if let due = tap.dueAt { nextTimerAt = min(nextTimerAt, due) }
            } else {
                events.append(.tap(p))
            }
        }
    }

    // MARK: Pan

    func beginPan() {
        guard mayClaim else { return }
        motion.panStartTranslation = motion.translation
        take(.pan)
        // A single view says willBeginDragging now; in a carousel each view does when the movement reaches it.
        if carousel == nil { scrollView.beginDraggingIfNeeded(from: motion.panStartTranslation, at: seconds) }
    }

    func routeDrag(_ d: Point) {
        if let carousel {
            carousel.drag(by: d, startTranslation: motion.panStartTranslation, at: seconds)
        } else {
            scrollView.drag(by: d, from: motion.panStartTranslation, at: seconds)
        }
    }

    /// The last finger lifted: the dragged views fling, the others just end their touch.
    func release(velocity v: Point) {
        if let carousel {
            carousel.release(velocity: v, at: seconds)
        } else {
            scrollView.release(velocity: v, at: seconds)
        }
    }

    // MARK: Pinch

    func pinch() {
        let span = PinchGeometry.span(positions)
        let last = motion.swapSpan(span)
        if case .pinch(let view, let origin, _) = claim {
            guard last > 0, span > 0 else { return }
            view.zoom(by: span / last, focalPoint: motion.centroid - origin, at: seconds)
            return
        }
        // In a carousel the pinch zooms the page the touch began on (the one that had touchesBegan).
        guard abs(span - motion.pinchStartSpan) > TouchConstants.pinchSpanSlop,
            let (view, origin) = zoomTarget(page: carousel?.pageIndex), mayClaim
        else { return }
        view.beginZooming(focalPoint: motion.centroid - origin, at: seconds)
        guard view.isZooming else { return }
        let afterPan = if case .pan = claim { true } else { false }
        take(.pinch(view: view, origin: origin, afterPan: afterPan))
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
        for (i, page) in pages.enumerated() where page !== claim.zoomView && page.zoomScale != page.minimumZoomScale {
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
