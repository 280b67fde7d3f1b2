import CSDL2
import CSDL2Image
import Foundation
import Kiosk

#if canImport(Glibc)
    import Glibc
#endif

/// A plain image too large for one texture, cut once into the tiles of a pyramid and kept in the cache folder
/// as raw pixels: after a restart its tiles are read as they are needed (no PNG or JPEG is decoded again, and
/// no copy of the whole picture is held), so the kiosk shows content sooner and holds only the textures it
/// draws. One file per image, named after its path, rebuilt when the image's size or time changes:
///
///     64-byte header: "KIOSKRAW", version, width, height, tile size, overlap, SDL pixel format, opaque,
///                     the image file's size and modification time (ns)
///     the tiles, level 0 first, each level's rows top to bottom, each tile's rows packed (4 bytes a pixel)
final class TileFile: TileSource, @unchecked Sendable {
    static let magic = Array("KIOSKRAW".utf8)
    static let version: UInt32 = 1
    static let headerSize = 64
    static let tileSize = 512

    let pyramid: DeepZoomImage
    let name: String
    let fd: Int32
    let pixelFormat: UInt32
    let isOpaque: Bool
    /// Each level's first tile's offset in the file.
    let levelOffsets: [Int]
    var isCheap: Bool { false }

    /// Opens a tile file if it is complete and was cut from the image as it is now.
    init?(file: String, image: String, stat source: stat) {
        let fd = Glibc.open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var header = [UInt8](repeating: 0, count: Self.headerSize)
        guard pread(fd, &header, header.count, 0) == header.count, Array(header[0..<8]) == Self.magic,
            Self.u32(header, 8) == Self.version
        else {
            close(fd)
            return nil
        }
        let width = Int(Self.u32(header, 12))
        let height = Int(Self.u32(header, 16))
        let pyramid = DeepZoomImage(
            width: width, height: height, tileSize: Int(Self.u32(header, 20)), overlap: Int(Self.u32(header, 24)),
            format: "raw")
        let offsets = Self.levelOffsets(pyramid)
        var st = stat()
        guard width > 0, height > 0, Self.u64(header, 36) == UInt64(source.st_size),
            Self.u64(header, 44) == Self.nanoseconds(source.st_mtim), fstat(fd, &st) == 0,
            Int(st.st_size) == offsets.last
        else {
            close(fd)
            return nil
        }
        self.fd = fd
        self.pyramid = pyramid
        name = image
        pixelFormat = Self.u32(header, 28)
        isOpaque = Self.u32(header, 32) != 0
        levelOffsets = offsets
    }

    /// Where each level starts, and (last) where the file ends.
    static func levelOffsets(_ p: DeepZoomImage) -> [Int] {
        var offsets = [headerSize]
        for level in 0...p.maxLevel {
            let s = p.size(level: level)
            let grid = p.tiles(level: level)
            // Every stored rectangle of a level, added up: each row of tiles is as tall as its tiles, each column
            // as wide; the overlaps count twice where tiles share them.
            var widths = 0
            for c in 0..<grid.columns { widths += p.storedRect(level: level, column: c, row: 0).width }
            var heights = 0
            for r in 0..<grid.rows { heights += p.storedRect(level: level, column: 0, row: r).height }
            _ = s
            offsets.append(offsets[offsets.count - 1] + widths * heights * 4)
        }
        return offsets
    }

    /// A tile's offset in the file.
    func offset(level: Int, column: Int, row: Int) -> Int {
        Self.offset(pyramid, levelOffsets, level: level, column: column, row: row)
    }

    static func offset(_ p: DeepZoomImage, _ levels: [Int], level: Int, column: Int, row: Int) -> Int {
        let grid = p.tiles(level: level)
        var widths = 0
        for c in 0..<grid.columns { widths += p.storedRect(level: level, column: c, row: 0).width }
        var above = 0
        for r in 0..<row { above += p.storedRect(level: level, column: 0, row: r).height }
        let height = p.storedRect(level: level, column: 0, row: row).height
        var left = 0
        for c in 0..<column { left += p.storedRect(level: level, column: c, row: row).width }
        return levels[level] + (above * widths + height * left) * 4
    }

