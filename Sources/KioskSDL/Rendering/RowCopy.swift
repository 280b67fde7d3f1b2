import CCopyRows
import CSDL2

/// The software renderer's plain copies, row by row, their stores bypassing the cache where they are large.
///
/// SDL's software renderer copies an opaque texture of the screen's format onto the screen with `SDL_BlitCopy`,
/// whose rows take SSE only where both ends are 16-byte aligned (a picture panned by whole pixels is one time in
/// four) and otherwise an 8-byte MMX loop: perf of the zoom-1 pan found 83 % of the process in that loop, where
/// Qt Quick's software backend copies the same rows with glibc's `memcpy`. Both copies write through the cache,
/// which first reads every line of the screen they overwrite. So where a copy is exactly what `SDL_BlitCopy`
/// would do (one texture pixel per screen pixel, no blending, no colour or alpha modulation, the same format,
/// onto the window), it is done here with the same bytes as the result: `kiosk_copy_rows`, by `memcpy` or with
/// non-temporal stores for copies of `streamedBytes` or more, whichever was measured fastest on this machine in
/// its first large copies (`CopyCalibration`; a machine whose memory is not the limit loses by streaming), or
/// left to SDL where `KIOSK_COPY=sdl` says so.
///
/// It reads a texture's pixels through `SDL_LockTexture`, which the software renderer answers with its surface
/// (the pixels it copies from); a probe at start checks that this SDL does so, and that the window's surface is
/// what the renderer draws on, and leaves every copy to SDL where not.
final class RowCopy {
    let renderer: OpaquePointer
    let window: OpaquePointer

    /// Which copy is fastest on this machine, measured in its first large copies (`CopyCalibration`).
    let calibration = CopyCalibration()

    /// Nil where the probe finds this SDL does not hand out what it draws (then SDL copies everything).
    init?(renderer: OpaquePointer, window: OpaquePointer, format: UInt32) {
        self.renderer = renderer
        self.window = window
        guard Self.probe(renderer: renderer, window: window, format: format) else { return nil }
    }

    /// Copies `source` of `texture` onto `destination` of the window when SDL would copy it unchanged; false
    /// (nothing done) when the copy is SDL's to make. Within a batch (`batch`) the copy is kept and made with the
    /// batch's others, row by row of the screen.
    func copy(_ texture: OpaquePointer, _ source: SDL_Rect?, _ destination: SDL_Rect) -> Bool {
        guard calibration.measured != .sdl, SDL_GetRenderTarget(renderer) == nil else { return false }
        var format: UInt32 = 0
        var access: Int32 = 0
        var tw: Int32 = 0
        var th: Int32 = 0
        guard SDL_QueryTexture(texture, &format, &access, &tw, &th) == 0,
            access == Int32(SDL_TEXTUREACCESS_STREAMING.rawValue)
        else { return false }
        let src = source ?? SDL_Rect(x: 0, y: 0, w: tw, h: th)
        // A source beyond the texture SDL trims and then scales: its copy, not a plain one.
        guard src.w == destination.w, src.h == destination.h, src.x >= 0, src.y >= 0, src.x + src.w <= tw,
            src.y + src.h <= th, Self.isPlain(texture)
        else { return false }
        guard let surface = SDL_GetWindowSurface(window), surface.pointee.format.pointee.format == format,
            surface.pointee.flags & UInt32(SDL_RLEACCEL) == 0
        else { return false }
        guard let bounds = drawableBounds(of: surface) else { return false }
        // What SDL_UpperBlit does: the destination cut to the surface's clip rectangle, the source moved alike.
        var d = SDL_Rect(x: destination.x + bounds.origin.x, y: destination.y + bounds.origin.y, w: src.w, h: src.h)
        var clip = bounds.clip
        var cut = SDL_Rect()
        guard SDL_IntersectRect(&d, &clip, &cut) == SDL_TRUE else { return true }
        let sx = src.x + (cut.x - d.x)
        let sy = src.y + (cut.y - d.y)
        // What SDL queued before this copy lands first.
        SDL_RenderFlush(renderer)
        // The software renderer's texture is its surface: the pixels stay where the lock finds them until the
        // texture is destroyed, which nothing does within a batch.
        var pixels: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        guard SDL_LockTexture(texture, nil, &pixels, &pitch) == 0, let pixels else { return false }
        SDL_UnlockTexture(texture)
        let bytes = Int(surface.pointee.format.pointee.BytesPerPixel)
        let piece = kiosk_copy_piece(
            dst: surface.pointee.pixels + Int(cut.y) * Int(surface.pointee.pitch) + Int(cut.x) * bytes,
            src: pixels + Int(sy) * Int(pitch) + Int(sx) * bytes, dstPitch: Int(surface.pointee.pitch),
            srcPitch: Int(pitch), rowBytes: Int(cut.w) * bytes, top: cut.y, rows: cut.h)
        pending.append(piece)
        if !isBatching { flush() }
        return true
    }

    /// The copies kept by a batch, made at its end (`flush`).
    private var pending: [kiosk_copy_piece] = []
    private var scratch: [Int32] = []
    private var isBatching = false

    /// Runs `body`, keeping its plain copies to make them together, screen row by screen row, at its end or at
    /// the first `flush` (whatever else draws on the screen flushes first: `DrawCalls`). A grid of tiles copied
    /// tile by tile walks the screen in columns of rows; copied together, the screen is written as one large
    /// copy writes it.
    func batch(_ body: () -> Void) {
        let outer = isBatching
        isBatching = true
        body()
        isBatching = outer
        if !outer { flush() }
    }

