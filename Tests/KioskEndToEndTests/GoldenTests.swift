import Foundation
import Testing

/// The app's behaviour, byte for byte: every fixture log replayed headless in every scene it fits, upright and
/// turned, and a few scenarios of the timed rules (a zoom transition and the idle reset, the attract loop and
/// what ends it, a closed kiosk woken); each run's whole trace and its last screenshot are compared with the
/// golden outputs in `Fixtures/golden`. A change of behaviour shows here first; one made on purpose writes them
/// again (`KIOSK_WRITE_GOLDENS=1 swift test --filter GoldenTests`) in the commit that makes it, saying why.
@Suite struct GoldenTests {
    static let folder = Kiosk.repository.appendingPathComponent("Tests/KioskEndToEndTests/Fixtures/golden")
    static let writing = ProcessInfo.processInfo.environment["KIOSK_WRITE_GOLDENS"] == "1"

    struct Run: CustomTestStringConvertible, Sendable {
        var log: String
        var scene: String
        var rotation: Int
        /// `--clock`, for the scenarios of opening hours.
        var clock: String? = nil
        var timed = false
        var name: String {
            "\(URL(fileURLWithPath: log).deletingPathExtension().lastPathComponent)-\(scene)-r\(rotation)"
        }
        var testDescription: String { name }
    }

    /// The demo with every timed rule: a zoom transition, an idle reset after 4 s, the attract loop 6 s after
    /// it, opening hours from 06:00.
    static let timedManifest = Kiosk.demo.replacingOccurrences(
        of: #""idleTimeoutSeconds": 0,"#,
        with: #""idleTimeoutSeconds": 4, "transition": "zoom", "openingHours": {"mon-sun": "06:00-24:00"}, "#
            + #""attract": {"afterSeconds": 6, "steps": [{"scene": "map", "seconds": 4, "from": {"center": "#
            + #"[1200, 900], "zoom": 0.5}, "to": {"center": [3400, 2000], "zoom": 1.0}}, {"scene": "gallery", "#
            + #""seconds": 4, "advanceEverySeconds": 2}]},"#)

    static let runs: [Run] = {
        let recordings = ((try? FileManager.default.contentsOfDirectory(atPath: Kiosk.recordings.path)) ?? [])
            .filter { $0.hasSuffix(".jsonl") }.sorted().map { Kiosk.recordings.appendingPathComponent($0).path }
        var runs = recordings.flatMap { log in
            ["map", "gallery", "menu"].flatMap { scene in [0, 90].map { Run(log: log, scene: scene, rotation: $0) } }
        }
        for shot in LookTests.shots {
            runs.append(
                Run(
                    log: LookTests.folder.appendingPathComponent(shot.log).path, scene: shot.scene,
                    rotation: shot.rotation))
        }
        let scenarios = folder.appendingPathComponent("scenarios")
        for (log, clock) in [
            ("cafe-and-home", nil), ("attract-then-touch", nil), ("attract-key", nil),
            ("closed-then-touch", "2026-01-05T05:59:50"),
        ] {
            runs.append(
                Run(
                    log: scenarios.appendingPathComponent(log + ".jsonl").path, scene: "map", rotation: 0, clock: clock,
                    timed: true))
        }
        return runs
    }()

    /// The last timestamp of the log at `path` (the screenshot is taken there).
    static func lastTimestamp(_ path: String) -> Int {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n").reversed() {
            if let r = line.range(of: "\"timestamp\": ") {
                return Int(Double(line[r.upperBound...].prefix { $0.isNumber || $0 == "." }) ?? 0)
            }
        }
        return 0
    }

    @Test(arguments: runs)
    func replaysAsBefore(_ run: Run) throws {
        let dir = Kiosk.folder()
        let manifest = try Kiosk.manifest(run.timed ? Self.timedManifest : Kiosk.demo, in: dir)
        let trace = dir.appendingPathComponent("trace.jsonl").path
        let shot = dir.appendingPathComponent("last.png").path
        var arguments = [
            "--headless", "256x160", "--rotate", "\(run.rotation)", "--config", manifest, "--scene", run.scene,
            "--replay", run.log, "--trace", trace, "--screenshot", "\(Self.lastTimestamp(run.log)):\(shot)",
        ]
        if let clock = run.clock { arguments += ["--clock", clock] }
        let r = try Kiosk.run(arguments, in: dir, trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        let traceData = try Data(contentsOf: URL(fileURLWithPath: trace))
        let goldenTrace = Self.folder.appendingPathComponent(run.name + ".trace.jsonl.gz")
        let goldenShot = Self.folder.appendingPathComponent(run.name + ".png")
        if Self.writing {
            try Self.gzip(traceData).write(to: goldenTrace)
            try? FileManager.default.removeItem(atPath: goldenShot.path)
            try FileManager.default.copyItem(atPath: shot, toPath: goldenShot.path)
            return
        }
        let expected = try Self.gunzip(Data(contentsOf: goldenTrace))
        if traceData != expected {
            let a = String(decoding: traceData, as: UTF8.self).split(separator: "\n")
            let b = String(decoding: expected, as: UTF8.self).split(separator: "\n")
            let first = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            let now = first < a.count ? String(a[first].prefix(400)) : "(none)"
            let was = first < b.count ? String(b[first].prefix(400)) : "(none)"
            let message =
                "\(run.name): the trace differs from line \(first + 1) (\(a.count) lines, golden \(b.count)):\n"
                + "now    \(now)\ngolden \(was)"
            Issue.record(Comment(rawValue: message))
        }
        let now = try #require(Picture(path: shot), "no screenshot: \(r.stderr)")
        let golden = try #require(Picture(path: goldenShot.path))
        #expect(now.width == golden.width && now.height == golden.height && now.pixels == golden.pixels, "\(run.name)")
    }

    static func gzip(_ data: Data) throws -> Data { try filter(["-9", "-n", "-c"], data) }
    static func gunzip(_ data: Data) throws -> Data { try filter(["-d", "-c"], data) }

    /// `gzip` with `arguments`, `data` in, what it writes out.
    static func filter(_ arguments: [String], _ data: Data) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        let writer = Thread {
            input.fileHandleForWriting.write(data)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return out
    }
}
