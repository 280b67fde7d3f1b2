import EventLog
import Foundation
import ScrollEngine
import Testing

@testable import KioskSDL

/// A replay log is streamed: read once to check every line, then a record at a time while it plays, never held
/// whole (three million events once peaked at 1.26 GB). What the stream hands out is what `EventLog.parse` reads.
@Suite struct ReplayStreamTests {
    static let header = #"{"kioskEventLog": 1, "display": {"w": 200, "h": 100}}"#

    func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "kiosk-replay-\(UUID().uuidString).jsonl"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func finger(_ phase: String, _ t: Int, id: Int = 1, x: Double = 0.5) -> String {
        #"{"timestamp": \#(t), "type": "SDL_FINGER\#(phase)", "touchId": 7, "fingerId": \#(id), "x": \#(x), "y": 0.25}"#
    }

    func drain(_ stream: ReplayStream) -> [EventLog.Record] {
        var out: [EventLog.Record] = []
        while let r = stream.next() { out.append(r) }
        return out
    }

    @Test func streamsWhatTheParserReadsAcrossChunks() throws {
        // More than one chunk of the line reader, with CRLF line ends and no newline at the end.
        var lines = [Self.header]
        for i in 0..<12_000 {
            lines.append(finger("DOWN", i * 30, id: i, x: Double(i % 100) / 100))
            lines.append(#"{"timestamp": \#(i * 30 + 10), "type": "SDL_MOUSEWHEEL", "x": 0, "y": -1}"#)
            lines.append(finger("UP", i * 30 + 20, id: i))
        }
        let text = lines.joined(separator: "\r\n")
        #expect(text.utf8.count > LineReader.chunk)
        let path = try file(text)
        defer { unlink(path) }
        let stream = try ReplayStream(path: path)
        let parsed = try EventLog.parse(text, file: path)
        #expect(stream.display == Size(width: 200, height: 100))
        #expect(stream.recordCount == parsed.records.count)
        #expect(stream.lastTimestamp == parsed.records.last?.timestamp)
        #expect(stream.stillDown.isEmpty)
        #expect(drain(stream) == parsed.records)
    }

    @Test func aByteOrderMarkBeforeTheHeaderIsRead() throws {
        let path = try file("\u{FEFF}" + [Self.header, finger("DOWN", 0), finger("UP", 40)].joined(separator: "\r\n"))
        defer { unlink(path) }
        let stream = try ReplayStream(path: path)
        #expect(stream.display == Size(width: 200, height: 100))
        #expect(drain(stream).count == 2)
    }

    @Test func aFingerStillDownIsLiftedAtTheEnd() throws {
        let path = try file(
            [Self.header, finger("DOWN", 0), finger("MOTION", 40, x: 0.6)].joined(separator: "\n") + "\n")
        defer { unlink(path) }
        let stream = try ReplayStream(path: path)
        let records = drain(stream)
        #expect(records.count == 3)
        #expect(
            records.last
                == .init(
                    timestamp: 40,
                    event: .finger(.up, touchId: 7, fingerId: 1, x: 0.6, y: 0.25, dx: 0, dy: 0, pressure: 1)))
    }

    @Test func fingersNeverLiftedAreLiftedAtTheEndUpToTheHand() throws {
        // A thousand fingers put down and never lifted: the kiosk takes the first `FingerKey.maximumDown` and
        // ignores the rest, so the stream lifts those and keeps no more.
        let lines = [Self.header] + (0..<1000).map { finger("DOWN", $0, id: $0) }
        let path = try file(lines.joined(separator: "\n"))
        defer { unlink(path) }
        let stream = try ReplayStream(path: path)
        #expect(stream.stillDown.count == FingerKey.maximumDown)
        #expect(stream.stillDown.allSatisfy { $0.timestamp == 999 })
        #expect(drain(stream).count == 1000 + FingerKey.maximumDown)
    }

