import ScrollEngine

/// One tile of an image pyramid.
public struct TileKey: Hashable, Sendable, CustomStringConvertible {
    public var image: Int
    public var level: Int
    public var column: Int
    public var row: Int
    public init(image: Int, level: Int, column: Int, row: Int) {
        self.image = image
        self.level = level
        self.column = column
        self.row = row
    }
    public var description: String { "\(image)/\(level)/\(column)_\(row)" }
}

/// Which tiles to draw, at which level, and what stands in for the ones not loaded yet: pure functions of the
/// pyramid, the visible part of the image and the scale.
enum TileSelection {
    /// The level whose resolution is the least that is at least the screen's: `scale` points per image pixel.
    /// Zoomed far out this is a small level, so nothing aliases.
    public static func level(for scale: Double, in image: DeepZoomImage) -> Int {
        guard scale > 0, scale.isFinite else { return image.maxLevel }
        var level = image.maxLevel
        // Go down while the next level still has at least one level pixel per screen point.
        while level > 0 && scale * Double(1 << (image.maxLevel - level + 1)) <= 1 + 1e-9 { level -= 1 }
        return level
    }

    /// The tiles of `level` that intersect `visible` (a rectangle of full-resolution image pixels).
    public static func tiles(level: Int, visible: Rect, in image: DeepZoomImage) -> [(column: Int, row: Int)] {
        let f = Double(1 << (image.maxLevel - level))
        let grid = image.tiles(level: level)
        let t = Double(image.tileSize)
        let c0 = max(0, Int((visible.minX / f / t).rounded(.down)))
        let r0 = max(0, Int((visible.minY / f / t).rounded(.down)))
        let c1 = min(grid.columns - 1, Int((visible.maxX / f / t).rounded(.up)) - 1)
        let r1 = min(grid.rows - 1, Int((visible.maxY / f / t).rounded(.up)) - 1)
        guard c0 <= c1, r0 <= r1, visible.width > 0, visible.height > 0 else { return [] }
        var out: [(Int, Int)] = []
        out.reserveCapacity((c1 - c0 + 1) * (r1 - r0 + 1))
        for r in r0...r1 { for c in c0...c1 { out.append((c, r)) } }
        return out
    }

    /// The part of the full-resolution image that tile (column, row) of `level` owns (its core, without the
    /// overlap it shares with its neighbours), clipped to the image.
    public static func coreRect(level: Int, column: Int, row: Int, in image: DeepZoomImage) -> Rect {
        let f = Double(1 << (image.maxLevel - level))
        let s = image.size(level: level)
        let t = image.tileSize
        let x0 = column * t
        let y0 = row * t
        let x1 = min(s.width, x0 + t)
        let y1 = min(s.height, y0 + t)
        // A level's last pixel may stand for less than f image pixels: clip to the image.
        let rect = Rect(x: Double(x0) * f, y: Double(y0) * f, width: Double(x1 - x0) * f, height: Double(y1 - y0) * f)
        return intersection(rect, Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
    }

    /// The pixels of the tile's stored bitmap that show `imageRect` (full-resolution image pixels).
    public static func sourceRect(_ imageRect: Rect, level: Int, column: Int, row: Int, in image: DeepZoomImage) -> Rect
    {
        let f = Double(1 << (image.maxLevel - level))
        let stored = image.storedRect(level: level, column: column, row: row)
        return Rect(
            x: imageRect.minX / f - Double(stored.x), y: imageRect.minY / f - Double(stored.y),
            width: imageRect.width / f,
            height: imageRect.height / f)
    }

    /// The tile of a lower `level` that contains the core of tile (column, row) of `from` (or its top-left part).
    public static func ancestor(level: Int, column: Int, row: Int, from: Int) -> (column: Int, row: Int) {
        let shift = from - level
        return (column >> shift, row >> shift)
    }
}

/// One frame's plan for a pyramid image: the tiles drawn, each with the image rectangle it covers.
struct TilePlan: Equatable, Sendable {
    struct Draw: Equatable, Sendable {
        public var tile: TileKey
        /// Full-resolution image pixels this draw covers.
        var imageRect: Rect
        /// Below 1 while a newly arrived tile blends in over its stand-in (drawn just before it).
        public var opacity: Double = 1
    }
    public var level: Int
    public var draws: [Draw]
    /// Tiles at the wanted level that are missing (to be requested), nearest the centre first.
    public var missing: [TileKey]
}

extension TileSelection {
    /// Plans a frame: every visible tile of the wanted level that is loaded; for each one that is not, the
    /// best loaded lower level stands in for its area (never a hole: `isLoaded` must hold for level 0's tile,
    /// which the owner keeps). Each image pixel is drawn once.
    public static func plan(
        image index: Int, pyramid: DeepZoomImage, visible: Rect, scale: Double, isLoaded: (TileKey) -> Bool,
        opacity: (TileKey) -> Double = { _ in 1 }
    ) -> TilePlan {
        let level = level(for: scale, in: pyramid)
        var draws: [TilePlan.Draw] = []
        var missing: [TileKey] = []
        let centre = Point(x: visible.midX, y: visible.midY)
        for (c, r) in tiles(level: level, visible: visible, in: pyramid) {
            let key = TileKey(image: index, level: level, column: c, row: r)
            let core = intersection(coreRect(level: level, column: c, row: r, in: pyramid), visible)
            guard core.width > 0, core.height > 0 else { continue }
            let alpha = isLoaded(key) ? opacity(key) : 0
            if alpha >= 1 {
                draws.append(.init(tile: key, imageRect: core))
                continue
            }
            if alpha <= 0 { missing.append(key) }
            var fallback = level - 1
            while fallback >= 0 {
                let a = ancestor(level: fallback, column: c, row: r, from: level)
                let k = TileKey(image: index, level: fallback, column: a.column, row: a.row)
                if isLoaded(k) || fallback == 0 {
                    draws.append(.init(tile: k, imageRect: core))
                    break
                }
                fallback -= 1
            }
            if alpha > 0 { draws.append(.init(tile: key, imageRect: core, opacity: alpha)) }
        }
        missing.sort { a, b in
            let ca = coreRect(level: a.level, column: a.column, row: a.row, in: pyramid)
            let cb = coreRect(level: b.level, column: b.column, row: b.row, in: pyramid)
            return hypot2(Point(x: ca.midX, y: ca.midY) - centre) < hypot2(Point(x: cb.midX, y: cb.midY) - centre)
        }
        return TilePlan(level: level, draws: draws, missing: missing)
    }

    static func hypot2(_ p: Point) -> Double { p.x * p.x + p.y * p.y }
}