    /// Makes the copies a batch kept so far (timed while the methods are measured: `CopyCalibration`).
    func flush() {
        guard !pending.isEmpty else { return }
        let total = pending.reduce(0) { $0 + $1.rowBytes * Int($1.rows) }
        let method = calibration.method(for: total)
        let stream = method == .streamed && total >= Self.streamedBytes
        if scratch.count < pending.count { scratch = Array(repeating: 0, count: pending.count) }
        let start = SDL_GetPerformanceCounter()
        pending.withUnsafeBufferPointer { p in
            scratch.withUnsafeMutableBufferPointer { s in
                kiosk_copy_pieces(p.baseAddress, Int32(p.count), stream ? 1 : 0, s.baseAddress)
            }
        }
        if calibration.measured == nil {
            let ms = Double(SDL_GetPerformanceCounter() - start) * 1000 / Double(SDL_GetPerformanceFrequency())
            calibration.record(method, bytes: total, ms: ms)
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// From how many bytes a copy's stores bypass the cache: a screen's worth of picture (8 MB at 1920x1080) is
    /// larger than the cache, so its pixels are gone from it before anything reads them again, and writing them
    /// without reading that memory first is a third less traffic (the zoom-1 pan's frames a third faster here);
    /// a small copy's pixels stay cached for what is drawn over them.
    static let streamedBytes = 128 * 1024

    /// Whether SDL would copy `texture`'s pixels as they are: no blending, no colour or alpha modulation.
    static func isPlain(_ texture: OpaquePointer) -> Bool {
        var mode = SDL_BLENDMODE_NONE
        var alpha: UInt8 = 0
        var r: UInt8 = 0
        var g: UInt8 = 0
        var b: UInt8 = 0
        guard SDL_GetTextureBlendMode(texture, &mode) == 0, mode == SDL_BLENDMODE_NONE,
            SDL_GetTextureAlphaMod(texture, &alpha) == 0, alpha == 255,
            SDL_GetTextureColorMod(texture, &r, &g, &b) == 0, r == 255, g == 255, b == 255
        else { return false }
        return true
    }

    /// Where the software renderer draws on `surface`: the viewport's origin, and the surface's clip rectangle
    /// as its `SetDrawState` sets it (the viewport, cut by the renderer's clip rectangle where one is set).
    /// Nil for a scaled renderer (its copies are SDL's).
    func drawableBounds(of surface: UnsafeMutablePointer<SDL_Surface>) -> (
        origin: (x: Int32, y: Int32), clip: SDL_Rect
    )? {
        var sx: Float = 0
        var sy: Float = 0
        SDL_RenderGetScale(renderer, &sx, &sy)
        guard sx == 1, sy == 1 else { return nil }
        var viewport = SDL_Rect()
        SDL_RenderGetViewport(renderer, &viewport)
        var whole = SDL_Rect(x: 0, y: 0, w: surface.pointee.w, h: surface.pointee.h)
        var clip = SDL_Rect()
        guard SDL_IntersectRect(&viewport, &whole, &clip) == SDL_TRUE else {
            return ((viewport.x, viewport.y), SDL_Rect())
        }
        if SDL_RenderIsClipEnabled(renderer) == SDL_TRUE {
            var c = SDL_Rect()
            SDL_RenderGetClipRect(renderer, &c)
            c.x += viewport.x
            c.y += viewport.y
            var both = SDL_Rect()
            clip = SDL_IntersectRect(&c, &clip, &both) == SDL_TRUE ? both : SDL_Rect()
        }
        return ((viewport.x, viewport.y), clip)
    }

    /// Whether this SDL's software renderer draws on the window's surface and hands out a streaming texture's
    /// own pixels when locked: a pixel drawn by SDL is read from the surface, and a texture's pixels written by
    /// `SDL_UpdateTexture` are read back through the lock. The screen's pixel is put back.
    static func probe(renderer: OpaquePointer, window: OpaquePointer, format: UInt32) -> Bool {
        guard let surface = SDL_GetWindowSurface(window), surface.pointee.format.pointee.format == format,
            surface.pointee.format.pointee.BytesPerPixel == 4, surface.pointee.w > 0, surface.pointee.h > 0
        else { return false }
        guard
            let texture = SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), 2, 1)
        else { return false }
        defer { SDL_DestroyTexture(texture) }
        let written: [UInt32] = [0x0012_3456, 0x0065_4321]
        guard written.withUnsafeBytes({ SDL_UpdateTexture(texture, nil, $0.baseAddress, 8) }) == 0 else {
            return false
        }
        var pixels: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        guard SDL_LockTexture(texture, nil, &pixels, &pitch) == 0, let pixels else { return false }
        let read = [pixels.load(as: UInt32.self), pixels.load(fromByteOffset: 4, as: UInt32.self)]
        SDL_UnlockTexture(texture)
        guard read == written else { return false }
        let screen = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        let kept = screen[0]
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
        var one = SDL_Rect(x: 0, y: 0, w: 1, h: 1)
        var first = SDL_Rect(x: 0, y: 0, w: 1, h: 1)
        SDL_RenderCopy(renderer, texture, &first, &one)
        SDL_RenderFlush(renderer)
        let drawn = screen[0]
        screen[0] = kept
        return drawn == written[0]
    }
}