    func describe(level: Int, column: Int, row: Int) -> String { "\(name) (level \(level), tile \(column)_\(row))" }

    func surface(level: Int, column: Int, row: Int) -> UnsafeMutablePointer<SDL_Surface>? {
        guard level >= 0, level <= pyramid.maxLevel else { return nil }
        let grid = pyramid.tiles(level: level)
        guard column >= 0, row >= 0, column < grid.columns, row < grid.rows else { return nil }
        let r = pyramid.storedRect(level: level, column: column, row: row)
        guard let s = SDL_CreateRGBSurfaceWithFormat(0, Int32(r.width), Int32(r.height), 32, pixelFormat) else {
            return nil
        }
        let bytes = r.width * 4
        let start = offset(level: level, column: column, row: row)
        var ok = true
        if Int(s.pointee.pitch) == bytes {
            ok = pread(fd, s.pointee.pixels, bytes * r.height, off_t(start)) == bytes * r.height
        } else {
            for y in 0..<r.height where ok {
                let line = s.pointee.pixels + y * Int(s.pointee.pitch)
                ok = pread(fd, line, bytes, off_t(start + y * bytes)) == bytes
            }
        }
        guard ok else {
            // The file was cut short (a full disk): the tile is a placeholder; the next start cuts it again.
            SDL_FreeSurface(s)
            return nil
        }
        return s
    }

    deinit { close(fd) }

    // MARK: Cutting

    /// The tile file of `image` in `folder`: opened if it is current, else cut from the decoded image now.
    /// Nil when the folder cannot be written or the image cannot be decoded (the caller decodes it itself).
    static func open(image: String, folder: String, opaqueFormat: UInt32) -> TileFile? {
        var source = stat()
        guard stat(image, &source) == 0 else { return nil }
        let file = folder + "/" + Self.fileName(Self.key(image))
        if let kept = TileFile(file: file, image: image, stat: source) {
            // Its time is when it was last used: the pruning of the cache keeps what is in use.
            utimensat(AT_FDCWD, file, nil, 0)
            return kept
        }
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
            access(folder, W_OK) == 0
        else { return nil }
        let start = SDL_GetTicks64()
        guard case .success(let decoded) = decodeImage(image) else { return nil }
        // Its levels take a third more than the picture: a cache folder without that room is not filled.
        let needed = Int(decoded.pointee.w) * Int(decoded.pointee.h) * 4 * 4 / 3
        var fs = statvfs()
        if statvfs(folder, &fs) == 0, Int(fs.f_bavail) * Int(fs.f_frsize) < needed {
            log(
                .warning,
                "\(image): the cache folder \(folder) has less than the \(needed >> 20) MiB its tiles need; "
                    + "keeping them in memory")
            SDL_FreeSurface(decoded)
            return nil
        }
        let temporary = file + ".\(getpid()).tmp"
        let written = cut(
            decoded, into: temporary, format: keptFormat(decoded, opaqueFormat), opaque: KioskSDL.isOpaque(decoded),
            source: source)
        SDL_FreeSurface(decoded)
        guard written, rename(temporary, file) == 0 else {
            unlink(temporary)
            return nil
        }
        log(.info, "\(image): cut into tiles in \(file) (\(SDL_GetTicks64() - start) ms); later starts read them")
        return TileFile(file: file, image: image, stat: source)
    }

    /// What names an image's tile file: its real path (the same picture reached through symlinks, or from
    /// another working folder, is one file).
    static func key(_ image: String) -> String {
        guard let real = realpath(image, nil) else {
            return image.hasPrefix("/") ? image : FileManager.default.currentDirectoryPath + "/" + image
        }
        defer { free(real) }
        return String(cString: real)
    }

