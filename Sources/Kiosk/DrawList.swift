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
}

/// What the drawing of a frame asks of the tile store: which tiles are loaded, and in return the tiles it
/// wanted but did not have (nearest the centre first) and those the current motion will need.
public struct TileQuery {
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
    /// The frame's commands for this scene (without the background, which the renderer clears to).
    public func drawList() -> [DrawCommand] {
        var query = TileQuery.everything
        return drawList(tiles: &query)
    }

    /// The frame's commands, pyramid images drawn from the tiles `tiles` has.
    public func drawList(tiles: inout TileQuery) -> [DrawCommand] {
        var out: [DrawCommand] = []
        let screen = Rect(origin: .zero, size: size)
        switch config.type {
        case .zoom, .scroll:
            appendImage(0, view: view, origin: .zero, clip: screen, tiles: &tiles, to: &out)
            appendIndicators(view, origin: .zero, to: &out)
        case .carousel:
            for (i, page) in pages.enumerated() {
                let origin = Point(x: Double(i) * size.width - view.contentOffset.x, y: 0)
                guard origin.x < size.width, origin.x + size.width > 0 else { continue }
                let clip = intersection(screen, Rect(origin: origin, size: size))
                appendImage(i, view: page, origin: origin, clip: clip, tiles: &tiles, to: &out)
                appendIndicators(page, origin: origin, to: &out)
            }
            if config.pageControl && pages.count > 1 { appendPageDots(to: &out) }
        }
        return out
    }

    /// The visible part of image `index` shown by `v` whose top-left is at `origin`, clipped to `clip`.
    func appendImage(
        _ index: Int, view v: ScrollView, origin: Point, clip: Rect, tiles: inout TileQuery, to out: inout [DrawCommand]
    ) {
        let info = images[index]
        let scale = imageScale(v)
        guard scale > 0 else { return }
        let full = Rect(
            origin: origin - v.contentOffset,
            size: Size(width: info.size.width * scale, height: info.size.height * scale))
        let visible = intersection(full, clip)
        guard visible.width > 0, visible.height > 0 else { return }
        guard info.loaded else {
            out.append(.placeholder(destination: visible))
            return
        }
        guard let pyramid = info.pyramid else {
            out.append(.image(image: index, source: imageRect(visible, full: full, scale: scale), destination: visible))
            return
        }
        appendTiles(info.id, pyramid, full: full, visible: visible, scale: scale, tiles: &tiles, to: &out)
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

    /// The image pixels that `rect` (points) shows of an image drawn at `full`.
    func imageRect(_ rect: Rect, full: Rect, scale: Double) -> Rect {
        Rect(
            x: (rect.minX - full.minX) / scale, y: (rect.minY - full.minY) / scale, width: rect.width / scale,
            height: rect.height / scale)
    }

    /// A pyramid image: the visible tiles of the level the scale wants, lower levels standing in for missing ones.
    func appendTiles(
        _ id: Int, _ pyramid: DeepZoomImage, full: Rect, visible: Rect, scale: Double, tiles: inout TileQuery,
        to out: inout [DrawCommand]
    ) {
        let plan = TileSelection.plan(
            image: id, pyramid: pyramid, visible: imageRect(visible, full: full, scale: scale), scale: scale,
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

    /// iOS' page control: white dots, the current one opaque, on a dark translucent pill for contrast.
    func appendPageDots(to out: inout [DrawCommand]) {
        let spacing = PageControlStyle.spacing
        let radius = PageControlStyle.radius
        let n = Double(pages.count)
        let width = n * spacing
        let center = Point(x: size.width / 2, y: size.height - PageControlStyle.bottomMargin)
        out.append(
            .fill(
                Rect(
                    x: center.x - width / 2 - radius, y: center.y - spacing / 2 - 2, width: width + 2 * radius,
                    height: spacing + 4),
                Color(red: 0, green: 0, blue: 0, alpha: 0.3)))
        let current = view.currentPage ?? 0
        for i in 0..<pages.count {
            let x = center.x - width / 2 + spacing * (Double(i) + 0.5)
            let alpha = i == current ? 1.0 : 0.4
            out.append(
                .dot(center: Point(x: x, y: center.y), radius: radius, Color(red: 1, green: 1, blue: 1, alpha: alpha)))
        }
    }
}

/// iOS' UIPageControl measured from screenshots: 7 pt dots 16 pt apart, above the bottom edge.
enum PageControlStyle {
    static let radius = 4.0
    static let spacing = 18.0
    static let bottomMargin = 36.0
}

func intersection(_ a: Rect, _ b: Rect) -> Rect {
    let x0 = max(a.minX, b.minX)
    let y0 = max(a.minY, b.minY)
    let x1 = min(a.maxX, b.maxX)
    let y1 = min(a.maxY, b.maxY)
    return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
}
