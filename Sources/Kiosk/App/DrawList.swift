import ScrollEngine

/// What a frame draws, as plain values: the renderer executes them, tests read them, the benchmark replays them.
public enum DrawCommand: Equatable, Sendable {
    /// Part of image `image` (an index into the scene's images), `source` in pixels, onto `destination` in points.
    case image(image: Int, source: Rect, destination: Rect)
    /// Part of a pyramid tile: `source` in the pixels of the tile's stored bitmap, onto `destination` in points.
    case tile(TileKey, source: Rect, destination: Rect, opacity: Double)
    /// An image that could not be loaded: a placeholder fills `destination`.
    case placeholder(destination: Rect)
    case fill(Rect, Color)
    case dot(center: Point, radius: Double, Color)
    /// The home button (drawn by the renderer: a disc with a house).
    case homeButton(Rect)
    /// Words (a title, a label, a caption, the language button's name), shaped and drawn by the renderer.
    case text(TextRun)
    /// A list row's thumbnail: the image at `path` shrunk to fit `destination` (a square), decoded off the frame
    /// loop by the renderer, which draws a placeholder while it loads or when it does not decode.
    case thumbnail(path: String, destination: Rect)
    /// The manifest's background under `rect`: only where no opaque picture covers the screen, so no pixel is
    /// cleared and then painted over. Comes before everything else in a list.
    case background(Rect)
    /// A video scene's film at its time (docs/video.md): decoded and drawn by the host over the poster, fitted to
    /// `box`.
    case video(VideoShot)
    /// One picture (a scene's image) and the commands that draw its visible part: a renderer may draw them, or
    /// draw the picture from pixels it kept at this scale (`Scene.pictureCommands` draws any part of it).
    indirect case picture(Picture, [DrawCommand])
}

/// A video as a frame shows it: the file, where it fits (scene points), how, how long it has played (seconds on
/// its own timeline, which runs on across loops), and its playback's number (a new one plays from the start).
public struct VideoShot: Equatable, Sendable {
    public var path: String
    public var box: Rect
    public var fit: VideoFit
    public var time: Double
    public var session: Int
    public var loops: Bool
    /// Paused by the visitor: the frame at `time` stays, and the host has nothing to wake for.
    public var paused = false
    /// Its sound is played (`"sound": true`).
    public var sound = false
}

/// Where a frame shows one of its scene's images.
public struct Picture: Equatable, Sendable {
    /// The image's index in the scene (a carousel's page).
    public var index: Int
    /// The whole image at its scale, in scene points (mostly off screen when zoomed in).
    public var frame: Rect
    /// What of the scene the picture may cover (the screen, or its page).
    public var clip: Rect
    /// Points per image pixel.
    public var scale: Double
    /// Whether it has no transparent pixels.
    public var isOpaque: Bool
    /// The words on it (a zoom or scroll scene's overlays), in points of the picture placed at the origin: they
    /// zoom with it, and a renderer that keeps the picture at its scale keeps them in it, so a pan copies them
    /// with its pixels instead of blending every text again each frame.
    public var words: [TextRun] = []
}

extension DrawCommand {
    /// The commands a renderer runs when it keeps nothing: pictures replaced by their commands.
    public var flattened: [DrawCommand] {
        if case .picture(_, let inner) = self { return inner.flatMap(\.flattened) }
        return [self]
    }
}

/// What the drawing of a frame asks of the tile store: which tiles are loaded, and in return the tiles it
/// wanted but did not have (nearest the centre first) and those the current motion will need.
public struct TileQuery {
    /// Whether a tile can be drawn this frame: a lookup of what the store holds, never a load (the tiles a list
    /// missed come back in `missing`; the host loads them, or loads those at hand and makes the list again).
    public var isLoaded: (TileKey) -> Bool
    /// A loaded tile's opacity (below 1 while it blends in).
    public var opacity: (TileKey) -> Double = { _ in 1 }
    public var missing: [TileKey] = []
    public var prefetch: [TileKey] = []
    public init(isLoaded: @escaping (TileKey) -> Bool) { self.isLoaded = isLoaded }
    /// Every tile counts as loaded (for draw lists without a store).
    public static var everything: TileQuery { TileQuery { _ in true } }
}

