import ScrollEngine
import TouchInput

/// What the kiosk knows of an image before drawing it: its size in pixels, or that it could not be loaded
/// (then a placeholder of `placeholderSize` stands in and the rest of the kiosk works on).
public struct ImageInfo: Equatable, Sendable {
    public var size: Size
    public var loaded: Bool
    /// Set when the image is drawn from a tile pyramid (a `.dzi`, or a plain image too large for one texture).
    public var pyramid: DeepZoomImage?
    /// The image's number in its store, which names its tiles (`TileKey.image`).
    public var id: Int
    /// Whether every pixel is opaque (no alpha channel): then nothing needs drawing beneath it.
    public var isOpaque: Bool
    public init(size: Size, loaded: Bool, pyramid: DeepZoomImage? = nil, id: Int = 0, isOpaque: Bool = true) {
        self.size = size
        self.loaded = loaded
        self.pyramid = pyramid
        self.id = id
        self.isOpaque = isOpaque
    }
    public static let placeholderSize = Size(width: 1600, height: 1200)
    public static let missing = ImageInfo(size: placeholderSize, loaded: false)
}

/// One scene of the manifest, live: its scroll views, gesture controller and layout.
public final class Scene {
    public let config: SceneConfig
    public let size: Size
    /// The scene's main scroll view (a carousel's paging view).
    public let view: ScrollView
    /// A carousel's pages, each a scroll view zooming its image.
    public let pages: [ScrollView]
    public let controller: GestureController
    /// Per image (one for zoom and scroll, one per page for a carousel), and the files they are, in the
    /// visitor's language.
    public private(set) var images: [ImageInfo]
    public private(set) var imagePaths: [String]
    /// A scroll scene's fixed scale from image pixels to points.
    let scrollScale: Double
    /// A list scene's rows, laid out.
    let list: ListState?
    /// Where its events go (the trace's).
    let sink: EventSink
    /// The glow on a hotspot a list's row showed, while it runs.
    var pulse: PlacePulse?
    /// The attract loop changes the main view's zoom frame by frame: drawn as a zoom in motion (from the level
    /// of half the resolution), so a drift does not load and drop a level of tiles as it passes through it.
    var isDrifting = false
    let delegates: [TraceDelegate]
    /// A video scene's film: its playback (nil until it is first drawn) and its controls.
    var film = SceneFilm()
    /// Laid out right to left (`layOut`): a carousel's first page at the right, as a UICollectionView lays
    /// out in a right-to-left language.
    private(set) var isRightToLeft = false

