import Foundation
import Kiosk
import KioskSDL

#if canImport(Glibc)
    import Glibc
#endif

// The fleet's figures (fleet.md): a metrics write, a picture of the screen on SIGUSR1, and the frames of a pan
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
    let text = (try? String(contentsOfFile: demoManifest, encoding: .utf8)) ?? ""
    let base = URL(fileURLWithPath: demoManifest).deletingLastPathComponent().path
    let manifest = folder + "/metrics-every-second.json"
    try? text.replacingOccurrences(of: "\"kioskManifest\": 1,", with: "\"kioskManifest\": 1, \"metricsSeconds\": 1,")
        .replacingOccurrences(of: "\"images/", with: "\"\(base)/images/")
        .replacingOccurrences(of: "\"deepzoom/", with: "\"\(base)/deepzoom/")
        .replacingOccurrences(of: "\"rows\": \"", with: "\"rows\": \"\(base)/")
        .write(toFile: manifest, atomically: true, encoding: .utf8)
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