extension Scene {
    /// The frame's commands for this scene: the background where no opaque picture covers it, then the pictures.
    public func drawList() -> [DrawCommand] {
        var query = TileQuery.everything
        return drawList(tiles: &query)
    }

    /// The frame's commands, pyramid images drawn from the tiles `tiles` has, the picture's overlays in
    /// `language` (`fallback`: the manifest's first), grown by `textGrowth` (larger text's).
    public func drawList(
        tiles: inout TileQuery, language: String = Languages.undetermined, fallback: String = Languages.undetermined,
        textGrowth: Double = 1
    ) -> [DrawCommand] {
        var out: [DrawCommand] = []
        let screen = Rect(origin: .zero, size: size)
        switch config.type {
        case .zoom, .scroll:
            appendImage(
                0, view: view, origin: .zero, clip: screen,
                words: overlayRuns(language: language, fallback: fallback, textGrowth: textGrowth), tiles: &tiles,
                to: &out)
            appendIndicators(view, origin: .zero, to: &out)
        case .list:
            appendList(to: &out)
        case .video:
            // The poster, under the film until its first frame (the film is the host's: `DrawCommand.video`).
            if images.isEmpty {
                out.append(.background(screen))
            } else {
                appendImage(0, view: view, origin: .zero, clip: screen, tiles: &tiles, to: &out)
            }
        case .carousel:
            // Beyond the first or the last page (a bounce) there is only the background.
            let strip = Rect(
                x: -view.contentOffset.x, y: 0, width: size.width * Double(pages.count), height: size.height)
            for r in subtract(strip, from: screen) { out.append(.background(r)) }
            for (i, page) in pages.enumerated() {
                let origin = pageOrigin(i)
                guard origin.x < size.width, origin.x + size.width > 0 else { continue }
                let clip = intersection(screen, Rect(origin: origin, size: size))
                appendImage(i, view: page, origin: origin, clip: clip, tiles: &tiles, to: &out)
                appendIndicators(page, origin: origin, to: &out)
            }
        }
        return out
    }

    /// The visible part of image `index` shown by `v` whose top-left is at `origin`, clipped to `clip`.
    func appendImage(
        _ index: Int, view v: ScrollView, origin: Point, clip: Rect, words: [TextRun] = [], tiles: inout TileQuery,
        to out: inout [DrawCommand]
    ) {
        let info = images[index]
        let scale = imageScale(v)
        guard scale > 0 else { return }
        let full = Rect(
            origin: origin - v.contentOffset,
            size: Size(width: info.size.width * scale, height: info.size.height * scale))
        let visible = intersection(full, clip)
        for r in subtract(visible, from: clip) { out.insert(.background(r), at: 0) }
        guard visible.width > 0, visible.height > 0 else { return }
        if info.loaded && !info.isOpaque { out.insert(.background(visible), at: 0) }
        guard info.loaded else {
            out.append(.placeholder(destination: visible))
            return
        }
        let picture = Picture(
            index: index, frame: full, clip: clip, scale: scale, isOpaque: info.isOpaque, words: words)
        let commands =
            pictureCommands(
                index, full: full, visible: visible, scale: scale,
                moving: v.isZoomChanging || (isDrifting && v === view), tiles: &tiles)
            + Self.words(words, at: full.origin, within: visible)
        out.append(.picture(picture, commands))
        guard let pyramid = info.pyramid else { return }
        // Where a fling or an animation is heading: its tiles are asked for ahead of time.
        let rest = v.restingContentOffset
        guard rest != v.contentOffset else { return }
        let ahead = Rect(origin: origin - rest, size: full.size)
        let seen = intersection(ahead, clip)
        guard seen.width > 0, seen.height > 0 else { return }
        let plan = TileSelection.plan(
            image: info.id, pyramid: pyramid, visible: imageRect(seen, full: ahead, scale: scale), scale: scale,
            isLoaded: { _ in false })
        tiles.prefetch += plan.missing
    }

