import Foundation
import Kiosk
import KioskSDL

#if canImport(Glibc)
    import Glibc
#endif

// The fleet's figures (docs/operations.md): a metrics write, a picture of the screen on SIGUSR1, and the frames of a pan
// while both run.

/// `metricsWriteMs`: one write of the metrics file (the exposition of a kiosk that has run a while, written
/// beside the file and renamed), on the metrics thread as the kiosk does it, waited for. Median of `rounds`.
func metricsWriteMs(folder: String, rounds: Int) -> Double {
    guard let file = MetricsFile(option: folder + "/bench.prom", intervalSeconds: 15) else { return -1 }
    var metrics = Metrics(scene: "map")
    metrics.framesPresented = 123_456
    metrics.touches = 789
    let now = Metrics.Now(
        version: kioskVersion, content: "79ef4f788e224194", upSeconds: 86_400, placeholders: 0,
        residentBytes: 60_000_000, textureBytes: 40_000_000, clockSynchronized: true)
    var times: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<rounds {
        let start = clock.now
        file.writeNow(metrics.exposition(now))
        let (s, a) = (clock.now - start).components
        times.append(Double(s) * 1000 + Double(a) / 1e15)
    }
    return median(times)
}

/// `screenPictureMs`: from `SIGUSR1` to `screen.png` renamed into place, an idle real-time kiosk at 1920x1080
/// showing the map. Median of `rounds`.
func screenPictureMs(folder: String, cache: String, rounds: Int) -> Double {
    let state = folder + "/picture-state"
    try? FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    let listener = NotifyListener(folder + "/notify-picture.sock")
    let run = KioskProcess(
        ["--headless", "1920x1080", "--realtime", "--config", demoManifest, "--scene", "map"],
        environment: ["NOTIFY_SOCKET": listener.path, "STATE_DIRECTORY": state], cache: cache)
    run.start()
    _ = listener.wait(for: "READY=1", seconds: 10)
    usleep(500_000)
    let picture = state + "/screen.png"
    var times: [Double] = []
    for _ in 0..<rounds {
        unlink(picture)
        let start = Date()
        kill(run.pid, SIGUSR1)
        while !FileManager.default.fileExists(atPath: picture), Date().timeIntervalSince(start) < 5 { usleep(200) }
        times.append(Date().timeIntervalSince(start) * 1000)
        usleep(200_000)
    }
    _ = run.stop()
    return median(times)
}

/// `metricsWorstFrameMs`: the longest frame of the zoom-1 pan of the map at 1920x1080 in real time while the
/// metrics are written every second and a picture of the screen is asked every 500 ms: the greatest
/// `kiosk_frame_longest_seconds` of the writes from 2 s after READY (the zoom into the map and its first tiles
/// before), the lesser of two runs (as the tours' figure: a frame this shared machine stalls is seldom stalled
/// in both).
func metricsWorstFrameMs(folder: String, cache: String) -> Double {
    let log = folder + "/pan.jsonl"
    panLog(log)
    let manifest = demoManifest(
        editing: ("\"kioskManifest\": 1,", "\"kioskManifest\": 1, \"metricsSeconds\": 1,"),
        at: folder + "/metrics-every-second.json")
    let state = folder + "/metrics-state"
    try? FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    let file = state + "/kiosk.prom"
    var worst: [Double] = []
    for _ in 0..<2 {
        unlink(file)
        let listener = NotifyListener(folder + "/notify-metrics.sock")
        let run = KioskProcess(
            ["--headless", "1920x1080", "--realtime", "--config", manifest, "--scene", "map", "--replay", log],
            environment: ["NOTIFY_SOCKET": listener.path, "STATE_DIRECTORY": state], cache: cache)
        run.start()
        _ = listener.wait(for: "READY=1", seconds: 10)
        let ready = Date()
        var longest = 0.0
        var nextSignal = 0.5
        while run.process.isRunning, Date().timeIntervalSince(ready) < 11 {
            usleep(100_000)
            let since = Date().timeIntervalSince(ready)
            if since >= nextSignal {
                kill(run.pid, SIGUSR1)
                nextSignal += 0.5
            }
            guard since >= 2, let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            longest = max(longest, (number(after: "kiosk_frame_longest_seconds ", in: text) ?? 0) * 1000)
        }
        _ = run.wait()
        worst.append(longest)
    }
    return worst.min() ?? 0
}

