import EventLog
import Foundation
import Kiosk
import KioskSDL
import ScrollEngine

/// A directory of `rows` rows in 26 sections (A to Z) beside the demo's map, home the map, whose cafe hotspot
/// opens it; each row shows the cafe and has one of the gallery's four photographs as its thumbnail. Written into `folder`; its manifest's path.
func listManifest(rows: Int, in folder: String) -> String {
    let plan = URL(fileURLWithPath: demoManifest).deletingLastPathComponent()
        .appendingPathComponent("images/floorplan-plain.png").path
    let photos = ["sunset", "mountains", "circles", "night"].map {
        URL(fileURLWithPath: demoManifest).deletingLastPathComponent().appendingPathComponent(
            "images/gallery-\($0).jpg"
        )
        .path
    }
    var csv = "id,title,subtitle,section,show,thumbnail\n"
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    for i in 0..<rows {
        let letter = letters[i * letters.count / max(1, rows)]
        csv += "r\(i),\(letter)oom \(i),Floor \(i % 4) - wing \(i % 7),\(letter),map#cafe,\(photos[i % photos.count])\n"
    }
    try? csv.write(toFile: folder + "/rows-\(rows).csv", atomically: true, encoding: .utf8)
    let text = """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0,
         "scenes": [{"id": "map", "type": "zoom", "image": "\(plan)", "maxZoom": 2.0,
                     "hotspots": [{"id": "cafe", "rect": [1200, 800, 700, 500], "goto": "directory"}]},
                    {"id": "directory", "type": "list", "title": "Directory", "sectionIndex": true,
                     "rows": "rows-\(rows).csv"}]}
        """
    let path = folder + "/list-\(rows).json"
    try? text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// Flings up the list, one every 700 ms for 10 s: each a quick 120 ms swipe from low to high.
func listFlings() -> [(Double, EventLog.Event)] {
    swipes(from: Point(x: 0.5, y: 0.85), to: Point(x: 0.5, y: 0.3), ms: 120, times: 14)
}

/// The median and worst frame of the flings through the directory of `rows` rows, at 1920x1080, for 17 s.
func listFrames(rows: Int, folder: String) -> (median: Double, worst: Double) {
    frames(
        scene: "directory", gesture: listFlings(), count: 17 * 60, manifest: listManifest(rows: rows, in: folder))
}

/// Peak resident memory (MiB) of the kiosk flinging through a directory of `rows` rows, headless at 1920x1080.
func listPeakRss(rows: Int, folder: String, cache: String) -> Double {
    var log = LogLines(width: 1920, height: 1080)
    for (t, e) in listFlings() {
        guard case .finger(let phase, _, _, let x, let y, _, _, _) = e else { continue }
        log.finger(t, phase == .down ? "DOWN" : phase == .up ? "UP" : "MOTION", 1, x, y)
    }
    let path = folder + "/flings.jsonl"
    log.write(path)
    let run = KioskProcess(
        [
            "--headless", "1920x1080", "--config", listManifest(rows: rows, in: folder), "--scene", "directory",
            "--replay", path,
        ], environment: [:], cache: cache)
    run.start()
    return (number(after: "peak ", in: run.wait()) ?? 0) / 1024
}

/// From the tap on the map's hotspot to the first frame of the directory of `rows` rows (its layout and its
/// visible rows' words), the median of `rounds`, in ms.
func listOpenMs(rows: Int, folder: String, rounds: Int) -> Double {
    let manifest = listManifest(rows: rows, in: folder)
    var times: [Double] = []
    for _ in 0..<rounds {
        guard let session = try? HeadlessSession(manifestPath: manifest, width: 1920, height: 1080, scene: "map")
        else { return .infinity }
        var t = 0.0
        while t < 300 {
            t += 1000.0 / 60
            session.frame(at: t)
        }
        guard let cafe = session.app.scene.config.hotspots.first, let frame = session.app.scene.frame(of: cafe)
        else { return .infinity }
        let size = session.app.sceneSize
        let (x, y) = (frame.midX / size.width, frame.midY / size.height)
        session.app.handle(.finger(.down, touchId: 1, fingerId: 1, x: x, y: y, dx: 0, dy: 0, pressure: 1), at: 400)
        session.frame(at: 416)
        // The tap: the finger lifts, the directory is made and its first frame drawn.
        let clock = ContinuousClock()
        let begin = clock.now
        session.app.handle(.finger(.up, touchId: 1, fingerId: 1, x: x, y: y, dx: 0, dy: 0, pressure: 1), at: 430)
        session.frame(at: 433)
        let (s, atto) = (clock.now - begin).components
        guard session.app.scene.config.id == "directory" else { return .infinity }
        times.append(Double(s) * 1000 + Double(atto) / 1e15)
    }
    return median(times)
}
