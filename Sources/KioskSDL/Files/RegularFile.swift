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

    /// The whole file, at most `limit` bytes (a larger one is a problem, not a read of gigabytes), or why not (one
    /// that does not answer included: `answered`).
    static func read(_ path: String, limit: Int) -> Result<[UInt8], ReadProblem> {
        // A large file is given the time a slow card takes to read it, beside the time to answer.
        var st = stat()
        let size = stat(path, &st) == 0 ? Double(st.st_size) : 0
        return answered(path, seconds: answerSeconds + size / slowestBytesPerSecond) { readNow(path, limit: limit) }
    }

    /// The slowest reading a file is given time for: a worn SD card's (4 MB a second).
    static let slowestBytesPerSecond = 4_000_000.0

    static func readNow(_ path: String, limit: Int) -> Result<[UInt8], ReadProblem> {
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

    /// `count` bytes from `offset` (fewer at the end of the file), or nil when the file cannot be read (or does not
    /// answer: `answered`).
    static func bytes(_ path: String, at offset: Int = 0, count: Int) -> [UInt8]? {
        try? answered(path) { () -> Result<[UInt8], ReadProblem> in
            guard case .success(let f) = open(path) else { return .failure(ReadProblem("")) }
            defer { Glibc.close(f.fd) }
            return bytes(f.fd, at: offset, count: count).map { .success($0) } ?? .failure(ReadProblem(""))
        }.get()
    }

    /// The first `head` and the last `tail` bytes of the file and its size, read with one open.
    static func ends(_ path: String, head: Int, tail: Int) -> (head: [UInt8], tail: [UInt8], size: Int)? {
        let read = answered(path) { () -> Result<Ends, ReadProblem> in
            guard case .success(let f) = open(path) else { return .failure(ReadProblem("")) }
            defer { Glibc.close(f.fd) }
            guard let h = bytes(f.fd, at: 0, count: head),
                let t = bytes(f.fd, at: max(0, f.size - tail), count: tail)
            else { return .failure(ReadProblem("")) }
            return .success(Ends(head: h, tail: t, size: f.size))
        }
        guard case .success(let e) = read else { return nil }
        return (e.head, e.tail, e.size)
    }

    struct Ends: Sendable {
        var head: [UInt8]
        var tail: [UInt8]
        var size: Int
    }

    /// How long a read of a file may take before the file is taken for one on a share that stopped answering (an
    /// NFS or SMB share, a dying SD card): its reader is left waiting on a worker, the file is a problem said as
    /// such, and it is not read again this run (each read would wait again). Less than half the unit's
    /// `WatchdogSec`.
    static let answerSeconds = 4.0

    /// The files that did not answer in time.
    static let stalled = Stalled()

    /// What a file that did not answer in time is, as a line says it.
    static let stalledMessage =
        "the file did not answer within \(Int(answerSeconds)) s or more (a share that stopped answering, or a "
        + "failing card?); not read again until the kiosk starts again"

    final class Stalled: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: Set<String> = []
        func contains(_ path: String) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return paths.contains(path)
        }
        func insert(_ path: String) {
            lock.lock()
            paths.insert(path)
            lock.unlock()
        }
    }

    /// `read`, done on a worker and waited for at most `answerSeconds`: a file whose reads block (on a share
    /// that stopped answering) is a problem, not a wait for ever.
    static func answered<T: Sendable>(
        _ path: String, seconds: Double = answerSeconds, _ read: @escaping @Sendable () -> Result<T, ReadProblem>
    ) -> Result<T, ReadProblem> {
        let late = ReadProblem(stalledMessage)
        guard !stalled.contains(path) else { return .failure(late) }
        let job = WorkerResult(name: "kiosk-read", read)
        if let done = job.wait(seconds: seconds) { return done }
        stalled.insert(path)
        job.abandon { _ in }
        return .failure(late)
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
        // A picture cut short decodes with its missing part grey: a placeholder and its line instead, as
        // `--check` says it.
        if let head = RegularFile.bytes(f.fd, at: 0, count: 12),
            let tail = RegularFile.bytes(f.fd, at: max(0, f.size - 16), count: 16),
            let why = PictureHeader.endsEarly(head: head, tail: tail, size: f.size)
        {
            Glibc.close(f.fd)
            return .failure(ReadProblem(why))
        }
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