/// `soakRssGrowth` and its figures: the demo headless at 320x200 through 167 virtual hours (a week, to the
/// event log's bound) from a Monday 09:00, its clock stepping 1 s a frame (`--frame-ms 1000`): the opening
/// hours (closed at night), the attract loop, a visitor every hour (the cafe tapped, the menu swiped), idle
/// resets, state saves and visit files. Resident memory at 1 h, 24 h and 166 h of its clock (its own `memory:`
/// line, every 10 minutes of it), with its open files and threads and the state folder's size read as those
/// lines arrive.
func soak(folder: String, cache: String) -> (
    rss: [Double], fds: [Int], threads: [Int], stateKiB: [Int], growth: Double, seconds: Double
) {
    let hours = 167
    var log = LogLines(width: 320, height: 200)
    for h in 0..<hours {
        let t = Double(h) * 3_600_000 + 1000
        log.finger(t, "DOWN", 1, 0.323, 0.375)
        log.finger(t + 60, "UP", 1, 0.323, 0.375)
        for k in 0...12 {
            log.finger(
                t + 2000 + Double(k) * 8, k == 0 ? "DOWN" : k == 12 ? "UP" : "MOTION", 2, 0.5, 0.8 - 0.04 * Double(k))
        }
    }
    let path = folder + "/soak.jsonl"
    log.write(path)
    let state = folder + "/soak-state"
    try? FileManager.default.removeItem(atPath: state)
    try? FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: kioskBinary)
    process.arguments = [
        "--headless", "320x200", "--config", demoManifest, "--replay", path, "--frame-ms", "1000", "--clock",
        "2026-01-05T09:00:00",
    ]
    var env = ProcessInfo.processInfo.environment
    env["XDG_CACHE_HOME"] = cache
    env["STATE_DIRECTORY"] = state
    env["TZ"] = "UTC"
    process.environment = env
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    let start = Date()
    guard (try? process.run()) != nil else { return ([], [], [], [], 0, 0) }
    // Memory lines every 10 minutes of its clock: the 6th is 1 h, the 144th 24 h, the 996th 166 h (its replay
    // ends a little after 166 h).
    let wanted = [6, 144, (hours - 1) * 6]
    var rss: [Double] = []
    var fds: [Int] = []
    var threads: [Int] = []
    var stateKiB: [Int] = []
    var seen = 0
    var pending = ""
    let handle = errors.fileHandleForReading
    while true {
        let data = handle.availableData
        if data.isEmpty { break }
        pending += String(decoding: data, as: UTF8.self)
        while let newline = pending.firstIndex(of: "\n") {
            let line = String(pending[..<newline])
            pending = String(pending[pending.index(after: newline)...])
            guard line.contains("memory: resident") else { continue }
            seen += 1
            guard wanted.contains(seen) else { continue }
            rss.append((number(after: "resident ", in: line) ?? 0) / 1024)
            let pid = process.processIdentifier
            fds.append((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0)
            threads.append((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0)
            stateKiB.append(folderKiB(state))
        }
    }
    process.waitUntilExit()
    let growth = rss.count == 3 ? rss[2] / max(rss[0], 1) : 0
    return (rss, fds, threads, stateKiB, growth, Date().timeIntervalSince(start))
}

/// The bytes under `folder`, in KiB.
func folderKiB(_ folder: String) -> Int {
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return 0 }
    var bytes = 0
    for case let name as String in walker {
        bytes += (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0
    }
    return bytes / 1024
}