    /// What draws `visible` (scene points) of image `index` placed at `full`, `scale` points per pixel. While
    /// the zoom is `moving` a pyramid is drawn from the level of half the resolution (at most two screen pixels
    /// a level pixel): the motion hides it, and a pinch does not load, for a few frames, tiles of a resolution
    /// it is about to leave (the finer level follows once the zoom holds still, as CATiledLayer does).
    func pictureCommands(
        _ index: Int, full: Rect, visible: Rect, scale: Double, moving: Bool = false, tiles: inout TileQuery
    ) -> [DrawCommand] {
        let info = images[index]
        guard let pyramid = info.pyramid else {
            return [.image(image: index, source: imageRect(visible, full: full, scale: scale), destination: visible)]
        }
        var out: [DrawCommand] = []
        appendTiles(
            info.id, pyramid, full: full, visible: visible, scale: scale, levelScale: moving ? scale / 2 : scale,
            tiles: &tiles, to: &out)
        return out
    }

    /// What draws `region` of `picture` (in points of the picture placed at the origin), for a renderer that
    /// keeps pictures at their scale: the same commands a frame would have, moved.
    public func pictureCommands(_ picture: Picture, region: Rect, tiles: inout TileQuery) -> [DrawCommand] {
        guard picture.index < images.count, images[picture.index].loaded else { return [] }
        let full = Rect(origin: .zero, size: picture.frame.size)
        let visible = intersection(full, region)
        guard visible.width > 0, visible.height > 0 else { return [] }
        return pictureCommands(picture.index, full: full, visible: visible, scale: picture.scale, tiles: &tiles)
            + Self.words(picture.words, at: .zero, within: visible)
    }

    /// A picture's words placed with its top-left at `origin`, those that reach into `visible`.
    static func words(_ runs: [TextRun], at origin: Point, within visible: Rect) -> [DrawCommand] {
        runs.compactMap { run in
            var run = run
            run.rect.origin = run.rect.origin + origin
            return run.rect.intersects(visible) ? .text(run) : nil
        }
    }

    /// The image pixels that `rect` (points) shows of an image drawn at `full`.
    func imageRect(_ rect: Rect, full: Rect, scale: Double) -> Rect {
        Rect(
            x: (rect.minX - full.minX) / scale, y: (rect.minY - full.minY) / scale, width: rect.width / scale,
            height: rect.height / scale)
    }

    /// A pyramid image: the visible tiles of the level the scale wants, lower levels standing in for missing ones.
    func appendTiles(
        _ id: Int, _ pyramid: DeepZoomImage, full: Rect, visible: Rect, scale: Double, levelScale: Double,
        tiles: inout TileQuery, to out: inout [DrawCommand]
    ) {
        let plan = TileSelection.plan(
            image: id, pyramid: pyramid, visible: imageRect(visible, full: full, scale: scale), scale: levelScale,
            isLoaded: tiles.isLoaded, opacity: tiles.opacity)
        for d in plan.draws {
            let destination = Rect(
                x: full.minX + d.imageRect.minX * scale, y: full.minY + d.imageRect.minY * scale,
                width: d.imageRect.width * scale, height: d.imageRect.height * scale)
            let source = TileSelection.sourceRect(
                d.imageRect, level: d.tile.level, column: d.tile.column, row: d.tile.row, in: pyramid)
            out.append(.tile(d.tile, source: source, destination: destination, opacity: d.opacity))
        }
        tiles.missing += plan.missing
    }

    func appendIndicators(_ v: ScrollView, origin: Point, to out: inout [DrawCommand]) {
        for indicator in [v.horizontalIndicator, v.verticalIndicator] {
            guard let indicator, indicator.alpha > 0 else { continue }
            var frame = indicator.frame
            frame.origin = frame.origin + origin
            let style = v.indicatorStyle
            if let border = style.borderColor {
                var c = border
                c.alpha *= indicator.alpha
                out.append(
                    .fill(
                        Rect(x: frame.minX - 1, y: frame.minY - 1, width: frame.width + 2, height: frame.height + 2), c)
                )
            }
            var fill = style.fillColor
            fill.alpha *= indicator.alpha
            out.append(.fill(frame, fill))
        }
    }

