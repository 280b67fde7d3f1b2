import Foundation
import Testing

/// A gallery page's film in the real kiosk (docs/video.md), headless on the virtual clock: swiped away, it pauses
/// and, once off the screen, its decoder is let go (a gallery of films holds one decoder, not one a page); swiped
/// back, it goes on from the frame it was paused on, decoded again from the key frame before it, not from the
/// start, and says no second start.
@Suite struct FilmPageEndToEndTests {
    let dir = Kiosk.folder()

    @Test func aFilmSwipedAwayIsLetGoAndComesBackWhereItWas() throws {
        let clip = dir.appendingPathComponent("page.mp4").path
        // Key frames every half second: 1.7 s is decoded from the one at 1.5 s.
        try VideoTests.clip(clip, seconds: 6)
        let config = try Kiosk.manifest(
            """
            {"kioskManifest": 1, "home": "gallery", "idleTimeoutSeconds": 0,
             "scenes": [{"id": "gallery", "type": "carousel",
                         "pages": [{"video": "\(clip)", "poster": "images/gallery-sunset.jpg"},
                                   "images/gallery-night.jpg"]}]}
            """, in: dir)
        var log = LogWriter()
        log.drag(from: (0.8, 0.5), to: (0.1, 0.5), at: 1700)
        log.drag(from: (0.1, 0.5), to: (0.8, 0.5), at: 4000)
        log.tap(0.5, 0.9, at: 6000)
        let r = try Kiosk.run(
            ["--headless", "800x480", "--config", config, "--replay", try log.write(dir, "swipes.jsonl")], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let shown = VideoTests.shown(r)
        // Paused when its page changed, a few frames into the swipe (past the key frame at 1.5 s).
        let paused = try #require(shown.last { $0.t < 4000 })
        #expect(paused.pts > 1.5 && paused.t < 2500, "\(paused)")
        // Off the screen (from the slide's end to the swipe back) no frame of it is shown: nothing holds it.
        #expect(!shown.contains { $0.t > 2500 && $0.t < 4000 })
        // Back: from the frame it was paused on, on.
        let after = shown.filter { $0.t >= 4000 }
        let first = try #require(after.first)
        #expect(abs(first.pts - paused.pts) < 0.05 && first.frame == paused.frame, "\(first) after \(paused)")
        #expect(zip(after, after.dropFirst()).allSatisfy { $0.pts <= $1.pts })
        #expect((after.last?.pts ?? 0) > paused.pts + 1)
        let names = r.events.map(\.name)
        #expect(names.filter { $0 == "videoDidStart" }.count == 1, "\(names.filter { $0.hasPrefix("video") })")
        #expect(names.contains("videoDidPause") && names.contains("videoDidResume"))
        #expect(!names.contains("videoDidFail"))
    }
}
