import CSDL2
import CSDL2Image
import Foundation
import Kiosk
import Testing

@testable import KioskSDL

/// In `SDLEventTests`' serialized suite: SDL's state is the process's.
extension SDLEventTests {
    /// A `width` x `height` picture written by SDL in `format` (bits `depth`), saved by `save` into a new file.
    func picture(
        _ name: String, width: Int, height: Int, format: SDL_PixelFormatEnum, depth: Int32,
        save: (UnsafeMutablePointer<SDL_Surface>, String) -> Int32
    ) throws -> String {
        let s = try #require(
            SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), depth, format.rawValue))
        defer { SDL_FreeSurface(s) }
        memset(s.pointee.pixels, 0x80, Int(s.pointee.pitch) * height)
        let path = NSTemporaryDirectory() + "kiosk-facts-\(UUID().uuidString)-\(name)"
        #expect(save(s, path) == 0)
        return path
    }

    /// The catalog a scene is laid out from is read from the files' headers; the image store then loads the
    /// pictures. Both must say the same of each (its size, a pyramid of the same tiles, opaque or not, or a
    /// placeholder), or a scene would be laid out for one picture and drawn as another.
    @Test func theCatalogSaysWhatTheStoreLoads() throws {
        setenvDummy()
        let png = { (s: UnsafeMutablePointer<SDL_Surface>, p: String) in IMG_SavePNG(s, p) }
        let paths = [
            "\(Self.images)/floorplan.png", "\(Self.images)/gallery-night.jpg", "\(Self.images)/menu-long.png",
            try picture("rgba.png", width: 40, height: 30, format: SDL_PIXELFORMAT_ARGB8888, depth: 32, save: png),
            try picture("rgb.png", width: 41, height: 31, format: SDL_PIXELFORMAT_RGB24, depth: 24, save: png),
            try picture("wide.png", width: 5000, height: 40, format: SDL_PIXELFORMAT_RGB24, depth: 24, save: png),
            try picture("small.bmp", width: 20, height: 10, format: SDL_PIXELFORMAT_RGB24, depth: 24) {
                SDL_SaveBMP_RW($0, SDL_RWFromFile($1, "wb"), 1)
            },
            NSTemporaryDirectory() + "kiosk-facts-missing.png", NSTemporaryDirectory(),
        ]
        let session = try attractSession()
        for path in paths {
            let declared = session.images.facts.info(path)
            let loaded = session.images.loaded(path).info
            #expect(declared.size == loaded.size, "\(path)")
            #expect(declared.loaded == loaded.loaded, "\(path)")
            #expect(declared.isOpaque == loaded.isOpaque || !loaded.loaded, "\(path)")
            #expect(declared.pyramid.map(Self.tiles) == loaded.pyramid.map(Self.tiles), "\(path)")
        }
        #expect(session.images.facts.info(paths[5]).pyramid != nil, "the wide picture is drawn from tiles")
        #expect(!session.images.facts.info(paths[3]).isOpaque && session.images.facts.info(paths[4]).isOpaque)
        #expect(!session.images.facts.info(paths[7]).loaded)
    }

    /// A pyramid's tiles: what the draw list asks for (its format is the store's business).
    static func tiles(_ p: DeepZoomImage) -> [Int] { [p.width, p.height, p.tileSize, p.overlap] }
}
