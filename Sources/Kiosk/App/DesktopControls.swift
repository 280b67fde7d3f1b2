import ScrollEngine

/// Desktop input steps (our choices, as desktop scroll views behave).
enum KeyboardStyle {
    static let wheelStep = 40.0
    static let zoomStep = 1.5
    /// Page Up and Page Down move by this share of the view, keeping a strip of the last page in sight (as
    /// desktop scroll views do).
    static let pageStep = 0.9
}

/// The mouse wheel and the keyboard on a scene, for a kiosk run in a window on a desktop (a kiosk's
/// touchscreen has neither).
extension Scene {
    /// The view the keyboard and the wheel act on: the current page of a carousel that zooms, else the main view.
    var focusedView: ScrollView {
        if let page = currentPage, page < pages.count, pages[page].canZoom {
            return pages[page]
        }
        return view
    }

    /// Mouse wheel steps: scroll (40 pt a step, the way a desktop scrolls), or zoom about `zoomAbout` (the
    /// pointer, while Ctrl is held).
    func wheel(_ steps: Point, zoomAbout pointer: Point?) {
        let v = focusedView
        if let pointer, v.canZoom {
            let factor = steps.y > 0 ? KeyboardStyle.zoomStep : 1 / KeyboardStyle.zoomStep
            let target = (v.zoomScale * factor).clampedTo(v.minimumZoomScale, v.maximumZoomScale)
            let contentPoint = (v.contentOffset + pointer) / v.zoomScale
            v.zoom(to: ZoomMath.zoomRect(scale: target, center: contentPoint, frame: v.bounds), animated: true)
            return
        }
        if config.type == .carousel && steps.x != 0 {
            turnPage(steps.x > 0 ? 1 : -1)
            return
        }
        scroll(
            v, by: Point(x: -steps.x * KeyboardStyle.wheelStep, y: -steps.y * KeyboardStyle.wheelStep), animated: false)
    }

    /// A desktop key the kiosk's table leaves to the scene (SDL's key name): Page Up and Down scroll a page or
    /// turn one, Home and End go to the ends.
    func key(_ name: String) {
        let v = focusedView
        let page = Point(x: v.bounds.width * KeyboardStyle.pageStep, y: v.bounds.height * KeyboardStyle.pageStep)
        let turns = config.type == .carousel
        switch name {
        case "PageUp": turns ? turnPage(-1) : scroll(v, by: Point(x: 0, y: -page.y))
        case "PageDown": turns ? turnPage(1) : scroll(v, by: Point(x: 0, y: page.y))
        case "Home":
            v.setContentOffset(
                Point(x: v.offsetLimits(.horizontal).lowerBound, y: v.offsetLimits(.vertical).lowerBound),
                animated: true)
        case "End":
            v.setContentOffset(
                Point(x: v.offsetLimits(.horizontal).upperBound, y: v.offsetLimits(.vertical).upperBound),
                animated: true)
        default: break
        }
    }

    func scroll(_ v: ScrollView, by delta: Point, animated: Bool = true) {
        v.setContentOffset(v.clampedOffset(v.contentOffset + delta), animated: animated)
    }

    /// Turns the carousel a page (`wrapping`: past the last comes the first, as the attract loop turns).
    func turnPage(_ direction: Int, wrapping: Bool = false) {
        guard let current = currentPage else { return }
        let count = view.pageCount(.horizontal)
        show(page: wrapping ? (current + direction + count) % count : max(0, min(count - 1, current + direction)))
    }
}
