import CSDL2
import Foundation
import Kiosk

#if canImport(Glibc)
    import Glibc
#endif

/// Why a picture was not cut into its tile file.
enum CutFailure: Error {
    /// The picture itself: it does not decode to its end, or there is no memory to cut it (the caller shows a
    /// placeholder).
    case picture(String)
    /// The cache folder: it could not be written (a full disk); the caller may keep the tiles in memory.
    case disk(String)
}

extension TileFile {
    /// Writes every tile of every level of a `width` x `height` picture into `path`, its rows given top to bottom
    /// by `nextRow` (in `format`, into the row it is handed; a reason when the picture cannot give it). Each
    /// level holds one band of tile rows (with the overlap above and below) and hands each pair of its rows,
    /// halved (each pixel the mean of a 2 x 2 block), to the level below as they come: the whole picture is
    /// never held, nor any whole level.
    static func cut(
        into path: String, width w: Int, height h: Int, format: UInt32, opaque: Bool, source: stat,
        progress: () -> Void, rows nextRow: (UnsafeMutablePointer<UInt32>) -> String?
    ) -> CutFailure? {
        let p = DeepZoomImage(width: w, height: h, tileSize: tileSize, overlap: 1, format: "raw")
        let offsets = levelOffsets(p)
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return .disk(String(cString: strerror(errno))) }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: headerSize)
        header.replaceSubrange(0..<8, with: magic)
        for (i, v) in [version, UInt32(w), UInt32(h), UInt32(tileSize), 1, format, opaque ? 1 : 0].enumerated() {
            put32(&header, 8 + 4 * i, v)
        }
        put64(&header, 36, UInt64(source.st_size))
        put64(&header, 44, nanoseconds(source.st_mtim))
        if let error = writeAll(fd, header) { return .disk(String(cString: strerror(error))) }
        guard ftruncate(fd, off_t(offsets.last ?? 0)) == 0 else { return .disk(String(cString: strerror(errno))) }
        var band: LevelBand?
        for level in 0...p.maxLevel {
            guard let next = LevelBand(level: level, pyramid: p, format: format, below: band) else {
                return .picture("no memory for a band of \(p.size(level: level).width) pixels")
            }
            band = next
        }
        guard let top = band else { return .disk("an empty pyramid") }
        let writer = BandWriter(fd: fd, pyramid: p, offsets: offsets)
        for y in 0..<h {
            if y % tileSize == 0 {
                // What the last band wrote goes to the disk before the service is told the work goes on: else it
                // all waited for the end's fsync (hundreds of megabytes, seconds on a card or a busy disk, with no
                // watchdog ping between; CI saw a gap of a second with the disk shared).
                if y > 0 { fdatasync(fd) }
                progress()
            }
            if let why = nextRow(top.nextRow) { return .picture(why) }
            top.commit(writer)
            if let error = writer.error { return .disk(String(cString: strerror(error))) }
        }
        guard fsync(fd) == 0 else { return .disk(String(cString: strerror(errno))) }
        return nil
    }

    /// Cuts the picture `rows` reads, a row at a time (converted from its RGBA into the kept format).
    static func cut(
        _ rows: PictureRows, into path: String, opaqueFormat: UInt32, source: stat, progress: () -> Void
    ) -> CutFailure? {
        let needed = cuttingBytes(width: rows.width, height: rows.height)
        if let problem = PictureLimits.memoryProblem(needed: needed, for: "\(rows.width)x\(rows.height)") {
            return .picture(problem)
        }
        let format = rows.hasAlpha ? SDL_PIXELFORMAT_ARGB8888.rawValue : opaqueFormat
        let line = UnsafeMutableRawPointer.allocate(byteCount: rows.width * 4, alignment: 16)
        defer { line.deallocate() }
        return cut(
            into: path, width: rows.width, height: rows.height, format: format, opaque: !rows.hasAlpha, source: source,
            progress: progress
        ) { out in
            if let why = rows.read(into: line, pitch: rows.width * 4, count: 1) { return why }
            let width = Int32(rows.width)
            guard SDL_ConvertPixels(width, 1, PictureRows.format, line, width * 4, format, out, width * 4) == 0 else {
                return sdlError()
            }
            return nil
        }
    }

    /// Cuts a picture decoded whole by SDL_image (what is not read by rows), converted to its kept format first
    /// (`width` x `height`: its header's, for the memory that takes).
    static func cutWhole(
        _ image: String, width w: Int, height h: Int, into path: String, opaqueFormat: UInt32, source: stat,
        progress: () -> Void
    ) -> CutFailure? {
        if let problem = PictureLimits.wholeDecodeProblem(width: w, height: h) {
            return .picture(problem)
        }
        let decoded: UnsafeMutablePointer<SDL_Surface>
        switch decodeImage(image) {
        case .success(let s): decoded = s
        case .failure(let p): return .picture(p.message)
        }
        let format = keptFormat(decoded, opaqueFormat)
        let opaque = KioskSDL.isOpaque(decoded)
        let converted = SDL_ConvertSurfaceFormat(decoded, format, 0)
        SDL_FreeSurface(decoded)
        guard let converted else { return .picture("cannot convert the picture (\(sdlError()))") }
        defer { SDL_FreeSurface(converted) }
        let pitch = Int(converted.pointee.pitch)
        let width = Int(converted.pointee.w)
        var y = 0
        return cut(
            into: path, width: width, height: Int(converted.pointee.h), format: format, opaque: opaque, source: source,
            progress: progress
        ) { out in
            UnsafeMutableRawPointer(out).copyMemory(from: converted.pointee.pixels + y * pitch, byteCount: width * 4)
            y += 1
            return nil
        }
    }

    /// Bytes held while cutting a `width`-wide picture: each level's band (its tile rows and their overlaps).
    static func cuttingBytes(width: Int, height: Int) -> Int {
        let p = DeepZoomImage(width: width, height: height, tileSize: tileSize, overlap: 1, format: "raw")
        return (0...p.maxLevel).reduce(0) { $0 + p.size(level: $1).width * (tileSize + 2) * 4 }
    }

    /// Where the tiles go, and the first write that failed (an errno).
    final class BandWriter {
        let fd: Int32
        let pyramid: DeepZoomImage
        let offsets: [Int]
        var error: Int32?
        init(fd: Int32, pyramid: DeepZoomImage, offsets: [Int]) {
            self.fd = fd
            self.pyramid = pyramid
            self.offsets = offsets
        }
    }

    /// One level of the pyramid on its way into the tile file: the band of one row of its tiles with the overlap
    /// above and below, and the level below, fed a halved row for each pair of this one's.
    final class LevelBand {
        let level: Int
        let width: Int
        let height: Int
        let surface: UnsafeMutablePointer<SDL_Surface>
        /// Pixels from one row to the next.
        let pitch: Int
        let below: LevelBand?
        /// The level's row that is the band's first, how many rows the band holds, and the row of tiles it fills.
        var top = 0
        var filled = 0
        var tileRow = 0

        init?(level: Int, pyramid p: DeepZoomImage, format: UInt32, below: LevelBand?) {
            let s = p.size(level: level)
            guard let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(s.width), Int32(tileSize + 2), 32, format)
            else { return nil }
            self.level = level
            width = s.width
            height = s.height
            self.surface = surface
            pitch = Int(surface.pointee.pitch) / 4
            self.below = below
        }

        deinit { SDL_FreeSurface(surface) }

        var pixels: UnsafeMutablePointer<UInt32> { surface.pointee.pixels.assumingMemoryBound(to: UInt32.self) }
        /// Where the level's row `y` is in the band.
        func row(_ y: Int) -> UnsafeMutablePointer<UInt32> { pixels + (y - top) * pitch }
        /// Where the next row goes.
        var nextRow: UnsafeMutablePointer<UInt32> { pixels + filled * pitch }

        /// Takes the row just put at `nextRow`: halves it with the one before into the level below (an odd row,
        /// or the level's last), and writes the band's tiles once it holds their last row.
        func commit(_ writer: BandWriter) {
            let y = top + filled
            filled += 1
            if let below, y % 2 == 1 || y == height - 1 {
                let upper = row(y % 2 == 1 ? y - 1 : y)
                let lower = row(y)
                let out = below.nextRow
                for tx in 0..<below.width {
                    let x = 2 * tx
                    let x2 = min(x + 1, width - 1)
                    out[tx] = TileFile.mean(upper[x], upper[x2], lower[x], lower[x2])
                }
                below.commit(writer)
            }
            let end = min(height, (tileRow + 1) * tileSize + 1)
            guard top + filled == end else { return }
            errno = 0
            if writer.error == nil,
                !writeRow(
                    surface, bandTop: top, level: level, row: tileRow, writer.pyramid, writer.offsets, writer.fd)
            {
                writer.error = errno == 0 ? ENOSPC : errno
            }
            tileRow += 1
            // The next row of tiles starts with the overlap: the last two rows stay, moved to the band's top.
            let nextTop = max(0, tileRow * tileSize - 1)
            guard nextTop < end else { return }
            memmove(pixels, row(nextTop), (end - nextTop) * pitch * 4)
            filled = end - nextTop
            top = nextTop
        }
    }

    /// Writes the tiles of one row of `level` from `band`, whose first row is the level's row `bandTop`.
    static func writeRow(
        _ band: UnsafeMutablePointer<SDL_Surface>, bandTop: Int, level: Int, row: Int, _ p: DeepZoomImage,
        _ offsets: [Int], _ fd: Int32
    ) -> Bool {
        let pitch = Int(band.pointee.pitch)
        let pixels = band.pointee.pixels.assumingMemoryBound(to: UInt8.self)
        for column in 0..<p.tiles(level: level).columns {
            let r = p.storedRect(level: level, column: column, row: row)
            var bytes = [UInt8](repeating: 0, count: r.width * r.height * 4)
            bytes.withUnsafeMutableBufferPointer { out in
                for y in 0..<r.height {
                    let from = pixels + (r.y - bandTop + y) * pitch + r.x * 4
                    (out.baseAddress! + y * r.width * 4).update(from: from, count: r.width * 4)
                }
            }
            let at = offset(p, offsets, level: level, column: column, row: row)
            guard pwrite(fd, bytes, bytes.count, off_t(at)) == bytes.count else { return false }
        }
        return true
    }

    /// The mean of four pixels, each of the four bytes on its own, rounded.
    @inline(__always) static func mean(_ p: UInt32, _ q: UInt32, _ r: UInt32, _ s: UInt32) -> UInt32 {
        let lo: UInt32 = 0x00FF_00FF
        let evens = (p & lo) + (q & lo) + (r & lo) + (s & lo) + 0x0002_0002
        let odds = ((p >> 8) & lo) + ((q >> 8) & lo) + ((r >> 8) & lo) + ((s >> 8) & lo) + 0x0002_0002
        return ((evens >> 2) & lo) | (((odds >> 2) & lo) << 8)
    }
}
