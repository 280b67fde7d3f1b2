import CSDL2
import CSDL2Image
import Foundation
import KioskSDL

#if canImport(Glibc)
    import Glibc
#endif

// The measures of `systemctl reload`: the frames of a fling while a reload loads, memory over twenty
// reloads, and `kiosk --check` on the demo.

/// Four 4000x3000 pages (the demo's gallery pictures scaled up), written once into `folder`.
func bigPages(in folder: String) -> [String] {
    let assets = URL(fileURLWithPath: demoManifest).deletingLastPathComponent().path + "/images/"
    let names = ["gallery-sunset", "gallery-mountains", "gallery-circles", "gallery-night"]
    return names.map { name in
        let out = "\(folder)/\(name)-4000.jpg"
        guard !FileManager.default.fileExists(atPath: out), let small = IMG_Load(assets + name + ".jpg") else {
            return out
        }
        defer { SDL_FreeSurface(small) }
        if let big = SDL_CreateRGBSurfaceWithFormat(0, 4000, 3000, 32, SDL_PIXELFORMAT_RGB888.rawValue) {
            SDL_UpperBlitScaled(small, nil, big, nil)
            IMG_SaveJPG(big, out, 90)
            SDL_FreeSurface(big)
        }
        return out
    }
}

/// The manifest a reload loads: the map (on screen, kept), the 16384² Deep Zoom demo and a carousel of
/// `pages` (in that order).
func reloadManifest(pages: [String]) -> String {
    let assets = URL(fileURLWithPath: demoManifest).deletingLastPathComponent().path
    let list = pages.map { "\"\($0)\"" }.joined(separator: ", ")
    return """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0,
         "scenes": [
           {"id": "map", "type": "zoom", "image": "\(assets)/images/floorplan.png", "maxZoom": 2.0,
            "hotspots": [{"id": "a", "rect": [1200, 800, 700, 500], "goto": "archive"},
                         {"id": "g", "rect": [1900, 300, 1200, 1000], "goto": "gallery"}]},
           {"id": "archive", "type": "zoom", "image": "\(assets)/deepzoom/demo.dzi", "maxZoom": 2.0},
           {"id": "gallery", "type": "carousel", "pages": [\(list)], "maxZoom": 3.0}
         ]}
        """
}

/// A 1920x1080 real-time kiosk on the map, flung back and forth for `seconds` from 1 s on, while SIGHUP
/// reloads it 0.3 s into the flings (the new manifest names the 16384² demo and four 4000-px pages): the
/// longest frame drawn while the reload loaded (the kiosk logs it). Then twenty reloads in a row, alternating
/// two orders of the pages: resident memory after the last over that after the first.
func reloadFigures(folder: String, cache: String) -> (worstFrame: Double, rssGrowth: Double) {
    let dir = folder + "/reload"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let pages = bigPages(in: dir)
    let config = dir + "/kiosk.json"
    try? reloadManifest(pages: Array(pages.prefix(2))).write(toFile: config, atomically: true, encoding: .utf8)
    // Flings: a fast swipe every 700 ms, left and right, on the map zoomed in by a double tap first.
    var log = LogLines(width: 1920, height: 1080)
    log.doubleTap(300, 0.5, 0.5)
    var t = 1000.0
    for i in 0..<8 {
        let (a, b) = i % 2 == 0 ? (0.7, 0.3) : (0.3, 0.7)
        for k in 0...6 {
            log.finger(t + Double(k) * 12, k == 0 ? "DOWN" : "MOTION", 1, a + (b - a) * Double(k) / 6, 0.5)
        }
        log.finger(t + 80, "UP", 1, b, 0.5)
        t += 700
    }
    // A tap long after keeps the kiosk running for the reloads that follow.
    log.finger(60_000, "DOWN", 1, 0.9, 0.9)
    log.finger(60_060, "UP", 1, 0.9, 0.9)
    log.write(dir + "/flings.jsonl")
    let listener = NotifyListener(folder + "/notify-reload.sock")
    let run = KioskProcess(
        ["--headless", "1920x1080", "--realtime", "--config", config, "--replay", dir + "/flings.jsonl"],
        environment: ["NOTIFY_SOCKET": listener.path], cache: cache)
    run.start()
    _ = listener.wait(for: "READY=1", seconds: 10)
    usleep(1_300_000)
    try? reloadManifest(pages: pages).write(toFile: config, atomically: true, encoding: .utf8)
    kill(run.pid, SIGHUP)
    _ = listener.wait(for: "(reloaded)", seconds: 30)
    var rss: [Double] = []
    for i in 0..<20 {
        let order = i % 2 == 0 ? pages.reversed() : pages
        try? reloadManifest(pages: Array(order)).write(toFile: config, atomically: true, encoding: .utf8)
        kill(run.pid, SIGHUP)
        _ = listener.wait(for: "(reloaded)", seconds: 30)
        usleep(300_000)
        rss.append(residentKiB(run.pid))
    }
    let errors = run.stop()
    return (number(after: "meanwhile, the longest in ", in: firstReload(errors)) ?? .infinity, rss[19] / rss[0])
}