    /// Keeps the cache folder from growing without end as content changes over the years: tile files that
    /// `images` do not use go once unused for `unusedDays`, and the oldest of them go while they take more
    /// than `unusedBytes` together. What the manifest uses is never touched; a cut left half-done by a crash
    /// (`*.tmp`) goes after an hour.
    static func prune(_ folder: String, keeping images: [String], now: Date = Date()) {
        let keep = Set(images.map { fileName(key($0)) })
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        var unused: [(name: String, size: Int, age: Double)] = []
        for name in names where name.hasSuffix(".tiles") || name.hasSuffix(".tmp") {
            var st = stat()
            guard stat(folder + "/" + name, &st) == 0 else { continue }
            let age = now.timeIntervalSince1970 - Double(st.st_mtim.tv_sec)
            if name.hasSuffix(".tmp") {
                if age > 3600 { unlink(folder + "/" + name) }
            } else if !keep.contains(name) {
                unused.append((name, Int(st.st_size), age))
            }
        }
        var total = unused.reduce(0) { $0 + $1.size }
        for file in unused.sorted(by: { $0.age > $1.age })
        where file.age > unusedDays * 86_400 || total > unusedBytes {
            if unlink(folder + "/" + file.name) == 0 {
                total -= file.size
                log(.info, "\(folder)/\(file.name): removed from the cache (unused)")
            }
        }
    }

    /// How long a tile file no image uses is kept (days), and how much such files may take together.
    static let unusedDays = 30.0
    static let unusedBytes = 1 << 30

    /// The file's name: the image's path, hashed (FNV-1a, 64 bits).
    static func fileName(_ path: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in path.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return String(h, radix: 16) + ".tiles"
    }

    /// Writes every tile of every level of `decoded` into `path`. The top level is converted a band of tile
    /// rows at a time; each lower level is the one above halved (each pixel the mean of a 2 x 2 block), so no
    /// second copy of the whole picture is ever held.
    static func cut(
        _ decoded: UnsafeMutablePointer<SDL_Surface>, into path: String, format: UInt32, opaque: Bool, source: stat
    ) -> Bool {
        let w = Int(decoded.pointee.w)
        let h = Int(decoded.pointee.h)
        let p = DeepZoomImage(width: w, height: h, tileSize: tileSize, overlap: 1, format: "raw")
        let offsets = levelOffsets(p)
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: headerSize)
        header.replaceSubrange(0..<8, with: magic)
        for (i, v) in [version, UInt32(w), UInt32(h), UInt32(tileSize), 1, format, opaque ? 1 : 0].enumerated() {
            put32(&header, 8 + 4 * i, v)
        }
        put64(&header, 36, UInt64(source.st_size))
        put64(&header, 44, nanoseconds(source.st_mtim))
        guard pwrite(fd, header, header.count, 0) == header.count, ftruncate(fd, off_t(offsets.last ?? 0)) == 0
        else { return false }
        SDL_SetSurfaceBlendMode(decoded, SDL_BLENDMODE_NONE)
        let top = p.maxLevel
        let half = p.size(level: max(0, top - 1))
        guard let next = SDL_CreateRGBSurfaceWithFormat(0, Int32(half.width), Int32(half.height), 32, format) else {
            return false
        }
        var ok = true
        // The top level, one band of tile rows (with the overlap above and below) at a time.
        for row in 0..<p.tiles(level: top).rows where ok {
            let y0 = max(0, row * tileSize - 1)
            let y1 = min(h, (row + 1) * tileSize + 1)
            guard let band = SDL_CreateRGBSurfaceWithFormat(0, Int32(w), Int32(y1 - y0), 32, format) else {
                ok = false
                break
            }
            var from = SDL_Rect(x: 0, y: Int32(y0), w: Int32(w), h: Int32(y1 - y0))
            SDL_UpperBlit(decoded, &from, band, nil)
            ok = writeRow(band, bandTop: y0, level: top, row: row, p, offsets, fd)
            // This band's own rows, halved, into the level below.
            if top > 0 {
                halve(
                    band, rows: (row * tileSize - y0)..<(min(h, (row + 1) * tileSize) - y0), into: next,
                    at: row * tileSize / 2)
            }
            SDL_FreeSurface(band)
        }
        // Each lower level from the one above.
        var level = top - 1
        var current: UnsafeMutablePointer<SDL_Surface>? = top > 0 ? next : nil
        if top == 0 { SDL_FreeSurface(next) }
        while ok, level >= 0, let surface = current {
            for row in 0..<p.tiles(level: level).rows where ok {
                ok = writeRow(surface, bandTop: 0, level: level, row: row, p, offsets, fd)
            }
            var below: UnsafeMutablePointer<SDL_Surface>?
            if level > 0 {
                let s = p.size(level: level - 1)
                below = SDL_CreateRGBSurfaceWithFormat(0, Int32(s.width), Int32(s.height), 32, format)
                if let below { halve(surface, rows: 0..<Int(surface.pointee.h), into: below, at: 0) }
            }
            SDL_FreeSurface(surface)
            current = below
            level -= 1
        }
        if let current { SDL_FreeSurface(current) }
        return ok && fsync(fd) == 0
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

