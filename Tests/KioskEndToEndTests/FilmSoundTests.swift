import Foundation
import TestClips
import Testing

/// A film's sound (docs/video.md), through the kiosk's mixer and SDL's `disk` audio driver, which records what was
/// played: a clip whose sound is a 440 Hz tone, measured in the recording while the film plays alone, while the
/// kiosk speaks over it (ducked), and after its scene is left (silent).
@Suite(.serialized) struct FilmSoundTests {
    let dir = Kiosk.folder()
    static let rate = 22_050.0

    /// The amplitude of 440 Hz in `samples` (Goertzel's filter over the window).
    static func tone(_ samples: ArraySlice<Int16>) -> Double {
        let k = 2 * cos(2 * Double.pi * 440 / rate)
        var (s1, s2) = (0.0, 0.0)
        for x in samples {
            let s = Double(x) + k * s1 - s2
            s2 = s1
            s1 = s
        }
        let power = s1 * s1 + s2 * s2 - k * s1 * s2
        return 2 * sqrt(max(0, power)) / Double(max(1, samples.count))
    }

    /// Six seconds of a test picture whose sound is a 440 Hz tone, written in `dir`.
    func toneClip() throws -> String {
        let clip = dir.appendingPathComponent("tone.mp4").path
        var film = TestClip(seconds: 6)
        film.toneHz = 440
        try film.write(to: clip)
        return clip
    }

    /// The tone's amplitude in the recording at `path` from `from` to `to` seconds.
    static func tone(in path: String, _ from: Double, _ to: Double) -> Double {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let a = min(samples.count, Int(from * Self.rate))
        let b = min(samples.count, Int(to * Self.rate))
        return Self.tone(samples[a..<b])
    }

    @Test func aFilmsSoundPlaysDuckedUnderSpeechAndStopsWithItsScene() throws {
        let clip = try toneClip()
        let config = try Kiosk.manifest(
            """
            {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0,
             "scenes": [
               {"id": "map", "type": "zoom", "image": "images/floorplan.png", "title": "Map"},
               {"id": "film", "type": "video", "video": "\(clip)", "sound": true, "title": "Film"}]}
            """, in: dir)
        // F1 at 1.5 s: the help is said over the film; Escape at 4 s goes home (the film's scene is left).
        let log = """
            {"kioskEventLog": 1, "display": {"w": 320, "h": 240}, "source": "film sound test"}
            {"timestamp": 1500, "type": "SDL_KEYDOWN", "key": "F1", "repeat": 0}
            {"timestamp": 1560, "type": "SDL_KEYUP", "key": "F1", "repeat": 0}
            {"timestamp": 4000, "type": "SDL_KEYDOWN", "key": "Escape", "repeat": 0}
            {"timestamp": 4060, "type": "SDL_KEYUP", "key": "Escape", "repeat": 0}
            {"timestamp": 5500, "type": "SDL_KEYUP", "key": "Down", "repeat": 0}

            """
        let logPath = dir.appendingPathComponent("keys.jsonl")
        try log.write(to: logPath, atomically: true, encoding: .utf8)
        let audio = dir.appendingPathComponent("sound.raw").path
        let r = try Kiosk.run(
            [
                "--headless", "320x240", "--realtime", "--config", config, "--scene", "film", "--replay",
                logPath.path,
            ], in: dir, environment: ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": audio])
        #expect(r.status == 0, "\(r.stderr)")
        func at(_ from: Double, _ to: Double) -> Double { Self.tone(in: audio, from, to) }
        // The disk driver writes as fast as SDL's audio thread runs it, about in real time; the windows are wide.
        let alone = at(0.4, 1.3)
        let underSpeech = at(2.2, 3.6)
        // (After the home scene's title is said.)
        let after = at(5.0, 5.4)
        // A 440 Hz tone at 1/8 of full scale (4096), mixed 12 dB down: about 1000; ducked 15 dB more: about 180.
        #expect(alone > 700, "the film's tone alone: \(alone)")
        #expect(underSpeech < alone / 3, "under speech \(underSpeech), alone \(alone)")
        #expect(underSpeech > alone / 20, "under speech \(underSpeech): ducked, not gone")
        #expect(after < alone / 20, "after its scene was left: \(after)")
        #expect(r.events.contains { $0.name == "speechDidStart" })
    }

    /// A gallery page's film with `"sound": true`: its tone plays while its page is shown, and stops when the page
    /// is swiped away.
    @Test func aPagesFilmHasItsSoundWhileItsPageShows() throws {
        let clip = try toneClip()
        let config = try Kiosk.manifest(
            """
            {"kioskManifest": 1, "home": "gallery", "idleTimeoutSeconds": 0,
             "scenes": [{"id": "gallery", "type": "carousel",
                         "pages": [{"video": "\(clip)", "poster": "images/gallery-sunset.jpg", "sound": true},
                                   "images/gallery-night.jpg"]}]}
            """, in: dir)
        var log = LogWriter(width: 320, height: 240)
        // Swiped to the next page at 2.5 s; a tap at 5 s ends the run after the silence.
        log.drag(from: (0.8, 0.5), to: (0.1, 0.5), at: 2500)
        log.tap(0.5, 0.5, at: 5000)
        let replay = try log.write(dir, "swipe.jsonl")
        let audio = dir.appendingPathComponent("page-sound.raw").path
        let r = try Kiosk.run(
            ["--headless", "320x240", "--realtime", "--config", config, "--replay", replay], in: dir,
            environment: ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": audio])
        #expect(r.status == 0, "\(r.stderr)")
        let shown = Self.tone(in: audio, 0.6, 2.2)
        let away = Self.tone(in: audio, 3.6, 4.6)
        #expect(shown > 700, "the page's film's tone: \(shown)")
        #expect(away < shown / 20, "after its page was swiped away: \(away)")
        #expect(r.events.contains { $0.name == "videoDidPause" })
    }
}