/// The log up to the end of its first reload's load.
func firstReload(_ errors: String) -> String {
    guard let r = errors.range(of: "meanwhile, the longest in ") else { return "" }
    return String(errors[..<r.upperBound]) + (errors[r.upperBound...].split(separator: "\n").first ?? "")
}

/// `kiosk --check` on the demo: the median of three, in ms.
func checkDemo() -> Double {
    var times: [Double] = []
    for _ in 0..<3 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: kioskBinary)
        p.arguments = ["--check", "--config", demoManifest]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        let start = Date()
        try? p.run()
        p.waitUntilExit()
        times.append(p.terminationStatus == 0 ? Date().timeIntervalSince(start) * 1000 : .infinity)
    }
    return median(times)
}

/// Frames of crossfades between the map and the gallery at 1920x1080 on the software renderer: the
/// demo's scenes with `"transition": "fade"`, five changes each way, every frame of each 300 ms transition
/// (the first of each includes drawing both scenes once). The median and the longest.
func transitionFrames(folder: String) -> (median: Double, worst: Double) {
    let path = demoManifest(
        editing: ("\"transition\": \"zoom\"", "\"transition\": \"fade\""), at: folder + "/fade.json")
    let session: HeadlessSession
    do { session = try HeadlessSession(manifestPath: path, width: 1920, height: 1080, scene: "gallery") } catch {
        print("kiosk-bench: cannot open \(path) headless: \(error)")
        exit(1)
    }
    session.frame(at: 0)  // loads the gallery's images
    var t = 1000.0
    var times: [Double] = []
    let clock = ContinuousClock()
    for i in 0..<10 {
        session.app.show(scene: i % 2 == 0 ? "map" : "gallery")
        for _ in 0..<18 {
            t += 1000.0 / 60
            let start = clock.now
            session.frame(at: t)
            let (s, atto) = (clock.now - start).components
            times.append(Double(s) * 1000 + Double(atto) / 1e15)
        }
        t += 1000
        session.frame(at: t)
    }
    times.sort()
    return (times[times.count / 2], times.last ?? 0)
}

/// Frames of the demo's attract loop at 1920x1080 on the software renderer, tiles decoded by the workers as in
/// real time: 20 s of it from its start (45 s after a start with no touch), the map drifting and the gallery
/// paging. Two identical runs on the virtual clock: each frame's time is the lesser of its two (a moment the
/// machine gives to another process is not the frame's cost; work a frame really does shows in both). The
/// median and the longest, and the longest of the first run alone.
func attractFrames() -> (median: Double, worst: Double, worstOneRun: Double) {
    let first = attractRun()
    let second = attractRun()
    let times = zip(first, second).map { min($0, $1) }.sorted()
    guard !times.isEmpty else { return (.infinity, .infinity, .infinity) }
    return (times[times.count / 2], times.last ?? 0, first.max() ?? 0)
}

/// One run of `attractFrames`: the time of each frame drawn while the loop plays, in order.
func attractRun() -> [Double] {
    guard let session = try? HeadlessSession(manifestPath: demoManifest, width: 1920, height: 1080)
    else {
        print("kiosk-bench: cannot open the demo headless")
        exit(1)
    }
    var t = 0.0
    // Nothing is drawn while the kiosk waits (it sleeps); its frames begin before the attract loop's pictures
    // are decoded ahead, which it does while it waits.
    while t < 39_000 {
        t += 1000.0 / 60
        session.app.step(to: t)
    }
    var times: [Double] = []
    let clock = ContinuousClock()
    while t < 65_000 {
        t += 1000.0 / 60
        let start = clock.now
        session.frame(at: t)
        let (s, atto) = (clock.now - start).components
        if session.app.isAttracting { times.append(Double(s) * 1000 + Double(atto) / 1e15) }
    }
    return times
}

