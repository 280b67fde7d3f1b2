import CSDL2
import CSDL2Image
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reading what an operator names (the manifest, its images, descriptors, logs, state) safely: a file is opened
/// without blocking and read only when it is a regular file, so a folder, a FIFO or a device named by mistake is
/// a one-line problem, never a trap (Foundation's non-throwing `FileHandle` reads trap on a read error) or a
/// read that waits forever.
enum RegularFile {
    /// Opens `path` for reading: the descriptor (the caller closes it) and the file's size, or why it cannot be
    /// read.
    static func open(_ path: String) -> Result<(fd: Int32, size: Int), ReadProblem> {
        guard !path.isEmpty else { return .failure(ReadProblem("no file named (an empty path)")) }
        guard !path.utf8.contains(0) else { return .failure(ReadProblem("the path contains a NUL character")) }
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            var problem = ReadProblem("cannot open the file (\(String(cString: strerror(errno))))")
            problem.isMissing = errno == ENOENT || errno == ENOTDIR
            return .failure(problem)
        }
        var s = stat()
        guard fstat(fd, &s) == 0 else {
            let why = String(cString: strerror(errno))
            Glibc.close(fd)
            return .failure(ReadProblem("cannot read the file (\(why))"))
        }
        let kind: String? =
            switch s.st_mode & S_IFMT {
            case S_IFREG: nil
            case S_IFDIR: "a folder"
            case S_IFIFO: "a FIFO"
            case S_IFCHR, S_IFBLK: "a device"
            case S_IFSOCK: "a socket"
            default: "not a regular file"
            }
        if let kind {
            Glibc.close(fd)
            return .failure(ReadProblem("is \(kind), not a file"))
        }
        return .success((fd, Int(s.st_size)))
    }

    /// Why `path` cannot be read as a file, or nil when it can.
    static func problem(_ path: String) -> String? {
        switch open(path) {
        case .success(let f):
            Glibc.close(f.fd)
            return nil
        case .failure(let p): return p.message
        }
    }

    /// The whole file, at most `limit` bytes (a larger one is a problem, not a read of gigabytes).
    static func read(_ path: String, limit: Int) -> Result<[UInt8], ReadProblem> {
        switch open(path) {
        case .failure(let p): return .failure(p)
        case .success(let f):
            defer { Glibc.close(f.fd) }
            guard f.size <= limit else {
                return .failure(ReadProblem("the file is \(f.size) bytes, more than the \(limit) a file here may be"))
            }
            return readAll(f.fd, limit: limit)
        }
    }

    /// `count` bytes from `offset` (fewer at the end of the file), or nil when the file cannot be read.
    static func bytes(_ path: String, at offset: Int = 0, count: Int) -> [UInt8]? {
        guard case .success(let f) = open(path) else { return nil }
        defer { Glibc.close(f.fd) }
        return bytes(f.fd, at: offset, count: count)
    }

    /// The first `head` and the last `tail` bytes of the file and its size, read with one open.
    static func ends(_ path: String, head: Int, tail: Int) -> (head: [UInt8], tail: [UInt8], size: Int)? {
        guard case .success(let f) = open(path) else { return nil }
        defer { Glibc.close(f.fd) }
        guard let h = bytes(f.fd, at: 0, count: head), let t = bytes(f.fd, at: max(0, f.size - tail), count: tail)
        else { return nil }
        return (h, t, f.size)
    }

    static func bytes(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + filled, count - filled, offset + filled)
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            filled += n
        }
        return Array(buffer.prefix(filled))
    }

    static func readAll(_ fd: Int32, limit: Int) -> Result<[UInt8], ReadProblem> {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(ReadProblem("cannot read the file (\(String(cString: strerror(errno))))")) }
            if n == 0 { return .success(out) }
            out.append(contentsOf: chunk.prefix(n))
            guard out.count <= limit else {
                return .failure(ReadProblem("the file is more than the \(limit) bytes a file here may be"))
            }
        }
    }

    /// The most a manifest, a descriptor or a state file may hold (64 MiB: a manifest of thousands of scenes is
    /// well under a megabyte).
    static let textLimit = 64 << 20
}

/// Writes all of `bytes` to `fd`; the error number when it could not (a write that stops short without one is a
/// full disk: `ENOSPC`), nil when all was written.
func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
        if n < 0 && errno == EINTR { continue }
        if n < 0 { return errno }
        if n == 0 { return ENOSPC }
        done += n
    }
    return nil
}

/// Why a file cannot be read, as a log line says it.
struct ReadProblem: Error {
    var message: String
    /// Nothing is there (or a link leads nowhere): for a state or calibration file, the normal case.
    var isMissing = false
    init(_ message: String) { self.message = message }
}

/// Decodes the image file at `path` (opened as `RegularFile.open` does, so what is checked is what is decoded),
/// or says why it cannot be: the caller frees the surface.
func decodeImage(_ path: String) -> Result<UnsafeMutablePointer<SDL_Surface>, ReadProblem> {
    switch RegularFile.open(path) {
    case .failure(let p): return .failure(p)
    case .success(let f):
        guard let file = fdopen(f.fd, "rb") else {
            Glibc.close(f.fd)
            return .failure(ReadProblem("cannot read the file (\(String(cString: strerror(errno))))"))
        }
        guard let rw = SDL_RWFromFP(file, SDL_TRUE) else {
            fclose(file)
            return .failure(ReadProblem("cannot read the file (\(sdlError()))"))
        }
        guard let surface = IMG_Load_RW(rw, 1) else { return .failure(ReadProblem(sdlError())) }
        return .success(surface)
    }
}