    /// `language`: the visitor's, `fallback` the manifest's first (a list is laid out in it); `metrics`: how wide
    /// its words are (a list's rows are as tall as their titles' lines).
    init(
        config: SceneConfig, size: Size, images: [ImageInfo], imagePaths: [String]? = nil,
        language: String = Languages.undetermined, fallback: String = Languages.undetermined,
        metrics: TextMetrics = .estimate, sink: EventSink
    ) {
        self.config = config
        self.size = size
        self.sink = sink
        self.images = images
        self.imagePaths = imagePaths ?? config.imagePaths
        var delegates: [TraceDelegate] = []
        let view = ScrollView(bounds: size)
        config.options.apply(to: view)
        var pages: [ScrollView] = []
        var scrollScale = 1.0
        var list: ListState?
        switch config.type {
        case .video:
            // Its poster (or the screen, without one), fitted and still.
            let fit = Self.fitScale(images.first?.size ?? size, in: size)
            view.minimumZoomScale = fit
            view.maximumZoomScale = fit
            view.centersContent = true
            delegates.append(TraceDelegate(id: config.id, sink: sink, zoomingSize: images.first?.size ?? size))
        case .zoom:
            let image = images[0].size
            let fit = Self.fitScale(image, in: size)
            let minimum: Double
            switch config.minZoom {
            case .fit: minimum = fit
            case .scale(let s): minimum = s
            }
            view.minimumZoomScale = minimum
            view.maximumZoomScale = max(minimum, config.maxZoom ?? max(1, minimum))
            view.centersContent = true
            delegates.append(TraceDelegate(id: config.id, sink: sink, zoomingSize: image))
        case .scroll:
            let image = images[0].size
            scrollScale =
                config.axis == .vertical
                ? (image.width > 0 ? size.width / image.width : 1) : (image.height > 0 ? size.height / image.height : 1)
            view.contentSize = image * scrollScale
            view.centersContent = true
            delegates.append(TraceDelegate(id: config.id, sink: sink, zoomingSize: nil))
        case .list:
            let state = ListState(
                config.list ?? ListConfig(rows: []), language: language, fallback: fallback, width: size.width,
                metrics: metrics)
            list = state
            view.contentSize = Size(width: size.width, height: state.layout.height)
            view.alwaysBounceVertical = true
            // Under the title bar, as a table under a navigation bar (adjustedContentInset).
            if config.title != nil { view.contentInset.top = WordStyle.titleBarHeight }
            delegates.append(TraceDelegate(id: config.id, sink: sink, zoomingSize: nil))
        case .carousel:
            view.isPagingEnabled = true
            view.contentSize = Size(width: size.width * Double(images.count), height: size.height)
            // Paging swipes go sideways only; the pages scroll vertically themselves.
            view.alwaysBounceVertical = false
            delegates.append(TraceDelegate(id: config.id, sink: sink, zoomingSize: nil))
            for (i, info) in images.enumerated() {
                let page = ScrollView(bounds: size)
                config.options.apply(to: page)
                page.isPagingEnabled = false
                let fit = Self.fitScale(info.size, in: size)
                page.minimumZoomScale = fit
                // A film's page does not zoom (its film is fitted to the page).
                let film = i < config.pageVideos.count && config.pageVideos[i] != nil
                page.maximumZoomScale = film ? fit : fit * max(1, config.maxZoom ?? 1)
                page.centersContent = true
                let d = TraceDelegate(id: "\(config.id)/page/\(i)", sink: sink, zoomingSize: info.size)
                delegates.append(d)
                page.delegate = d
                pages.append(page)
            }
        }
        view.delegate = delegates[0]
        self.view = view
        self.pages = pages
        self.scrollScale = scrollScale
        self.list = list
        self.delegates = delegates
        controller = GestureController(scrollView: view)
        if list != nil { controller.control = { [unowned self] e in self.indexTouch(e) } }
        controller.pages = pages
        if let d = config.doubleTapZoom {
            controller.doubleTapZoomScale = config.type == .carousel ? d * Self.fitScale(images[0].size, in: size) : d
        }
        layOut(language: language)
        view.scrollsToTop = isDocument
        reset()
    }

    /// A scroll or list scene: a document read from its top, as a UIKit text or table view. Its view scrolls to
    /// the top at a tap on the title bar (`scrollsToTop`, false on the others) and flashes its indicators when
    /// the scene appears.
    var isDocument: Bool { config.type == .scroll || config.type == .list }

    /// The visitor's language now `language`: a list is laid out again in it, and the views take its direction
    /// and the chrome's room (`layOut`).
    func relayout(language: String) {
        list?.relayout(language: language)
        layOut(language: language)
    }

    /// The views in `language`'s direction, their vertical indicators clear of the chrome as UIKit's
    /// (`verticalScrollIndicatorInsets`, which UIKit adjusts by a navigation bar's height): below the title
    /// bar, beside a list's index, on the leading edge in a right-to-left language.
    func layOut(language: String) {
        let rightToLeft = Languages.isRightToLeft(language)
        if rightToLeft != isRightToLeft, let page = currentPage {
            // The visitor stays on their page: it moves to the other side.
            isRightToLeft = rightToLeft
            view.setContentOffset(
                Point(x: view.pageOffset(pagePosition(page), .horizontal), y: view.contentOffset.y), animated: false)
        }
        isRightToLeft = rightToLeft
        controller.pages = rightToLeft ? pages.reversed() : pages
        var insets = EdgeInsets.zero
        if config.title != nil { insets.top = WordStyle.titleBarHeight }
        if list?.indexStrip(size: size, top: 0) != nil {
            if rightToLeft { insets.left = ListStyle.indexWidth } else { insets.right = ListStyle.indexWidth }
        }
        for v in [view] + pages {
            v.semanticContentAttribute = rightToLeft ? .forceRightToLeft : .forceLeftToRight
            v.verticalScrollIndicatorInsets = insets
        }
    }