/// `kiosk --stats --report` over a year of a busy kiosk (365 days of 200 visits, each day's touches on the plan),
/// generated into `folder` (a fixed pattern: the same state every run); the time to write the report, in ms.
func yearReport(folder: String) -> Double {
    let visits = folder + "/year/visits"
    try? FileManager.default.createDirectory(atPath: visits, withIntermediateDirectories: true)
    let start = 1_764_547_200.0  // 2025-12-01T00:00:00Z
    var counts = [Int](repeating: 0, count: 64 * 36)
    for i in 0..<counts.count { counts[i] = (i * 7919) % 13 }
    let grid =
        "{\"map\": {\"grid\": [64, 36], \"image\": [4800, 3000], \"counts\": ["
        + counts.map(String.init).joined(separator: ", ") + "]}}"
    for day in 0..<365 {
        let date = String(
            ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: start + Double(day) * 86_400)).prefix(10))
        var lines = ""
        for v in 0..<200 {
            let ms = 5_000 + (v * 7_919 + day * 104_729) % 300_000
            let hour = 9 + v % 10
            lines +=
                "{\"start\": \"\(date)T\(hour < 10 ? "0" : "")\(hour):\(v % 6)0:00+01:00\", \"durationMs\": \(ms), "
                + "\"scenes\": {\"map\": \(ms / 2), \"menu\": \(ms - ms / 2)}, \"hotspots\": {\"cafe\": \(v % 3)}, "
                + "\"gestures\": {\"pan\": 2, \"pinch\": 0, \"doubleTap\": 0, \"page\": 0}}\n"
        }
        try? lines.write(toFile: visits + "/\(date).jsonl", atomically: true, encoding: .utf8)
        try? grid.write(toFile: visits + "/\(date).touches.json", atomically: true, encoding: .utf8)
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: kioskBinary)
    p.arguments = ["--stats", "--state", folder + "/year", "--report", folder + "/report", "--config", demoManifest]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    let began = Date()
    try? p.run()
    p.waitUntilExit()
    return p.terminationStatus == 0 ? Date().timeIntervalSince(began) * 1000 : .infinity
}

/// `kiosk --edit` on the demo at 1920x1080 in real time: the map's title saved anew five times, 1.5 s apart;
/// each from the manifest written (the new file renamed into place, as editors save) to the kiosk's `READY=1`
/// after the first frame showing it. The median, in ms.
func editReload(folder: String, cache: String) -> Double {
    let dir = folder + "/edit"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let config = demoManifest(editing: ("\"Ground floor\"", "\"Ground floor\""), at: dir + "/kiosk.json")
    let original = (try? String(contentsOfFile: config, encoding: .utf8)) ?? ""
    var log = LogLines(width: 1920, height: 1080)
    // A tap long after keeps the kiosk running.
    log.finger(60_000, "DOWN", 1, 0.9, 0.9)
    log.finger(60_060, "UP", 1, 0.9, 0.9)
    log.write(dir + "/idle.jsonl")
    let listener = NotifyListener(folder + "/notify-edit.sock")
    let run = KioskProcess(
        ["--edit", "--headless", "1920x1080", "--realtime", "--config", config, "--replay", dir + "/idle.jsonl"],
        environment: ["NOTIFY_SOCKET": listener.path], cache: cache)
    run.start()
    _ = listener.wait(for: "READY=1", seconds: 10)
    // The first check of every picture, on its own thread from the start, is over.
    usleep(1_500_000)
    var times: [Double] = []
    for i in 1...5 {
        let saved = original.replacingOccurrences(of: "\"Ground floor\"", with: "\"Ground floor \(i)\"")
        let start = Date()
        try? saved.write(toFile: config, atomically: true, encoding: .utf8)
        let shown = listener.wait(for: "(reloaded)", seconds: 10)
        times.append(shown ? Date().timeIntervalSince(start) * 1000 : .infinity)
        usleep(1_500_000)
    }
    let errors = run.stop()
    if times.contains(.infinity) { print("kiosk-bench: an edit was not shown:\n\(errors)") }
    return median(times)
}
