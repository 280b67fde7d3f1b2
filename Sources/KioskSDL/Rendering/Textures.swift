import CSDL2
import Kiosk
import ScrollEngine

/// Makes every texture of a run the same way: opaque pictures in the screen's own pixel format (so the software
/// renderer copies them with a plain memcpy and never blends), pictures with alpha as ARGB, and all of them
/// turned once, here, by `--rotate`: a frame then only moves rectangles, on every renderer.
struct TextureMaker {
    let renderer: OpaquePointer
    let rotation: Rotation
    /// The window's 32-bit format without alpha where the renderer takes it as a texture (XRGB on every driver
    /// tried), else ARGB.
    let opaqueFormat: UInt32
    /// How pictures' textures are made: static, or streaming where the software renderer's plain copies read
    /// them (`RowCopy`).
    let access: SDL_TextureAccess
    /// The longest side a texture may have (`Display.maxTextureSize`, or no limit).
    var maximumSide = Int.max

    init(renderer: OpaquePointer, opaqueFormat: UInt32, rotation: Rotation, access: SDL_TextureAccess) {
        self.renderer = renderer
        self.opaqueFormat = opaqueFormat
        self.rotation = rotation
        self.access = access
    }

    /// The window's 32-bit format without alpha where the renderer takes it as a texture, else ARGB.
    static func opaqueFormat(renderer: OpaquePointer, window: OpaquePointer) -> UInt32 {
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        let formats = withUnsafeBytes(of: info.texture_formats) { Array($0.bindMemory(to: UInt32.self)) }
            .prefix(Int(info.num_texture_formats))
        let native = SDL_GetWindowPixelFormat(window)
        let candidates = [native, SDL_PIXELFORMAT_RGB888.rawValue, SDL_PIXELFORMAT_BGR888.rawValue]
        return candidates.first { f in formats.contains(f) && isOpaque32(f) } ?? SDL_PIXELFORMAT_ARGB8888.rawValue
    }

    /// A 32-bit format without an alpha channel.
    static func isOpaque32(_ format: UInt32) -> Bool {
        var bpp: Int32 = 0
        var r: UInt32 = 0
        var g: UInt32 = 0
        var b: UInt32 = 0
        var a: UInt32 = 0
        guard SDL_PixelFormatEnumToMasks(format, &bpp, &r, &g, &b, &a) == SDL_TRUE else { return false }
        return bpp == 32 && a == 0 && r != 0
    }

    /// Converts `surface` (which the caller still owns) to the texture's format and turn: a new surface.
    /// Safe on any thread (it touches no renderer).
    func prepare(_ surface: UnsafeMutablePointer<SDL_Surface>) -> (UnsafeMutablePointer<SDL_Surface>, opaque: Bool)? {
        Self.prepare(surface, rotation: rotation, opaqueFormat: opaqueFormat)
    }

    static func prepare(_ surface: UnsafeMutablePointer<SDL_Surface>, rotation: Rotation, opaqueFormat: UInt32)
        -> (UnsafeMutablePointer<SDL_Surface>, opaque: Bool)?
    {
        let opaque = isOpaque(surface)
        guard let converted = SDL_ConvertSurfaceFormat(surface, keptFormat(surface, opaqueFormat), 0) else {
            return nil
        }
        guard rotation != .none else { return (converted, opaque) }
        defer { SDL_FreeSurface(converted) }
        return turned(converted, rotation).map { ($0, opaque) }
    }

    /// A 32-bit surface turned clockwise by `rotation`.
    static func turned(_ s: UnsafeMutablePointer<SDL_Surface>, _ rotation: Rotation) -> UnsafeMutablePointer<
        SDL_Surface
    >? {
        let w = Int(s.pointee.w)
        let h = Int(s.pointee.h)
        let (tw, th) = rotation.swapsAxes ? (h, w) : (w, h)
        guard let out = SDL_CreateRGBSurfaceWithFormat(0, Int32(tw), Int32(th), 32, s.pointee.format.pointee.format)
        else { return nil }
        SDL_LockSurface(s)
        defer { SDL_UnlockSurface(s) }
        let src = s.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        let dst = out.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        let sp = Int(s.pointee.pitch) / 4
        let dp = Int(out.pointee.pitch) / 4
        for y in 0..<h {
            let row = src + y * sp
            switch rotation {
            case .none: for x in 0..<w { dst[y * dp + x] = row[x] }
            case .quarter: for x in 0..<w { dst[x * dp + (h - 1 - y)] = row[x] }
            case .half: for x in 0..<w { dst[(h - 1 - y) * dp + (w - 1 - x)] = row[x] }
            case .threeQuarters: for x in 0..<w { dst[(w - 1 - x) * dp + y] = row[x] }
            }
        }
        return out
    }

    /// A texture of `surface` (which the caller still owns), converted and turned, filtered linearly, blending
    /// only where the picture has alpha.
    func texture(_ surface: UnsafeMutablePointer<SDL_Surface>) -> OpaquePointer? {
        guard let (prepared, opaque) = prepare(surface) else { return nil }
        defer { SDL_FreeSurface(prepared) }
        return texture(prepared: prepared, opaque: opaque)
    }

    /// A texture of `width` x `height` pixels of `format`, filled by the caller (`SDL_UpdateTexture`), filtered
    /// and blending as `texture(prepared:opaque:)` makes them.
    func emptyTexture(format: UInt32, width: Int32, height: Int32, opaque: Bool) -> OpaquePointer? {
        guard
            let texture = SDL_CreateTexture(renderer, format, Int32(access.rawValue), width, height)
        else { return nil }
        SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear)
        SDL_SetTextureBlendMode(texture, opaque ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
        return texture
    }

    /// A texture of a surface that `prepare` made (which the caller still owns).
    func texture(prepared: UnsafeMutablePointer<SDL_Surface>, opaque: Bool) -> OpaquePointer? {
        let p = prepared.pointee
        guard let texture = emptyTexture(format: p.format.pointee.format, width: p.w, height: p.h, opaque: opaque)
        else { return nil }
        guard SDL_UpdateTexture(texture, nil, p.pixels, p.pitch) == 0 else {
            SDL_DestroyTexture(texture)
            return nil
        }
        return texture
    }
}

/// Whether a surface has no alpha channel: every pixel opaque.
func isOpaque(_ surface: UnsafeMutablePointer<SDL_Surface>) -> Bool { surface.pointee.format.pointee.Amask == 0 }

/// The 32-bit format a picture's pixels are kept in: the screen's own (`opaqueFormat`) where it has no alpha, so
/// its copies are plain copies, else ARGB.
func keptFormat(_ surface: UnsafeMutablePointer<SDL_Surface>, _ opaqueFormat: UInt32) -> UInt32 {
    isOpaque(surface) ? opaqueFormat : SDL_PIXELFORMAT_ARGB8888.rawValue
}
