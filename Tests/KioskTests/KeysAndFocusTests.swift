import EventLog
import ScrollEngine
import TestSupport
import Testing

@testable import Kiosk

/// The keys, the focus and what is spoken (docs/accessibility.md), in process on the virtual clock.
@Suite struct KeysAndFocusTests {
    /// A map under a title with three described hotspots (the cafe goes to the directory), a directory of 30
    /// rows, and a gallery of two captioned pages; English, German and Arabic.
    static let manifest = """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 5, "languages": ["en", "de", "ar"],
         "accessibility": {"keys": {"KP 5": "activate"}},
         "scenes": [
           {"id": "map", "type": "zoom", "image": "map.png", "maxZoom": 2.0,
            "title": {"en": "Map", "de": "Plan", "ar": "خريطة"},
            "hotspots": [
              {"id": "shop", "rect": [3000, 500, 400, 300], "label": {"en": "Shop", "de": "Laden", "ar": "متجر"}},
              {"id": "cafe", "rect": [200, 500, 400, 300], "goto": "directory",
               "label": {"en": "Café", "de": "Café", "ar": "مقهى"},
               "description": {"en": "Coffee on the ground floor", "de": "Kaffee im Erdgeschoss", "ar": "قهوة"}},
              {"id": "exit", "rect": [1000, 2000, 400, 300], "label": "Exit"}]},
           {"id": "directory", "type": "list", "title": "Directory", "description": "Everyone in the building",
            "rows": [\((0..<30).map { #"{"id": "r\#($0)", "title": "Row \#($0)", "goto": "gallery"}"# }.joined(separator: ", "))]},
           {"id": "gallery", "type": "carousel", "title": "Gallery",
            "pages": [{"image": "a.jpg", "caption": "First"}, {"image": "b.jpg", "description": "The second"}]}
         ]}
        """

    static func app(scene: String? = nil) throws -> KioskApp {
        let m = try Manifest.parse(manifest, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        return KioskApp(manifest: m, physicalSize: Size(width: 800, height: 480), startScene: scene) { path in
            path.hasSuffix("map.png")
                ? ImageInfo(size: Size(width: 4000, height: 2400), loaded: true)
                : ImageInfo(size: Size(width: 1600, height: 960), loaded: true)
        }
    }

    /// Presses `name` at `t` and steps a frame.
    static func press(_ app: KioskApp, _ name: String, at t: Double) {
        app.handle(.key(down: true, key: name, repeat: false), at: t)
        app.handle(.key(down: false, key: name, repeat: false), at: t + 1)
        app.step(to: t + 2)
    }

    /// The frame's events of the kinds the keys make, as "name: argument" lines.
    static func spoken(_ app: KioskApp) -> [String] {
        app.sink.events.compactMap { e in
            switch e.kind {
            case .focusDidChange(let id): "focus \(id)"
            case .speechDidStart(let text, let language): "say[\(language)] \(text)"
            case .speechDidEnd(let reason): "end \(reason.rawValue)"
            case .accessibilityDidChange(let audio, _, _): "audio \(audio)"
            default: nil
            }
        }
    }

    @Test func theFirstArrowStartsAudioModeWithTheWelcomeAndTheFirstElement() throws {
        let app = try Self.app()
        app.step(to: 0)
        #expect(Self.spoken(app).isEmpty)
        Self.press(app, "Down", at: 100)
        #expect(
            Self.spoken(app) == [
                "audio true", "focus chrome:title",
                "say[en] " + SpokenWords.say(.welcome, in: "en").text + " Map, heading",
            ])
        // The key began audio mode and did nothing else: the focus is on the first element.
        #expect(app.access.focused == "chrome:title")
        #expect(app.traceLine(frame: 1, events: []).contains(#""focus": "chrome:title""#))
    }

