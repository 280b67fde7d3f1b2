import CSDL2
import CSDL2Image

/// A PNG's pixels, read with SDL_image, for screenshot checks.
struct Picture {
    let width: Int
    let height: Int
    let pixels: [UInt32]

    init?(path: String) {
        guard let loaded = IMG_Load(path) else { return nil }
        defer { SDL_FreeSurface(loaded) }
        guard let s = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ARGB8888.rawValue, 0) else { return nil }
        defer { SDL_FreeSurface(s) }
        width = Int(s.pointee.w)
        height = Int(s.pointee.h)
        let pitch = Int(s.pointee.pitch) / 4
        let p = s.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        var out = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height { for x in 0..<width { out[y * width + x] = p[y * pitch + x] } }
        pixels = out
    }

    /// (r, g, b) at a pixel.
    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let v = pixels[y * width + x]
        return (Int(v >> 16 & 0xFF), Int(v >> 8 & 0xFF), Int(v & 0xFF))
    }

    /// Mean brightness (0-255) of a rectangle.
    func brightness(x: Int, y: Int, w: Int, h: Int) -> Double {
        var sum = 0
        for yy in y..<(y + h) {
            for xx in x..<(x + w) {
                let (r, g, b) = rgb(xx, yy)
                sum += r + g + b
            }
        }
        return Double(sum) / Double(3 * w * h)
    }
}

/// Colours within `tolerance` per channel.
func close(_ a: (Int, Int, Int), _ b: (Int, Int, Int), _ tolerance: Int = 6) -> Bool {
    abs(a.0 - b.0) <= tolerance && abs(a.1 - b.1) <= tolerance && abs(a.2 - b.2) <= tolerance
}
