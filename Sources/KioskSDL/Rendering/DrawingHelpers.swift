import CSDL2
import ScrollEngine

func channel(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }

func frect(_ r: Rect) -> SDL_FRect {
    SDL_FRect(x: Float(r.minX), y: Float(r.minY), w: Float(r.width), h: Float(r.height))
}

/// A square texture drawn pixel by pixel: `pixel(x, y)` gives r, g, b (0-255) and alpha (0-1) at pixel centres.
func makeTexture(
    _ maker: TextureMaker, size: Int, _ pixel: (Double, Double) -> (UInt8, UInt8, UInt8, Double)
) -> OpaquePointer? {
    guard
        let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(size), Int32(size), 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
    else { return nil }
    defer { SDL_FreeSurface(surface) }
    let pitch = Int(surface.pointee.pitch) / 4
    let pixels = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
    for y in 0..<size {
        for x in 0..<size {
            let (r, g, b, a) = pixel(Double(x) + 0.5, Double(y) + 0.5)
            let alpha = UInt32(max(0, min(255, (a * 255).rounded())))
            pixels[y * pitch + x] = alpha << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        }
    }
    return maker.texture(surface)
}

/// Whether a texture has no alpha channel.
func isOpaqueTexture(_ texture: OpaquePointer) -> Bool {
    var format: UInt32 = 0
    SDL_QueryTexture(texture, &format, nil, nil, nil)
    return TextureMaker.isOpaque32(format)
}

extension Rect {
    static func * (r: Rect, k: Double) -> Rect {
        k == 1 ? r : Rect(x: r.minX * k, y: r.minY * k, width: r.width * k, height: r.height * k)
    }
}

/// The home button's picture on a 128 px square: a dark translucent disc, a white ring and a white house.
enum HomeIcon {
    static func pixel(_ x: Double, _ y: Double) -> (UInt8, UInt8, UInt8, Double) {
        let d = ((x - 64) * (x - 64) + (y - 64) * (y - 64)).squareRoot()
        let disc = max(0, min(1, 62 - d))
        guard disc > 0 else { return (0, 0, 0, 0) }
        let ring = max(0, min(1, 3 - abs(d - 58)))
        if house(x, y) { return (255, 255, 255, 0.95) }
        if ring > 0 { return (255, 255, 255, 0.95 * ring) }
        return (0, 0, 0, 0.5 * disc)
    }

    /// A roof (triangle) over a body (rectangle) with a door cut out.
    static func house(_ x: Double, _ y: Double) -> Bool {
        let roof = y >= 34 && y <= 62 && abs(x - 64) <= (y - 34) * 1.15
        let body = x >= 44 && x <= 84 && y >= 60 && y <= 92
        let door = x >= 58 && x <= 70 && y >= 74 && y <= 92
        return (roof || body) && !door
    }
}

/// A rectangle on whole pixels.
func sdlRect(_ r: Rect) -> SDL_Rect {
    SDL_Rect(
        x: Int32(r.minX.rounded()), y: Int32(r.minY.rounded()), w: Int32(r.width.rounded()),
        h: Int32(r.height.rounded()))
}
