import Foundation
import Testing

/// From a finger to the panel, measured in real time (`TouchLatency`): a recording of a real touchscreen replayed
/// on the real clock says its p50 and p95 at exit, every finger event counted; on the virtual clock, where it means
/// nothing, it says nothing. (Milliseconds are not asserted: kiosk-bench measures them.)
@Suite struct TouchToPresentTests {
    let dir = Kiosk.folder()

    static func line(_ stderr: String) -> Substring? {
        stderr.split(separator: "\n").last { $0.contains("touch to present:") }
    }

    @Test func aRealTimeReplaySaysItsTouchToPresent() throws {
        let recording = Kiosk.recordings.appendingPathComponent("atmel-maxtouch-1finger-drag-up-down.jsonl")
        let fingers = try String(contentsOf: recording, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("\"SDL_FINGER") }.count
        let config = try Kiosk.manifest(Kiosk.demo, in: dir)
        let r = try Kiosk.run(
            ["--headless", "800x480", "--realtime", "--config", config, "--replay", recording.path], in: dir,
            trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(Self.line(r.stderr), "\(r.stderr)")
        #expect(line.contains(" p50 ") && line.contains(" p95 "), "\(line)")
        #expect(line.hasSuffix("over \(fingers) finger events"), "\(line)")
        let virtual = try Kiosk.run(
            ["--headless", "800x480", "--config", config, "--replay", recording.path], in: dir, trace: false)
        #expect(Self.line(virtual.stderr) == nil, "\(virtual.stderr)")
    }
}
