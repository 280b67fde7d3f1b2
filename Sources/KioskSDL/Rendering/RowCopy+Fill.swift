import CCopyRows
import CSDL2

/// The software renderer's small fills, written here rather than by SDL, with the bytes SDL writes.
///
/// SDL's software renderer stores every opaque fill past the cache (SSE `movntps`), which suits a screen's
/// background but not the chrome drawn over a picture each frame (a button's square, an icon's strokes): what is
/// drawn over such a fill next reads it back from memory, and perf of the zoom-1 pan found SDL's fill loop a
/// twentieth of the frame for 50 KB of fills. Its blended fills (the scroll indicators) go through a generic
/// loop, a call per pixel. So a fill onto the window (not a render target, at scale 1, the viewport at the
/// window's corner) of a 32-bit screen whose red is bits 16-23 is written by `kiosk_fill_rows` (opaque, under
/// `streamedBytes`: larger ones stay SDL's) or `kiosk_blend_rows` (`SDL_BLENDMODE_BLEND`), cut to the clip
/// rectangle as SDL cuts it. `RowCopyTests` compares the pixels with SDL's.
extension RowCopy {
    /// Writes the draw colour over `rect` (whole pixels) unblended, as `SDL_RenderFillRect` with
    /// `SDL_BLENDMODE_NONE` would; false (nothing done) where the fill is SDL's to make.
    func fill(_ rect: SDL_Rect) -> Bool {
        guard rect.w > 0, rect.h > 0, Int(rect.w) * Int(rect.h) * 4 < Self.streamedBytes,
            let target = fillTarget(rect)
        else { return false }
        guard let area = target.area else { return true }
        let (r, g, b, a) = drawColor
        let color = SDL_MapRGBA(target.surface.pointee.format, r, g, b, a)
        kiosk_fill_rows(area.pixels, area.pitch, area.width, area.rows, color)
        return true
    }

    /// Blends the draw colour over `rect` as `SDL_RenderFillRectF` does with `SDL_BLENDMODE_BLEND` (the
    /// software renderer truncates the rectangle to whole pixels, at least one each way); false where it is
    /// SDL's to make.
    func blend(_ rect: SDL_FRect) -> Bool {
        let limit: Float = 16_777_216
        guard [rect.x, rect.y, rect.w, rect.h].allSatisfy({ $0.isFinite && abs($0) < limit }) else { return false }
        var mode = SDL_BLENDMODE_NONE
        guard SDL_GetRenderDrawBlendMode(renderer, &mode) == 0, mode == SDL_BLENDMODE_BLEND else { return false }
        let whole = SDL_Rect(x: Int32(rect.x), y: Int32(rect.y), w: max(Int32(rect.w), 1), h: max(Int32(rect.h), 1))
        guard let target = fillTarget(whole) else { return false }
        guard let area = target.area else { return true }
        let (r, g, b, a) = drawColor
        let alpha: Int32 = target.surface.pointee.format.pointee.Amask != 0 ? 1 : 0
        kiosk_blend_rows(area.pixels, area.pitch, area.width, area.rows, r, g, b, a, alpha)
        return true
    }

    /// The renderer's draw colour.
    private var drawColor: (UInt8, UInt8, UInt8, UInt8) {
        var r: UInt8 = 0
        var g: UInt8 = 0
        var b: UInt8 = 0
        var a: UInt8 = 0
        SDL_GetRenderDrawColor(renderer, &r, &g, &b, &a)
        return (r, g, b, a)
    }

    /// Where a fill of `rect` lands on the window's surface: its pixels cut to the clip rectangle (nil area:
    /// nothing to write), once what SDL queued before has landed; nil where SDL must make the fill.
    private func fillTarget(_ rect: SDL_Rect) -> (
        surface: UnsafeMutablePointer<SDL_Surface>,
        area: (pixels: UnsafeMutableRawPointer, pitch: Int, width: Int, rows: Int)?
    )? {
        guard SDL_GetRenderTarget(renderer) == nil, let surface = SDL_GetWindowSurface(window),
            let format = surface.pointee.format, format.pointee.BytesPerPixel == 4, format.pointee.Rmask == 0xFF_0000,
            format.pointee.Gmask == 0xFF00, format.pointee.Bmask == 0xFF,
            format.pointee.Amask == 0 || format.pointee.Amask == 0xFF00_0000,
            let bounds = drawableBounds(of: surface), bounds.origin == (0, 0)
        else { return nil }
        var r = rect
        var clip = bounds.clip
        var cut = SDL_Rect()
        // What SDL queued before this fill lands first.
        SDL_RenderFlush(renderer)
        guard SDL_IntersectRect(&r, &clip, &cut) == SDL_TRUE else { return (surface, nil) }
        let pitch = Int(surface.pointee.pitch)
        let pixels = surface.pointee.pixels + Int(cut.y) * pitch + Int(cut.x) * 4
        return (surface, (pixels, pitch, Int(cut.w), Int(cut.h)))
    }
}
