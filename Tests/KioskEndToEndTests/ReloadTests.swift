import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `systemctl reload kiosk` (docs/operations.md): a real SIGHUP to a kiosk running in real time.
@Suite(.serialized) struct ReloadTests {
    let dir = Kiosk.folder()

    /// A running kiosk: its process, the notify socket it reports to, its trace file.
    final class Running {
        let process: Process
        let stderr: Pipe
        let socket: NotifySocket
        let trace: String

        init(_ dir: URL, config: String, extra: [String] = [], environment: [String: String] = [:]) throws {
            socket = try NotifySocket(in: dir, abstract: true)
            trace = dir.appendingPathComponent("trace.jsonl").path
            (process, stderr) = try Kiosk.launch(
                ["--headless", "320x240", "--realtime", "--config", config, "--trace", trace] + extra,
                environment: environment.merging(["NOTIFY_SOCKET": socket.name]) { $1 })
            #expect(waitUntil { self.statuses.count == 1 }, "READY=1 at start")
        }

        /// The `STATUS=` of every `READY=1` so far (the start's, then one per reload).
        var statuses: [String] {
            socket.lock.lock()
            defer { socket.lock.unlock() }
            return socket.messages.map(\.text).filter { $0.hasPrefix("READY=1") }
                .map {
                    $0.split(separator: "\n").first { $0.hasPrefix("STATUS=") }.map { String($0.dropFirst(7)) } ?? ""
                }
        }

        /// Reloads announced (`RELOADING=1`) and not done yet (a `READY=1` after the first).
        var reloadsInFlight: Int {
            socket.lock.lock()
            let reloading = socket.messages.filter { $0.text.hasPrefix("RELOADING=1") }.count
            socket.lock.unlock()
            return reloading - (statuses.count - 1)
        }

        /// Sends SIGHUP and waits for the reload's `READY=1`; returns its status.
        @discardableResult
        func reload() -> String {
            let before = statuses.count
            kill(process.processIdentifier, SIGHUP)
            #expect(waitUntil { self.statuses.count > before }, "READY=1 after the reload")
            return statuses.last ?? ""
        }

        /// Resident memory in KiB (`VmRSS`).
        var residentKiB: Int {
            let text = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = text.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }

        /// Stops it (SIGTERM); its exit status, standard error and trace events.
        func stop() -> (
            status: Int32, stderr: String, events: [(t: Double, scene: String, event: [String: Any])],
            lines: [[String: Any]]
        ) {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let messages = socket.stop().map(\.text)
            #expect(messages.filter { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") }.count == statuses.count - 1)
            var events: [(Double, String, [String: Any])] = []
            var lines: [[String: Any]] = []
            let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                    continue
                }
                lines.append(o)
                for e in o["events"] as? [[String: Any]] ?? [] {
                    events.append((o["t"] as? Double ?? 0, o["scene"] as? String ?? "", e))
                }
            }
            return (process.terminationStatus, err, events, lines)
        }
    }

    /// Polls (the kiosk runs on the real clock) until `condition` holds or 30 s have passed.
    static func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<600 {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    static let manifest = """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0,
         "scenes": [
           {"id": "map", "type": "zoom", "image": "images/floorplan.png", "maxZoom": 2.0,
            "hotspots": [{"id": "cafe", "rect": [1200, 800, 700, 500], "goto": "menu"}]},
           {"id": "menu", "type": "scroll", "image": "images/menu-long.png", "axis": "vertical"}
         ]}
        """

    func write(_ text: String) throws -> String { try Kiosk.manifest(text, in: dir) }

    /// A good update, then one mistake after another (each leaves the content as it was and names the file),
    /// then the scene on screen removed (the kiosk goes home).
    @Test func goodAndBadUpdates() throws {
        let config = try write(Self.manifest)
        let kiosk = try Running(dir, config: config, extra: ["--scene", "menu"])
        // Good: a new zoom limit, the scene on screen unchanged: it stays where it is.
        _ = try write(Self.manifest.replacingOccurrences(of: "\"maxZoom\": 2.0", with: "\"maxZoom\": 3.0"))
        #expect(kiosk.reload() == "showing menu (reloaded); renderer software")
        // Bad, five ways.
        let torn = Self.manifest.replacingOccurrences(of: "images/menu-long.png", with: "images/missing.png")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("own"), withIntermediateDirectories: true)
        try Data("GIF89a".utf8).write(to: dir.appendingPathComponent("own/fake.png"))
        // A Deep Zoom image whose one tile on a 320x240 screen (level 8, 256² of 1024²) is corrupt.
        try Kiosk.pyramid(size: 1024, out: dir.appendingPathComponent("own/deep.dzi").path)
        let tile = dir.appendingPathComponent("own/deep_files/8/0_0.jpeg")
        let bytes = try Data(contentsOf: tile)
        try bytes.prefix(bytes.count / 2).write(to: tile)
        let mistakes = [
            ("{\"kioskManifest\": 1, \"scenes\": [", "not valid JSON"),
            (String(Self.manifest.prefix(Self.manifest.count / 2)), "not valid JSON"),
            (torn, "scenes[1].image: file not found"),
            (
                Self.manifest.replacingOccurrences(of: "images/floorplan.png", with: "own/fake.png"),
                "not a PNG, JPEG or WebP"
            ),
            (Self.manifest.replacingOccurrences(of: "\"goto\": \"menu\"", with: "\"goto\": \"nowhere\""), "nowhere"),
            (
                Self.manifest.replacingOccurrences(of: "images/floorplan.png", with: "own/deep.dzi"),
                "own/deep.dzi: 1 of the 1 tiles of level 8 do not decode, the first deep_files/8/0_0.jpeg"
            ),
        ]
        for (text, why) in mistakes {
            _ = try write(text)
            let status = kiosk.reload()
            #expect(status.hasPrefix("reload failed: \(config): ") && status.contains(why), "\(status)")
        }
        // The scene on screen removed: home.
        _ = try write(
            Self.manifest.replacingOccurrences(
                of:
                    ",\n   {\"id\": \"menu\", \"type\": \"scroll\", \"image\": \"images/menu-long.png\", \"axis\": \"vertical\"}",
                with: ""
            ).replacingOccurrences(of: ", \"goto\": \"menu\"", with: ""))
        #expect(kiosk.reload() == "showing map (reloaded); renderer software")
        let r = kiosk.stop()
        #expect(r.status == 0, "\(r.stderr)")
        let reloads = r.events.filter { $0.event["name"] as? String == "contentDidReload" }
        #expect(reloads.map { $0.event["ok"] as? Bool } == [true, false, false, false, false, false, false, true])
        for (i, (_, why)) in mistakes.enumerated() {
            #expect((reloads[i + 1].event["error"] as? String)?.contains(why) == true)
            #expect(reloads[i + 1].scene == "menu", "the old content stays")
        }
        #expect(reloads[0].scene == "menu")
        #expect(reloads.last?.scene == "map")
        #expect(
            r.events.contains {
                $0.event["name"] as? String == "sceneDidChange" && $0.event["scene"] as? String == "map"
            })
        #expect(r.stderr.contains("<3>kiosk: \(config): scenes[1].image: file not found"))
    }

    /// Where the visitor was is kept when the scene and its image are: offset and zoom, and the new content
    /// fades in over the old (frames are drawn through the crossfade).
    @Test func thePositionIsKept() throws {
        let config = try write(Self.manifest)
        let state = dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        // A saved state puts the kiosk somewhere else than the opening position.
        let saved =
            #"{"kioskState": 1, "scene": "map", "views": {"map": {"contentOffset": [300, 200], "zoomScale": 0.5}}, "#
            + #""lastInput": \#(Date().timeIntervalSince1970)}"#
        try saved.write(to: state.appendingPathComponent("state.json"), atomically: true, encoding: .utf8)
        let kiosk = try Running(dir, config: config, environment: ["STATE_DIRECTORY": state.path])
        _ = try write(Self.manifest.replacingOccurrences(of: "\"maxZoom\": 2.0", with: "\"maxZoom\": 3.0"))
        #expect(kiosk.reload() == "showing map (reloaded); renderer software")
        usleep(500_000)
        let r = kiosk.stop()
        #expect(r.status == 0, "\(r.stderr)")
        func offset(_ line: [String: Any]) -> [Double] {
            ((line["views"] as? [String: Any])?["map"] as? [String: Any])?["contentOffset"] as? [Double] ?? []
        }
        func zoom(_ line: [String: Any]) -> Double {
            ((line["views"] as? [String: Any])?["map"] as? [String: Any])?["zoomScale"] as? Double ?? 0
        }
        guard
            let at = r.lines.firstIndex(where: {
                ($0["events"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "contentDidReload" }
            })
        else {
            Issue.record("no contentDidReload in the trace")
            return
        }
        #expect(at > 0)
        #expect(offset(r.lines[at]) == [300, 200] && offset(r.lines[at - 1]) == [300, 200])
        #expect(zoom(r.lines[at]) == 0.5)
        // The crossfade: frames drawn for its 250 ms though nothing moves.
        let times = r.lines[at...].compactMap { $0["t"] as? Double }
        #expect(times.count >= 5 && (times.last ?? 0) - times[0] >= 200, "\(times)")
    }

    /// Twenty reloads in a row (the content changing each time): resident memory stays within 10 % of what
    /// it was after the first. A storm of 100 SIGHUPs: at most one load at a time, no crash.
    @Test func twentyReloadsAndAStorm() throws {
        let config = try write(Self.manifest)
        let kiosk = try Running(dir, config: config)
        var after: [Int] = []
        for i in 0..<20 {
            _ = try write(Self.manifest.replacingOccurrences(of: "\"maxZoom\": 2.0", with: "\"maxZoom\": \(2 + i)"))
            #expect(kiosk.reload() == "showing map (reloaded); renderer software")
            after.append(kiosk.residentKiB)
        }
        let growth = Double(after.last!) / Double(after.first!)
        #expect(growth <= 1.10, "resident \(after) KiB")
        for _ in 0..<100 { kill(kiosk.process.processIdentifier, SIGHUP) }
        #expect(Self.waitUntil { kiosk.statuses.count >= 22 && kiosk.reloadsInFlight == 0 })
        // A signal that came during the last load starts one more at once: it is let finish before the stop.
        usleep(500_000)
        #expect(Self.waitUntil { kiosk.reloadsInFlight == 0 })
        let r = kiosk.stop()
        #expect(r.status == 0, "\(r.stderr)")
        let loads = r.stderr.components(separatedBy: "reload: checking").count - 1
        #expect(loads >= 21 && loads <= 22, "the storm is one load, or two (one more for signals during it): \(loads)")
    }
}
