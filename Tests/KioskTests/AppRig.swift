import EventLog
import ScrollEngine

@testable import Kiosk

/// The kiosk without SDL, as the tests drive it: the app of `manifestText` (a zoomable map whose cafe hotspot
/// opens the menu, a gallery of three photos one of which is broken, a scrolling menu), fed SDL's events as the
/// frame loop hands them over, and stepped at 60 Hz on a virtual clock. Touches are at SDL's normalised
/// coordinates, 0 to 1 across the panel.
enum AppRig {
    static let manifestText = """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 2,
         "scenes": [
           {"id": "map", "type": "zoom", "image": "map.png", "maxZoom": 1.0,
            "hotspots": [{"id": "cafe", "rect": [0, 0, 500, 500], "goto": "menu"}]},
           {"id": "gallery", "type": "carousel", "pages": ["a.jpg", "broken.jpg", "c.jpg"], "maxZoom": 2.0},
           {"id": "menu", "type": "scroll", "image": "menu.png"}
         ]}
        """

    /// The app of `manifestText`, with `extra` top-level keys (`"transition": "zoom",`).
    static func app(
        scene: String? = nil, calibration: String = "", extra: String = "", size: Size = Size(width: 800, height: 480),
        rotation: Rotation = .none, idleTimeout: Int = 2
    ) throws -> KioskApp {
        var text = manifestText.replacingOccurrences(
            of: "\"idleTimeoutSeconds\": 2,", with: "\"idleTimeoutSeconds\": \(idleTimeout), \(extra)")
        if !calibration.isEmpty {
            text = text.replacingOccurrences(
                of: "\"idleTimeoutSeconds\": 2,", with: "\"idleTimeoutSeconds\": 2, \"calibration\": \(calibration),")
        }
        let m = try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        return KioskApp(manifest: m, physicalSize: size, rotation: rotation, startScene: scene) { path in
            switch path {
            case "/k/map.png": ImageInfo(size: Size(width: 4000, height: 2400), loaded: true)
            case "/k/menu.png": ImageInfo(size: Size(width: 800, height: 4000), loaded: true)
            case "/k/broken.jpg": .missing
            default: ImageInfo(size: Size(width: 1600, height: 1200), loaded: true)
            }
        }
    }

    /// Frames at 60 Hz after `from` until `to`, as the frame loop steps the app.
    static func run(_ app: KioskApp, from: Double, to: Double) {
        var t = from
        while t < to {
            t += 1000.0 / 60
            app.step(to: t)
        }
    }

    /// The names of the frame events so far, without the scroll, zoom and inset change of every frame.
    static func names(_ app: KioskApp) -> [String] {
        app.sink.events.map(\.name).filter {
            $0 != "scrollViewDidScroll" && $0 != "scrollViewDidZoom" && $0 != "scrollViewDidChangeAdjustedContentInset"
        }
    }

    /// Runs frames at 60 Hz from `from` to `to` as the frame loop does: the events due by a frame's time are
    /// handed over first, then the app steps and the counter sees the frame's events. The visits that ended.
    static func frames(
        _ app: KioskApp, _ counter: VisitCounter, from: Double, to: Double, events: [(Double, EventLog.Event)] = []
    ) -> [Visit] {
        var ended: [Visit] = []
        var pending = events
        var t = from
        while t < to {
            t += 1000.0 / 60
            while let (at, e) = pending.first, at <= t {
                app.handle(e, at: at)
                pending.removeFirst()
            }
            app.step(to: t)
            if let v = counter.observe(app, events: app.frameEvents, at: t) { ended.append(v) }
            app.dropFrameEvents()
        }
        return ended
    }
}

extension KioskApp {
    /// Finger `id` at (`x`, `y`) of the panel, as SDL reports it.
    func finger(_ phase: EventLog.FingerPhase, _ id: Int64 = 1, x: Double, y: Double, at t: Double) {
        handle(.finger(phase, id, x, y), at: t)
    }

    /// A tap of finger `id` at (`x`, `y`): down at `t`, up `holdMs` later.
    func tap(_ id: Int64 = 1, x: Double, y: Double, at t: Double, holdMs: Double = 80) {
        finger(.down, id, x: x, y: y, at: t)
        finger(.up, id, x: x, y: y, at: t + holdMs)
    }

    /// A swipe of finger `id` from `from` to `to`: down at `t`, `steps` moves `stepMs` apart, and up at `to`
    /// `liftAfterMs` after the last move.
    func swipe(
        _ id: Int64 = 1, from: Point, to: Point, steps: Int, at t: Double, stepMs: Double = 10, liftAfterMs: Double = 0
    ) {
        finger(.down, id, x: from.x, y: from.y, at: t)
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            finger(
                .motion, id, x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f,
                at: t + Double(i) * stepMs)
        }
        finger(.up, id, x: to.x, y: to.y, at: t + Double(steps) * stepMs + liftAfterMs)
    }

    /// A key pressed at `t`.
    func key(_ name: String, at t: Double) { handle(.key(down: true, key: name, repeat: false), at: t) }
}

extension EventLog.Event {
    /// Finger `id` at (`x`, `y`) of the panel, as SDL reports it (touch device 1, full pressure).
    static func finger(_ phase: EventLog.FingerPhase, _ id: Int64, _ x: Double, _ y: Double) -> EventLog.Event {
        .finger(phase, touchId: 1, fingerId: id, x: x, y: y, dx: 0, dy: 0, pressure: 1)
    }
}
