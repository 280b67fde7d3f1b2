import EventLog
import Foundation
import Kiosk
import KioskSDL
import ScrollEngine

// Words (docs/manifest.md): labels on a panned map, the switch to another language, the texts' memory.

/// The demo's map alone, words-free or with `labels` labelled hotspots in a grid over it: a manifest in `folder`.
func mapManifest(labels: Int, in folder: String) -> String {
    let image = URL(fileURLWithPath: demoManifest).deletingLastPathComponent()
        .appendingPathComponent("images/floorplan-plain.png").path
    let names = ["Café", "Library", "Gallery A: Paintings", "Shop", "Sculpture Hall"]
    let hotspots = (0..<labels).map { i -> String in
        let x = 300 + (i % 5) * 900
        let y = 300 + (i / 5) * 650
        return #"{"id": "h\#(i)", "rect": [\#(x), \#(y), 600, 400], "label": "\#(names[i % names.count]) \#(i)"}"#
    }
    let text = """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0,
         "scenes": [{"id": "map", "type": "zoom", "image": "\(image)", "minZoom": "fit", "maxZoom": 2.0,
                     "doubleTapZoom": 1.0, "hotspots": [\(hotspots.joined(separator: ", "))]}]}
        """
    let path = folder + "/map-\(labels)-labels.json"
    try? text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// The first frame in German after a tap on Deutsch in the demo's language choice (the choice opened by a tap on
/// the button first): its texts are laid out, shaped and rasterised in it. Median of `rounds`, in ms.
func languageSwitchMs(rounds: Int) -> Double {
    var times: [Double] = []
    for _ in 0..<rounds {
        guard let session = try? HeadlessSession(manifestPath: demoManifest, width: 1920, height: 1080, scene: "map")
        else { return .infinity }
        let app = session.app
        let size = app.sceneSize
        var t = 0.0
        func frames(until end: Double) {
            while t < end {
                t += 1000.0 / 60
                session.frame(at: t)
            }
        }
        func tap(_ p: Point, at ms: Double) {
            let (x, y) = (p.x / size.width, p.y / size.height)
            app.handle(.finger(.down, touchId: 1, fingerId: Int64(ms), x: x, y: y, dx: 0, dy: 0, pressure: 1), at: ms)
            app.handle(
                .finger(.up, touchId: 1, fingerId: Int64(ms), x: x, y: y, dx: 0, dy: 0, pressure: 1), at: ms + 60)
        }
        frames(until: 300)
        let button = LanguageMenu(Languages(app.manifest.languages), sceneSize: size).button
        tap(Point(x: button.midX, y: button.midY), at: 400)
        frames(until: 800)
        var open = Languages(app.manifest.languages)
        open.isChoosing = true
        let deutsch = LanguageMenu(open, sceneSize: size).option("de")!
        tap(Point(x: deutsch.midX, y: deutsch.midY), at: 900)
        let clock = ContinuousClock()
        while app.language != "de" && t < 2000 {
            t += 1000.0 / 60
            let begin = clock.now
            session.frame(at: t)
            let (s, atto) = (clock.now - begin).components
            if app.language == "de" { times.append(Double(s) * 1000 + Double(atto) / 1e15) }
        }
    }
    return median(times)
}

/// The texture memory of every text of the demo's scenes, each shown once in each of its languages, in MiB.
func textTextureMiB() -> Double {
    guard let session = try? HeadlessSession(manifestPath: demoManifest, width: 1920, height: 1080, scene: "map")
    else { return .infinity }
    var t = 0.0
    for tag in session.app.manifest.languages {
        session.app.chooseLanguage(tag)
        for scene in session.app.manifest.scenes.map(\.id) {
            session.app.show(scene: scene, style: TransitionStyle.none)
            t += 1000.0 / 60
            session.frame(at: t)
        }
    }
    return Double(session.textTextureBytes) / 1_048_576
}