    /// Rows `rows` of `source` (an even number from an even start, but for the image's last) halved into
    /// `target` from its row `at`: each pixel the mean of the 2 x 2 block above it (of what exists at an odd
    /// edge), channel by channel.
    static func halve(
        _ source: UnsafeMutablePointer<SDL_Surface>, rows: Range<Int>, into target: UnsafeMutablePointer<SDL_Surface>,
        at: Int
    ) {
        let sw = Int(source.pointee.w)
        let tw = Int(target.pointee.w)
        let th = Int(target.pointee.h)
        let sp = Int(source.pointee.pitch) / 4
        let tp = Int(target.pointee.pitch) / 4
        let src = source.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        let dst = target.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        var y = rows.lowerBound
        var ty = at
        while y < rows.upperBound && ty < th {
            let a = src + y * sp
            let b = y + 1 < rows.upperBound ? src + (y + 1) * sp : a
            let out = dst + ty * tp
            for tx in 0..<tw {
                let x = 2 * tx
                let x2 = min(x + 1, sw - 1)
                out[tx] = mean(a[x], a[x2], b[x], b[x2])
            }
            y += 2
            ty += 1
        }
    }

    /// The mean of four pixels, each of the four bytes on its own, rounded.
    @inline(__always) static func mean(_ p: UInt32, _ q: UInt32, _ r: UInt32, _ s: UInt32) -> UInt32 {
        let lo: UInt32 = 0x00FF_00FF
        let evens = (p & lo) + (q & lo) + (r & lo) + (s & lo) + 0x0002_0002
        let odds = ((p >> 8) & lo) + ((q >> 8) & lo) + ((r >> 8) & lo) + ((s >> 8) & lo) + 0x0002_0002
        return ((evens >> 2) & lo) | (((odds >> 2) & lo) << 8)
    }

    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
    static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }
    static func put32(_ b: inout [UInt8], _ i: Int, _ v: UInt32) {
        for k in 0..<4 { b[i + k] = UInt8(truncatingIfNeeded: v >> (8 * k)) }
    }
    static func put64(_ b: inout [UInt8], _ i: Int, _ v: UInt64) {
        put32(&b, i, UInt32(truncatingIfNeeded: v))
        put32(&b, i + 4, UInt32(truncatingIfNeeded: v >> 32))
    }
    static func nanoseconds(_ t: timespec) -> UInt64 { UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec) }
}

/// The folder kept content goes in: systemd's `$CACHE_DIRECTORY` (`CacheDirectory=kiosk` in the unit), else
/// `$XDG_CACHE_HOME/kiosk` or `~/.cache/kiosk`.
func cacheFolder(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    if let dirs = environment["CACHE_DIRECTORY"], let first = dirs.split(separator: ":").first {
        return String(first)
    }
    if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/kiosk" }
    if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/kiosk" }
    return nil
}
