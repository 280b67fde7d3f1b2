import ScrollEngine

/// What `kiosk --edit` draws over the frame, in scene points: the grid of the picture's coordinates, the
/// rectangle being drawn with its numbers, and the check's problems along the bottom.
extension ContentEditor {
    /// How the editor's drawing looks (our choices: a magenta that few pictures have, on a dark plate).
    enum Look {
        static let line = Color(red: 1, green: 0.2, blue: 0.75, alpha: 0.8)
        static let rectangleFill = Color(red: 1, green: 0.2, blue: 0.75, alpha: 0.2)
        static let plate = Color(red: 0.1, green: 0.1, blue: 0.12, alpha: 0.85)
        static let banner = Color(red: 0.6, green: 0.05, blue: 0.1, alpha: 1)
        static let textSize = 16.0
        static let lineHeight = 26.0
        static let margin = 12.0
        /// Grid lines are at least this far apart on screen: a round number of pixels of the picture.
        static let gridSpacing = 90.0
        /// The banner names this many problems, then how many more there are.
        static let bannerLines = 4
    }

    /// The commands drawn over the frame of `app`.
    public func overlay(app: KioskApp) -> [DrawCommand] {
        let scene = app.scene
        var out: [DrawCommand] = []
        if showsGrid, let page = scene.editablePage, let (origin, scale) = scene.placement(page: page) {
            // Below the title bar, whose words the labels would cover.
            let top = scene.config.title != nil ? WordStyle.titleBarHeight : 0
            out += Self.grid(
                origin: origin, scale: scale, image: scene.imageSize(page: page), screen: app.sceneSize, top: top)
        }
        if let d = drag, let (origin, scale) = scene.placement(page: d.page),
            let rect = Self.pixelRect(from: d.from, to: d.to, image: scene.imageSize(page: d.page))
        {
            out += Self.rectangle(rect, origin: origin, scale: scale)
        }
        out += banner(width: app.sceneSize.width, bottom: app.sceneSize.height)
        return out
    }

    /// The check's problems along the bottom of the screen, or nothing when there are none.
    func banner(width: Double, bottom: Double) -> [DrawCommand] {
        guard !problems.isEmpty else { return [] }
        var lines = Array(problems.prefix(Look.bannerLines))
        if problems.count > lines.count { lines.append("… and \(problems.count - lines.count) more (kiosk --check)") }
        let height = Double(lines.count) * Look.lineHeight + Look.margin
        let top = bottom - height
        var out: [DrawCommand] = [.fill(Rect(x: 0, y: top, width: width, height: height), Look.banner)]
        for (i, line) in lines.enumerated() {
            out.append(
                .text(
                    TextRun(
                        line, language: "en", size: Look.textSize, color: WordStyle.white,
                        rect: Rect(
                            x: Look.margin, y: top + Look.margin / 2 + Double(i) * Look.lineHeight,
                            width: width - 2 * Look.margin, height: Look.lineHeight), align: .start)))
        }
        return out
    }

    /// Lines every round number of the picture's pixels (1, 2 or 5 times a power of ten, at least `gridSpacing`
    /// points apart), each labelled with its coordinate at the screen's top (below `top`) or left edge.
    static func grid(origin: Point, scale: Double, image: Size, screen: Size, top: Double = 0) -> [DrawCommand] {
        guard scale > 0, image.width > 0, image.height > 0 else { return [] }
        let step = gridStep(pointsPerPixel: scale)
        var out: [DrawCommand] = []
        // The part of the screen the picture covers.
        let (minX, minY) = (max(0, origin.x), max(top, origin.y))
        let maxX = min(screen.width, origin.x + image.width * scale)
        let maxY = min(screen.height, origin.y + image.height * scale)
        for axis in [0, 1] {
            let length = axis == 0 ? image.width : image.height
            var v = step
            while v < length {
                let at = (axis == 0 ? origin.x : origin.y) + v * scale
                let inside = axis == 0 ? (minX..<maxX).contains(at) : (minY..<maxY).contains(at)
                if inside {
                    let line =
                        axis == 0
                        ? Rect(x: at, y: minY, width: 1, height: maxY - minY)
                        : Rect(x: minX, y: at, width: maxX - minX, height: 1)
                    out.append(.fill(line, Look.line))
                    let label =
                        axis == 0
                        ? Rect(x: at + 3, y: minY + 3, width: 80, height: 20)
                        : Rect(x: minX + 3, y: at + 3, width: 80, height: 20)
                    out.append(
                        .text(
                            TextRun(
                                String(Int(v)), language: "en", size: 13, color: WordStyle.white, rect: label,
                                align: .start, plate: Look.plate)))
                }
                v += step
            }
        }
        return out
    }

    /// The grid's step in the picture's pixels at `pointsPerPixel`.
    static func gridStep(pointsPerPixel scale: Double) -> Double {
        let least = Look.gridSpacing / scale
        var power = 1.0
        while power * 10 <= least { power *= 10 }
        while power > least { power /= 10 }
        for m in [1.0, 2, 5, 10] where power * m >= least { return power * m }
        return power * 10
    }

    /// The rectangle being drawn (picture pixels), outlined on screen, its numbers beside it.
    static func rectangle(_ r: Rect, origin: Point, scale: Double) -> [DrawCommand] {
        let s = Rect(
            x: origin.x + r.minX * scale, y: origin.y + r.minY * scale, width: r.width * scale,
            height: r.height * scale)
        let w = 2.0
        let numbers = "\(Int(r.minX)), \(Int(r.minY))  \(Int(r.width)) × \(Int(r.height)) px"
        return [
            .fill(s, Look.rectangleFill),
            .fill(Rect(x: s.minX, y: s.minY, width: s.width, height: w), Look.line),
            .fill(Rect(x: s.minX, y: s.maxY - w, width: s.width, height: w), Look.line),
            .fill(Rect(x: s.minX, y: s.minY, width: w, height: s.height), Look.line),
            .fill(Rect(x: s.maxX - w, y: s.minY, width: w, height: s.height), Look.line),
            .text(
                TextRun(
                    numbers, language: "en", size: 14, color: WordStyle.white,
                    rect: Rect(x: s.minX, y: s.maxY + 4, width: 240, height: 22), align: .start, plate: Look.plate)),
        ]
    }
}

extension Scene {
    /// The page whose picture the editor's grid is over: a zoom or scroll scene's one picture, a carousel's
    /// current page; nil on a scene without a picture, or before it loaded.
    var editablePage: Int? {
        guard [.zoom, .scroll, .carousel].contains(config.type) else { return nil }
        let page = currentPage ?? 0
        return page < images.count && images[page].loaded ? page : nil
    }
}
