import Foundation
import Testing

/// The metrics file (docs/operations.md) of a real-time kiosk: written at exit, the frames and touches counted; a path
/// that cannot be written is said once and the kiosk runs on.
@Suite struct MetricsFileTests {
    let dir = Kiosk.folder()

    @Test func aRealTimeKioskWritesItsMetrics() throws {
        let config = try Kiosk.manifest(Kiosk.demo, in: dir)
        var log = LogWriter()
        log.tap(0.9, 0.9, at: 200)
        let metrics = dir.appendingPathComponent("kiosk.prom").path
        let r = try Kiosk.run(
            [
                "--headless", "400x240", "--realtime", "--config", config, "--metrics", metrics, "--replay",
                try log.write(dir),
            ], in: dir, trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        let frames = text.split(separator: "\n").first { $0.hasPrefix("kiosk_frames_presented_total ") }
        #expect((frames.flatMap { Int($0.split(separator: " ")[1]) } ?? 0) > 0, "\(text)")
        #expect(text.contains("kiosk_touches_total 1\n"), "\(text)")
        #expect(text.contains(#"kiosk_scene{scene="map"} 1"#), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: metrics + ".tmp"))
        let bad = try Kiosk.run(
            [
                "--headless", "400x240", "--realtime", "--config", config, "--metrics", "/proc/kiosk.prom", "--replay",
                try log.write(dir),
            ], in: dir, trace: false)
        #expect(bad.status == 0, "\(bad.stderr)")
        #expect(
            bad.stderr.components(separatedBy: "metrics: cannot write /proc/kiosk.prom").count == 2, "\(bad.stderr)")
    }
}

/// `SIGUSR1` (docs/operations.md): the next frame, as shown, at most 960 pixels wide, as `$STATE_DIRECTORY/screen.png`;
/// signals in a burst are one picture at a time, and the kiosk runs on.
@Suite struct ScreenPictureTests {
    let dir = Kiosk.folder()

    /// Runs `script` in `sh` with the kiosk binary as `$0` and `arguments` after it; what it printed, and the
    /// kiosk's log at `log`.
    static func shell(_ script: String, _ arguments: [String], log: String, environment: [String: String] = [:])
        throws -> (said: String, log: String)
    {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script, Kiosk.binary.path] + arguments
        p.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": Kiosk.testCache]) { $1 }
            .merging(environment) { $1 }
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (said, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    /// The demo's manifest, a state folder `name` and a log `log` in the test's folder, and where the screen's
    /// picture goes.
    func demoWithState(_ name: String, log: String) throws -> (
        config: String, state: URL, log: String, picture: String
    ) {
        let config = try Kiosk.manifest(Kiosk.demo, in: dir)
        let state = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        return (config, state, dir.appendingPathComponent(log).path, state.appendingPathComponent("screen.png").path)
    }

    @Test func aSignalWritesThePictureOfTheScreen() throws {
        let (config, state, log, picture) = try demoWithState("state", log: "kiosk.log")
        // The waits are bounds on a kiosk that never answers, not a pace.
        let script = """
            : > "$2"
            STATE_DIRECTORY="$3" "$0" --headless 1920x1080 --realtime --config "$1" 2>"$2" &
            pid=$!
            i=0
            while ! grep -q "pictureDidSettle: map complete" "$2" && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done
            for n in 1 2 3 4 5 6 7 8 9 10; do kill -USR1 $pid; done
            i=0
            while ! grep -q "screen picture: " "$2" && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done
            kill $pid; wait $pid
            echo "exit $?"
            """
        let (said, text) = try Self.shell(script, [config, log, state.path], log: log)
        #expect(said.contains("exit 0"), "\(said) \(text)")
        #expect(text.contains("screen picture: \(picture), 960x540"), "\(text)")
        #expect(!text.contains("<3>"), "\(text)")
        let shot = try #require(Picture(path: picture), "\(text)")
        #expect(shot.width == 960 && shot.height == 540)
        // The map, not a black screen: the plan's light paper in the middle.
        let (r, g, b) = shot.rgb(480, 300)
        #expect(r + g + b > 300, "\((r, g, b))")
        #expect(!FileManager.default.fileExists(atPath: picture + ".tmp"))
    }

    /// The installer's tools take the operator's signals as the kiosk does: a `SIGUSR1` under `--touch-test`
    /// writes the picture of the touch test's screen (it was dropped: the signals rode on the reload, which the
    /// tools do not have), and a `SIGHUP` is said, not acted on.
    @Test func aSignalUnderTheTouchTestWritesItsPicture() throws {
        let (config, state, log, picture) = try demoWithState("touch-state", log: "touch.log")
        // Once it has started (its libraries loaded); until its handlers are there a signal is ignored: it is
        // sent again until the picture is said.
        let script = """
            : > "$2"
            STATE_DIRECTORY="$3" env --default-signal=USR1,HUP "$0" --headless 640x400 --realtime --touch-test \
                --config "$1" 2>"$2" &
            pid=$!
            i=0
            while ! grep -q "video driver" "$2" && [ $i -lt 4000 ]; do sleep 0.001; i=$((i+1)); done
            i=0
            while ! grep -q "screen picture: " "$2" && [ $i -lt 400 ]; do
                kill -USR1 $pid 2>/dev/null; sleep 0.05; i=$((i+1))
            done
            kill -HUP $pid
            i=0
            while ! grep -q "reload: asked" "$2" && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done
            kill $pid; wait $pid
            echo "exit $?"
            """
        let (said, text) = try Self.shell(script, [config, log, state.path], log: log)
        #expect(said.contains("exit 0"), "\(said) \(text)")
        #expect(text.contains("screen picture: \(picture), 640x400"), "\(text)")
        #expect(text.contains("reload: asked while an installer's tool runs"), "\(text)")
        let shot = try #require(Picture(path: picture), "\(text)")
        #expect(shot.width == 640 && shot.height == 400)
    }

    /// Signals from its first line on (a fleet's tooling does not wait for READY), before the frame loop's
    /// handlers are there: none ends it; the kiosk comes up and stops on SIGTERM with exit 0. (Before its first
    /// line the process may still be loading its libraries, where nothing of the kiosk's can run.) The test runner
    /// hands its children SIGUSR1 and SIGHUP ignored: `env --default-signal` gives the kiosk the defaults a
    /// service manager gives it.
    @Test func signalsBeforeTheFrameLoopAreHarmless() throws {
        let config = try Kiosk.manifest(Kiosk.demo, in: dir)
        let log = dir.appendingPathComponent("early.log").path
        let script = """
            env --default-signal=USR1,HUP "$0" --headless 320x240 --realtime --config "$1" 2>"$2" &
            pid=$!
            i=0
            while ! grep -q "video driver" "$2" && [ $i -lt 4000 ]; do sleep 0.001; i=$((i+1)); done
            i=0
            while ! grep -q "pictureDidSettle" "$2" && [ $i -lt 400 ]; do
                kill -USR1 $pid 2>/dev/null; kill -HUP $pid 2>/dev/null; sleep 0.002; i=$((i+1))
            done
            kill $pid; wait $pid
            echo "exit $?"
            """
        let (said, text) = try Self.shell(script, [config, log], log: log, environment: ["STATE_DIRECTORY": dir.path])
        #expect(said.contains("exit 0"), "\(said) \(text)")
        #expect(text.contains("pictureDidSettle"), "\(text)")
    }
}
