import Foundation
import ScrollEngine

/// What survives a restart: the scene, every view's offset, zoom and page, and when the last touch was.
public struct KioskState: Codable, Equatable, Sendable {
    public struct View: Codable, Equatable, Sendable {
        public var contentOffset: [Double]
        public var zoomScale: Double
        public var page: Int?
        /// A list's row at the top of its visible space, and where its top was (scene points): new content or a
        /// restart puts that row back there, wherever rows were added or taken away above it.
        public var topRow: TopRow?
    }

    public struct TopRow: Codable, Equatable, Sendable {
        public var id: String
        public var y: Double
    }

    public var kioskState = 1
    public var scene: String
    public var views: [String: View]
    /// Wall-clock seconds (Unix time) of the last input.
    public var lastInput: Double

    /// How far a restored zoom may differ from the saved one (relative) before it counts as moved: rounding.
    static let tolerance = 1e-6

    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Nil for anything that is not a state file of this version.
    public static func decode(_ data: Data) -> KioskState? {
        guard let s = try? JSONDecoder().decode(KioskState.self, from: data), s.kioskState == 1, s.lastInput.isFinite
        else { return nil }
        return s
    }
}

extension KioskApp {
    /// The state to save, `wallClock` being the Unix time at `ms` on the kiosk's clock. (The app's own `now` is its
    /// last step, which an idle loop may have taken seconds ago: the last input is placed by the time given.)
    public func snapshot(wallClock: Double, at ms: Double) -> KioskState {
        KioskState(scene: scene.config.id, views: viewStates(), lastInput: wallClock - (ms - lastInput) / 1000)
    }

    /// Every view of the current scene: its offset, zoom and page.
    func viewStates() -> [String: KioskState.View] {
        var views: [String: KioskState.View] = [:]
        for (id, v) in scene.tracedViews {
            let top = v === scene.view ? scene.topRow.map { KioskState.TopRow(id: $0.id, y: $0.y) } : nil
            views[id] = .init(
                contentOffset: [v.contentOffset.x, v.contentOffset.y], zoomScale: v.zoomScale, page: v.currentPage,
                topRow: top)
        }
        return views
    }

    /// Puts the current scene's views where `views` says, within their limits (the images may have changed).
    /// Returns a line for each saved value that was out of its view's limits by more than a point (or a zoom
    /// step): the file was edited, damaged, or written for other content.
    @discardableResult
    func apply(_ views: [String: KioskState.View]) -> [String] {
        var moved: [String] = []
        for (id, v) in scene.tracedViews {
            guard let saved = views[id], saved.contentOffset.count == 2 else { continue }
            if v.canZoom {
                if saved.zoomScale.isFinite, saved.zoomScale > 0 { v.setZoomScale(saved.zoomScale, animated: false) }
                if !(abs(v.zoomScale - saved.zoomScale) <= KioskState.tolerance * max(1, v.zoomScale)) {
                    moved.append("\(id).zoomScale \(saved.zoomScale) is outside its limits; \(v.zoomScale) is used")
                }
            }
            var wanted = Point(x: saved.contentOffset[0], y: saved.contentOffset[1])
            // A list keeps its top row where it was, by its id (UITableView keeps its cells by index path).
            if v === scene.view, let top = saved.topRow, let list = scene.list,
                let p = list.layout.position(ofRow: top.id, in: list.config)
            {
                wanted.y = list.layout.rowTop(p) - top.y
            }
            let offset = v.clampedOffset(wanted)
            v.contentOffset = offset
            if !(abs(offset.x - wanted.x) <= 1 && abs(offset.y - wanted.y) <= 1) {
                moved.append(
                    "\(id).contentOffset [\(wanted.x), \(wanted.y)] is outside its limits; [\(offset.x), \(offset.y)] is used"
                )
            }
        }
        navigator.lastPage = scene.currentPage
        return moved
    }

    /// What became of a saved state at the start.
    public enum RestoreOutcome: Equatable, Sendable {
        /// Restored; each line names a saved value that had to be brought within its view's limits.
        case restored(adjusted: [String])
        /// The idle timeout has passed since its last touch: the kiosk starts at home, as it would have gone there
        /// by itself.
        case idleTimeoutPassed
        /// Its scene is not in the manifest (any more): the kiosk starts at home.
        case sceneGone
        /// The kiosk is closed now (its opening hours, or a closed date of its schedule): it starts dark, at home,
        /// whatever the state held (a restart at night showed the last visit's scene until the idle reset).
        case closedNow
    }

    /// Goes back to a saved state, unless the kiosk is closed now (by `wall`, the wall clock the first frame is
    /// stepped with), the idle timeout has passed since its last touch or its scene no longer exists. Offsets and
    /// zooms are kept within the views' limits (the images may have changed). `wallClock` is the Unix time at `ms`
    /// on the kiosk's clock.
    @discardableResult
    public func restore(_ state: KioskState, wallClock: Double, at ms: Double, wall: WallTime? = nil) -> RestoreOutcome
    {
        if let wall { wallTime = wall }
        if hoursNow?.open == false { return .closedNow }
        guard manifest.scene(state.scene) != nil else { return .sceneGone }
        let idle = manifest.idleTimeoutSeconds
        if idle > 0 && wallClock - state.lastInput >= idle { return .idleTimeoutPassed }
        // Where the kiosk was is not news: no scene change, no scroll.
        let adjusted = sink.quietly {
            show(scene: state.scene)
            return apply(state.views)
        }
        presence.restore(lastInput: ms - max(0, wallClock - state.lastInput) * 1000)
        return .restored(adjusted: adjusted)
    }
}
