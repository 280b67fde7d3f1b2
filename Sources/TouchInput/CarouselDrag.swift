import ScrollEngine

/// A drag in a paging scroll view whose pages are zoomable scroll views (a photo viewer): the movement goes
/// first to bring a displaced carousel back to its page, then to the zoomed page up to its edge, then to the
/// carousel; on release the view that was displaced takes the horizontal velocity.
struct CarouselDrag {
    /// The paging scroll view.
    let carousel: ScrollView
    /// The page under the first finger, and its index.
    let page: ScrollView
    let pageIndex: Int
    /// `carousel`'s offset on the page it rested on when the sequence began.
    let startPageOffset: Double

    init(carousel: ScrollView, page: ScrollView, pageIndex: Int) {
        self.carousel = carousel
        self.page = page
        self.pageIndex = pageIndex
        startPageOffset = carousel.currentPage.map { carousel.pageOffset($0, .horizontal) } ?? 0
    }

    /// Moves by `d`; a view that the movement reaches begins dragging from the pan's `startTranslation`.
    func drag(by d: Point, startTranslation: Point, at seconds: Double) {
        var rest = d.x
        let displacement = carousel.contentOffset.x - startPageOffset
        if displacement != 0, rest != 0, (displacement > 0) == (rest > 0) {
            let take = rest > 0 ? Swift.min(rest, displacement) : Swift.max(rest, displacement)
            carousel.drag(by: Point(x: take, y: 0), from: startTranslation, at: seconds)
            rest -= take
        }
        var pageDelta = Point(x: 0, y: d.y)
        if rest != 0, page.canScroll(.horizontal) {
            let r = page.offsetLimits(.horizontal)
            let o = page.contentOffset.x
            let capacity = rest > 0 ? Swift.max(0, o - r.lowerBound) : Swift.max(0, r.upperBound - o)
            pageDelta.x = rest > 0 ? Swift.min(rest, capacity) : Swift.max(rest, -capacity)
            rest -= pageDelta.x
        }
        if pageDelta != .zero, page.canScroll(.horizontal) || page.canScroll(.vertical) {
            page.drag(by: pageDelta, from: startTranslation, at: seconds)
        }
        if rest != 0 {
            carousel.drag(by: Point(x: rest, y: 0), from: startTranslation, at: seconds)
        }
    }

    /// The last finger lifted with velocity `v`.
    func release(velocity v: Point, at seconds: Double) {
        let displaced = abs(carousel.contentOffset.x - startPageOffset) > ScrollConstants.sameTolerance
        page.release(velocity: Point(x: displaced ? 0 : v.x, y: v.y), at: seconds)
        carousel.release(velocity: Point(x: displaced ? v.x : 0, y: 0), at: seconds)
    }
}

extension ScrollView {
    /// Begins dragging (willBeginDragging) if it has not yet, from the pan's `startTranslation` (the engine
    /// begins a drag once: `isDragging` also holds through the fling after one, as UIKit's).
    func beginDraggingIfNeeded(from startTranslation: Point, at seconds: Double) {
        beginDragging(translation: startTranslation, at: seconds)
    }

    /// Drags by `d`, beginning the drag first if it has not begun.
    func drag(by d: Point, from startTranslation: Point, at seconds: Double) {
        beginDraggingIfNeeded(from: startTranslation, at: seconds)
        drag(by: d, at: seconds)
    }

    /// The touch lifted: a dragged view flings with `velocity`, any other just ends its touch.
    func release(velocity: Point, at seconds: Double) {
        // A view the finger did not drag just ends its touch (`endDragging` says so).
        endDragging(velocity: velocity, at: seconds)
    }
}
