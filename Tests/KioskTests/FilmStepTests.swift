import ScrollEngine
import Testing

@testable import Kiosk

/// Films in the attract loop (docs/video.md): a step `{"video": …}` plays its film full screen, for its
/// `seconds` (looped) or until it ends.
@Suite struct FilmStepTests {
    static func manifest(_ steps: String, exists: @escaping (String) -> Bool = { _ in true }) throws -> Manifest {
        try Manifest.parse(
            """
            {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0,
             "attract": {"afterSeconds": 1, "steps": [\(steps)]},
             "scenes": [{"id": "map", "type": "zoom", "image": "map.png"}]}
            """, file: "k.json", baseDirectory: "/k", fileExists: exists)
    }

    static func app(_ steps: String) throws -> KioskApp {
        KioskApp(manifest: try manifest(steps), physicalSize: Size(width: 800, height: 480)) { _ in
            ImageInfo(size: Size(width: 1600, height: 960), loaded: true)
        }
    }

    static func shot(_ app: KioskApp) -> VideoShot? {
        app.drawList().compactMap { if case .video(let s) = $0 { s } else { nil } }.first
    }

    @Test func aFilmStepPlaysUntilItsFilmEnds() throws {
        let app = try Self.app(#"{"video": "intro.mp4", "poster": "intro.jpg"}, {"scene": "map", "seconds": 5}"#)
        // Under the fade to it (1000 to 1300 ms) its poster shows; the film begins once the fade is over.
        AppRig.run(app, from: 0, to: 1100)
        #expect(app.transition != nil && Self.shot(app) == nil)
        AppRig.run(app, from: 1100, to: 1500)
        #expect(app.isAttracting)
        #expect(app.scene.config.id == "attract.steps[0]")
        let shot = try #require(Self.shot(app))
        #expect(shot.path == "/k/intro.mp4" && !shot.loops)
        // Long after any number of seconds, it plays on until the host says it ended.
        AppRig.run(app, from: 1500, to: 60_000)
        #expect(app.scene.config.id == "attract.steps[0]")
        _ = app.endFrame(tracing: nil, video: ([.videoDidEnd(video: "/k/intro.mp4")], nil))
        AppRig.run(app, from: 60_000, to: 60_100)
        #expect(app.scene.config.id == "map")
        // Round again: the film from its first frame, a new playback.
        AppRig.run(app, from: 60_100, to: 66_000)
        let again = try #require(Self.shot(app))
        #expect(again.session != shot.session && again.time < 1)
    }

    @Test func aFilmStepWithSecondsLoopsItsFilmForThem() throws {
        let app = try Self.app(#"{"video": "intro.mp4", "seconds": 4}, {"scene": "map", "seconds": 5}"#)
        AppRig.run(app, from: 0, to: 1500)
        #expect(Self.shot(app)?.loops == true)
        AppRig.run(app, from: 1500, to: 5200)
        #expect(app.scene.config.id == "map")
    }

    /// A film that fails ends its step, a second after the step began at the soonest: a loop of films that fail
    /// or end at once does not cycle three steps a second, a journal line each.
    @Test func aFilmThatFailsEndsItsStepASecondOnAtTheSoonest() throws {
        let app = try Self.app(#"{"video": "broken.mp4"}, {"scene": "map", "seconds": 5}"#)
        AppRig.run(app, from: 0, to: 1500)
        _ = app.endFrame(tracing: nil, video: ([.videoDidFail(video: "/k/broken.mp4", why: "no")], nil))
        AppRig.run(app, from: 1500, to: 1900)
        #expect(app.scene.config.id == "attract.steps[0]")
        AppRig.run(app, from: 1900, to: 2100)
        #expect(app.scene.config.id == "map")
    }

    @Test(arguments: [
        (#"{"video": "gone.mp4"}"#, "attract.steps[0].video: file not found"),
        (#"{"video": "intro.mp4", "scene": "map"}"#, "attract.steps[0]: a step shows a scene or a video"),
        (#"{"video": "intro.mp4", "advanceEverySeconds": 2}"#, "attract.steps[0]: a video step plays its film"),
        (#"{"video": "intro.mp4", "fit": "wide"}"#, "attract.steps[0].fit"),
        (#"{"scene": "map"}"#, "attract.steps[0].seconds"),
        (#"{"scene": "map", "seconds": 0.5}"#, "attract.steps[0].seconds: must be at least 1 s"),
        (
            #"{"scene": "map", "seconds": 5, "advanceEverySeconds": 0.0001}"#,
            "advanceEverySeconds: must be at least 1 s"
        ),
    ])
    func aMistakeInAFilmStepIsNamed(step: String, message: String) throws {
        do {
            _ = try Self.manifest(step, exists: { !$0.hasSuffix("gone.mp4") })
            Issue.record("\(step) parsed")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }
}