    /// The page control (nil without one): its dots and room beside them, centred at the bottom, as tall as a
    /// finger needs (`PageControlStyle.height`), as UIPageControl sizes itself to its dots.
    var pageControlFrame: Rect? {
        guard config.type == .carousel, config.pageControl, pages.count > 1 else { return nil }
        let width = Double(pages.count) * PageControlStyle.spacing + 2 * PageControlStyle.padding
        let h = PageControlStyle.height
        return Rect(
            x: size.width / 2 - width / 2, y: size.height - PageControlStyle.bottomMargin - h / 2, width: width,
            height: h)
    }

    /// The middle of page `i`'s dot, across: the dots in the pages' order (right to left in a right-to-left
    /// layout, as UIPageControl's).
    func pageDotX(_ i: Int) -> Double {
        let spacing = PageControlStyle.spacing
        return size.width / 2 - Double(pages.count) * spacing / 2 + spacing * (Double(pagePosition(i)) + 0.5)
    }

    /// The current page's dot, across (nil without a page control).
    var currentPageDotX: Double? { pageControlFrame.map { _ in pageDotX(currentPage ?? 0) } }

    /// iOS' page control: white dots, the current one opaque, on the chrome's material (UIPageControl's
    /// prominent background).
    func appendPageDots(to out: inout [DrawCommand]) {
        guard let frame = pageControlFrame else { return }
        let pill = Rect(
            x: frame.minX + PageControlStyle.padding / 2, y: frame.midY - PageControlStyle.spacing / 2 - 2,
            width: frame.width - PageControlStyle.padding, height: PageControlStyle.spacing + 4)
        out.append(.fill(pill, ChromeStyle.bar))
        let current = currentPage ?? 0
        for i in 0..<pages.count {
            let alpha = i == current ? 1.0 : 0.4
            out.append(
                .dot(
                    center: Point(x: pageDotX(i), y: frame.midY), radius: PageControlStyle.radius,
                    Color(red: 1, green: 1, blue: 1, alpha: alpha)))
        }
    }
}

/// iOS' UIPageControl measured from screenshots: 7 pt dots 16 pt apart, above the bottom edge.
enum PageControlStyle {
    static let radius = 4.0
    static let spacing = 18.0
    static let bottomMargin = 36.0
    /// Its touch area: 24 points beside the end dots, and 52 points tall (Apple's HIG asks 44 points at least;
    /// 15 mm is 48.2 points on a 27-inch 1080p panel).
    static let padding = 24.0
    static let height = 52.0
}

/// What of `outer` lies outside `inner`: up to four rectangles (above, below, left, right).
func subtract(_ inner: Rect, from outer: Rect) -> [Rect] {
    let i = intersection(inner, outer)
    guard i.width > 0, i.height > 0 else { return outer.width > 0 && outer.height > 0 ? [outer] : [] }
    let parts = [
        Rect(x: outer.minX, y: outer.minY, width: outer.width, height: i.minY - outer.minY),
        Rect(x: outer.minX, y: i.maxY, width: outer.width, height: outer.maxY - i.maxY),
        Rect(x: outer.minX, y: i.minY, width: i.minX - outer.minX, height: i.height),
        Rect(x: i.maxX, y: i.minY, width: outer.maxX - i.maxX, height: i.height),
    ]
    return parts.filter { $0.width > 0 && $0.height > 0 }
}

/// What `a` and `b` have in common (an empty rectangle where they do not meet).
public func intersection(_ a: Rect, _ b: Rect) -> Rect {
    let x0 = max(a.minX, b.minX)
    let y0 = max(a.minY, b.minY)
    let x1 = min(a.maxX, b.maxX)
    let y1 = min(a.maxY, b.maxY)
    return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
}
