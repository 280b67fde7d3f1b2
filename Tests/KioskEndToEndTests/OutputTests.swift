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
        log.drag(from: (0.8, 0.5), to: (0.3, 0.5), at: 200)
        log.drag(from: (0.8, 0.6), to: (0.2, 0.5), at: 700, id: 2)
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
}
