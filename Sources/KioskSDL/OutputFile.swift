import Foundation

/// A file written line by line (`--trace`, `--record`), buffered, flushed when the buffer is large, when a line
/// has waited `maximumDelayMs`, when the caller says a line matters now (`flush(ifDueAt:now:)`), and on close:
/// a `kill -9` of a real-time kiosk loses at most its last second. Written, not fsynced: the lines are for a
/// person following them (`tail -f`), and the kernel keeps them through a crash of the process. A write that
/// fails (a full disk) is said once; the kiosk runs on.
final class OutputFile {
    let path: String
    let handle: FileHandle
    var buffer: [UInt8] = []
    /// When (real ms) the oldest line in the buffer was written; nil when it is empty.
    private var waitingSince: Double?
    private var warned = false
    /// How long a line may wait in the buffer.
    static let maximumDelayMs = 1000.0

    init(_ path: String) throws(KioskError) {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path)
        else {
            throw .other("\(path): cannot write the file")
        }
        handle = h
        buffer.reserveCapacity(1 << 16)
    }

    /// Appends `s`; `realMs` is when (for the flush within a second).
    func write(_ s: String, at realMs: Double = 0) {
        if buffer.isEmpty { waitingSince = realMs }
        buffer.append(contentsOf: s.utf8)
        if buffer.count > 1 << 16 { flush() }
    }

    /// Flushes when a line has waited `maximumDelayMs` at `realMs`, or at once (`now`: a frame with events,
    /// the loop about to sleep).
    func flush(ifDueAt realMs: Double, now: Bool = false) {
        guard let since = waitingSince, now || realMs - since >= Self.maximumDelayMs else { return }
        flush()
    }

    func flush() {
        waitingSince = nil
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            if !warned {
                log(.warning, "\(path): cannot write (\(error.localizedDescription)); lines are lost until it can")
            }
            warned = true
        }
        buffer.removeAll(keepingCapacity: true)
    }

    func close() {
        flush()
        try? handle.close()
    }
}
