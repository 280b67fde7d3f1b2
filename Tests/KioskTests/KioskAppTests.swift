import EventLog
import Kiosk
import ScrollEngine
import TestSupport
import Testing

/// The kiosk without SDL: input mapping, scenes, idle reset, draw lists.
@Suite struct KioskAppTests {
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

    /// Runs frames at 60 Hz until `ms`.
    static func run(_ app: KioskApp, from: Double, to: Double) {
        var t = from
        while t < to {
            t += 1000.0 / 60
            app.step(to: t)
        }
    }

    static func names(_ app: KioskApp) -> [String] {
        app.sink.events.map(\.name).filter { $0 != "scrollViewDidScroll" && $0 != "scrollViewDidZoom" }
    }

    @Test func idleTimeoutGoesHome() throws {
        let app = try Self.app(scene: "menu")
        app.handle(.key(down: true, key: "Down", repeat: false), at: 100)
        Self.run(app, from: 100, to: 2000)
        #expect(app.scene.config.id == "menu")
        Self.run(app, from: 2000, to: 2500)
        #expect(app.scene.config.id == "map")
        #expect(Self.names(app).suffix(3) == ["idleReset", "sceneTransition", "sceneDidChange"])
        // Only once per idle period.
        Self.run(app, from: 2500, to: 6000)
        #expect(Self.names(app).filter { $0 == "idleReset" }.count == 1)
    }

    @Test func idleTimeoutInTheHomeSceneAnimatesBack() throws {
        let app = try Self.app()
        let v = app.scene.view
        let fit = v.zoomScale
        app.handle(.key(down: true, key: "+", repeat: false), at: 0)
        Self.run(app, from: 0, to: 1000)
        #expect(v.zoomScale > fit)
        Self.run(app, from: 1000, to: 3000)
        #expect(Self.names(app).contains("idleReset"))
        expectClose(v.zoomScale, fit, 1e-9)
        #expect(v.contentOffset == v.clampedOffset(v.contentOffset))
    }

    @Test func mouseIsOneFinger() throws {
        let app = try Self.app(scene: "menu")
        app.handle(.mouseButton(down: true, button: 1, clicks: 1, x: 400, y: 400), at: 0)
        for i in 1...10 {
            app.handle(.mouseMotion(x: 400, y: 400 - Double(i) * 20, xrel: 0, yrel: -20, state: 1), at: Double(i) * 16)
        }
        app.handle(.mouseButton(down: false, button: 1, clicks: 1, x: 400, y: 200), at: 170)
        // 200 pt of drag less the 10 pt slop; then it decelerates further.
        #expect(app.scene.view.contentOffset.y == 190)
        #expect(Self.names(app).first == "scrollViewWillBeginDragging")
        // Motion without the button pressed moves nothing.
        let before = app.scene.view.contentOffset
        Self.run(app, from: 200, to: 1800)  // before the 2 s idle reset
        let rested = app.scene.view.contentOffset
        #expect(rested.y > before.y)
        for i in 1...10 {
            app.handle(
                .mouseMotion(x: 400, y: 200 + Double(i) * 30, xrel: 0, yrel: 30, state: 0), at: 1800 + Double(i) * 10)
        }
        #expect(!app.scene.view.isTracking)
        #expect(Self.names(app).filter { $0 == "scrollViewWillBeginDragging" }.count == 1)
    }

    @Test func wheelScrollsAndControlWheelZoomsAtThePointer() throws {
        let menu = try Self.app(scene: "menu")
        menu.handle(.mouseWheel(x: 0, y: -3, preciseX: 0, preciseY: -3), at: 0)
        #expect(menu.scene.view.contentOffset.y == 120)
        let map = try Self.app()
        let v = map.scene.view
        let fit = v.zoomScale
        map.handle(.mouseMotion(x: 100, y: 100, xrel: 0, yrel: 0, state: 0), at: 0)
        map.handle(.key(down: true, key: "Left Ctrl", repeat: false), at: 0)
        map.handle(.mouseWheel(x: 0, y: 1, preciseX: 0, preciseY: 1), at: 10)
        Self.run(map, from: 10, to: 600)
        expectClose(v.zoomScale, fit * 1.5, 1e-9)
    }

