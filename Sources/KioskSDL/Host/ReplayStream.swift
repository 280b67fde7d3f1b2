import EventLog
import Foundation
import ScrollEngine

#if canImport(Glibc)
    import Glibc
#endif

/// A file's lines, read a chunk at a time into one buffer that is reused: the memory of one chunk and one line,
/// whatever the file's size.
struct LineReader {
    private let fd: Int32
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEnd = false
    static let chunk = 1 << 16
    /// The longest line read (an event is a few hundred bytes; a longer line is not a log's).
    static let maximumLine = 1 << 20

    init(fd: Int32) {
        self.fd = fd
        buffer = [UInt8](repeating: 0, count: Self.chunk)
    }

    /// The next line's bytes without its "\n" (valid until the next call), nil at the end of the file, or why it
    /// cannot be read.
    mutating func next() -> Result<ArraySlice<UInt8>?, ReadProblem> {
        while true {
            if let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1 }
                return .success(buffer[start..<newline])
            }
            if atEnd {
                guard start < end else { return .success(nil) }
                defer { start = end }
                return .success(buffer[start..<end])
            }
            guard end - start <= Self.maximumLine else {
                return .failure(ReadProblem("a line is longer than \(Self.maximumLine) bytes"))
            }
            // The line begun so far to the front, and room for a chunk after it (more only for a long line).
            let kept = end - start
            if start > 0 {
                let from = start
                buffer.withUnsafeMutableBytes { b in
                    _ = memmove(b.baseAddress!, b.baseAddress! + from, kept)
                }
                start = 0
                end = kept
            }
            if buffer.count - end < Self.chunk / 2 {
                buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count))
            }
            let room = buffer.count - end
            let at = end
            var n: Int
            repeat {
                n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + at, room) }
            } while n < 0 && errno == EINTR
            guard n >= 0 else {
                return .failure(ReadProblem("cannot read the file (\(String(cString: strerror(errno))))"))
            }
            end += n
            atEnd = n == 0
        }
    }
}

/// A replay log read twice and never held: once at the start, to check every line and learn what the replay needs
/// (the display, the last timestamp, the fingers still down at the end), then again while the replay runs, a
/// record at a time as the clock reaches it. A log of millions of events replays in the memory of a few.
final class ReplayStream {
    let path: String
    /// The log's header and what the first reading learned.
    let display: Size
    let warnings: [String]
    let recordCount: Int
    let lastTimestamp: Double
    /// The fingers down at the end of the log, each lifted at its last timestamp (a log cut short must not leave
    /// a finger on the screen).
    let stillDown: [EventLog.Record]
    private var fd: Int32
    private var lines: LineReader
    private var reader: EventLogReader
    private var ups: ArraySlice<EventLog.Record> = []

    /// Reads the log once, checking every line: a problem is the one-line error the start fails with.
    init(path: String) throws(KioskError) {
        self.path = path
        var first = try Self.open(path)
        defer { Glibc.close(first.fd) }
        var reader = EventLogReader(file: path)
        var count = 0
        var last = 0.0
        var down: [String: EventLog.Record] = [:]
        while let record = try Self.next(&first.lines, &reader, path: path) {
            count += 1
            last = record.timestamp
            if case .finger(let phase, let touchId, let fingerId, _, _, _, _, _) = record.event {
                let key = "\(touchId)/\(fingerId)"
                // The kiosk ignores a finger beyond `FingerKey.maximumDown`, so the lifts at the end need not
                // either: the map stays as small as the screen's hand.
                if phase == .up {
                    down[key] = nil
                } else if down[key] != nil || down.count < FingerKey.maximumDown {
                    down[key] = record
                }
            }
        }
        do { try reader.finish() } catch { throw .replay(error.description) }
        display = reader.display
        warnings = reader.warnings
        recordCount = count
        lastTimestamp = last
        stillDown = down.sorted(by: { $0.key < $1.key }).compactMap { (_, r) in
            guard case .finger(_, let t, let f, let x, let y, _, _, let p) = r.event else { return nil }
            return .init(
                timestamp: last, event: .finger(.up, touchId: t, fingerId: f, x: x, y: y, dx: 0, dy: 0, pressure: p))
        }
        let second = try Self.open(path)
        fd = second.fd
        lines = second.lines
        self.reader = EventLogReader(file: path)
        ups = stillDown[...]
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    /// The next record of the second reading (then the lifts of the fingers still down), nil at the end. A log
    /// changed since the first reading ends the replay there, said once.
    func next() -> EventLog.Record? {
        if fd >= 0 {
            do {
                if let record = try Self.next(&lines, &reader, path: path) { return record }
            } catch {
                log(.error, "\(error.message); the replay ends here (the log changed while it ran?)")
            }
            Glibc.close(fd)
            fd = -1
        }
        return ups.popFirst()
    }

    private static func open(_ path: String) throws(KioskError) -> (fd: Int32, lines: LineReader) {
        switch RegularFile.open(path) {
        case .success(let f): return (f.fd, LineReader(fd: f.fd))
        case .failure(let p): throw .replay("\(path): cannot read the log (\(p.isMissing ? "missing" : p.message))")
        }
    }

    private static func next(
        _ lines: inout LineReader, _ reader: inout EventLogReader, path: String
    ) throws(KioskError) -> EventLog.Record? {
        while true {
            let bytes: ArraySlice<UInt8>
            switch lines.next() {
            case .success(let b?): bytes = b
            case .success(nil): return nil
            case .failure(let p): throw .replay("\(path):\(reader.lineNumber + 1): \(p.message)")
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw .replay("\(path):\(reader.lineNumber + 1): the line is not UTF-8 text")
            }
            do {
                if let record = try reader.read(text[...]) { return record }
            } catch {
                throw .replay(error.description)
            }
        }
    }
}
