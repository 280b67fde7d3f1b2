import CSDL2
import Foundation
import Testing

@testable import KioskSDL

/// Every file the kiosk replaces (state, calibration, metrics, the screen's picture) is written one way: whole,
/// checked, then renamed; a failed write never replaces the good file, and what is not a regular file (a FIFO, a
/// device node, a folder) is never replaced.
@Suite struct AtomicWriteTests {
    func folder() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }

    @Test func aFailedWriteLeavesTheGoodFile() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/kiosk.prom"
        #expect(writeAtomically(Data("good\n".utf8), to: path, mode: 0o640))
        var st = stat()
        stat(path, &st)
        #expect(st.st_mode & 0o777 == 0o640)
        // The temporary file cannot be made (a folder stands in its place): the write fails, the file stays.
        try FileManager.default.createDirectory(atPath: path + ".tmp", withIntermediateDirectories: false)
        #expect(!writeAtomically(Data("new\n".utf8), to: path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "good\n")
    }

    @Test func whatIsNotARegularFileIsNeverReplaced() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/metrics.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(notRegularFile(fifo) == "a FIFO")
        #expect(notRegularFile("/dev/null") == "a character device")
        #expect(notRegularFile(dir) == "a folder")
        #expect(notRegularFile(dir + "/none") == nil)
        #expect(!writeAtomically(Data("x".utf8), to: fifo))
        var st = stat()
        stat(fifo, &st)
        #expect(st.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
        #expect(MetricsFile(option: fifo, intervalSeconds: 15) == nil)
        #expect(MetricsFile(option: dir + "/kiosk.prom", intervalSeconds: 15) != nil)
    }

    /// The screen's picture is encoded whole in memory before any file is touched: a PNG that ends in IEND, also
    /// of pixels that do not compress (noise).
    @Test func theScreenPictureIsAWholePNG() throws {
        let surface = try #require(SDL_CreateRGBSurfaceWithFormat(0, 197, 131, 32, SDL_PIXELFORMAT_RGB888.rawValue))
        defer { SDL_FreeSurface(surface) }
        let pixels = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        for i in 0..<Int(surface.pointee.pitch / 4 * surface.pointee.h) {
            var z = UInt64(i) &* 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            pixels[i] = UInt32(truncatingIfNeeded: z ^ (z >> 27))
        }
        let png = try #require(ScreenPicture.png(surface))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Array(png.suffix(8)) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
    }
}

/// A storm of SIGUSR1 writes a picture per frame; the journal gets the first at once and then one line a minute
/// with the count, not 25 lines a second.
@Test func aStormOfScreenPicturesIsOneLineAMinute() {
    let picture = ScreenPicture(path: "/tmp/none.png")
    var said: [String] = []
    for i in 0..<2000 {
        let ms = Double(i) * 40
        let before = picture.linesSaid
        picture.sayWritten("screen picture", atMs: ms)
        if picture.linesSaid > before { said.append("\(Int(ms))") }
    }
    #expect(said == ["0", "60000"], "\(said)")
}