    @Test func aBadLineFailsTheStartNamingIt() throws {
        let cases: [(String, String)] = [
            ([Self.header, finger("DOWN", 0), #"{"timestamp": 5, "type": 3}"#].joined(separator: "\n"), ":3: type:"),
            (
                Self.header + "\n" + String(repeating: " ", count: LineReader.maximumLine + 10) + "x",
                ":2: a line is longer"
            ),
            ("", ":1: empty log: no header"),
        ]
        for (text, expected) in cases {
            let path = try file(text)
            defer { unlink(path) }
            #expect(throws: (any Error).self) { try ReplayStream(path: path) }
            do {
                _ = try ReplayStream(path: path)
            } catch {
                #expect(error.status == 4)
                #expect(error.message.hasPrefix(path + expected), "\(error.message)")
            }
        }
        var latin = Data((Self.header + "\n").utf8)
        latin.append(contentsOf: [0x7B, 0xE9, 0x7D, 0x0A])
        let path = NSTemporaryDirectory() + "kiosk-replay-\(UUID().uuidString).jsonl"
        try latin.write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        do {
            _ = try ReplayStream(path: path)
            Issue.record("a line that is not UTF-8 was read")
        } catch {
            #expect(error.message == "\(path):2: the line is not UTF-8 text")
        }
    }

    /// A press at 0 ms and a move at 20, recorded at 200x100 (the header's display), queued for a 400x300 window.
    static func pressAndMove(startsAtFirstPresent: Bool, file: (String) throws -> String) throws -> (
        ReplayQueue, String
    ) {
        let path = try file(
            [
                Self.header, #"{"timestamp": 0, "type": "SDL_MOUSEBUTTONDOWN", "button": 1, "x": 100, "y": 50}"#,
                #"{"timestamp": 20, "type": "SDL_MOUSEMOTION", "x": 110, "y": 50, "xrel": 10, "yrel": 0}"#,
            ].joined(separator: "\n"))
        let queue = ReplayQueue(
            try ReplayStream(path: path), window: Size(width: 400, height: 300),
            startsAtFirstPresent: startsAtFirstPresent)
        return (queue, path)
    }

    @Test func theQueueScalesMouseEventsAndHandsEachOutOnce() throws {
        let (queue0, path) = try Self.pressAndMove(startsAtFirstPresent: false, file: file)
        defer { unlink(path) }
        var queue = queue0
        #expect(queue.nextTimestamp == 0)
        #expect(queue.lastTimestamp == 20)
        let first = queue.take(upTo: 10)
        #expect(first.map(\.event) == [.mouseButton(down: true, button: 1, clicks: 1, x: 200, y: 150)])
        #expect(queue.take(upTo: 10).isEmpty)
        #expect(!queue.isDone)
        #expect(queue.take(upTo: 20).map(\.event) == [.mouseMotion(x: 220, y: 150, xrel: 20, yrel: 0, state: 0)])
        #expect(queue.isDone && !queue.isEmpty)
        #expect(ReplayQueue().isEmpty && ReplayQueue().isDone)
    }

    /// On the real clock the log's zero is the first present's return: nothing is handed out before it, and the
    /// events come stamped on the loop's clock.
    @Test func onTheRealClockTheLogBeginsAtTheFirstPresent() throws {
        let (queue0, path) = try Self.pressAndMove(startsAtFirstPresent: true, file: file)
        defer { unlink(path) }
        var queue = queue0
        #expect(queue.nextTimestamp == nil)
        #expect(queue.take(upTo: 100).isEmpty)
        queue.began(at: 35)
        queue.began(at: 50)
        #expect(queue.nextTimestamp == 35)
        #expect(queue.take(upTo: 40).map(\.timestamp) == [35])
        #expect(queue.take(upTo: 54).isEmpty)
        #expect(queue.take(upTo: 55).map(\.timestamp) == [55])
    }
}
