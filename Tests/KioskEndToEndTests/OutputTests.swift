import Foundation
import Testing

/// `--record` and `--trace` in real time: every line reaches its file within a second, and at once after a
/// frame with events or an input, so that a `kill -9` (the watchdog's) loses at most the last second, and a
/// trace can be followed as it is written.
@Suite struct OutputTests {
    let dir = Kiosk.folder()

    /// Two swipes on the map in the first second, then nothing until a tap at 20 s: the kiosk is killed with
    /// SIGKILL once its trace shows the second swipe's end. The recording holds every swipe's event, the trace
    /// both swipes. (With the lines kept in a 64 KB buffer until exit, both were empty.)
    @Test func aKillLosesAtMostTheLastSecond() throws {
        let config = try Kiosk.manifest(Kiosk.demo, in: dir)
        var log = LogWriter(width: 320, height: 240)
        // (Left of the map's zoom buttons, which take the touches that begin on them.)
        log.drag(from: (0.7, 0.5), to: (0.2, 0.5), at: 200)
        log.drag(from: (0.7, 0.6), to: (0.1, 0.5), at: 700, id: 2)
        log.tap(0.5, 0.5, at: 20_000, id: 3)
        let replay = try log.write(dir)
        let record = dir.appendingPathComponent("rec.jsonl").path
        let trace = dir.appendingPathComponent("trace.jsonl").path
        // The wait is a bound on a kiosk that never writes, not a pace.
        let script = """
            "$0" --headless 320x240 --realtime --config "$1" --replay "$2" --record "$3" --trace "$4" 2>/dev/null &
            pid=$!
            i=0
            while [ "$(grep -c scrollViewDidEndDragging "$4" 2>/dev/null)" != 2 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
            kill -9 $pid; wait $pid
            echo "exit $?"
            """
        let (said, _) = try ScreenPictureTests.shell(script, [config, replay, record, trace], log: "/dev/null")
        #expect(said.contains("exit 137"), "\(said)")
        let recorded = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
        // The two drags' 14 finger events each.
        #expect(recorded.filter { $0.contains("SDL_FINGER") }.count == 2 * 14, "\(recorded.count) lines")
        let traced = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(traced.components(separatedBy: "scrollViewDidEndDragging").count == 3)
        #expect(traced.hasSuffix("\n"))
    }

    /// An idle kiosk's trace is there before it stops: its first frames are written when it falls asleep.
    @Test func anIdleKiosksTraceIsWrittenBeforeItStops() throws {
        let config = try Kiosk.manifest(Kiosk.demo, in: dir)
        let trace = dir.appendingPathComponent("idle.jsonl").path
        let script = """
            "$0" --headless 320x240 --realtime --config "$1" --trace "$2" 2>/dev/null &
            pid=$!
            i=0
            while ! [ -s "$2" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
            lines=$(wc -l < "$2")
            kill -9 $pid; wait $pid
            echo "lines $lines"
            """
        let (said, _) = try ScreenPictureTests.shell(script, [config, trace], log: "/dev/null")
        let lines = Int(said.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        #expect(lines >= 1, "\(said)")
    }

    /// A crash the process can catch (a Swift runtime trap is SIGILL on x86-64, SIGTRAP on arm64; a fault; an
    /// abort), sent here while the virtual clock runs the attract loop with a trace: what the buffer held is
    /// written, said in one `<2>` line with its count, and the process still ends by its signal (the Swift
    /// runtime's backtrace after it). The count's bytes are the file's last whole lines.
    @Test(arguments: [("ILL", SIGILL), ("ABRT", SIGABRT), ("SEGV", SIGSEGV)])
    func aCrashWritesWhatIsBuffered(_ name: String, _ number: Int32) throws {
        let config = try Kiosk.manifest(Kiosk.demo, in: dir)
        var log = LogWriter(width: 320, height: 240)
        log.tap(0.5, 0.5, at: 300_000)
        let replay = try log.write(dir)
        let trace = dir.appendingPathComponent("crash-\(name).jsonl").path
        let script = """
            "$0" --headless 320x240 --config "$1" --replay "$2" --trace "$3" 2>"$3.err" &
            pid=$!
            i=0
            while [ "$(stat -c %s "$3" 2>/dev/null || echo 0)" -lt 200000 ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done
            kill -s \(name) $pid; wait $pid
            echo "exit $?"
            """
        let (said, _) = try ScreenPictureTests.shell(script, [config, replay, trace], log: "/dev/null")
        #expect(said.contains("exit \(128 + number)"), "\(said)")
        let stderr = try String(contentsOfFile: trace + ".err", encoding: .utf8)
        let line = try #require(
            stderr.split(separator: "\n").first { $0.hasPrefix("<2>kiosk: ended by SIG\(name); the last ") },
            "\(stderr.suffix(500))")
        let count = try #require(Int(line.split(separator: " ")[6]), "\(line)")
        let data = try Data(contentsOf: URL(fileURLWithPath: trace))
        #expect(data.count >= 200_000 && data.last == UInt8(ascii: "\n"))
        #expect(count <= data.count && (count == data.count || data[data.count - count - 1] == UInt8(ascii: "\n")))
        let last = try #require(data.split(separator: UInt8(ascii: "\n")).last)
        #expect((try? JSONSerialization.jsonObject(with: Data(last))) != nil, "the last line is whole")
    }
}
