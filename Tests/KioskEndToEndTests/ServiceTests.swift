import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A datagram socket the test binds, as systemd does for `$NOTIFY_SOCKET`; collects what the kiosk sends.
final class NotifySocket: @unchecked Sendable {
    let name: String
    let fd: Int32
    var messages: [(at: Double, text: String)] = []
    let lock = NSLock()
    var thread: Thread?

    /// `abstract`: a name in the abstract namespace (`@…`), else a file in `dir`.
    init(in dir: URL, abstract: Bool) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        name = abstract ? "@kiosk-test-\(UUID().uuidString.prefix(8))" : dir.appendingPathComponent("notify.sock").path
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            if abstract { raw[0] = 0 }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let bound = withUnsafePointer(to: &address) { a in
            a.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        #expect(bound == 0)
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let start = Date()
        // The thread holds the socket object until it has seen the cancel (recv times out every 100 ms).
        let t = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !Thread.current.isCancelled {
                let n = recv(self.fd, &buffer, buffer.count, 0)
                guard n > 0 else { continue }
                let text = String(decoding: buffer[0..<n], as: UTF8.self)
                self.lock.lock()
                self.messages.append((Date().timeIntervalSince(start) * 1000, text))
                self.lock.unlock()
            }
        }
        t.start()
        thread = t
    }

    /// Whether a message containing `text` has arrived.
    func received(_ text: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return messages.contains { $0.text.contains(text) }
    }

    func stop() -> [(at: Double, text: String)] {
        thread?.cancel()
        usleep(200_000)
        close(fd)
        lock.lock()
        defer { lock.unlock() }
        return messages
    }
}

/// Runs the kiosk as a service would start it (real time), stops it after `after` seconds with `signal`.
func runService(
    _ arguments: [String], in dir: URL, environment: [String: String], after seconds: Double, signal: Int32 = SIGTERM
) throws -> (status: Int32, stoppedIn: Double, stderr: String) {
    let (p, err) = try Kiosk.launch(arguments, environment: environment)
    usleep(useconds_t(seconds * 1_000_000))
    let sent = Date()
    kill(p.processIdentifier, signal)
    p.waitUntilExit()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let status = p.terminationReason == .uncaughtSignal ? -p.terminationStatus : p.terminationStatus
    return (status, Date().timeIntervalSince(sent), stderr)
}

@Suite(.serialized) struct ServiceTests {
    let dir = Kiosk.folder()

