import ScrollEngine
import Testing

@testable import Kiosk

/// A film's controls in the core (docs/video.md): a tap shows play/pause, start again and captions for a few
/// seconds; each acts on the film the frame asks the host to show; the keys reach them.
@Suite struct FilmControlsTests {
    /// The app at 800x480 (scene points as pixels) showing the film; `tap` at scene points.
    static func app() throws -> KioskApp {
        var m = try Manifest.parse(
            """
            {"kioskManifest": 1, "home": "film", "idleTimeoutSeconds": 0,
             "scenes": [{"id": "film", "type": "video", "video": "opening.mp4", "captions": "opening.vtt"}]}
            """, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        // The track as the host reads it: one cue over the first ten seconds.
        m.scenes[0].video?.captions[""] = try CaptionTrack.parse("WEBVTT\n\n00:00.000 --> 00:10.000\nWords\n").get()
        return KioskApp(manifest: m, physicalSize: Size(width: 800, height: 480)) { _ in
            ImageInfo(size: Size(width: 1920, height: 1080), loaded: true)
        }
    }

    static func tap(_ app: KioskApp, _ p: Point, at t: Double) {
        app.tap(x: p.x / 800, y: p.y / 480, at: t)
        AppRig.run(app, from: t - 1000.0 / 60, to: t + 100)
    }

    static func button(_ action: FilmControls.Action) -> Point {
        let r = FilmControls.frames(in: Size(width: 800, height: 480), captions: true).first { $0.0 == action }!.1
        return Point(x: r.midX, y: r.midY)
    }

    static func shot(_ app: KioskApp) -> VideoShot? {
        app.drawList().compactMap { if case .video(let s) = $0 { s } else { nil } }.first
    }

    @Test func aTapShowsTheControlsForAFewSeconds() throws {
        let app = try Self.app()
        app.step(to: 0)
        #expect(!app.scene.film.controls.isShown)
        // Where a button would be, a tap on a film without its controls shows them (and does not pause).
        Self.tap(app, Self.button(.playPause), at: 1000)
        #expect(app.scene.film.controls.isShown)
        #expect(Self.shot(app)?.paused == false)
        #expect(app.nextDeadline == 1000 + 80 + FilmControls.shownMs)
        // Drawn in the chrome's material: the panel and play/pause's two bars.
        let panel = app.drawList().contains {
            if case .fill(let r, let c) = $0 { r.width == 3 * 64 + 2 && c == ChromeStyle.bar } else { false }
        }
        #expect(panel)
        AppRig.run(app, from: 1100, to: 1080 + FilmControls.shownMs + 20)
        #expect(!app.scene.film.controls.isShown)
        // A second tap beside them hides them at once.
        Self.tap(app, Point(x: 100, y: 100), at: 7000)
        #expect(app.scene.film.controls.isShown)
        Self.tap(app, Point(x: 100, y: 100), at: 7500)
        #expect(!app.scene.film.controls.isShown)
    }

    @Test func playPauseHoldsTheFilmWhereItIs() throws {
        let app = try Self.app()
        AppRig.run(app, from: 0, to: 1000)
        Self.tap(app, Point(x: 100, y: 100), at: 1000)
        Self.tap(app, Self.button(.playPause), at: 1500)
        #expect(AppRig.names(app).contains("videoDidPause"))
        let paused = try #require(Self.shot(app))
        #expect(paused.paused)
        AppRig.run(app, from: 1600, to: 3000)
        #expect(Self.shot(app)?.time == paused.time)
        Self.tap(app, Self.button(.playPause), at: 3000)
        #expect(AppRig.names(app).contains("videoDidResume"))
        // On from where it stopped: the pause is not part of its time.
        let resumed = try #require(Self.shot(app))
        #expect(!resumed.paused && resumed.session == paused.session)
        // (Paused from 1.58 s to 3.08 s; the shot is at 3.1 s.)
        #expect(resumed.time > paused.time && resumed.time - paused.time < 0.05, "\(resumed.time) after \(paused.time)")
    }

    @Test func aFilmThatCannotPlayHasNothingToPauseOrResume() throws {
        let app = try Self.app()
        AppRig.run(app, from: 0, to: 500)
        _ = app.endFrame(tracing: nil, video: ([.videoDidFail(video: "/k/opening.mp4", why: "not a film")], nil))
        Self.tap(app, Point(x: 100, y: 100), at: 1000)
        Self.tap(app, Self.button(.playPause), at: 1500)
        Self.tap(app, Self.button(.playPause), at: 2000)
        let names = AppRig.names(app)
        #expect(!names.contains("videoDidPause") && !names.contains("videoDidResume"), "\(names)")
        #expect(Self.shot(app)?.paused == true)
    }

    @Test func startAgainIsANewPlaybackFromTheFirstFrame() throws {
        let app = try Self.app()
        AppRig.run(app, from: 0, to: 2000)
        let before = try #require(Self.shot(app))
        Self.tap(app, Point(x: 100, y: 100), at: 2000)
        Self.tap(app, Self.button(.again), at: 2500)
        let again = try #require(Self.shot(app))
        #expect(again.session != before.session)
        #expect(again.time < 0.1, "\(again.time)")
    }

    @Test func captionsTurnOffAndOn() throws {
        let app = try Self.app()
        app.step(to: 0)
        // The host showed a frame at 0.5 s; the track says a cue is on then.
        _ = app.endFrame(tracing: nil, video: ([], (0.5, 15)))
        app.step(to: 17)
        #expect(app.scene.film.controls.captionsOn)
        #expect(app.film.caption == "Words")
        Self.tap(app, Point(x: 100, y: 100), at: 1000)
        Self.tap(app, Self.button(.captions), at: 1500)
        #expect(!app.scene.film.controls.captionsOn)
        #expect(app.film.caption == nil)
        let cc = app.drawList().compactMap { if case .text(let t) = $0, t.text == "CC" { t } else { nil } }.first
        #expect(cc?.color == ChromeStyle.dimmed)
    }

    @Test func theKeysReachTheControlsAndShowThem() throws {
        let app = try Self.app()
        app.step(to: 0)
        let ids = app.accessibilityElements.map(\.id)
        #expect(ids.contains("chrome:film:playPause") && ids.contains("chrome:film:again"))
        let spoken = app.accessibilityElements.first { $0.id == "chrome:film:playPause" }?.spoken
        #expect(spoken == "Pause, button")
        // Tab until the focus is on play/pause: the controls show while it is there; Return pauses.
        var t = 100.0
        while app.access.focused != "chrome:film:playPause" && t < 3000 {
            KeysAndFocusTests.press(app, "Tab", at: t)
            t += 100
        }
        AppRig.run(app, from: t, to: t + 100)
        #expect(app.scene.film.controls.isShown)
        KeysAndFocusTests.press(app, "Return", at: t + 200)
        #expect(Self.shot(app)?.paused == true)
        #expect(app.accessibilityElements.first { $0.id == "chrome:film:playPause" }?.spoken == "Play, button")
        // Long after, with the focus still there, they still show.
        AppRig.run(app, from: t + 300, to: t + 300 + 2 * FilmControls.shownMs)
        #expect(app.scene.film.controls.isShown)
    }
}
