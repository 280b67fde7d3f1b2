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
/// draws. One file per image, named after its path, rebuilt when the image's bytes change (a new time with the
/// same bytes, or the same bytes at a new path, keeps its tiles: `TileFile+Content.swift`):
///
///     64-byte header: "KIOSKRAW", version, width, height, tile size, overlap, SDL pixel format, opaque,
///                     the image file's size and modification time (ns), a digest of its bytes
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
        guard let header = Self.header(fd: fd) else {
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

    /// What became of an image's tile file.
    enum Opening {
        case file(TileFile)
        /// The picture does not decode to its end, or is too large for this machine: a placeholder, and why.
        case broken(String)
        /// The cache folder cannot take it (none, read-only, full): the caller keeps the tiles in memory.
        case notCut
    }

    /// The tile file of `image` (`width` x `height`, as its header says) in `folder`: opened if it is current,
    /// else cut now, from the picture read a band of rows at a time (an interlaced PNG or a CMYK JPEG, which are
    /// not read by rows, decoded whole). `progress` is called now and then while it is cut (the service's
    /// watchdog is fed: the work goes on).
    static func open(
        image: String, width w: Int, height h: Int, folder: String, opaqueFormat: UInt32, progress: () -> Void = {}
    ) -> Opening {
        var source = stat()
        guard stat(image, &source) == 0 else { return .notCut }
        let file = folder + "/" + Self.fileName(Self.key(image))
        if let kept = current(image: image, source: source, file: file) { return .file(kept) }
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
            access(folder, W_OK) == 0
        else { return .notCut }
        // The same bytes under a new time or a new path keep their tiles.
        let digest = contentDigest(image)
        if let digest, let kept = sameBytes(image: image, source: source, file: file, folder: folder, digest: digest) {
            return .file(kept)
        }
        // Its levels take a third more than the picture: a cache folder without that room is not filled.
        let p = DeepZoomImage(width: w, height: h, tileSize: tileSize, overlap: 1, format: "raw")
        let needed = levelOffsets(p).last ?? 0
        var fs = statvfs()
        if statvfs(folder, &fs) == 0, Int(fs.f_bavail) * Int(fs.f_frsize) < needed {
            log(
                .warning,
                "\(image): the cache folder \(folder) has less than the \(needed >> 20) MiB its tiles need; "
                    + "keeping them in memory")
            return .notCut
        }
        let start = SDL_GetTicks64()
        let temporary = file + ".\(getpid()).tmp"
        let failure: CutFailure?
        switch PictureRows.open(image) {
        case .broken(let why): return .broken(why)
        case .rows(let rows):
            failure = cut(rows, into: temporary, opaqueFormat: opaqueFormat, source: source, progress: progress)
        case .wholeOnly:
            failure = cutWhole(
                image, width: w, height: h, into: temporary, opaqueFormat: opaqueFormat, source: source,
                progress: progress)
        }
        if let failure {
            unlink(temporary)
            switch failure {
            case .picture(let why): return .broken(why)
            case .disk(let why):
                log(.warning, "\(image): cannot write its tiles into \(folder) (\(why)); keeping them in memory")
                return .notCut
            }
        }
        if let digest { _ = stamp(temporary, digest, at: digestOffset) }
        guard rename(temporary, file) == 0 else {
            unlink(temporary)
            return .notCut
        }
        log(.info, "\(image): cut into tiles in \(file) (\(SDL_GetTicks64() - start) ms); later starts read them")
        return TileFile(file: file, image: image, stat: source).map { .file($0) } ?? .notCut
    }

    /// The tile file of `image` in `folder` if it was cut from the image as it is now (nil: none, or it must be cut
    /// again): a look at the image's and the file's state and header, no cut.
    static func current(image: String, folder: String) -> TileFile? {
        var source = stat()
        guard stat(image, &source) == 0 else { return nil }
        return current(image: image, source: source, file: folder + "/" + Self.fileName(Self.key(image)))
    }

    static func current(image: String, source: stat, file: String) -> TileFile? {
        guard let kept = TileFile(file: file, image: image, stat: source) else { return nil }
        // Its time is when it was last used: the pruning of the cache keeps what is in use.
        utimensat(AT_FDCWD, file, nil, 0)
        return kept
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