    @Test func keysTurnPagesAndEscapeQuitsOnlyInAWindow() throws {
        let app = try Self.app(scene: "gallery")
        app.handle(.key(down: true, key: "Right", repeat: false), at: 0)
        Self.run(app, from: 0, to: 600)
        #expect(app.scene.currentPage == 1)
        #expect(Self.names(app).contains("pageDidChange"))
        app.handle(.key(down: true, key: "Escape", repeat: false), at: 700)
        #expect(!app.quitRequested)
        app.escapeQuits = true
        app.handle(.key(down: true, key: "Escape", repeat: false), at: 800)
        #expect(app.quitRequested)
    }

    @Test func calibrationInvertsTheTouch() throws {
        let app = try Self.app(scene: "gallery", calibration: #"{"invertX": true}"#)
        // The panel reports x growing to the left: a raw swipe to the right is a swipe to the left.
        app.handle(.finger(.down, touchId: 1, fingerId: 1, x: 0.3, y: 0.5, dx: 0, dy: 0, pressure: 1), at: 0)
        for i in 1...10 {
            app.handle(
                .finger(.motion, touchId: 1, fingerId: 1, x: 0.3 + Double(i) * 0.04, y: 0.5, dx: 0, dy: 0, pressure: 1),
                at: Double(i) * 10)
        }
        app.handle(.finger(.up, touchId: 1, fingerId: 1, x: 0.7, y: 0.5, dx: 0, dy: 0, pressure: 1), at: 100)
        Self.run(app, from: 100, to: 1500)
        #expect(app.scene.currentPage == 1)
    }

    /// A raw vertical swipe at x 0.5 from y 0.3 to 0.7.
    static func rawSwipeDown(_ app: KioskApp) {
        app.handle(.finger(.down, touchId: 1, fingerId: 1, x: 0.5, y: 0.3, dx: 0, dy: 0, pressure: 1), at: 0)
        for i in 1...10 {
            app.handle(
                .finger(.motion, touchId: 1, fingerId: 1, x: 0.5, y: 0.3 + Double(i) * 0.04, dx: 0, dy: 0, pressure: 1),
                at: Double(i) * 10)
        }
        app.handle(.finger(.up, touchId: 1, fingerId: 1, x: 0.5, y: 0.7, dx: 0, dy: 0, pressure: 1), at: 100)
        Self.run(app, from: 100, to: 1500)
    }

    @Test func aMatrixCalibrationTurnsThePanel() throws {
        // A panel mounted a quarter turn off: x' = 1 - y, y' = x. A raw swipe down is a swipe to the left.
        let app = try Self.app(scene: "gallery", calibration: #"{"matrix": [0, -1, 1, 1, 0, 0]}"#)
        Self.rawSwipeDown(app)
        #expect(app.scene.currentPage == 1)
        let plain = try Self.app(scene: "gallery")
        Self.rawSwipeDown(plain)
        #expect(plain.scene.currentPage == 0)
    }

    /// The calibration maps the panel onto the physical screen; `--rotate` turns that into the scene after it.
    @Test func theCalibrationComesBeforeTheRotation() throws {
        // The panel's y runs upward (y' = 1 - y). Turned a quarter clockwise, the scene's x is the physical y: a
        // raw swipe down is physically upward, which is a swipe to the left in the scene. (The other order would
        // make it a swipe to the right.)
        let app = try Self.app(
            scene: "gallery", calibration: #"{"matrix": [1, 0, 0, 0, -1, 1]}"#, size: Size(width: 480, height: 800),
            rotation: .quarter)
        Self.rawSwipeDown(app)
        #expect(app.scene.currentPage == 1)
    }

    /// A calibration file replaces the manifest's (`KioskApp.calibration`, set at start).
    @Test func theCalibrationInEffectIsTheAppsOwn() throws {
        let app = try Self.app(scene: "gallery", calibration: #"{"invertX": true}"#)
        app.calibration = Calibration(matrix: AffineMatrix(a: 0, b: -1, c: 1, d: 1, e: 0, f: 0))
        Self.rawSwipeDown(app)
        #expect(app.scene.currentPage == 1)
    }

    /// The touch test and the calibration wizard end by themselves: 30 s without a touch.
    @Test func theInstallersScreensEndAfterThirtySecondsWithoutATouch() throws {
        for start in [{ (a: KioskApp) in a.startTouchTest() }, { (a: KioskApp) in a.startCalibration() }] {
            let app = try Self.app(scene: "gallery")
            start(app)
            app.handle(.finger(.down, touchId: 1, fingerId: 1, x: 0.5, y: 0.5, dx: 0, dy: 0, pressure: 1), at: 1000)
            app.handle(.finger(.up, touchId: 1, fingerId: 1, x: 0.5, y: 0.5, dx: 0, dy: 0, pressure: 1), at: 1050)
            app.step(to: 30_000)
            #expect(!app.quitRequested)
            #expect(app.nextDeadline == 31_050)
            app.step(to: 31_050)
            #expect(app.quitRequested)
            #expect(app.scene.currentPage == 0, "the scene saw nothing")
        }
    }

    /// Finger A and B down, A up, C down: C must not be taken for B (SDL reuses nothing, neither may we).
    @Test func aNewFingerNeverTakesTheIdOfOneStillDown() throws {
        let app = try Self.app(scene: "menu")
        func finger(_ phase: EventLog.FingerPhase, _ id: Int64, _ y: Double, _ t: Double) {
            app.handle(.finger(phase, touchId: 1, fingerId: id, x: 0.5, y: y, dx: 0, dy: 0, pressure: 1), at: t)
        }
        finger(.down, 10, 0.5, 0)
        finger(.down, 11, 0.6, 10)
        finger(.up, 10, 0.5, 20)
        finger(.down, 12, 0.9, 30)
        // B (11) now drags up by a lot; if C had been taken for B, the centroid would jump instead.
        for i in 1...10 { finger(.motion, 11, 0.6 - Double(i) * 0.03, 30 + Double(i) * 10) }
        finger(.up, 11, 0.3, 140)
        finger(.up, 12, 0.9, 140)
        Self.run(app, from: 140, to: 1000)
        #expect(app.scene.view.contentOffset.y > 0)
        #expect(!app.scene.view.isTracking)
    }

    @Test func drawListHasAPlaceholderAndTheHomeButtonWhereTheyBelong() throws {
        let app = try Self.app(scene: "gallery")
        app.handle(.key(down: true, key: "Right", repeat: false), at: 0)
        Self.run(app, from: 0, to: 600)
        let list = app.drawList()
        #expect(list.contains { if case .placeholder = $0 { true } else { false } })
        #expect(list.contains { if case .homeButton = $0 { true } else { false } })
        #expect(list.filter { if case .dot = $0 { true } else { false } }.count == 3)
        let home = try Self.app()
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
        let app = try Self.app(scene: "gallery")
        app.step(to: 0)
        let line = app.traceLine(frame: 0, events: app.frameEvents)
        #expect(
            line.hasPrefix(
                #"{"frame": 0, "t": 0.0, "scene": "gallery", "views": {"gallery": {"contentOffset": [0.0, 0.0]"#))
        #expect(line.contains(#""gallery/page/2": {"#))
        #expect(line.contains(#""page": 0"#))
        #expect(line.hasSuffix(#""events": []}"#))
    }
}
