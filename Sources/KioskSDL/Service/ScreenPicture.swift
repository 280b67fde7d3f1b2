import CSDL2
import CSDL2Image
import Foundation
import Kiosk
import ScrollEngine

/// A picture of the screen on `SIGUSR1` (docs/operations.md, `systemctl kill -s USR1 kiosk`): the next frame drawn, as
/// shown (rotation included), read back before it is presented, then shrunk to at most `maximumWidth` pixels
/// wide and written as `$STATE_DIRECTORY/screen.png` (written beside it, then renamed) on a thread of its own,
/// so that no frame waits for the encoding. One at a time: a request while one is written is that one.
final class ScreenPicture: @unchecked Sendable {
    /// Where it goes; nil without `$STATE_DIRECTORY` (a request is then said once and dropped).
    let path: String?
    private(set) var isRequested = false
    private let lock = NSLock()
    private var isWriting = false
    private var warned = false
    static let maximumWidth = 960

    init(path: String? = ProcessInfo.processInfo.environment["STATE_DIRECTORY"].map { $0 + "/screen.png" }) {
        self.path = path
    }

    /// A SIGUSR1 arrived: the next frame is read.
    func request() {
        guard path != nil else {
            if !warned { log(.warning, "screen picture: no $STATE_DIRECTORY to write screen.png in; asked in vain") }
            warned = true
            return
        }
        isRequested = true
    }

    /// Before a frame is presented: when asked, its pixels are read (the one cost on the frame loop) and handed
    /// to the writer; nothing when a picture is still being written.
    func takeIfRequested(_ renderer: OpaquePointer, size: Size) {
        guard isRequested, let path else { return }
        isRequested = false
        lock.lock()
        let busy = isWriting
        if !busy { isWriting = true }
        lock.unlock()
        guard !busy else { return }
        let (w, h) = (Int32(size.width), Int32(size.height))
        guard let frame = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGB888.rawValue),
            SDL_RenderReadPixels(
                renderer, nil, SDL_PIXELFORMAT_RGB888.rawValue, frame.pointee.pixels, frame.pointee.pitch)
                == 0
        else {
            log(.warning, "screen picture: cannot read the screen (\(sdlError()))")
            finish()
            return
        }
        let box = SurfaceBox(surface: frame)
        let t = Thread { [self] in
            SignalListener.leaveSignalsToTheMainThread()
            write(box.surface!, to: path)
            SDL_FreeSurface(box.surface)
            finish()
        }
        t.name = "kiosk-screen-picture"
        t.start()
    }

    private func finish() {
        lock.lock()
        isWriting = false
        lock.unlock()
    }

    /// Pictures written since the last line said so, and when that was (ms of SDL's clock).
    private var unsaid = 0
    private var lastSaidMs = -Double.infinity
    /// Lines said so far (for the tests).
    private(set) var linesSaid = 0
    /// A storm of SIGUSR1 (a monitoring loop gone wrong) writes a picture per frame: one line a minute says so.
    static let sayEveryMs = 60_000.0

    /// The line for a picture written at `ms`: the first at once, then at most one a minute with the count.
    func sayWritten(_ line: String, atMs ms: Double) {
        lock.lock()
        unsaid += 1
        let due = ms - lastSaidMs >= Self.sayEveryMs
        let count = unsaid
        if due {
            unsaid = 0
            lastSaidMs = ms
        }
        lock.unlock()
        guard due else { return }
        linesSaid += 1
        log(.info, count > 1 ? "\(line) (\(count) pictures written since the last line)" : line)
    }

    /// `surface` as a whole PNG in memory (ending in its IEND chunk), nil when SDL_image could not encode it: the
    /// file is written only from a picture known whole.
    static func png(_ surface: UnsafeMutablePointer<SDL_Surface>) -> Data? {
        // Deflate's stored blocks bound the size: the raw rows (a filter byte each, four bytes a pixel, whichever
        // of RGB or RGBA SDL_image writes), 5 bytes a 16 KiB block, and the chunks around them.
        let raw = Int(surface.pointee.h) * (Int(surface.pointee.w) * 4 + 1)
        var buffer = [UInt8](repeating: 0, count: raw + raw / 16_384 * 5 + 4096)
        let count = buffer.withUnsafeMutableBytes { (b) -> Int in
            guard let rw = SDL_RWFromMem(b.baseAddress, Int32(b.count)) else { return 0 }
            guard IMG_SavePNG_RW(surface, rw, 0) == 0 else {
                SDL_RWclose(rw)
                return 0
            }
            let end = Int(SDL_RWtell(rw))
            SDL_RWclose(rw)
            return end
        }
        let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        guard count >= 20, Array(buffer[count - 8..<count]) == iend else { return nil }
        return Data(buffer[0..<count])
    }

    /// `frame` shrunk to at most `maximumWidth` wide (linear), as a PNG at `path`, atomically.
    private func write(_ frame: UnsafeMutablePointer<SDL_Surface>, to path: String) {
        let scale = min(1, Double(Self.maximumWidth) / Double(max(1, frame.pointee.w)))
        let (w, h) = (
            max(1, Int32((Double(frame.pointee.w) * scale).rounded())),
            max(1, Int32((Double(frame.pointee.h) * scale).rounded()))
        )
        guard let small = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGB888.rawValue) else { return }
        defer { SDL_FreeSurface(small) }
        guard SDL_SoftStretchLinear(frame, nil, small, nil) == 0, let png = Self.png(small) else {
            log(.warning, "screen picture: cannot encode the screen (\(sdlError()))")
            return
        }
        guard writeAtomically(png, to: path, mode: MetricsFile.groupReadable) else {
            log(
                .warning,
                "screen picture: cannot write \(path) (\(String(cString: strerror(errno)))); the last one stays")
            return
        }
        sayWritten("screen picture: \(path), \(w)x\(h)", atMs: Double(SDL_GetTicks64()))
    }
}
