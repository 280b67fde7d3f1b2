import CLastWords
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file written line by line (`--trace`, `--record`), buffered, flushed when the buffer is full, when a line
/// has waited `maximumDelayMs`, when the caller says a line matters now (`flush(ifDueAt:now:)`), and on close:
/// a `kill -9` of a real-time kiosk loses at most its last second. A crash the process can still catch (a Swift
/// runtime trap, a fault, an abort) writes what the buffer holds before the process ends (`Sources/CLastWords`
/// keeps the buffer where its signal handler finds it). Written, not fsynced: the lines are for a person
/// following them (`tail -f`), and the kernel keeps them through a crash of the process. A write that fails (a
/// full disk) is said once; the kiosk runs on.
final class OutputFile {
    let path: String
    let fd: Int32
    /// The bytes not yet written, and how many: registered with the crash handler (when one of its slots is
    /// free, else the file's own).
    private let pending: UnsafeMutablePointer<kiosk_pending>
    private let registered: Bool
    /// When (real ms) the oldest line in the buffer was written; nil when it is empty.
    private var waitingSince: Double?
    private var warned = false
    private var closed = false
    /// How long a line may wait in the buffer.
    static let maximumDelayMs = 1000.0
    static let capacity = 1 << 16

    init(_ path: String) throws(KioskError) {
        self.path = path
        fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .other("\(path): cannot write the file (\(String(cString: strerror(errno))))") }
        kiosk_last_words_install()
        if let slot = kiosk_last_words_slot(fd, Self.capacity) {
            pending = slot
            registered = true
        } else {
            pending = .allocate(capacity: 1)
            let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.capacity)
            pending.initialize(to: kiosk_pending(fd: fd, bytes: bytes, count: 0))
            registered = false
        }
    }

    var count: Int { pending.pointee.count }

    /// Appends `s`; `realMs` is when (for the flush within a second).
    func write(_ s: String, at realMs: Double = 0) {
        var s = s
        s.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, utf8.count > 0 else { return }
            if count + utf8.count > Self.capacity { flush() }
            guard utf8.count <= Self.capacity else { return writeOut(base, utf8.count) }
            if count == 0 { waitingSince = realMs }
            let buffer = UnsafeMutablePointer(mutating: pending.pointee.bytes!)
            (buffer + count).update(from: base, count: utf8.count)
            // Raised after the bytes are in: a crash in between writes the lines before them.
            pending.pointee.count = count + utf8.count
        }
    }

    /// Flushes when a line has waited `maximumDelayMs` at `realMs`, or at once (`now`: a frame with events,
    /// the loop about to sleep).
    func flush(ifDueAt realMs: Double, now: Bool = false) {
        guard let since = waitingSince, now || realMs - since >= Self.maximumDelayMs else { return }
        flush()
    }

    func flush() {
        waitingSince = nil
        guard count > 0, let bytes = pending.pointee.bytes else { return }
        writeOut(bytes, count)
        pending.pointee.count = 0
    }

    private func writeOut(_ bytes: UnsafePointer<UInt8>, _ n: Int) {
        var done = 0
        while done < n {
            let written = Glibc.write(fd, bytes + done, n - done)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let why = written == 0 ? ENOSPC : errno
                if !warned {
                    log(
                        .warning,
                        "\(path): cannot write (\(String(cString: strerror(why)))); lines are lost until it can")
                }
                warned = true
                return
            }
            done += written
        }
    }

    func close() {
        guard !closed else { return }
        flush()
        closed = true
        if registered {
            kiosk_last_words_release(pending)
        } else {
            pending.pointee.bytes.map { UnsafeMutablePointer(mutating: $0).deallocate() }
            pending.deallocate()
        }
        Glibc.close(fd)
    }

    deinit { close() }
}
