import ScrollEngine
import Testing

@testable import Kiosk

/// A carousel page that is a film (docs/video.md): it plays while its page is shown, pauses where it is when
/// swiped away and plays on when its page comes back.
@Suite struct FilmPageTests {
    static func manifest(_ page: String) throws -> Manifest {
        try Manifest.parse(
            """
            {"kioskManifest": 1, "home": "gallery", "idleTimeoutSeconds": 0,
             "scenes": [{"id": "gallery", "type": "carousel", "maxZoom": 3,
                         "pages": ["a.jpg", \(page), "c.jpg"]}]}
            """, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
    }

    static func app() throws -> KioskApp {
        KioskApp(
            manifest: try manifest(#"{"video": "film.mp4", "poster": "film.jpg"}"#),
            physicalSize: Size(width: 800, height: 480)
        ) { _ in ImageInfo(size: Size(width: 1600, height: 960), loaded: true) }
    }

    static func shots(_ app: KioskApp) -> [VideoShot] {
        app.drawList().compactMap { if case .video(let s) = $0 { s } else { nil } }
    }

    static func turn(_ app: KioskApp, _ by: Int, at t: Double) {
        app.scene.turnPage(by)
        AppRig.run(app, from: t, to: t + 1000)
    }

    @Test func aFilmPlaysWhileItsPageIsShown() throws {
        let app = try Self.app()
        AppRig.run(app, from: 0, to: 500)
        #expect(Self.shots(app).isEmpty)
        Self.turn(app, 1, at: 500)
        #expect(app.scene.currentPage == 1)
        let playing = try #require(Self.shots(app).first)
        #expect(playing.path == "/k/film.mp4" && !playing.paused)
        #expect(playing.box == Rect(x: 0, y: 0, width: 800, height: 480))
        // A film's page does not zoom; the others do.
        #expect(app.scene.pages[1].maximumZoomScale == app.scene.pages[1].minimumZoomScale)
        #expect(app.scene.pages[0].maximumZoomScale > app.scene.pages[0].minimumZoomScale)
        // Swiped away: paused where it was, drawn where its page is (off the screen now).
        Self.turn(app, 1, at: 1500)
        #expect(AppRig.names(app).contains("videoDidPause"))
        let away = try #require(Self.shots(app).first)
        #expect(away.paused && away.session == playing.session)
        #expect(away.box.minX == -800)
        AppRig.run(app, from: 2500, to: 5000)
        #expect(Self.shots(app).first?.time == away.time)
        // Back: it plays on from there.
        Self.turn(app, -1, at: 5000)
        #expect(AppRig.names(app).contains("videoDidResume"))
        let back = try #require(Self.shots(app).first)
        #expect(!back.paused && back.session == playing.session)
        #expect(back.time > away.time && back.time < away.time + 1.1, "\(back.time) after \(away.time)")
    }

    @Test func aFilmThatCannotPlayIsNeitherPausedNorResumed() throws {
        let app = try Self.app()
        Self.turn(app, 1, at: 0)
        let session = try #require(Self.shots(app).first?.session)
        _ = app.endFrame(tracing: nil, video: ([.videoDidFail(video: "/k/film.mp4", why: "not a film")], nil))
        #expect(!AppRig.names(app).contains("videoDidFail"))
        // Swiped away and back: nothing is said of a pause or a resume.
        Self.turn(app, 1, at: 1000)
        Self.turn(app, -1, at: 2000)
        #expect(app.scene.currentPage == 1)
        let names = AppRig.names(app)
        #expect(!names.contains("videoDidPause") && !names.contains("videoDidResume"), "\(names)")
        // Its clock stopped where it failed: the host is not asked to play it on.
        let shot = try #require(Self.shots(app).first)
        #expect(shot.paused && shot.session == session)
    }

    @Test(arguments: [
        (#"{"video": "film.mp4"}"#, "scenes[0].pages[1].poster: missing"),
        (#"{"video": "film.mp4", "poster": "p.jpg", "image": "p.jpg"}"#, "scenes[0].pages[1].image"),
        (#"{"video": "film.mp4", "poster": "p.jpg", "fit": "tall"}"#, "scenes[0].pages[1].fit"),
        (#"{"video": 3, "poster": "p.jpg"}"#, "scenes[0].pages[1].video"),
    ])
    func aMistakeInAFilmsPageIsNamed(page: String, message: String) throws {
        do {
            _ = try Self.manifest(page)
            Issue.record("\(page) parsed")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }
}
