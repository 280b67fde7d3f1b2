import ScrollEngine

/// The attract loop (docs/manifest.md, `attract`): while nobody is at the kiosk it plays its steps in a loop, each
/// for its seconds: a zoom or scroll scene moves from `from` to `to` eased in and out, a carousel turns a page
/// every `advanceEverySeconds`. The app starts it, hands it each frame's time, and ends it at the first touch.
final class AttractLoop {
    let attract: Attract
    private(set) var step = 0
    private(set) var stepStart: Double
    private var lastPageTurn: Double

    init(_ attract: Attract, at ms: Double) {
        self.attract = attract
        stepStart = ms
        lastPageTurn = ms
    }

    var current: Attract.Step { attract.steps[step] }

    /// Moves to the next step once this one's time is up (or, for a film step without `seconds`, once its film has
    /// ended: `filmEnded`, but not before `Attract.shortestStepSeconds`: a loop of films that fail or end at once
    /// cycled three steps a second, a journal line each); true when it did.
    func advance(at ms: Double, filmEnded: Bool) -> Bool {
        let elapsed = ms - stepStart
        let filmDone = current.untilFilmEnds && filmEnded && elapsed >= Attract.shortestStepSeconds * 1000
        guard elapsed >= current.seconds * 1000 || filmDone else { return false }
        step = (step + 1) % attract.steps.count
        stepStart = ms
        lastPageTurn = ms
        return true
    }

    /// Places `scene`'s views for the step at `ms`: the eased view between `from` and `to`, or a page turn
    /// when one is due (true: turn a page now).
    func place(_ scene: Scene, at ms: Double) -> Bool {
        let s = current
        if scene.config.type == .carousel {
            guard let every = s.advanceEverySeconds, ms - lastPageTurn >= every * 1000 else { return false }
            lastPageTurn = ms
            return true
        }
        guard let from = s.from ?? s.to, let to = s.to ?? s.from else { return false }
        let x = min(1, max(0, (ms - stepStart) / (s.seconds * 1000)))
        let e = x * x * (3 - 2 * x)
        let center = from.center + (to.center - from.center) * e
        let v = scene.view
        scene.isDrifting = scene.config.type == .zoom && from.zoom != to.zoom && x < 1
        if scene.config.type == .zoom {
            let zoom = (from.zoom + (to.zoom - from.zoom) * e).clampedTo(v.minimumZoomScale, v.maximumZoomScale)
            if v.zoomScale != zoom { v.setZoomScale(zoom, animated: false) }
        }
        let scale = scene.imageScale(v)
        let target = Point(x: center.x * scale - v.bounds.width / 2, y: center.y * scale - v.bounds.height / 2)
        v.contentOffset = v.clampedOffset(target)
        return false
    }
}