    @Test(arguments: [false, true])
    func notifyReadyWatchdogAndStopping(abstract: Bool) throws {
        let socket = try NotifySocket(in: dir, abstract: abstract)
        let r = try runService(
            ["--headless", "400x240", "--realtime", "--config", try Kiosk.manifest(Kiosk.demo, in: dir)], in: dir,
            environment: ["NOTIFY_SOCKET": socket.name, "WATCHDOG_USEC": "1000000"], after: 3.2)
        let messages = socket.stop()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stoppedIn < 1, "SIGTERM must end it within a second")
        let texts = messages.map(\.text)
        #expect(texts.first?.hasPrefix("READY=1") == true, "\(texts)")
        #expect(texts.first?.contains("STATUS=showing map") == true)
        #expect(texts.last == "STOPPING=1")
        // WATCHDOG_USEC 1 s: a ping every 500 ms of real time, idle or not (a second is systemd's limit; the
        // margin is for a machine busy with the other tests).
        let pings = messages.filter { $0.text == "WATCHDOG=1" }.map(\.at)
        #expect(pings.count >= 4 && pings.count <= 8, "\(pings.count) pings")
        let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 >= 450 }, "not more often than asked: \(gaps)")
        #expect((gaps.max() ?? 0) < 900, "no gap reaches the watchdog's limit: \(gaps)")
    }

    @Test func stateIsSavedAndRestored() throws {
        let state = dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        var log = LogWriter()
        log.drag(from: (0.5, 0.8), to: (0.5, 0.3))
        let config = try Kiosk.manifest(
            Kiosk.demo.replacingOccurrences(of: "\"idleTimeoutSeconds\": 0", with: "\"idleTimeoutSeconds\": 120"),
            in: dir)
        let first = try Kiosk.run(
            ["--headless", "400x240", "--config", config, "--scene", "menu", "--replay", try log.write(dir)], in: dir,
            environment: ["STATE_DIRECTORY": state.path])
        #expect(first.status == 0)
        let saved = try String(contentsOf: state.appendingPathComponent("state.json"), encoding: .utf8)
        #expect(saved.contains("\"scene\":\"menu\""))
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("state.json.tmp").path))
        let again = try Kiosk.run(
            ["--headless", "400x240", "--config", config], in: dir, environment: ["STATE_DIRECTORY": state.path])
        #expect(again.status == 0)
        #expect(again.trace.first?["scene"] as? String == "menu")
        #expect(again.offset("menu", at: again.trace.first) == first.offset("menu"))
    }

    @Test func anOldStateStartsAtHome() throws {
        let state = dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let old = Date().timeIntervalSince1970 - 3600
        try #"{"kioskState": 1, "scene": "menu", "views": {}, "lastInput": \#(old)}"#.write(
            to: state.appendingPathComponent("state.json"), atomically: true, encoding: .utf8)
        let config = try Kiosk.manifest(
            Kiosk.demo.replacingOccurrences(of: "\"idleTimeoutSeconds\": 0", with: "\"idleTimeoutSeconds\": 120"),
            in: dir)
        let r = try Kiosk.run(
            ["--headless", "400x240", "--config", config], in: dir, environment: ["STATE_DIRECTORY": state.path])
        #expect(r.trace.first?["scene"] as? String == "map")
    }

    @Test(arguments: ["{not json", "", "{\"kioskState\": 7}"])
    func aCorruptStateIsAWarning(content: String) throws {
        let state = dir.appendingPathComponent("state-\(content.count)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try content.write(to: state.appendingPathComponent("state.json"), atomically: true, encoding: .utf8)
        let r = try Kiosk.run(
            ["--headless", "400x240", "--config", try Kiosk.manifest(Kiosk.demo, in: dir)], in: dir,
            environment: ["STATE_DIRECTORY": state.path])
        #expect(r.status == 0)
        #expect(r.stderr.contains("<4>kiosk: \(state.path)/state.json: the saved state is corrupt"))
        #expect(r.trace.first?["scene"] as? String == "map")
    }

    @Test func anUnwritableStateDirectoryIsAWarning() throws {
        let r = try Kiosk.run(
            ["--headless", "400x240", "--config", try Kiosk.manifest(Kiosk.demo, in: dir)], in: dir,
            environment: ["STATE_DIRECTORY": "/proc/no-such-folder"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("<4>kiosk: /proc/no-such-folder/state.json: cannot save the state"))
    }

    @Test func sigtermDuringAFlingSavesAndExits() throws {
        let state = dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        var log = LogWriter()
        log.drag(from: (0.5, 0.9), to: (0.5, 0.1), at: 200)
        let r = try runService(
            [
                "--headless", "400x240", "--realtime", "--config", try Kiosk.manifest(Kiosk.demo, in: dir), "--scene",
                "menu",
                "--replay", try log.write(dir),
            ], in: dir, environment: ["STATE_DIRECTORY": state.path], after: 0.9)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stoppedIn < 1)
        let saved = try String(contentsOf: state.appendingPathComponent("state.json"), encoding: .utf8)
        #expect(saved.contains("\"scene\":\"menu\""))
    }

    @Test func stateSurvivesAKill() throws {
        let state = dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let config = try Kiosk.manifest(
            Kiosk.demo.replacingOccurrences(of: "\"idleTimeoutSeconds\": 0", with: "\"idleTimeoutSeconds\": 120"),
            in: dir)
        let r = try runService(
            ["--headless", "400x240", "--realtime", "--config", config, "--scene", "gallery"], in: dir,
            environment: ["STATE_DIRECTORY": state.path, "KIOSK_STATE_INTERVAL_MS": "300"], after: 2.5, signal: SIGKILL)
        #expect(r.status == -SIGKILL)
        let again = try Kiosk.run(
            ["--headless", "400x240", "--config", config], in: dir, environment: ["STATE_DIRECTORY": state.path])
        #expect(again.trace.first?["scene"] as? String == "gallery")
    }

    /// Which calibration is in effect (docs/deploying.md): a valid file in the state folder, else the manifest's,
    /// else none; one `<6>` line says which. A broken file is a `<4>` line naming it, never a reason not to start.
    @Test(
        arguments: [
            (
                #"{"kioskCalibration": 1, "matrix": [-1, 0, 1, 0, 1, 0], "created": "2026-11-30T10:12:00Z", "residual": 0.004}"#,
                "<6>kiosk: calibration: STATE/calibration.json (matrix [-1, 0, 1, 0, 1, 0])", ""
            ),
            (
                "{not json", "<6>kiosk: calibration: the manifest's",
                "<4>kiosk: STATE/calibration.json: not a calibration file"
            ),
            (
                #"{"kioskCalibration": 1, "matrix": [1, 2, 0, 2, 4, 0]}"#, "<6>kiosk: calibration: the manifest's",
                "<4>kiosk: STATE/calibration.json: matrix: the matrix is singular"
            ),
            (
                #"{"kioskCalibration": 1, "matrix": [1, 0, 0, 0, 1, 1e400]}"#, "<6>kiosk: calibration: the manifest's",
                "<4>kiosk: STATE/calibration.json: not a calibration file"
            ),
            (
                #"{"kioskCalibration": 1, "matrix": [4, 0, 0, 0, 1, 0]}"#, "<6>kiosk: calibration: the manifest's",
                "<4>kiosk: STATE/calibration.json: matrix: it maps the panel's corner (1, 0) far outside the screen"
            ),
            (nil, "<6>kiosk: calibration: the manifest's (matrix [1, 0, 0, 0, -1, 1])", ""),
        ] as [(String?, String, String)])
    func theCalibrationInEffect(file: String?, info: String, warning: String) throws {
        let state = dir.appendingPathComponent("state-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        if let file {
            try file.write(to: state.appendingPathComponent("calibration.json"), atomically: true, encoding: .utf8)
        }
        let config = try Kiosk.manifest(
            Kiosk.demo.replacingOccurrences(
                of: "\"idleTimeoutSeconds\": 0", with: #""idleTimeoutSeconds": 0, "calibration": {"invertY": true}"#),
            in: dir)
        let r = try Kiosk.run(
            ["--headless", "320x200", "--config", config], in: dir, environment: ["STATE_DIRECTORY": state.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains(info.replacingOccurrences(of: "STATE", with: state.path)), "\(r.stderr)")
        if !warning.isEmpty {
            #expect(r.stderr.contains(warning.replacingOccurrences(of: "STATE", with: state.path)), "\(r.stderr)")
        }
        #expect(r.stderr.components(separatedBy: "calibration: ").count == 2, "one line says which")
    }

    @Test func withoutACalibrationTheLogSaysSo() throws {
        let r = try Kiosk.run(["--headless", "320x200", "--config", try Kiosk.manifest(Kiosk.demo, in: dir)], in: dir)
        #expect(r.stderr.contains("<6>kiosk: calibration: none"), "\(r.stderr)")
    }

    /// With no touch, saving and restarting again and again keeps the last input where it was: an idle kiosk
    /// restarted often still reaches its idle reset (the state was placed by the loop's last step, which an
    /// idle loop took up to a save interval earlier, and so moved later on every save and every start).
    @Test func manySavesAndRestartsKeepTheLastInput() throws {
        let state = dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let file = state.appendingPathComponent("state.json")
        let touched = (Date().timeIntervalSince1970 - 30).rounded()
        try #"{"kioskState": 1, "scene": "menu", "views": {}, "lastInput": \#(touched)}"#.write(
            to: file, atomically: true, encoding: .utf8)
        let config = try Kiosk.manifest(
            Kiosk.demo.replacingOccurrences(of: "\"idleTimeoutSeconds\": 0", with: "\"idleTimeoutSeconds\": 120"),
            in: dir)
        for run in 1...4 {
            let r = try runService(
                ["--headless", "400x240", "--realtime", "--config", config], in: dir,
                environment: ["STATE_DIRECTORY": state.path, "KIOSK_STATE_INTERVAL_MS": "150"], after: 1.0)
            #expect(r.status == 0, "\(r.stderr)")
            let saved = try #require(KioskStateFile(file))
            #expect(saved.scene == "menu")
            #expect(
                abs(saved.lastInput - touched) < 0.02, "run \(run): last input moved by \(saved.lastInput - touched) s")
        }
    }

    @Test func idleResetInVirtualTime() throws {
        var log = LogWriter()
        log.tap(0.9, 0.9, at: 0)
        let config = try Kiosk.manifest(
            Kiosk.demo.replacingOccurrences(of: "\"idleTimeoutSeconds\": 0", with: "\"idleTimeoutSeconds\": 3"), in: dir
        )
        let r = try Kiosk.run(
            [
                "--headless", "400x240", "--config", config, "--scene", "gallery", "--replay", try log.write(dir),
                "--screenshot", "5000:" + dir.appendingPathComponent("idle.png").path,
            ], in: dir)
        let reset = try #require(
            r.trace.first { ($0["events"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "idleReset" } }
        )
        let t = try #require(reset["t"] as? Double)
        #expect(t >= 3060 && t < 3100)  // 3 s after the tap's lift, on the next frame
        #expect(r.last["scene"] as? String == "map")
    }

    @Test func blankingAndTheSwallowedWakingTouch() throws {
        let config = try Kiosk.manifest(
            Kiosk.demo.replacingOccurrences(
                of: "\"idleTimeoutSeconds\": 0", with: "\"idleTimeoutSeconds\": 0, \"blankAfterSeconds\": 2"),
            in: dir)
        var log = LogWriter()
        // At 3 s the screen is blank: a tap on the cafe only wakes it. A second tap opens the menu.
        log.tap(264.0 / 800, 168.0 / 480, at: 3000)
        log.tap(264.0 / 800, 168.0 / 480, at: 3500)
        let blank = dir.appendingPathComponent("blank.png").path
        let r = try Kiosk.run(
            [
                "--headless", "800x480", "--config", config, "--replay", try log.write(dir), "--screenshot",
                "2500:\(blank)",
            ], in: dir)
        #expect(r.status == 0)
        let names = r.events.map(\.name)
        #expect(
            names == ["screenDidBlank", "screenDidWake", "hotspotTapped", "sceneTransition", "sceneDidChange"],
            "\(names)")
        let p = try #require(Picture(path: blank))
        #expect(p.brightness(x: 0, y: 0, w: 800, h: 480) < 1)
    }
}

/// The parts of a saved state file a test reads.
struct KioskStateFile {
    let scene: String
    let lastInput: Double

    init?(_ url: URL) {
        guard let data = try? Data(contentsOf: url),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let scene = object["scene"] as? String, let lastInput = object["lastInput"] as? Double
        else { return nil }
        self.scene = scene
        self.lastInput = lastInput
    }
}
