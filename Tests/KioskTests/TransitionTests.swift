import EventLog
import ScrollEngine
import Testing

@testable import Kiosk

/// Scene transitions at their edges: a touch exactly at a transition's start or end, the idle reset during one.
@Suite struct TransitionTests {
    static func app(_ transition: String = "fade") throws -> KioskApp {
        try AppRig.app(extra: "\"transition\": \"\(transition)\",")
    }

    /// A drag up the middle of the screen by finger `id`, from `t` for 90 ms.
    static func drag(_ app: KioskApp, id: Int64, at t: Double) {
        app.swipe(id, from: Point(x: 0.5, y: 0.8), to: Point(x: 0.5, y: 0.4), steps: 8, at: t, liftAfterMs: 10)
    }

    /// The cafe tapped (the transition starts at the lift, 180 ms); a drag that begins at that same moment is
    /// ignored, one that begins exactly when it ends (480 ms) scrolls.
    @Test func aTouchExactlyAtTheStartIsIgnoredAndAtTheEndIsNot() throws {
        let app = try Self.app()
        app.tap(x: 0.05, y: 0.1, at: 100)
        app.step(to: 180)
        let t = try #require(app.transition)
        #expect(t.start == 180 && t.to == "menu")
        Self.drag(app, id: 2, at: 180)
        AppRig.run(app, from: 270, to: 480)
        #expect(app.scene.view.contentOffset.y == 0)
        app.step(to: 480)
        #expect(app.transition == nil)
        _ = app.sink.take()
        Self.drag(app, id: 3, at: 480)
        #expect(app.sink.events.contains { $0.name == "scrollViewWillBeginDragging" })
        AppRig.run(app, from: 570, to: 1500)
        #expect(app.scene.view.contentOffset.y > 0)
    }

    /// The idle reset while a transition runs (a 3 s transition, a 2 s idle timeout): it starts its own from
    /// the scene on screen and ends at home, at rest, with nothing left over.
    @Test func theIdleResetDuringATransition() throws {
        let app = try AppRig.app(extra: "\"transition\": \"zoom\", \"transitionMs\": 3000,")
        app.tap(x: 0.05, y: 0.1, at: 100)
        app.step(to: 180)
        #expect(app.transition?.style == .zoom && app.transition?.to == "menu")
        AppRig.run(app, from: 180, to: 2190)
        // The idle reset at 2180, a third of the way into the zoom: back home, shrinking into the cafe.
        let back = try #require(app.transition)
        #expect(back.to == "map" && back.from == "menu" && back.style == .zoom && back.shrinks)
        #expect(app.outgoing?.config.id == "menu")
        AppRig.run(app, from: 2190, to: 5300)
        #expect(app.scene.config.id == "map")
        #expect(app.transition == nil && app.outgoing == nil)
        #expect(app.isAtRest)
        let names = AppRig.names(app)
        #expect(names.filter { $0 == "sceneTransition" }.count == 2, "\(names)")
        #expect(names.contains("idleReset"))
    }

