import CSDL2
import Kiosk
import ScrollEngine

/// Words: a text's laid-out lines (`TextStore`) placed in its box by its alignment and direction, centred down,
/// on its plate if it has one (drawn into its texture).
extension Renderer {
    func drawText(_ run: TextRun, in context: DrawContext) {
        guard let (entry, scale) = words.texture(for: run) else { return }
        let size = entry.size * scale
        let inset = entry.inset * scale
        // The lines, without the plate's margin, are placed in the box.
        let lines = Size(width: size.width - 2 * inset.width, height: size.height - 2 * inset.height)
        let r = run.rect
        let x: Double
        switch (run.align, run.isRightToLeft) {
        case (.center, _): x = r.midX - lines.width / 2
        case (.start, false), (.end, true): x = r.minX
        case (.start, true), (.end, false): x = r.maxX - lines.width
        }
        let y = r.midY - lines.height / 2
        calls.perform(.alpha(entry.texture, 255))
        copy(
            entry.texture, source: Rect(origin: .zero, size: entry.size),
            destination: Rect(x: x - inset.width, y: y - inset.height, width: size.width, height: size.height),
            in: context)
    }
}

extension Renderer {
    /// A list row's thumbnail, fitted and centred in its square; a light square while it loads, the broken
    /// picture's placeholder when it does not decode.
    func drawThumbnail(_ path: String, in square: Rect, context: DrawContext) {
        let store =
            thumbnails
            ?? ThumbnailStore(textures: display.textures, synchronous: tiles.synchronous, notify: onThumbnail)
        thumbnails = store
        let pixels = Int(square.width.rounded())
        switch store.thumbnail(path, pixels: pixels) {
        case .loading:
            setColor(ListStyle.headerBackground)
            calls.perform(.fillF(frect(context.screen(square))))
        case .broken:
            placeholder(square, in: context)
        case .ready(let texture):
            let size = sizes(of: texture).unturned
            let fit = min(square.width / max(1, size.width), square.height / max(1, size.height))
            let shown = Size(width: size.width * fit, height: size.height * fit)
            copy(
                texture, source: Rect(origin: .zero, size: size),
                destination: Rect(
                    x: square.midX - shown.width / 2, y: square.midY - shown.height / 2, width: shown.width,
                    height: shown.height), in: context)
        }
    }
}
