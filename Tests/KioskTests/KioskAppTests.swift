import EventLog
import ScrollEngine
import TestSupport
import Testing

@testable import Kiosk

/// The kiosk without SDL: input mapping, scenes, idle reset, draw lists.
@Suite struct KioskAppTests {
    @Test func idleTimeoutGoesHome() throws {
        let app = try AppRig.app(scene: "menu")
        app.key("PageDown", at: 100)
        AppRig.run(app, from: 100, to: 2000)
        #expect(app.scene.config.id == "menu")
        AppRig.run(app, from: 2000, to: 2500)
        #expect(app.scene.config.id == "map")
        #expect(AppRig.names(app).suffix(3) == ["idleReset", "sceneTransition", "sceneDidChange"])
        // Only once per idle period.
        AppRig.run(app, from: 2500, to: 6000)
        #expect(AppRig.names(app).filter { $0 == "idleReset" }.count == 1)
    }

    @Test func idleTimeoutInTheHomeSceneAnimatesBack() throws {
        let app = try AppRig.app()
        let v = app.scene.view
        let fit = v.zoomScale
        app.key("+", at: 0)
        AppRig.run(app, from: 0, to: 1000)
        let zoomed = v.zoomScale
        #expect(zoomed > fit)
        // Frame by frame to the idle reset, then a tenth of a second into it: half way back, not a jump.
        var t = 1000.0
        while !AppRig.names(app).contains("idleReset") && t < 3000 {
            AppRig.run(app, from: t, to: t + 1)
            t += 1000.0 / 60
        }
        #expect(AppRig.names(app).contains("idleReset"))
        AppRig.run(app, from: t, to: t + 100)
        #expect(v.zoomScale > fit && v.zoomScale < zoomed, "animates back: \(v.zoomScale)")
        AppRig.run(app, from: t + 100, to: 3000)
        expectClose(v.zoomScale, fit, 1e-9)
        #expect(v.contentOffset == v.clampedOffset(v.contentOffset))
    }

    @Test func mouseIsOneFinger() throws {
        let app = try AppRig.app(scene: "menu")
        app.handle(.mouseButton(down: true, button: 1, clicks: 1, x: 400, y: 400), at: 0)
        for i in 1...10 {
            app.handle(.mouseMotion(x: 400, y: 400 - Double(i) * 20, xrel: 0, yrel: -20, state: 1), at: Double(i) * 16)
        }
        app.handle(.mouseButton(down: false, button: 1, clicks: 1, x: 400, y: 200), at: 170)
        // 200 pt of drag less the 10 pt slop; then it decelerates further.
        #expect(app.scene.view.contentOffset.y == 190)
        #expect(AppRig.names(app).first == "scrollViewWillBeginDragging")
        // Motion without the button pressed moves nothing.
        let before = app.scene.view.contentOffset
        AppRig.run(app, from: 200, to: 1800)  // before the 2 s idle reset
        let rested = app.scene.view.contentOffset
        #expect(rested.y > before.y)
        for i in 1...10 {
            app.handle(
                .mouseMotion(x: 400, y: 200 + Double(i) * 30, xrel: 0, yrel: 30, state: 0), at: 1800 + Double(i) * 10)
        }
        #expect(!app.scene.view.isTracking)
        #expect(AppRig.names(app).filter { $0 == "scrollViewWillBeginDragging" }.count == 1)
    }

    @Test func wheelScrollsAndControlWheelZoomsAtThePointer() throws {
        let menu = try AppRig.app(scene: "menu")
        menu.handle(.mouseWheel(x: 0, y: -3, preciseX: 0, preciseY: -3), at: 0)
        #expect(menu.scene.view.contentOffset.y == 120)
        let map = try AppRig.app()
        let v = map.scene.view
        let fit = v.zoomScale
        map.handle(.mouseMotion(x: 100, y: 100, xrel: 0, yrel: 0, state: 0), at: 0)
        map.handle(.key(down: true, key: "Left Ctrl", repeat: false), at: 0)
        map.handle(.mouseWheel(x: 0, y: 1, preciseX: 0, preciseY: 1), at: 10)
        AppRig.run(map, from: 10, to: 600)
        expectClose(v.zoomScale, fit * 1.5, 1e-9)
    }

