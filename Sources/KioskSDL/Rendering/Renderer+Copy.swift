import CSDL2
import Kiosk
import ScrollEngine

/// The copies of a draw list: a texture's pixels onto the target, turned, on whole pixels where the copy is
/// unscaled, and a broken image's placeholder.
extension Renderer {
    /// Whether a picture is drawn at one texture pixel per screen pixel (then keeping it gains nothing): its
    /// images, or the tiles of its finest level drawn (coarser ones only stand in for tiles on their way).
    func isUnscaled(_ commands: [DrawCommand], in context: DrawContext) -> Bool {
        let finest = commands.map { if case .tile(let key, _, _, _) = $0 { key.level } else { -1 } }.max() ?? -1
        return commands.allSatisfy { c in
            if case .tile(let key, _, _, _) = c, key.level < finest { return true }
            return isUnscaled(c, in: context)
        }
    }

    /// Whether a picture's command copies one texture pixel to one screen pixel.
    func isUnscaled(_ command: DrawCommand, in context: DrawContext) -> Bool {
        switch command {
        case .image(let index, let source, let destination):
            guard index < context.paths.count else { return false }
            let k = images.entry(context.paths[index]).scale
            return abs(destination.width / (source.width * k) - 1) < Self.unitScaleTolerance
        case .tile(_, let source, let destination, _):
            return abs(destination.width / source.width - 1) < Self.unitScaleTolerance
        default:
            return true
        }
    }

    /// Copies `source` (pixels of the texture as it was before the turn) onto `destination` (scene points).
    func copy(_ texture: OpaquePointer, source: Rect, destination: Rect, in context: DrawContext) {
        let (turned, size) = sizes(of: texture)
        let s = rotation.rect(source, in: size)
        let d = context.screen(destination)
        guard s.width > 0, s.height > 0, d.width > 0, d.height > 0 else { return }
        let fx = d.width / s.width
        let fy = d.height / s.height
        if abs(fx - 1) < Self.unitScaleTolerance && abs(fy - 1) < Self.unitScaleTolerance {
            copyUnscaled(texture, size: turned, source: s, destination: d, visible: context.visible)
        } else {
            copyScaled(texture, source: s, destination: d, in: context)
        }
    }

    /// A texture's size as stored (turned by `--rotate`), and as the picture it holds was before the turn.
    func sizes(of texture: OpaquePointer) -> (turned: Size, unturned: Size) {
        var w: Int32 = 0
        var h: Int32 = 0
        SDL_QueryTexture(texture, nil, nil, &w, &h)
        let turned = Size(width: Double(w), height: Double(h))
        return (turned, rotation.swapsAxes ? Size(width: turned.height, height: turned.width) : turned)
    }

    /// How close to one texture pixel per screen pixel a copy must be to be drawn as a plain copy.
    static let unitScaleTolerance = 1e-6

    /// One texture pixel per screen pixel: the destination's edges rounded to whole pixels (so neighbouring
    /// copies meet exactly), the source moved by the same whole number of pixels; only what lands in `visible`.
    func copyUnscaled(
        _ texture: OpaquePointer, size: Size, source s: Rect, destination d: Rect, visible v: Rect
    ) {
        let dx = (d.minX - s.minX).rounded()
        let dy = (d.minY - s.minY).rounded()
        // Whole destination pixels, kept within the texture and the visible pixels.
        let x0 = max(d.minX.rounded(), dx, v.minX.rounded(.down))
        let y0 = max(d.minY.rounded(), dy, v.minY.rounded(.down))
        let x1 = min(d.maxX.rounded(), dx + size.width, v.maxX.rounded(.up))
        let y1 = min(d.maxY.rounded(), dy + size.height, v.maxY.rounded(.up))
        guard x1 > x0, y1 > y0 else { return }
        let src = SDL_Rect(x: Int32(x0 - dx), y: Int32(y0 - dy), w: Int32(x1 - x0), h: Int32(y1 - y0))
        let dst = SDL_Rect(x: Int32(x0), y: Int32(y0), w: Int32(x1 - x0), h: Int32(y1 - y0))
        calls.perform(.copy(texture, src, dst))
    }

