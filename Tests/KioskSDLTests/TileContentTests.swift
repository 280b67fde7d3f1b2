import CSDL2
import CSDL2Image
import Foundation
import Testing

@testable import KioskSDL

/// A tile file belongs to its picture's bytes: a content update that copies the same picture again (a new time)
/// or to a new folder keeps its tiles (on a board, a large photograph's cut is seconds of "loading" after every
/// update); a picture whose bytes changed is cut again.
struct TileContentTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-\(UUID().uuidString)").path
    var cache: String { folder + "/cache" }

    /// A 700x500 grey PNG, last modified `seconds` after the epoch.
    func picture(_ name: String, seconds: Int = 1_000_000_000) throws -> String {
        let s = try #require(SDL_CreateRGBSurfaceWithFormat(0, 700, 500, 32, SDL_PIXELFORMAT_ARGB8888.rawValue))
        defer { SDL_FreeSurface(s) }
        memset(s.pointee.pixels, 0x80, Int(s.pointee.pitch) * 500)
        let path = folder + "/" + name
        #expect(IMG_SavePNG(s, path) == 0)
        setTime(path, seconds: seconds)
        return path
    }

    func setTime(_ path: String, seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    /// The inode of `image`'s tile file after opening it: a cut writes a new file, a kept one keeps its inode.
    func tiles(_ image: String) throws -> UInt {
        guard
            case .file = TileFile.open(
                image: image, width: 700, height: 500, folder: cache, opaqueFormat: SDL_PIXELFORMAT_RGB888.rawValue)
        else {
            Issue.record("\(image) has no tile file")
            return 0
        }
        var st = stat()
        #expect(stat(cache + "/" + TileFile.fileName(TileFile.key(image)), &st) == 0)
        return UInt(st.st_ino)
    }

    @Test func theSameBytesKeepTheirTilesUnderANewTimeOrPath() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let image = try picture("a.png")
        let first = try tiles(image)
        // Copied again over itself: a new time, the same bytes.
        setTime(image, seconds: 1_100_000_000)
        #expect(try tiles(image) == first)
        // And the header took the new time: the quick look finds it current, with no reading.
        #expect(TileFile.current(image: image, folder: cache) != nil)
        // The content moved to a new folder (a new path, a new time).
        try FileManager.default.createDirectory(atPath: folder + "/v2", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: image, toPath: folder + "/v2/a.png")
        setTime(folder + "/v2/a.png", seconds: 1_200_000_000)
        #expect(try tiles(folder + "/v2/a.png") == first)
    }

    @Test func otherBytesAreCutAgain() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let image = try picture("a.png")
        let first = try tiles(image)
        let file = cache + "/" + TileFile.fileName(TileFile.key(image))
        // The tile file says it was cut from other bytes of the same size (a picture edited in place keeps its
        // size often enough: a BMP, a retouched JPEG's few bytes): a new time and it is cut again.
        #expect(TileFile.stamp(file, 12345, at: TileFile.digestOffset))
        setTime(image, seconds: 1_100_000_000)
        let second = try tiles(image)
        #expect(second != first)
        // Its header keeps the bytes' digest it was cut from.
        let header = try #require(TileFile.header(of: file))
        #expect(TileFile.u64(header, TileFile.digestOffset) == TileFile.contentDigest(image))
        // A file cut before digests were kept (0) is never taken for the same bytes.
        #expect(TileFile.stamp(file, 0, at: TileFile.digestOffset))
        setTime(image, seconds: 1_200_000_000)
        #expect(try tiles(image) != second)
    }

    @Test func theDigestIsOfTheBytes() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = folder + "/a"
        let b = folder + "/b"
        // Longer than the digest's megabyte, and not a multiple of 8 bytes.
        var bytes = [UInt8](repeating: 7, count: (1 << 20) + 13)
        #expect(FileManager.default.createFile(atPath: a, contents: Data(bytes)))
        bytes[(1 << 20) + 5] = 8
        #expect(FileManager.default.createFile(atPath: b, contents: Data(bytes)))
        let da = try #require(TileFile.contentDigest(a))
        #expect(TileFile.contentDigest(a) == da)
        #expect(TileFile.contentDigest(b) != da)
        #expect(TileFile.contentDigest(folder + "/none") == nil)
    }
}