    @Test func keysTurnPagesAndEscapeGoesHomeThenQuitsOnlyInAWindow() throws {
        let app = try AppRig.app(scene: "gallery")
        app.key("PageDown", at: 0)
        AppRig.run(app, from: 0, to: 600)
        #expect(app.scene.currentPage == 1)
        #expect(AppRig.names(app).contains("pageDidChange"))
        app.key("Escape", at: 700)
        #expect(app.scene.config.id == "map")
        #expect(!app.quitRequested)
        app.key("Escape", at: 750)
        #expect(!app.quitRequested)
        app.escapeQuits = true
        app.key("Escape", at: 800)
        #expect(app.quitRequested)
    }

    @Test func calibrationInvertsTheTouch() throws {
        let app = try AppRig.app(scene: "gallery", calibration: #"{"invertX": true}"#)
        // The panel reports x growing to the left: a raw swipe to the right is a swipe to the left.
        app.swipe(from: Point(x: 0.3, y: 0.5), to: Point(x: 0.7, y: 0.5), steps: 10, at: 0)
        AppRig.run(app, from: 100, to: 1500)
        #expect(app.scene.currentPage == 1)
    }

    @Test func aMatrixCalibrationTurnsThePanel() throws {
        // A panel mounted a quarter turn off: x' = 1 - y, y' = x. A raw swipe down is a swipe to the left.
        let app = try AppRig.app(scene: "gallery", calibration: #"{"matrix": [0, -1, 1, 1, 0, 0]}"#)
        app.swipe(from: Point(x: 0.5, y: 0.3), to: Point(x: 0.5, y: 0.7), steps: 10, at: 0)
        AppRig.run(app, from: 100, to: 1500)
        #expect(app.scene.currentPage == 1)
        let plain = try AppRig.app(scene: "gallery")
        plain.swipe(from: Point(x: 0.5, y: 0.3), to: Point(x: 0.5, y: 0.7), steps: 10, at: 0)
        AppRig.run(plain, from: 100, to: 1500)
        #expect(plain.scene.currentPage == 0)
    }

    /// The calibration maps the panel onto the physical screen; `--rotate` turns that into the scene after it.
    @Test func theCalibrationComesBeforeTheRotation() throws {
        // The panel's y runs upward (y' = 1 - y). Turned a quarter clockwise, the scene's x is the physical y: a
        // raw swipe down is physically upward, which is a swipe to the left in the scene. (The other order would
        // make it a swipe to the right.)
        let app = try AppRig.app(
            scene: "gallery", calibration: #"{"matrix": [1, 0, 0, 0, -1, 1]}"#, size: Size(width: 480, height: 800),
            rotation: .quarter)
        app.swipe(from: Point(x: 0.5, y: 0.3), to: Point(x: 0.5, y: 0.7), steps: 10, at: 0)
        AppRig.run(app, from: 100, to: 1500)
        #expect(app.scene.currentPage == 1)
    }

    /// A calibration file replaces the manifest's (`KioskApp.calibration`, set at start).
    @Test func theCalibrationInEffectIsTheAppsOwn() throws {
        let app = try AppRig.app(scene: "gallery", calibration: #"{"invertX": true}"#)
        app.calibration = Calibration(matrix: AffineMatrix(a: 0, b: -1, c: 1, d: 1, e: 0, f: 0))
        app.swipe(from: Point(x: 0.5, y: 0.3), to: Point(x: 0.5, y: 0.7), steps: 10, at: 0)
        AppRig.run(app, from: 100, to: 1500)
        #expect(app.scene.currentPage == 1)
    }

    /// The touch test and the calibration wizard end by themselves: 30 s without a touch. They say so, counting
    /// the seconds down (a sleeping loop wakes when the count changes).
    @Test func theInstallersScreensEndAfterThirtySecondsWithoutATouch() throws {
        for start in [{ (a: KioskApp) in _ = a.start(.touchTest) }, { (a: KioskApp) in _ = a.start(.calibration) }] {
            let app = try AppRig.app(scene: "gallery")
            start(app)
            app.tap(x: 0.5, y: 0.5, at: 1000, holdMs: 50)
            app.step(to: 30_000)
            #expect(!app.quitRequested)
            let words = app.drawList().compactMap { if case .text(let run) = $0 { run.text } else { nil } }
            #expect(words.contains { $0.hasSuffix("2 s left") }, "\(words)")
            _ = app.drawList()
            #expect(!app.needsFrame)
            #expect(app.nextDeadline == 30_050)
            app.step(to: 30_050)
            #expect(app.needsFrame)
            #expect(app.nextDeadline == 31_050)
            app.step(to: 31_050)
            #expect(app.quitRequested)
            #expect(app.scene.currentPage == 0, "the scene saw nothing")
        }
    }

    /// Finger A and B down, A up, C down: C must not be taken for B (SDL reuses nothing, neither may we).
    @Test func aNewFingerNeverTakesTheIdOfOneStillDown() throws {
        let app = try AppRig.app(scene: "menu")
        func finger(_ phase: EventLog.FingerPhase, _ id: Int64, _ y: Double, _ t: Double) {
            app.finger(phase, id, x: 0.5, y: y, at: t)
        }
        finger(.down, 10, 0.5, 0)
        finger(.down, 11, 0.6, 10)
        finger(.up, 10, 0.5, 20)
        finger(.down, 12, 0.9, 30)
        // B (11) now drags up by a lot; if C had been taken for B, the centroid would jump instead.
        for i in 1...10 { finger(.motion, 11, 0.6 - Double(i) * 0.03, 30 + Double(i) * 10) }
        finger(.up, 11, 0.3, 140)
        finger(.up, 12, 0.9, 140)
        AppRig.run(app, from: 140, to: 1000)
        #expect(app.scene.view.contentOffset.y > 0)
        #expect(!app.scene.view.isTracking)
    }

    @Test func drawListHasAPlaceholderAndTheHomeButtonWhereTheyBelong() throws {
        let app = try AppRig.app(scene: "gallery")
        app.key("PageDown", at: 0)
        AppRig.run(app, from: 0, to: 600)
        let list = app.drawList()
        #expect(list.contains { if case .placeholder = $0 { true } else { false } })
        #expect(list.contains { if case .homeButton = $0 { true } else { false } })
        // The page control's three dots (the accessibility figure's head is in the top bar).
        #expect(list.filter { if case .dot(let c, _, _) = $0 { c.y > 64 } else { false } }.count == 3)
        let home = try AppRig.app()
        #expect(!home.drawList().contains { if case .homeButton = $0 { true } else { false } })
        // The map covers the screen: no background, and the picture first.
        #expect(!home.drawList().contains { if case .background = $0 { true } else { false } })
        if case .picture(let picture, let inner) = home.drawList()[0],
            case .image(let index, let source, let destination) = inner.first
        {
            #expect(picture.frame == Rect(x: 0, y: 0, width: 800, height: 480) && picture.scale == 0.2)
            #expect(index == 0)
            // The whole map, fitted: 4000 x 2400 at 0.2 is 800 x 480.
            #expect(source == Rect(x: 0, y: 0, width: 4000, height: 2400))
            #expect(destination == Rect(x: 0, y: 0, width: 800, height: 480))
        } else {
            Issue.record("the map is not the first command")
        }
    }

    @Test func traceLineFollowsTheContract() throws {
        let app = try AppRig.app(scene: "gallery")
        app.step(to: 0)
        let line = app.traceLine(frame: 0, events: app.frameEvents)
        #expect(
            line.hasPrefix(
                #"{"frame": 0, "t": 0.0, "scene": "gallery", "focus": null, "views": {"gallery": {"contentOffset": [0.0, 0.0]"#
            ))
        #expect(line.contains(#""gallery/page/2": {"#))
        #expect(line.contains(#""page": 0"#))
        #expect(line.hasSuffix(#""events": []}"#))
    }
}