    @Test func theKeysWalkEveryElementInReadingOrderAndWrap() throws {
        let app = try Self.app()
        Self.press(app, "Tab", at: 0)
        var order = [app.access.focused ?? ""]
        for i in 1...9 {
            Self.press(app, "Tab", at: Double(i) * 100)
            order.append(app.access.focused ?? "")
        }
        // Title, language, accessibility, hotspots by their top-left corner (cafe left of shop, exit below), the
        // picture, the zoom buttons; then round again.
        #expect(
            order == [
                "chrome:title", "chrome:language", "chrome:accessibility", "hotspot:cafe", "hotspot:shop",
                "hotspot:exit", "picture", "chrome:zoomIn", "chrome:zoomOut", "chrome:title",
            ])
        Self.press(app, "Tab", at: 900)
        app.handle(.key(down: true, key: "Left Shift", repeat: false), at: 950)
        Self.press(app, "Tab", at: 960)
        #expect(app.access.focused == "chrome:title")
        Self.press(app, "Up", at: 1100)
        #expect(app.access.focused == "chrome:zoomOut")
    }

    @Test func aFocusedElementIsSpokenWithItsRoleAndDescription() throws {
        let app = try Self.app()
        Self.press(app, "Down", at: 0)
        Self.press(app, "Down", at: 100)
        Self.press(app, "Down", at: 200)
        _ = app.sink.take()
        Self.press(app, "Down", at: 300)
        #expect(
            Self.spoken(app) == [
                "end interrupted", "focus hotspot:cafe", "say[en] Café, button. Coffee on the ground floor",
            ])
        _ = app.sink.take()
        // Shop does not go anywhere: no role.
        Self.press(app, "Down", at: 400)
        #expect(Self.spoken(app).last == "say[en] Shop")
    }

    @Test func returnDoesWhatATapDoesAndTheNewSceneIsAnnounced() throws {
        let app = try Self.app()
        for (i, key) in ["Down", "Down", "Down", "Down"].enumerated() { Self.press(app, key, at: Double(i) * 100) }
        #expect(app.access.focused == "hotspot:cafe")
        _ = app.sink.take()
        Self.press(app, "Return", at: 400)
        #expect(app.scene.config.id == "directory")
        #expect(AppRig.names(app).contains("hotspotTapped"))
        #expect(
            Self.spoken(app).suffix(2) == [
                "focus chrome:title", "say[en] Directory, heading. Everyone in the building",
            ])
        // The manifest's key: Keypad 5 activates too (on the home button now).
        Self.press(app, "Up", at: 500)
        #expect(app.access.focused == "chrome:home")
        Self.press(app, "Keypad 5", at: 600)
        #expect(app.scene.config.id == "map")
    }

    @Test func escapeClosesTheChoiceOfLanguagesThenGoesHome() throws {
        let app = try Self.app(scene: "gallery")
        Self.press(app, "Tab", at: 0)
        while app.access.focused != "chrome:language" { Self.press(app, "Tab", at: app.now + 100) }
        Self.press(app, "Return", at: app.now + 100)
        #expect(app.navigator.languages.isChoosing)
        #expect(app.access.focused == "language:de")
        #expect(Self.spoken(app).last == "say[de] Deutsch, Taste")
        Self.press(app, "Down", at: app.now + 100)
        #expect(app.access.focused == "language:ar")
        Self.press(app, "Escape", at: app.now + 100)
        #expect(!app.navigator.languages.isChoosing)
        #expect(app.access.focused == "chrome:language")
        #expect(app.scene.config.id == "gallery")
        Self.press(app, "Escape", at: app.now + 100)
        #expect(app.scene.config.id == "map")
        #expect(!app.quitRequested)
    }

    @Test func choosingALanguageSpeaksInIt() throws {
        let app = try Self.app()
        Self.press(app, "Tab", at: 0)
        Self.press(app, "Tab", at: 100)
        Self.press(app, "Return", at: 200)
        Self.press(app, "Return", at: 300)
        #expect(app.language == "de")
        #expect(app.access.focused == "chrome:language")
        #expect(Self.spoken(app).last == "say[de] Sprache, Deutsch, Taste")
        Self.press(app, "Tab", at: 400)
        #expect(Self.spoken(app).last == "say[de] Barrierefreiheit, Taste")
        Self.press(app, "Tab", at: 500)
        #expect(Self.spoken(app).last == "say[de] Café, Taste. Kaffee im Erdgeschoss")
    }

    /// A text box on the picture is heard after the hotspots, with its description.
    @Test func aTextBoxIsSpokenWithItsDescription() throws {
        let text = """
            {"kioskManifest": 1, "home": "map", "languages": ["en", "de"],
             "scenes": [{"id": "map", "type": "zoom", "image": "map.png",
               "hotspots": [{"id": "shop", "rect": [3000, 500, 400, 300], "label": "Shop"}],
               "overlays": [
                 {"text": {"en": "Exit", "de": "Ausgang"}, "rect": [100, 2200, 600, 100]},
                 {"text": "Welcome", "rect": [100, 100, 600, 100],
                  "description": {"en": "The museum's plan", "de": "Der Plan des Museums"}}]}]}
            """
        let m = try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        let app = KioskApp(manifest: m, physicalSize: Size(width: 800, height: 480)) { _ in
            ImageInfo(size: Size(width: 4000, height: 2400), loaded: true)
        }
        let scene = app.scene.accessibilityElements(language: "de", fallback: "en")
        #expect(scene.map(\.id) == ["hotspot:shop", "overlay:1", "overlay:0", "picture"])
        #expect(scene[1].spoken == "Welcome. Der Plan des Museums")
        #expect(scene[2].spoken == "Ausgang")
        // Where it is on screen: the picture fitted (4000 px across 800 points).
        #expect(abs(scene[1].frame.width - 120) < 1e-9)
    }

    @Test func inArabicLeftIsNextAndRightPrevious() throws {
        let app = try Self.app()
        app.chooseLanguage("ar")
        Self.press(app, "Left", at: 0)
        Self.press(app, "Left", at: 100)
        #expect(app.access.focused == "chrome:language")
        Self.press(app, "Right", at: 200)
        #expect(app.access.focused == "chrome:title")
        #expect(Self.spoken(app).last == "say[ar] خريطة، عنوان")
    }

    @Test func arrowsPanAFocusedPictureAndTabLeavesIt() throws {
        let app = try Self.app()
        // The first key begins at the title; back past the zoom buttons to the picture.
        for t in [0.0, 50, 100, 150] { Self.press(app, "Up", at: t) }
        #expect(app.access.focused == "picture")
        Self.press(app, "+", at: 200)
        AppRig.run(app, from: 200, to: 800)
        let v = app.scene.view
        let before = v.contentOffset
        Self.press(app, "Right", at: 900)
        AppRig.run(app, from: 900, to: 1500)
        #expect(app.access.focused == "picture")
        expectClose(v.contentOffset.x - before.x, v.bounds.width / 4, 1e-6)
        Self.press(app, "Tab", at: 1600)
        #expect(app.access.focused == "chrome:zoomIn")
        // Fitted to the screen the picture cannot move: an arrow moves the focus on (a keypad with only arrows
        // is never held there).
        Self.press(app, "-", at: 1700)
        AppRig.run(app, from: 1700, to: 2400)
        Self.press(app, "Up", at: 2500)
        #expect(app.access.focused == "picture")
        Self.press(app, "Down", at: 2600)
        #expect(app.access.focused == "chrome:zoomIn")
    }

    @Test func plusAndMinusZoomTwiceAboutTheCentre() throws {
        let app = try Self.app()
        let v = app.scene.view
        let fit = v.zoomScale
        Self.press(app, "+", at: 0)
        AppRig.run(app, from: 0, to: 600)
        expectClose(v.zoomScale, fit * 2, 1e-9)
        Self.press(app, "-", at: 700)
        AppRig.run(app, from: 700, to: 1300)
        expectClose(v.zoomScale, fit, 1e-9)
        // Zoom keys are not navigation: no audio mode.
        #expect(!app.access.audio)
    }

    @Test func aFocusedRowIsScrolledIntoView() throws {
        let app = try Self.app(scene: "directory")
        Self.press(app, "Down", at: 0)
        var t = 100.0
        while app.access.focused != "row:r12" && t < 5000 {
            Self.press(app, "Down", at: t)
            t += 100
        }
        AppRig.run(app, from: t, to: t + 600)
        let row = try #require(app.focusedElement)
        #expect(row.frame.minY >= app.scene.view.contentInset.top - 1e-6)
        #expect(row.frame.maxY <= app.sceneSize.height + 1e-6)
        #expect(app.scene.view.contentOffset.y > 0)
    }

    @Test func aPageAndItsCaptionAreSpokenAndFocusingItTurnsThere() throws {
        let app = try Self.app(scene: "gallery")
        var t = 0.0
        repeat {
            Self.press(app, "Tab", at: t)
            t += 100
        } while app.access.focused != "page:1" && t < 2000
        #expect(Self.spoken(app).last == "say[en] Page 2 of 2. The second")
        AppRig.run(app, from: t, to: t + 800)
        #expect(app.scene.currentPage == 1)
    }

    @Test func anyKeyOrTouchCutsSpeechShortAndTheHostSaysWhenItEnded() throws {
        let app = try Self.app()
        Self.press(app, "Down", at: 0)
        _ = app.sink.take()
        app.step(to: 0, speechFinished: true)
        #expect(Self.spoken(app) == ["end finished"])
        // Nothing is being said: a touch ends nothing.
        app.tap(x: 0.5, y: 0.5, at: 100)
        #expect(!Self.spoken(app).contains("end interrupted"))
        Self.press(app, "F3", at: 300)
        #expect(Self.spoken(app).last?.hasPrefix("say[en] ") == true)
        _ = app.sink.take()
        app.tap(x: 0.5, y: 0.5, at: 400)
        #expect(Self.spoken(app) == ["end interrupted"])
    }

    @Test func aThousandKeysASecondSayOneThingAFrame() throws {
        let app = try Self.app(scene: "directory")
        Self.press(app, "Down", at: 0)
        var says = 0
        for frame in 1...60 {
            _ = app.sink.take()
            for k in 0..<17 {
                app.handle(.key(down: true, key: "Down", repeat: k > 0), at: Double(frame) * 16.7 + Double(k) * 0.9)
            }
            app.step(to: Double(frame) * 16.7 + 16)
            let n = Self.spoken(app).filter { $0.hasPrefix("say") }.count
            #expect(n == 1)
            says += n
        }
        #expect(says == 60)
        // A held Return does not activate again and again.
        let scene = app.scene.config.id
        app.handle(.key(down: true, key: "Return", repeat: true), at: 2000)
        #expect(app.scene.config.id == scene)
    }

    @Test func theVolumeStepsSixDecibelsAndTheIdleResetEndsEverything() throws {
        let app = try Self.app(scene: "gallery")
        Self.press(app, "Down", at: 0)
        for i in 1...5 { Self.press(app, "F12", at: Double(i) * 10) }
        #expect(app.access.volumeDB == 12)
        Self.press(app, "F11", at: 100)
        #expect(app.access.volumeDB == 6)
        _ = app.sink.take()
        AppRig.run(app, from: 100, to: 6000)
        #expect(app.scene.config.id == "map")
        #expect(!app.access.audio)
        #expect(app.access.focused == nil)
        #expect(app.access.volumeDB == 0)
        #expect(Self.spoken(app).contains("audio false"))
        #expect(app.traceLine(frame: 1, events: []).contains(#""focus": null"#))
    }

    @Test func aKeyThatEndsTheAttractLoopStillStartsAudioMode() throws {
        let app = try Self.app()
        app.handle(.key(down: true, key: "Down", repeat: false), at: 0)
        app.step(to: 1)
        #expect(app.access.audio)
        // A key a gate did not need to take, not a navigation key: nothing spoken.
        let other = try Self.app()
        other.handle(.key(down: true, key: "F11", repeat: false), at: 0)
        #expect(!other.access.audio)
    }

    @Test func theFocusRingIsThreePixelsAndStandsOutAgainstAnything() throws {
        let app = try Self.app()
        #expect(app.focusRingCommands.isEmpty)
        Self.press(app, "Down", at: 0)
        Self.press(app, "Down", at: 100)
        Self.press(app, "Down", at: 200)
        let ring = app.focusRingCommands
        #expect(ring.count == 8)
        var everything = TileQuery.everything
        #expect(app.drawList(.chrome(over: app.scene), tiles: &everything).suffix(8) == ring)
        for case .fill(let r, _) in ring { #expect(min(r.width, r.height) >= 3) }
        // Against any colour behind it, one of its two bands is at least 3:1 (WCAG 1.4.11).
        for grey in stride(from: 0.0, through: 1.0, by: 0.05) {
            let behind = Color(red: grey, green: grey, blue: grey, alpha: 1)
            #expect(max(FocusRing.outer.contrast(with: behind), FocusRing.inner.contrast(with: behind)) >= 3)
        }
        for c in [Color(red: 1, green: 0, blue: 0, alpha: 1), Color(red: 0, green: 0, blue: 1, alpha: 1)] {
            #expect(max(FocusRing.outer.contrast(with: c), FocusRing.inner.contrast(with: c)) >= 3)
        }
        #expect(FocusRing.inner.contrast(with: FocusRing.outer) >= 3)
    }

    /// In audio mode a finger says what is under it and activates nothing; a double tap activates it.
    @Test func exploreByTouchSpeaksAndADoubleTapActivates() throws {
        let app = try Self.app()
        Self.press(app, "Down", at: 0)
        _ = app.sink.take()
        // The cafe's middle, as SDL's normalised coordinates.
        let frame = try #require(app.scene.frame(of: app.scene.config.hotspots[1]))
        let (x, y) = (frame.midX / 800, frame.midY / 480)
        app.finger(.down, x: x, y: y, at: 100)
        app.finger(.motion, x: x + 0.005, y: y + 0.005, at: 120)
        app.finger(.up, x: x + 0.005, y: y + 0.005, at: 180)
        // Said once a double tap can no longer begin (300 ms after the finger came down), not before.
        app.step(to: 390)
        #expect(!Self.spoken(app).contains("focus hotspot:cafe"))
        app.step(to: 410)
        #expect(Self.spoken(app).contains("focus hotspot:cafe"))
        #expect(Self.spoken(app).last == "say[en] Café, button. Coffee on the ground floor")
        #expect(!AppRig.names(app).contains("hotspotTapped"))
        #expect(app.scene.config.id == "map")
        // A finger sliding onto the title says it; nothing scrolls.
        app.finger(.down, x: 0.5, y: 0.5, at: 1000)
        app.finger(.motion, x: 0.5, y: 0.05, at: 1100)
        app.step(to: 1110)
        #expect(app.access.focused == "chrome:title")
        app.finger(.up, x: 0.5, y: 0.05, at: 1200)
        #expect(app.scene.view.contentOffset == app.scene.view.clampedOffset(app.scene.view.contentOffset))
        #expect(!AppRig.names(app).contains("scrollViewWillBeginDragging"))
        // Back onto the cafe, then a double tap anywhere: the cafe is tapped.
        app.tap(x: x, y: y, at: 2000)
        app.step(to: 2400)
        #expect(app.access.focused == "hotspot:cafe")
        app.tap(x: 0.7, y: 0.7, at: 3000)
        app.tap(x: 0.7, y: 0.72, at: 3200)
        app.step(to: 3300)
        #expect(AppRig.names(app).contains("hotspotTapped"))
        #expect(app.scene.config.id == "directory")
    }

    /// A finger down when a key begins audio mode stays the scene's until it lifts: its lift reaches the scene
    /// (else the gesture would never end, and the idle reset, which waits for the scene's rest, never come).
    @Test func aFingerDownBeforeAudioModeIsTheScenesToItsEnd() throws {
        let app = try Self.app(scene: "directory")
        app.finger(.down, x: 0.5, y: 0.8, at: 0)
        for i in 1...5 { app.finger(.motion, x: 0.5, y: 0.8 - Double(i) * 0.05, at: Double(i) * 16) }
        Self.press(app, "Down", at: 100)
        #expect(app.access.audio)
        app.finger(.motion, x: 0.5, y: 0.5, at: 120)
        app.finger(.up, x: 0.5, y: 0.5, at: 140)
        AppRig.run(app, from: 140, to: 3000)
        #expect(app.scene.controller.isIdle)
        #expect(!app.scene.view.isTracking)
    }

    @Test func twoFingersStillScrollInAudioMode() throws {
        let app = try Self.app(scene: "directory")
        Self.press(app, "Down", at: 0)
        for i in 0...10 {
            let y = 0.8 - Double(i) * 0.05
            let phase: EventLog.FingerPhase = i == 0 ? .down : .motion
            app.finger(phase, 1, x: 0.4, y: y, at: 100 + Double(i) * 16)
            app.finger(phase, 2, x: 0.6, y: y, at: 101 + Double(i) * 16)
        }
        app.finger(.up, 1, x: 0.4, y: 0.3, at: 300)
        app.finger(.up, 2, x: 0.6, y: 0.3, at: 301)
        AppRig.run(app, from: 300, to: 1500)
        #expect(app.scene.view.contentOffset.y > 100)
    }

    /// EN 301 549 5.9: a zoom scene zooms without a pinch, with one finger on its zoom buttons.
    @Test func theZoomButtonsZoomWithOneFinger() throws {
        let app = try Self.app()
        let v = app.scene.view
        let fit = v.zoomScale
        let chrome = app.navigator.chrome
        let zoomIn = try #require(chrome.targets.first { $0.id == Chrome.zoomInID }?.rect)
        let zoomOut = try #require(chrome.targets.first { $0.id == Chrome.zoomOutID }?.rect)
        // Finger-sized on a 27-inch 1080p panel (15 mm) and Apple's 44 pt, at the trailing edge.
        for r in [zoomIn, zoomOut] {
            #expect(r.width >= max(44, 15 / (598.0 / 1920)) && r.height >= 44)
            #expect(r.maxX > app.sceneSize.width - 20)
        }
        app.tap(x: zoomIn.midX / 800, y: zoomIn.midY / 480, at: 0)
        AppRig.run(app, from: 0, to: 800)
        expectClose(v.zoomScale, fit * 2, 1e-9)
        app.tap(x: zoomOut.midX / 800, y: zoomOut.midY / 480, at: 1000)
        AppRig.run(app, from: 1000, to: 1800)
        expectClose(v.zoomScale, fit, 1e-9)
        // Their symbols read on the chrome's material; in Arabic they are at the left.
        let symbols = ZoomButtonStyle.commands((zoomIn, zoomOut)).compactMap { c -> Color? in
            if case .fill(_, let color) = c, color != ChromeStyle.bar, color != ChromeStyle.separator { return color }
            return nil
        }
        #expect(symbols.count == 3)
        for color in symbols { #expect(color.contrast(with: ChromeStyle.bar) >= 4.5) }
        app.chooseLanguage("ar")
        #expect((app.navigator.chrome.targets.first { $0.id == Chrome.zoomInID }?.rect.minX ?? 1000) < 20)
        // The keys reach them too.
        #expect(app.accessibilityElements.map(\.id).contains("chrome:zoomOut"))
        // Not on the other kinds of scene.
        let gallery = try Self.app(scene: "gallery")
        #expect(!gallery.navigator.chrome.targets.contains { $0.id == Chrome.zoomInID })
    }

    @Test func theStillThereCardIsSaidAndAKeyAnswersIt() throws {
        let app = try AppRig.app(
            scene: "menu", extra: #""stillThere": {"seconds": 2},"#, idleTimeout: 3)
        app.key("Down", at: 0)
        app.step(to: 1)
        #expect(app.access.audio)
        AppRig.run(app, from: 1, to: 1200)
        #expect(AppRig.names(app).contains("stillThereShown"))
        #expect(Self.spoken(app).last == "say[en] " + SpokenWords.say(.stillThere, in: "en").text)
        app.key("Down", at: 1300)
        app.step(to: 1301)
        #expect(AppRig.names(app).contains("stillThereDismissed"))
    }

    /// F1 as a visit's first key begins audio mode and says the help, not the first element over it.
    @Test func helpAsTheFirstKeyIsSaid() throws {
        let app = try Self.app()
        Self.press(app, "F1", at: 0)
        #expect(app.access.audio)
        #expect(Self.spoken(app).last == "say[en] Map. " + SpokenWords.say(.help, in: "en").text)
        Self.press(app, "Down", at: 100)
        #expect(app.access.focused == "chrome:language")
    }

    @Test func aVeryLongDescriptionIsCut() throws {
        var a = Accessibility()
        let sink = EventSink()
        a.say(Utterance(text: String(repeating: "a", count: 100_000), language: "en"))
        a.startPending(sink: sink)
        #expect(a.speaking?.text.count == maximumSpokenCharacters)
    }
}
