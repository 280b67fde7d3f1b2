import ScrollEngine
import Testing

@testable import Kiosk

/// A video scene in the core (docs/video.md): what it asks the host to show, and when a playback begins.
@Suite struct VideoSceneTests {
    static let manifest = """
        {"kioskManifest": 1, "home": "film", "idleTimeoutSeconds": 0,
         "scenes": [
           {"id": "film", "type": "video", "video": "opening.mp4", "poster": "opening.jpg", "fit": "cover"EXTRA},
           {"id": "map", "type": "zoom", "image": "map.png"}]}
        """

    static func parse(_ extra: String) throws -> Manifest {
        try Manifest.parse(
            manifest.replacingOccurrences(of: "EXTRA", with: extra), file: "k.json", baseDirectory: "/k",
            fileExists: { _ in true })
    }

    static func app() throws -> KioskApp {
        KioskApp(manifest: try parse(""), physicalSize: Size(width: 800, height: 480)) { _ in
            ImageInfo(size: Size(width: 1920, height: 1080), loaded: true)
        }
    }

    static func shot(_ app: KioskApp) -> VideoShot? {
        app.drawList().compactMap { if case .video(let s) = $0 { s } else { nil } }.first
    }

    @Test func theFilmPlaysFromItsFirstFrameEachTimeItsSceneOpens() throws {
        let app = try Self.app()
        app.step(to: 0)
        let first = try #require(Self.shot(app))
        #expect(first.path == "/k/opening.mp4" && first.fit == .cover && first.loops)
        #expect(first.box == Rect(x: 0, y: 0, width: 800, height: 480))
        #expect(first.time == 0)
        app.step(to: 1500)
        #expect(Self.shot(app)?.time == 1.5)
        #expect(Self.shot(app)?.session == first.session)
        // Away and back: a new playback from the start.
        app.show(scene: "map")
        app.step(to: 3000)
        #expect(Self.shot(app) == nil)
        app.show(scene: "film")
        app.step(to: 4000)
        let again = try #require(Self.shot(app))
        #expect(again.session != first.session && again.time == 0)
        // Under the film, its poster.
        #expect(app.drawList().contains { if case .picture = $0 { true } else { false } })
    }

    @Test func theHostSaysWhatItShowedInTheTrace() throws {
        let app = try Self.app()
        app.step(to: 0)
        let (events, line) = app.endFrame(
            tracing: 0,
            video: (
                [.videoDidStart(video: "/k/opening.mp4", decoder: "software h264", width: 1920, height: 1080)],
                (0.0333, 1)
            ))
        #expect(events.map(\.name) == ["videoDidStart"])
        #expect(line?.contains(#""video": {"pts": 0.0333, "frame": 1}"#) == true)
        #expect(line?.contains(#""decoder": "software h264""#) == true)
        // The next line says nothing the host did not say again.
        app.step(to: 17)
        #expect(app.endFrame(tracing: 1).traceLine?.contains(#""video""#) == false)
    }

    @Test(arguments: [
        (#""fit": "stretch""#, "scenes[0].fit"), (#""loop": "yes""#, "scenes[0].loop"),
        (#""image": "a.png""#, "scenes[0].image"),
    ])
    func aMistakeIsNamed(extra: String, path: String) throws {
        do {
            _ = try Self.parse(", " + extra)
            Issue.record("\(extra) parsed")
        } catch {
            #expect("\(error)".contains(path), "\(error)")
        }
        do {
            _ = try Manifest.parse(
                Self.manifest.replacingOccurrences(of: #""video": "opening.mp4", "#, with: "").replacingOccurrences(
                    of: "EXTRA", with: ""), file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
            Issue.record("a video scene without its video parsed")
        } catch {
            #expect("\(error)".contains("scenes[0].video"), "\(error)")
        }
    }
}
