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

extension FilmPageEndToEndTests {
    /// A gallery page's film has captions of its own, per language, as a video scene's: each cue on screen within
    /// 100 ms of its time, above its page's caption, in Arabic after the language button; swiped away, its caption
    /// goes with it.
    @Test func aPagesFilmHasItsOwnCaptions() throws {
        let clip = dir.appendingPathComponent("captioned.mp4").path
        try VideoTests.clip(clip, seconds: 4)
        for (tag, words) in [("en", ["One", "Two"]), ("ar", ["واحد", "اثنان"])] {
            try "WEBVTT\n\n00:00.300 --> 00:01.500\n\(words[0])\n\n00:02.300 --> 00:03.500\n\(words[1])\n"
                .write(to: dir.appendingPathComponent("page.\(tag).vtt"), atomically: true, encoding: .utf8)
        }
        let config = try Kiosk.manifest(
            """
            {"kioskManifest": 1, "home": "gallery", "idleTimeoutSeconds": 0, "languages": ["en", "ar"],
             "scenes": [{"id": "gallery", "type": "carousel",
                         "pages": [{"video": "\(clip)", "poster": "images/gallery-sunset.jpg",
                                    "caption": "The workshop",
                                    "captions": {"en": "page.en.vtt", "ar": "page.ar.vtt"}},
                                   "images/gallery-night.jpg"]}]}
            """, in: dir)
        // Arabic at 2.0 s (the language button: two languages, a tap switches), swiped away at 5.0 s (the second
        // loop's first cue, 4.3 s, shows until then).
        var log = LogWriter(width: 640, height: 400)
        log.tap(564.0 / 640, 32.0 / 400, at: 2000)
        log.drag(from: (0.8, 0.5), to: (0.1, 0.5), at: 5000)
        let shot = dir.appendingPathComponent("page-caption.png").path
        let r = try Kiosk.run(
            [
                "--headless", "640x400", "--config", config, "--replay", try log.write(dir, "page.jsonl"),
                "--screenshot", "1000:\(shot)",
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let changes = VideoTests.captionChanges(r)
        func first(_ text: String?, after ms: Double) -> Double? { changes.first { $0.text == text && $0.t >= ms }?.t }
        let one = try #require(first("One", after: 0), "\(changes)")
        #expect(one >= 300 && one <= 400, "One at \(one) ms")
        let two = try #require(first("اثنان", after: 0), "\(changes)")
        #expect(two >= 2300 && two <= 2400, "اثنان at \(two) ms")
        #expect(!changes.contains { $0.text == "Two" }, "\(changes)")
        // The second loop's first cue, in Arabic, until the page is swiped away.
        let again = try #require(first("واحد", after: 4000), "\(changes)")
        #expect(again >= 4300 && again <= 4400, "واحد at \(again) ms")
        let gone = try #require(first(nil, after: again), "\(changes)")
        #expect(gone >= 5000 && gone < 5600, "the caption went at \(gone) ms")
        // On screen: the caption's plate (#40424A) above the page's caption band, none over the band itself.
        let picture = try #require(Picture(path: shot))
        func plate(_ rows: Range<Int>) -> Int {
            var n = 0
            for y in rows { for x in 40..<600 where close(picture.rgb(x, y), (64, 66, 74), 4) { n += 1 } }
            return n
        }
        #expect(plate(150..<260) > 500, "no caption's plate above the page's caption (\(plate(150..<260)))")
    }
}