    /// Shows other files of the same sizes in place (another language's images), its views as they are; false
    /// (nothing changed) when a size differs, and the scene must be laid out again.
    func showImages(_ new: [ImageInfo], paths: [String]) -> Bool {
        guard new.count == images.count, zip(new, images).allSatisfy({ $0.size == $1.size }) else { return false }
        images = new
        imagePaths = paths
        return true
    }

    static func fitScale(_ image: Size, in size: Size) -> Double {
        guard image.width > 0, image.height > 0 else { return 1 }
        return min(size.width / image.width, size.height / image.height)
    }

    /// Every view back to the scene's opening state: the minimum zoom, the content centred (a zoom scene) or
    /// at its start, the first page. Animated (an idle reset) or at once (opening the scene).
    public func reset(animated: Bool = false) {
        isDrifting = false
        film = SceneFilm()
        list?.highlighted = nil
        pulse = nil
        for v in [view] + pages {
            if animated && v.canZoom && v.zoomScale != v.minimumZoomScale {
                // One animation: zooming out to the minimum also brings the content back within its limits.
                v.setZoomScale(v.minimumZoomScale, animated: true)
                continue
            }
            // Every view that shows an image takes its scale, zoomable or not (a page that does not zoom is
            // still fitted to the screen).
            if v.delegate?.viewForZooming(in: v) != nil { v.setZoomScale(v.minimumZoomScale, animated: false) }
            var start = Point(x: v.offsetLimits(.horizontal).lowerBound, y: v.offsetLimits(.vertical).lowerBound)
            if v === view && config.type == .carousel { start.x = view.pageOffset(pagePosition(0), .horizontal) }
            v.setContentOffset(start, animated: animated)
        }
    }

    /// The views of the trace, keyed as docs/event-log-and-trace.md says: the scene's id, and `<scene>/page/<n>`.
    var tracedViews: [(id: String, view: ScrollView)] {
        [(config.id, view)] + pages.enumerated().map { ("\(config.id)/page/\($0.offset)", $0.element) }
    }

    /// The scale from image pixels to points of the image's view (`zoomScale`, or a scroll scene's fit).
    func imageScale(_ v: ScrollView) -> Double { config.type == .scroll ? scrollScale : v.zoomScale }

    /// What a tap at a point of the scene is for: a hotspot's id, or a list's row's.
    public func target(at p: Point) -> String? {
        config.type == .list ? row(at: p)?.id : hotspot(at: p)?.id
    }

    /// What a tap on target `id` (`target(at:)`) is.
    public enum Tap {
        case hotspot(Hotspot)
        case row(ListRow)
    }

    public func tap(_ id: String) -> Tap? {
        if let list { return list.config.rows.first { $0.id == id }.map(Tap.row) }
        return config.hotspots.first { $0.id == id }.map(Tap.hotspot)
    }

    /// The hotspot under a point of the scene, if any.
    public func hotspot(at p: Point) -> Hotspot? {
        guard let (page, imagePoint) = picturePoint(at: p) else { return nil }
        return config.hotspots.first { h in (config.type != .carousel || h.page == page) && h.rect.contains(imagePoint)
        }
    }

    /// Where a point of the scene is on its picture (a carousel's page under it), in image pixels.
    func picturePoint(at p: Point) -> (page: Int, point: Point)? {
        let (page, view, origin) = imageView(at: p)
        let scale = imageScale(view)
        guard scale > 0 else { return nil }
        return (page, (p - origin + view.contentOffset) / scale)
    }