    /// An attract step on the scene already shown fades into its `from` view (a new instance of the scene opens
    /// there; the one leaving is drawn as it was), and so does the loop's end back to the same home scene.
    @Test func anAttractStepOnTheSceneShownFadesIntoItsView() throws {
        let app = try AppRig.app(
            extra: #"""
                "attract": {"afterSeconds": 1, "steps": [{"scene": "map", "seconds": 2,
                  "from": {"center": [1000, 600], "zoom": 0.5}, "to": {"center": [3000, 1800], "zoom": 0.8}}]},
                """#)
        let home = app.scene
        AppRig.run(app, from: 0, to: 1010)
        #expect(app.isAttracting)
        let t = try #require(app.transition)
        #expect(t.from == "map" && t.to == "map" && t.style == .fade)
        #expect(app.outgoing === home && app.scene !== home)
        #expect(home.view.zoomScale == home.view.minimumZoomScale)
        #expect(app.scene.view.zoomScale == 0.5)
        // The step comes round again (2 s later): another fade, from where the drift ended.
        AppRig.run(app, from: 1010, to: 3020)
        let again = try #require(app.transition)
        #expect(again.start > t.start && app.outgoing?.view.zoomScale ?? 0 > 0.79)
        #expect(app.scene.view.zoomScale == 0.5)
        // A touch ends the loop: home at rest, with a fade from the drift.
        AppRig.run(app, from: 3020, to: 4000)
        _ = app.sink.take()
        app.tap(x: 0.5, y: 0.5, at: 4000)
        app.step(to: 4100)
        #expect(!app.isAttracting)
        #expect(AppRig.names(app).contains("sceneTransition"))
        #expect(app.scene.view.zoomScale == app.scene.view.minimumZoomScale)
        #expect(app.outgoing?.view.zoomScale ?? 0 > 0.5)
    }

    /// A key pressed during the attract loop ends it and does nothing else, as it wakes a blank screen (it used
    /// to scroll the drifting map, and the loop ran on).
    @Test func aKeyEndsTheAttractLoopAndDoesNothingElse() throws {
        let app = try AppRig.app(
            extra: #"""
                "attract": {"afterSeconds": 1, "steps": [{"scene": "map", "seconds": 4,
                  "from": {"center": [1000, 600], "zoom": 0.5}, "to": {"center": [3000, 1800], "zoom": 0.8}}]},
                """#)
        AppRig.run(app, from: 0, to: 2000)
        #expect(app.isAttracting)
        _ = app.sink.take()
        app.key("Down", at: 2000)
        app.handle(.key(down: false, key: "Down", repeat: false), at: 2050)
        app.step(to: 2100)
        #expect(!app.isAttracting)
        #expect(AppRig.names(app).contains("attractDidEnd"))
        AppRig.run(app, from: 2100, to: 3000)
        #expect(app.scene.view.zoomScale == app.scene.view.minimumZoomScale)
        #expect(app.scene.view.isAtRest)
    }

    /// The attract loop's zoom drift is drawn as a zoom in motion, from the level of half the resolution (it
    /// does not load a finer level on the way and drop it again); at rest the picture is sharp again.
    @Test func aZoomDriftIsDrawnFromHalfTheResolution() throws {
        let text = AppRig.manifestText.replacingOccurrences(
            of: "\"idleTimeoutSeconds\": 2,",
            with: #"""
                "idleTimeoutSeconds": 0, "transition": "none",
                "attract": {"afterSeconds": 1, "steps": [{"scene": "map", "seconds": 4,
                  "from": {"center": [2000, 1200], "zoom": 0.6}, "to": {"center": [2000, 1200], "zoom": 0.9}}]},
                """#)
        let m = try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        let pyramid = DeepZoomImage(width: 4000, height: 2400, tileSize: 254, overlap: 1, format: "jpeg")
        let app = KioskApp(manifest: m, physicalSize: Size(width: 800, height: 480)) { _ in
            ImageInfo(size: Size(width: 4000, height: 2400), loaded: true, pyramid: pyramid, id: 1)
        }
        func levels() -> Set<Int> {
            var query = TileQuery.everything
            let list = app.drawList(tiles: &query)
            var out: Set<Int> = []
            for case .picture(_, let commands) in list {
                for case .tile(let key, _, _, _) in commands { out.insert(key.level) }
            }
            return out
        }
        let full = TileSelection.level(for: 0.75, in: pyramid)
        AppRig.run(app, from: 0, to: 3000)
        #expect(app.isAttracting)
        #expect(app.scene.view.zoomScale > 0.6 && app.scene.view.zoomScale < 0.9)
        #expect(levels() == [full - 1])
        // The touch that ends the loop brings home at rest: drawn sharp.
        app.tap(x: 0.5, y: 0.5, at: 3000)
        AppRig.run(app, from: 3000, to: 3500)
        #expect(!app.isAttracting)
        #expect(levels() == [TileSelection.level(for: app.scene.view.zoomScale, in: pyramid)])
        // Without the drift, the same view is drawn from the full level.
        app.scene.view.setZoomScale(0.75, animated: false)
        #expect(levels() == [full])
    }
}
