import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tile file belongs to its picture's bytes, not to its file's time: a content update that copies the same
/// picture again (`cp`, `rsync` without `--times`, a checkout, `kiosk new` run again) or moves the content to a
/// new folder keeps its tiles. The time stays the quick test; when it differs the picture is read once, on the
/// worker that would have cut it, and its digest compared with the one each tile file keeps in its header.
extension TileFile {
    /// Where the header keeps the digest of the picture's bytes (0 in a file cut before it was kept: none).
    static let digestOffset = 52
    /// Where it keeps the picture's modification time.
    static let timeOffset = 44

    /// A digest of the file's bytes (64 bits, never 0), read a megabyte at a time; nil when it cannot be read.
    static func contentDigest(_ path: String) -> UInt64? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15
        var total: UInt64 = 0
        while true {
            // Filled whole before it is mixed: the digest does not depend on how the reads came back.
            var filled = 0
            while filled < size {
                let n = read(fd, buffer + filled, size - filled)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { return nil }
                if n == 0 { break }
                filled += n
            }
            var i = 0
            while i + 8 <= filled {
                h = mix(h ^ buffer.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                i += 8
            }
            while i < filled {
                h = mix(h ^ UInt64(buffer.load(fromByteOffset: i, as: UInt8.self)))
                i += 1
            }
            total += UInt64(filled)
            if filled < size { break }
        }
        let digest = mix(h ^ total)
        return digest == 0 ? 1 : digest
    }

    /// One step of the digest (the multiply and shift of MurmurHash3's 64-bit finaliser, fmix64).
    private static func mix(_ x: UInt64) -> UInt64 {
        var h = (x ^ (x >> 33)) &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        return h
    }

    /// The tile file of `image` in `folder` (`file`) when one of the folder's tile files was cut from the same
    /// bytes (`digest`): its own, or another path's (linked to its name). Its header takes the image's time, so
    /// the next look is the quick one again.
    static func sameBytes(image: String, source: stat, file: String, folder: String, digest: UInt64) -> TileFile? {
        let name = (file as NSString).lastPathComponent
        let others = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            $0.hasSuffix(".tiles") && $0 != name
        }
        for candidate in [name] + others.sorted() {
            let path = folder + "/" + candidate
            guard let header = header(of: path), u64(header, 36) == UInt64(source.st_size),
                u64(header, digestOffset) == digest
            else { continue }
            if candidate != name {
                let temporary = file + ".\(getpid()).tmp"
                unlink(temporary)
                guard link(path, temporary) == 0 else { continue }
                guard rename(temporary, file) == 0 else {
                    unlink(temporary)
                    continue
                }
            }
            guard stamp(file, UInt64(nanoseconds(source.st_mtim)), at: timeOffset),
                let kept = TileFile(file: file, image: image, stat: source)
            else { continue }
            log(.info, "\(image): the same bytes as when its tiles were cut (\(path)); they are used as they are")
            return kept
        }
        return nil
    }

    /// The first bytes of a tile file, if it is one.
    static func header(of path: String) -> [UInt8]? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return header(fd: fd)
    }

    /// The first bytes of the open file `fd`, if it is a tile file of this version.
    static func header(fd: Int32) -> [UInt8]? {
        var header = [UInt8](repeating: 0, count: headerSize)
        guard pread(fd, &header, header.count, 0) == header.count, Array(header[0..<8]) == magic,
            u32(header, 8) == version
        else { return nil }
        return header
    }

    /// Writes `value` into the header of the tile file at `path`, at `offset`.
    static func stamp(_ path: String, _ value: UInt64, at offset: Int) -> Bool {
        let fd = Glibc.open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 8)
        put64(&bytes, 0, value)
        return pwrite(fd, bytes, 8, off_t(offset)) == 8
    }
}