    /// A point of the scene as a point of its picture, on a zoom, scroll or carousel scene whose picture loaded
    /// (where a touch is counted and a hotspot can be drawn), with the picture's page.
    func loadedPicturePoint(at p: Point) -> (page: Int, point: Point)? {
        guard [.zoom, .scroll, .carousel].contains(config.type), let (page, point) = picturePoint(at: p),
            page < images.count, images[page].loaded
        else { return nil }
        return (page, point)
    }

    /// Where page `page`'s picture lies on the scene now: its top-left (scene points) and points per pixel.
    func placement(page: Int) -> (origin: Point, scale: Double)? {
        if config.type == .carousel {
            guard page < pages.count, page == currentPage else { return nil }
            let v = pages[page]
            return (pageOrigin(page) - v.contentOffset, imageScale(v))
        }
        return (Point.zero - view.contentOffset, imageScale(view))
    }

    /// A touch-down at a point of the scene as `TouchGrid` counts it: the picture's key (a zoom or scroll scene's
    /// id, a carousel page's `id/page`), the point on it and its size; nil off a picture (a list, a film).
    func pictureTouch(at p: Point) -> TraceEvent.Kind? {
        guard let (page, point) = loadedPicturePoint(at: p) else { return nil }
        let key = config.type == .carousel ? "\(config.id)/\(page)" : config.id
        return .pictureTouched(picture: key, point: point, image: images[page].size)
    }

    /// Where a hotspot is on screen now (scene points), or nil when its page is not the one shown.
    /// Where overlay `o` of a zoom or scroll scene is now, in scene points.
    func frame(of o: Overlay) -> Rect {
        let s = imageScale(view)
        return Rect(
            x: o.rect.minX * s - view.contentOffset.x, y: o.rect.minY * s - view.contentOffset.y,
            width: o.rect.width * s, height: o.rect.height * s)
    }

    public func frame(of h: Hotspot) -> Rect? {
        guard let (origin, s) = placement(page: h.page) else { return nil }
        return Rect(
            x: origin.x + h.rect.minX * s, y: origin.y + h.rect.minY * s, width: h.rect.width * s,
            height: h.rect.height * s)
    }

    /// The view showing the image under `p`, the image's index and the view's origin in scene points.
    func imageView(at p: Point) -> (Int, ScrollView, Point) {
        guard !pages.isEmpty, size.width > 0 else { return (0, view, .zero) }
        let x = ((view.contentOffset.x + p.x) / size.width).rounded(.down)
        let i = pagePosition(Int(x.isFinite ? min(max(x, 0), Double(pages.count - 1)) : 0))
        return (i, pages[i], pageOrigin(i))
    }

    /// The page of a carousel, else nil.
    public var currentPage: Int? { config.type == .carousel ? view.currentPage.map(pagePosition) : nil }

    /// Where a carousel's page `i` lies in its paging view, counted from the left: `i`, or from the right in a
    /// right-to-left layout. (Its own inverse: it also says which page lies at a place.)
    func pagePosition(_ i: Int) -> Int { isRightToLeft ? pages.count - 1 - i : i }

    /// The top-left of a carousel's page `i` on screen now.
    func pageOrigin(_ i: Int) -> Point {
        Point(x: Double(pagePosition(i)) * size.width - view.contentOffset.x, y: 0)
    }

    /// The images the scene shows now or a swipe away: a carousel's page and those beside it; every image of
    /// the other kinds.
    var nearbyImagePaths: [String] {
        guard let page = currentPage else { return imagePaths }
        return imagePaths.indices.filter { abs($0 - page) <= 1 }.map { imagePaths[$0] }
    }

    public var isAtRest: Bool { ([view] + pages).allSatisfy(\.isAtRest) && controller.isIdle && pulse == nil }
}