    /// SDL takes whole-pixel source rectangles: the source is widened to whole pixels and the destination
    /// widened by the same amount, so a zoomed image lands exactly where the engine says (the clip trims it). In
    /// software, the copy is cut into pieces instead (`copyInPieces`).
    func copyScaled(_ texture: OpaquePointer, source s: Rect, destination d: Rect, in context: DrawContext) {
        calls.perform(.scaleMode(texture, context.scaleMode))
        if truncatesRects {
            copyInPieces(texture, source: s, destination: d, visible: context.visible)
            return
        }
        let x0 = s.minX.rounded(.down)
        let y0 = s.minY.rounded(.down)
        let x1 = s.maxX.rounded(.up)
        let y1 = s.maxY.rounded(.up)
        guard x1 > x0, y1 > y0 else { return }
        let fx = d.width / s.width
        let fy = d.height / s.height
        let src = SDL_Rect(x: Int32(x0), y: Int32(y0), w: Int32(x1 - x0), h: Int32(y1 - y0))
        let dst = SDL_FRect(
            x: Float(d.minX - (s.minX - x0) * fx), y: Float(d.minY - (s.minY - y0) * fy),
            w: Float((x1 - x0) * fx), h: Float((y1 - y0) * fy))
        let clip = SDL_Rect(
            x: Int32(d.minX.rounded(.down)), y: Int32(d.minY.rounded(.down)),
            w: Int32(d.maxX.rounded(.up) - d.minX.rounded(.down)),
            h: Int32(d.maxY.rounded(.up) - d.minY.rounded(.down)))
        calls.perform(.clip(clip))
        calls.perform(.copyF(texture, src, dst))
        calls.perform(.clip(nil))
    }

    /// The software renderer scales a copy that crosses its target's edge into a temporary surface as large as
    /// the whole copy (for a stand-in magnified 30 times, the screen and more: megabytes allocated, zeroed and
    /// freed for each such copy), and one cut by a clip rectangle loses its proportion. So a scaled copy is cut into at most nine whole-pixel
    /// copies within the visible part: the source pixels seen whole, and the rows and columns seen in part at
    /// its edges, each stretched over just its visible pixels.
    func copyInPieces(_ texture: OpaquePointer, source s: Rect, destination d: Rect, visible v: Rect) {
        let columns = Self.pieces(
            source: s.minX, s.maxX, destination: d.minX, d.maxX, visible: max(v.minX, d.minX.rounded(.down)),
            min(v.maxX, d.maxX.rounded(.up)))
        let rows = Self.pieces(
            source: s.minY, s.maxY, destination: d.minY, d.maxY, visible: max(v.minY, d.minY.rounded(.down)),
            min(v.maxY, d.maxY.rounded(.up)))
        for row in rows {
            for column in columns {
                let src = SDL_Rect(x: column.source, y: row.source, w: column.count, h: row.count)
                let dst = SDL_Rect(x: column.start, y: row.start, w: column.end - column.start, h: row.end - row.start)
                calls.perform(.copy(texture, src, dst))
            }
        }
    }

    /// A broken image: a dark panel with a frame and a cross, so a visitor sees "no picture here", not a hole.
    /// Where a picture still on its way from a worker will be: its placeholder's tone, without the cross a
    /// broken picture has.
    func loading(_ rect: Rect, in context: DrawContext) {
        calls.perform(.color(0x3A, 0x3A, 0x42, 255))
        calls.perform(.fillF(frect(context.screen(rect))))
    }

    func placeholder(_ rect: Rect, in context: DrawContext) {
        calls.perform(.color(0x3A, 0x3A, 0x42, 255))
        let r = frect(context.screen(rect))
        calls.perform(.fillF(r))
        calls.perform(.color(0x8A, 0x8A, 0x96, 255))
        calls.perform(.outline(r))
        calls.perform(.line(r.x, r.y, r.x + r.w, r.y + r.h))
        calls.perform(.line(r.x + r.w, r.y, r.x, r.y + r.h))
    }

    func setColor(_ c: Color) {
        calls.perform(.color(channel(c.red), channel(c.green), channel(c.blue), channel(c.alpha)))
    }
}
