import CSDL2
import CSDL2Image
import Dispatch
import Foundation
import Kiosk

// Draws the deep-zoom demo procedurally and writes it as a Deep Zoom Image, as `vips dzsave` would:
//   swift run -c release kiosk-deepzoom-demo [--size 16384] [--out Assets/deepzoom/demo.dzi]
// The picture is a quadtree of coloured cells, each with a disc: every zoom level shows new, finer cells.

func arguments() -> (size: Int, out: String, flat: Bool) {
    var flat = false
    var size = 16384
    var out = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/deepzoom/demo.dzi").path
    var args = Array(CommandLine.arguments.dropFirst())
    if let i = args.firstIndex(of: "--flat") {
        flat = true
        args.remove(at: i)
    }
    while args.count >= 2 {
        let (flag, value) = (args.removeFirst(), args.removeFirst())
        switch flag {
        case "--size": size = Int(value) ?? 0
        case "--out": out = value
        default: size = 0
        }
    }
    guard args.isEmpty, size >= 256 else {
        print("usage: kiosk-deepzoom-demo [--size N (at least 256)] [--out PATH.dzi] [--flat]")
        exit(2)
    }
    return (size, out, flat)
}

// --flat: one colour a tile (quick to draw, for the benchmark's pyramids of any size).
let (size, out, flat) = arguments()
let tileSize = 256
let overlap = 1

/// A well-mixed hash of a cell.
@inline(__always) func hash(_ x: Int, _ y: Int, _ d: Int) -> UInt64 {
    var h =
        UInt64(truncatingIfNeeded: x) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: y) &* 0xC2B2_AE3D_27D4_EB4F
        ^ UInt64(truncatingIfNeeded: d) &* 0x1656_67B1_9E37_79F9
    h ^= h >> 29
    h = h &* 0xBF58_476D_1CE4_E5B9
    return h ^ (h >> 32)
}

let palette: [(Double, Double, Double)] = [
    (0.90, 0.44, 0.32), (0.16, 0.62, 0.56), (0.91, 0.77, 0.42), (0.55, 0.35, 0.59), (0.96, 0.64, 0.38),
    (0.27, 0.48, 0.62), (0.85, 0.33, 0.45), (0.36, 0.66, 0.36),
]

/// The colour at a point of the image (0 ..< size), 0...1 per channel.
@inline(__always) func colour(_ x: Double, _ y: Double, size: Int) -> (Double, Double, Double) {
    var cx = 0
    var cy = 0
    var s = size
    var d = 0
    // Descend while the cell splits: always near the top, then two cells in three, down to 8-pixel cells.
    while s > 8 {
        let h = hash(cx, cy, d)
        if d >= 2 && h % 100 >= 66 { break }
        s >>= 1
        if x >= Double(cx + s) { cx += s }
        if y >= Double(cy + s) { cy += s }
        d += 1
    }
    let h = hash(cx, cy, d)
    let base = palette[Int(h % UInt64(palette.count))]
    let shade = 0.75 + 0.25 * Double((h >> 8) % 100) / 100
    let fs = Double(s)
    let u = (x - Double(cx)) / fs
    let v = (y - Double(cy)) / fs
    // A border, a disc and a ring inside it.
    let border = max(1.0, fs / 48) / fs
    if u < border || v < border { return (0.12, 0.12, 0.16) }
    let r = ((u - 0.5) * (u - 0.5) + (v - 0.5) * (v - 0.5)).squareRoot()
    if r < 0.32 {
        let other = palette[Int((h >> 16) % UInt64(palette.count))]
        if r > 0.24 && r < 0.27 { return (0.98, 0.97, 0.94) }
        return (other.0, other.1, other.2)
    }
    return (base.0 * shade, base.1 * shade, base.2 * shade)
}

let pyramid = DeepZoomImage(width: size, height: size, tileSize: tileSize, overlap: overlap, format: "jpeg")
let folder = (out as NSString).deletingLastPathComponent
let name = ((out as NSString).lastPathComponent as NSString).deletingPathExtension
let files = folder + "/" + name + "_files"
try? FileManager.default.removeItem(atPath: files)
let started = Date()
IMG_Init(Int32(IMG_INIT_JPG.rawValue))
var written = 0
for level in 0...pyramid.maxLevel {
    try FileManager.default.createDirectory(atPath: "\(files)/\(level)", withIntermediateDirectories: true)
    let grid = pyramid.tiles(level: level)
    let f = Double(1 << (pyramid.maxLevel - level))
    // Smaller levels are supersampled 2 x 2 so their thin lines do not alias.
    let samples = level == pyramid.maxLevel ? 1 : 2
    let side = size
    DispatchQueue.concurrentPerform(iterations: grid.columns * grid.rows) { i in
        let c = i % grid.columns
        let r = i / grid.columns
        let rect = pyramid.storedRect(level: level, column: c, row: r)
        guard
            let surface = SDL_CreateRGBSurfaceWithFormat(
                0, Int32(rect.width), Int32(rect.height), 24, SDL_PIXELFORMAT_RGB24.rawValue)
        else { return }
        defer { SDL_FreeSurface(surface) }
        let pitch = Int(surface.pointee.pitch)
        let pixels = surface.pointee.pixels.assumingMemoryBound(to: UInt8.self)
        if flat {
            let h = hash(c, r, level)
            let p = palette[Int(h % UInt64(palette.count))]
            SDL_FillRect(
                surface, nil, SDL_MapRGB(surface.pointee.format, UInt8(p.0 * 255), UInt8(p.1 * 255), UInt8(p.2 * 255)))
            _ = IMG_SaveJPG(surface, "\(files)/\(level)/\(c)_\(r).jpeg", 85)
            return
        }
        for py in 0..<rect.height {
            for px in 0..<rect.width {
                var acc = (0.0, 0.0, 0.0)
                for sy in 0..<samples {
                    for sx in 0..<samples {
                        let ix = (Double(rect.x + px) + (Double(sx) + 0.5) / Double(samples)) * f
                        let iy = (Double(rect.y + py) + (Double(sy) + 0.5) / Double(samples)) * f
                        let c = colour(min(ix, Double(side) - 0.5), min(iy, Double(side) - 0.5), size: side)
                        acc = (acc.0 + c.0, acc.1 + c.1, acc.2 + c.2)
                    }
                }
                let n = Double(samples * samples)
                let o = py * pitch + px * 3
                pixels[o] = UInt8(min(255, acc.0 / n * 255))
                pixels[o + 1] = UInt8(min(255, acc.1 / n * 255))
                pixels[o + 2] = UInt8(min(255, acc.2 / n * 255))
            }
        }
        _ = IMG_SaveJPG(surface, "\(files)/\(level)/\(c)_\(r).jpeg", 85)
    }
    written += grid.columns * grid.rows
}
let descriptor = """
    <?xml version="1.0" encoding="UTF-8"?>
    <Image xmlns="http://schemas.microsoft.com/deepzoom/2008" Format="jpeg" Overlap="\(overlap)" TileSize="\(tileSize)">
      <Size Width="\(size)" Height="\(size)"/>
    </Image>

    """
try descriptor.write(toFile: out, atomically: true, encoding: .utf8)
print(
    "kiosk-deepzoom-demo: \(out): \(size)x\(size), \(written) tiles in \(String(format: "%.1f", Date().timeIntervalSince(started))) s"
)
