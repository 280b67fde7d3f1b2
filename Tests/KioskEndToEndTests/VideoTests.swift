import CSDL2
import CSDL2Image
import Foundation
import TestClips
import Testing

/// Video scenes (docs/video.md) in the real kiosk, headless on the virtual clock: clips written here by
/// `TestClip` (libav in-process), so the trace's `frame` and `pts` show every frame shown.
@Suite struct VideoTests {
    let dir = Kiosk.folder()

    /// A clip of `seconds` of the test pattern at 30 frames a second, H.264 in MP4 with a key frame every 15, at
    /// `path`.
    static func clip(_ path: String, seconds: Double, width: Int = 320, height: Int = 240) throws {
        var clip = TestClip(seconds: seconds)
        (clip.width, clip.height, clip.gop) = (width, height, 15)
        try clip.write(to: path)
    }

    func manifest(video: String, extra: String = "") throws -> String {
        try Kiosk.manifest(
            """
            {"kioskManifest": 1, "home": "film", "idleTimeoutSeconds": 0,
             "scenes": [{"id": "film", "type": "video", "video": "\(video)"\(extra)}]}
            """, in: dir)
    }

    /// The frames the trace says were shown, one a line: (time, number in the clip, pts).
    static func shown(_ r: Kiosk.Result) -> [(t: Double, frame: Int, pts: Double)] {
        r.trace.compactMap { line in
            guard let v = line["video"] as? [String: Any], let f = v["frame"] as? Int, let pts = v["pts"] as? Double
            else { return nil }
            return ((line["t"] as? Double) ?? 0, f, pts)
        }
    }

    /// The caption's changes the trace says, in order: when, and the words (nil: none shows).
    static func captionChanges(_ r: Kiosk.Result) -> [(t: Double, text: String?)] {
        var changes: [(t: Double, text: String?)] = []
        for line in r.trace {
            for e in (line["events"] as? [[String: Any]]) ?? [] where e["name"] as? String == "captionDidChange" {
                changes.append(((line["t"] as? Double) ?? 0, e["text"] as? String))
            }
        }
        return changes
    }

    /// A film's controls at 640x400 without captions (two 64 pt buttons across the middle: start again at x 288,
    /// play/pause at 352), tapped first beside them to show them; a tap at each of `taps` (x, ms) after.
    static func controlsLog(_ taps: [(x: Double, ms: Double)]) -> LogWriter {
        var log = LogWriter(width: 640, height: 400)
        log.tap(100.0 / 640, 100.0 / 400, at: 500)
        for (x, ms) in taps { log.tap(x / 640, 200.0 / 400, at: ms) }
        return log
    }

    /// How many pixels of the controls' panel (the chrome's #2C2C2E) are where it shows at 640x400.
    static func controlsPanel(in picture: Picture) -> Int {
        var n = 0
        for y in 170..<230 { for x in 258..<382 where close(picture.rgb(x, y), (44, 44, 46), 2) { n += 1 } }
        return n
    }

    /// Ten loops of a 15-frame clip: every frame shown in order, twice each at 60 frames a second, the first
    /// following the last at the next frame interval; the seam's screen is the clip's first frame's.
    @Test func aLoopHasNoSeam() throws {
        let clip = dir.appendingPathComponent("loop.mp4").path
        try Self.clip(clip, seconds: 0.5)
        let config = try manifest(video: clip)
        let first = dir.appendingPathComponent("first.png").path
        let seam = dir.appendingPathComponent("seam.png").path
        let last = dir.appendingPathComponent("last.png").path
        let r = try Kiosk.run(
            [
                "--headless", "640x400", "--config", config, "--screenshot", "0:\(first)", "--screenshot",
                "4983.33:\(last)", "--screenshot", "5000:\(seam)", "--screenshot", "5100:\(dir.path)/end.png",
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let frames = Self.shown(r)
        #expect(frames.count >= 300, "\(frames.count) frames with a video")
        // Each frame of the clip twice (60 Hz over 30 fps), in order, round and round: none repeated a third
        // time, none skipped, none black between the last and the first.
        var runs: [(frame: Int, count: Int)] = []
        for f in frames {
            if runs.last?.frame == f.frame { runs[runs.count - 1].count += 1 } else { runs.append((f.frame, 1)) }
        }
        for (a, b) in zip(runs, runs.dropFirst()) {
            #expect(b.frame == (a.frame + 1) % 15, "frame \(a.frame) then \(b.frame)")
        }
        #expect(runs.dropLast().allSatisfy { $0.count == 2 }, "\(runs.map(\.count))")
        let events = r.events.map(\.name)
        #expect(events.filter { $0 == "videoDidLoop" }.count >= 9)
        #expect(events.first { $0.hasPrefix("video") } == "videoDidStart")
        let start = try #require(r.events.first { $0.name == "videoDidStart" })
        #expect((start.fields["decoder"] as? String)?.contains("h264") == true)
        #expect(start.fields["width"] as? Int == 320)
        // At the seam the screen shows the first frame again, pixel for pixel; the frame before it differs.
        let a = try #require(Picture(path: first))
        let b = try #require(Picture(path: seam))
        let c = try #require(Picture(path: last))
        // (Compared as counts: a failure must not print two screens of pixels.)
        #expect(zip(a.pixels, b.pixels).filter { $0 != $1 }.count == 0, "the seam's screen is not the first frame's")
        #expect(zip(a.pixels, c.pixels).filter { $0 != $1 }.count > 0, "the last frame looks like the first")
        #expect(!r.stderr.contains("<3>"), "\(r.stderr)")
    }

    /// In real time, a film in a scene at rest plays its frames: the loop does not sleep while it plays (it slept,
    /// and showed about one frame a second, when a timer woke it). Two seconds of 30 frames a second, counted by
    /// the metrics; the run ends at the log's last event, after the film.
    @Test func inRealTimeAFilmPlaysEveryFrame() throws {
        let clip = dir.appendingPathComponent("real.mp4").path
        try Self.clip(clip, seconds: 2)
        let config = try manifest(video: clip, extra: #", "loop": false"#)
        var log = LogWriter(width: 320, height: 240)
        log.lines.append(#"{"timestamp": 3000, "type": "SDL_KEYUP", "key": "F24"}"#)
        let metrics = dir.appendingPathComponent("film.prom").path
        let r = try Kiosk.run(
            [
                "--headless", "320x240", "--realtime", "--config", config, "--replay", try log.write(dir),
                "--metrics", metrics,
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        let shown = text.split(separator: "\n").first { $0.hasPrefix("kiosk_video_frames_shown_total ") }
            .flatMap { Int($0.split(separator: " ").last ?? "") }
        // 60 frames; a loaded machine may drop some, a sleeping loop showed 3.
        #expect((shown ?? 0) >= 40, "\(shown ?? -1) of 60 frames shown")
    }

    /// A film faster than the screen (240 fps on a 60 Hz loop) plays at its own speed, four of its frames to each
    /// of the screen's: with three frames decoded ahead it played at three quarters of it.
    @Test func aFilmFasterThanTheScreenPlaysAtItsSpeed() throws {
        let clip = dir.appendingPathComponent("fast.mp4").path
        var fast = TestClip(seconds: 3)
        (fast.width, fast.height, fast.rate) = (160, 120, 240)
        try fast.write(to: clip)
        let config = try manifest(video: clip, extra: #", "loop": false"#)
        var log = LogWriter(width: 320, height: 240)
        log.lines.append(#"{"timestamp": 2500, "type": "SDL_KEYUP", "key": "F24"}"#)
        let r = try Kiosk.run(
            ["--headless", "320x240", "--realtime", "--config", config, "--replay", try log.write(dir)], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let shown = Self.shown(r)
        let first = try #require(shown.first)
        let last = try #require(shown.last)
        let speed = (last.pts - first.pts) / ((last.t - first.t) / 1000)
        // 0.75 with three frames ahead; a loaded machine may drop some, not slow the film's clock.
        #expect(speed > 0.9, "the film played at \(speed) of its speed")
    }

    /// Whatever the file is, the kiosk goes on: one `<3>` line naming it, `videoDidFail`, and the rest of the
    /// kiosk working (the home button's scene still changes).
    @Test(arguments: ["empty", "folder", "fifo", "text", "truncated", "huge", "audio-only", "picture", "raw", "wide"])
    func aVideoThatCannotPlayIsOneLineAndThePoster(kind: String) throws {
        let path = dir.appendingPathComponent("bad-\(kind).mp4").path
        switch kind {
        case "empty": #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        case "folder": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        case "fifo": #expect(mkfifo(path, 0o644) == 0)
        case "text": try "not a video at all\n".write(toFile: path, atomically: true, encoding: .utf8)
        case "truncated":
            let whole = dir.appendingPathComponent("whole.mp4").path
            try Self.clip(whole, seconds: 1)
            let data = try Data(contentsOf: URL(fileURLWithPath: whole))
            try data.prefix(data.count / 3).write(to: URL(fileURLWithPath: path))
        case "huge": try Self.clip(path, seconds: 0.04, width: 4096, height: 2176)
        case "raw":
            // A raw H.264 stream (no container): it plays once, and cannot go back to its start to loop.
            let raw = dir.appendingPathComponent("raw.h264").path
            try Self.clip(raw, seconds: 0.5)
            try FileManager.default.moveItem(atPath: raw, toPath: path)
        case "wide": try Self.clip(path, seconds: 0.1, width: 4112, height: 64)
        case "picture":
            // A JPEG named .mp4: libav opens it as a one-frame film, which would loop every frame.
            let s = try #require(
                SDL_CreateRGBSurfaceWithFormat(0, 320, 240, 32, SDL_PIXELFORMAT_ARGB8888.rawValue))
            SDL_FillRect(s, nil, 0xFF20_6090)
            #expect(IMG_SaveJPG(s, path, 90) == 0)
            SDL_FreeSurface(s)
        default:
            var sound = TestClip(seconds: 1)
            (sound.picture, sound.toneHz) = (false, 440)
            try sound.write(to: path)
        }
        let config = try manifest(video: path)
        let r = try Kiosk.run(
            ["--headless", "320x200", "--config", config, "--screenshot", "1500:\(dir.path)/bad.png"], in: dir)
        #expect(r.status == 0, "\(kind): \(r.stderr)")
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("<3>") }
        #expect(errors.count == 1, "\(kind): \(r.stderr)")
        #expect(errors.first?.contains(path) == true, "\(kind): \(errors)")
        // A truncated file may show the frames it has before it fails; the others never start.
        #expect(r.events.filter { $0.name == "videoDidFail" }.count == 1, "\(kind)")
        #expect(r.trace.count >= 80, "\(kind): the kiosk went on drawing")
        // `--check` opens the film and decodes its first frame: the problem, on the line of the field. (A file cut
        // short may still give its first frame: it fails as it plays.)
        let check = try Kiosk.run(["--check", "--config", config], in: dir, trace: false)
        guard kind != "truncated" else { return }
        #expect(check.status == 3, "\(kind): \(check.stderr)")
        let line = check.stderr.split(separator: "\n").first { $0.contains("scenes[0].video") }
        #expect(line?.contains("bad-\(kind).mp4") == true, "\(kind): \(check.stderr)")
    }

    /// A film whose frames change size mid-stream (an editor's concatenation of a large and a small clip, or the
    /// other way): each new size gets a texture of its own, and the whole frame shows, fitted as the first was.
    @Test(arguments: [(1920, 1080, 320, 240), (160, 120, 640, 480)])
    func aFilmWhoseFramesChangeSizePlaysOn(sizes: (Int, Int, Int, Int)) throws {
        let path = dir.appendingPathComponent("joined-\(sizes.0)-\(sizes.2).ts").path
        var clip = TestClip(seconds: 2)
        (clip.width, clip.height, clip.gop, clip.resized) = (sizes.0, sizes.1, 15, (30, sizes.2, sizes.3))
        try clip.write(to: path)
        let config = try manifest(video: path, extra: #", "loop": false"#)
        let shot = dir.appendingPathComponent("second-\(sizes.2).png").path
        let r = try Kiosk.run(
            ["--headless", "320x200", "--config", config, "--screenshot", "1700:\(shot)"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("<3>"), "\(r.stderr)")
        #expect(!r.events.contains { $0.name == "videoDidFail" }, "\(r.stderr)")
        #expect(Self.shown(r).contains { $0.frame >= 45 }, "the frames after the change were shown")
        // The bars across the upper part of the frame: eight of them (a crop of the frame's corner shows two).
        let picture = try #require(Picture(path: shot))
        var colours: [(Int, Int, Int)] = []
        for x in stride(from: 34, through: 286, by: 12) {
            let c = picture.rgb(x, 30)
            if !colours.contains(where: { close($0, c, 24) }) { colours.append(c) }
        }
        #expect(colours.count >= 6, "\(colours)")
    }

    /// A film that breaks off as it plays: once it fails, its poster shows (and the line that says so is true), not
    /// its last frame frozen.
    @Test func aFilmThatBreaksOffMidPlayShowsItsPoster() throws {
        let whole = dir.appendingPathComponent("whole.ts").path
        try Self.clip(whole, seconds: 2)
        var data = try Data(contentsOf: URL(fileURLWithPath: whole))
        // Its second half overwritten with noise: the decoder gives up part way.
        var state: UInt32 = 12345
        for i in (data.count / 2)..<data.count {
            state = state &* 1_103_515_245 &+ 12345
            data[i] = UInt8(truncatingIfNeeded: state >> 16)
        }
        let cut = dir.appendingPathComponent("broken.ts").path
        try data.write(to: URL(fileURLWithPath: cut))
        let poster = dir.appendingPathComponent("poster.png").path
        let s = try #require(SDL_CreateRGBSurfaceWithFormat(0, 320, 240, 32, SDL_PIXELFORMAT_ARGB8888.rawValue))
        SDL_FillRect(s, nil, 0xFFC8_1EA0)
        #expect(IMG_SavePNG(s, poster) == 0)
        SDL_FreeSurface(s)
        let config = try manifest(video: cut, extra: #", "poster": "\#(poster)", "loop": false, "fit": "contain""#)
        let shot = dir.appendingPathComponent("after.png").path
        let r = try Kiosk.run(["--headless", "320x240", "--config", config, "--screenshot", "3000:\(shot)"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.events.filter { $0.name == "videoDidFail" }.count == 1, "\(r.stderr)")
        #expect(Self.shown(r).contains { $0.frame > 0 }, "it played some frames first")
        let picture = try #require(Picture(path: shot))
        #expect(close(picture.rgb(160, 120), (0xC8, 0x1E, 0xA0), 8), "the poster: \(picture.rgb(160, 120))")
    }

    /// A phone's portrait film (320x240 pixels, its display matrix turning it a quarter clockwise) is shown
    /// upright, 180x240 in a 320x240 box under `contain`, with black bars, not the poster, beside it: the pattern's
    /// bottom band (a grey ramp) is its left third, and the colour bars its right. It was shown sideways, filling
    /// the box.
    @Test func aPortraitFilmIsShownUprightBetweenBlackBars() throws {
        let path = dir.appendingPathComponent("portrait.mp4").path
        var clip = TestClip(seconds: 1)
        (clip.width, clip.height, clip.rotation) = (320, 240, 90)
        try clip.write(to: path)
        let poster = dir.appendingPathComponent("poster.png").path
        let s = try #require(SDL_CreateRGBSurfaceWithFormat(0, 320, 240, 32, SDL_PIXELFORMAT_ARGB8888.rawValue))
        SDL_FillRect(s, nil, 0xFFC8_1EA0)
        #expect(IMG_SavePNG(s, poster) == 0)
        SDL_FreeSurface(s)
        let config = try manifest(video: path, extra: #", "poster": "\#(poster)", "fit": "contain""#)
        let shot = dir.appendingPathComponent("upright.png").path
        let r = try Kiosk.run(["--headless", "320x240", "--config", config, "--screenshot", "100:\(shot)"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let picture = try #require(Picture(path: shot))
        // The bars: black, not the poster's magenta.
        #expect(close(picture.rgb(20, 120), (0, 0, 0), 8), "\(picture.rgb(20, 120))")
        #expect(close(picture.rgb(300, 120), (0, 0, 0), 8), "\(picture.rgb(300, 120))")
        // Its left third is the pattern's bottom band, a grey ramp, dark at the top (the pattern's left);
        // its right part the colour bars.
        func grey(_ p: (Int, Int, Int)) -> Bool { abs(p.0 - p.1) < 8 && abs(p.1 - p.2) < 8 }
        let (top, bottom) = (picture.rgb(100, 30), picture.rgb(100, 210))
        #expect(grey(top) && grey(bottom) && top.0 + 40 < bottom.0, "\(top) \(bottom)")
        #expect(!grey(picture.rgb(220, 120)), "\(picture.rgb(220, 120))")
    }

    /// `--check` names each film's container, codec, size and duration, as it opened it.
    @Test func theCheckNamesWhatAFilmIs() throws {
        let path = dir.appendingPathComponent("named.mp4").path
        try Self.clip(path, seconds: 1)
        let r = try Kiosk.run(["--check", "--config", try manifest(video: path)], in: dir, trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("film: video, named.mp4 (mp4, h264 320x240, 1.0 s)"), "\(r.stdout)")
    }

    /// A broken film in the attract loop fails in every round (`videoDidFail` each time its scene opens) but is
    /// one line in the log, not one a round.
    @Test func aBrokenFilmInTheAttractLoopIsOneLine() throws {
        let bad = dir.appendingPathComponent("broken.mp4").path
        try "not a film\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let config = try Kiosk.manifest(
            """
            {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0,
             "attract": {"afterSeconds": 1, "steps": [{"scene": "film", "seconds": 1}, {"scene": "map", "seconds": 1}]},
             "scenes": [{"id": "map", "type": "zoom", "image": "images/floorplan.png"},
                        {"id": "film", "type": "video", "video": "\(bad)"}]}
            """, in: dir)
        let r = try Kiosk.run(
            ["--headless", "320x200", "--config", config, "--screenshot", "9000:\(dir.path)/late.png"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.events.filter { $0.name == "videoDidFail" }.count >= 3, "\(r.events.map(\.name))")
        #expect(r.stderr.split(separator: "\n").filter { $0.hasPrefix("<3>") }.count == 1, "\(r.stderr)")
    }

    /// Captions at their cue times, in English and, after a tap on the language button, in Arabic: each cue's
    /// `captionDidChange` within 100 ms of its time (the trace's `t` is the kiosk's clock, which the film's runs on),
    /// its words on screen.
    @Test func captionsShowAtTheirTimesInEachLanguage() throws {
        let clip = dir.appendingPathComponent("captioned.mp4").path
        try Self.clip(clip, seconds: 2)
        let cues = ["0.300": ("One", "واحد"), "1.000": ("Two", "اثنان"), "1.600": ("Three", "ثلاثة")]
        for (tag, pick) in [("en", { (c: (String, String)) in c.0 }), ("ar", { (c: (String, String)) in c.1 })] {
            var vtt = "WEBVTT\n"
            for (start, words) in cues.sorted(by: { $0.key < $1.key }) {
                let end = String(format: "%.3f", Double(start)! + 0.5)
                vtt += "\n00:0\(start) --> 00:0\(end)\n\(pick(words))\n"
            }
            try vtt.write(to: dir.appendingPathComponent("captions.\(tag).vtt"), atomically: true, encoding: .utf8)
        }
        let config = try Kiosk.manifest(
            """
            {"kioskManifest": 1, "home": "film", "idleTimeoutSeconds": 0, "languages": ["en", "ar"],
             "scenes": [{"id": "film", "type": "video", "video": "\(clip)",
                         "captions": {"en": "captions.en.vtt", "ar": "captions.ar.vtt"}}]}
            """, in: dir)
        // The second loop in Arabic: the language button (two languages: a tap switches) at 2.1 s.
        var log = LogWriter(width: 640, height: 400)
        log.tap(564.0 / 640, 32.0 / 400, at: 2100)
        let shot = dir.appendingPathComponent("caption.png").path
        let r = try Kiosk.run(
            [
                "--headless", "640x400", "--config", config, "--replay", try log.write(dir), "--screenshot",
                "1200:\(shot)", "--screenshot", "4200:\(dir.path)/later.png",
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let changes = Self.captionChanges(r)
        func at(_ text: String) -> Double? { changes.first { $0.text == text }?.t }
        for (start, words) in cues {
            let due = Double(start)! * 1000
            let english = try #require(at(words.0), "\(words.0) never shown: \(changes)")
            #expect(english >= due && english - due <= 100, "\(words.0) at \(english) ms, due at \(due)")
            let arabic = try #require(at(words.1), "\(words.1) never shown: \(changes)")
            #expect(arabic >= due + 2000 && arabic - due - 2000 <= 100, "\(words.1) at \(arabic) ms")
        }
        // Gone at each cue's end.
        #expect(changes.contains { $0.text == nil && $0.t >= 800 && $0.t <= 900 }, "\(changes)")
        // On screen: the words on a label's plate (#40424A, a grey the test pattern does not have) at the bottom.
        let picture = try #require(Picture(path: shot))
        var plate = 0
        for y in 270..<390 { for x in 40..<600 where close(picture.rgb(x, y), (64, 66, 74), 4) { plate += 1 } }
        #expect(plate > 500, "no caption's plate at the bottom (\(plate) pixels)")
    }

    @Test func aVideoSceneIsCheckedLikeAnyOther() throws {
        let config = try manifest(video: "missing.mp4", extra: #", "fit": "stretch", "loop": 2"#)
        let r = try Kiosk.run(["--check", "--config", config], in: dir)
        #expect(r.status != 0)
        #expect(r.stderr.contains("scenes[0].video: file not found"), "\(r.stderr)")
        #expect(r.stderr.contains("scenes[0].fit") || r.stderr.contains("scenes[0].loop"), "\(r.stderr)")
    }

    /// The controls in the real kiosk: a tap shows them over the film (the chrome's #2C2C2E panel in the middle);
    /// play/pause holds the frame on screen and plays on from the next one; start again shows the first frame.
    @Test func theControlsPausePlayOnAndStartAgain() throws {
        let clip = dir.appendingPathComponent("controls.mp4").path
        try Self.clip(clip, seconds: 2)
        let config = try manifest(video: clip)
        // Pause, play on, start again.
        let log = Self.controlsLog([(352, 1000), (352, 2000), (288, 2600)])
        let shot = dir.appendingPathComponent("controls.png").path
        let r = try Kiosk.run(
            [
                "--headless", "640x400", "--config", config, "--replay", try log.write(dir), "--screenshot",
                "1500:\(shot)", "--screenshot", "3200:\(dir.path)/after.png",
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let names = r.events.map(\.name)
        #expect(names.contains("videoDidPause") && names.contains("videoDidResume"), "\(names)")
        let frames = Self.shown(r)
        let held = Set(frames.filter { $0.t >= 1200 && $0.t <= 1950 }.map(\.frame))
        #expect(held.count == 1, "frames shown while paused: \(held.sorted())")
        // Played on from the frame after the one held, in order.
        let on = frames.filter { $0.t > 2100 && $0.t < 2550 }.map(\.frame)
        let pausedAt = try #require(held.first)
        #expect(on.first.map { $0 - pausedAt <= 4 } == true, "\(pausedAt) then \(on.prefix(3))")
        #expect(zip(on, on.dropFirst()).allSatisfy { $1 == $0 || $1 == $0 + 1 }, "\(on)")
        // Start again: the first frame, not the loop's.
        let again = frames.filter { $0.t > 2700 && $0.t < 2800 }.map(\.frame)
        #expect(again.first.map { $0 <= 3 } == true, "after start again: \(again)")
        let picture = try #require(Picture(path: shot))
        let panel = Self.controlsPanel(in: picture)
        #expect(panel > 4000, "no controls in the middle (\(panel) pixels of the panel)")
    }

    /// A film step of the attract loop, in the real kiosk: the film begins once the fade to it is over (a film begun
    /// under the fade began again after it: two `videoDidStart`), plays to its end, and the loop goes on.
    @Test func aFilmStepPlaysOnceToItsEnd() throws {
        let clip = dir.appendingPathComponent("step.mp4").path
        try Self.clip(clip, seconds: 1)
        let config = try Kiosk.manifest(
            """
            {"kioskManifest": 1, "home": "film", "idleTimeoutSeconds": 0,
             "attract": {"afterSeconds": 1, "steps": [{"video": "\(clip)"}, {"scene": "film", "seconds": 1}]},
             "scenes": [{"id": "film", "type": "video", "video": "\(clip)", "loop": false}]}
            """, in: dir)
        let r = try Kiosk.run(
            ["--headless", "320x240", "--config", config, "--screenshot", "6000:\(dir.path)/end.png"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        // Each film shown begins once: the home scene's at the start, then one a scene change.
        var starts = 0
        var changes = 0
        var steps: [(index: Int, endedBefore: Bool)] = []
        var ended = false
        for e in r.events {
            switch e.name {
            case "videoDidStart": starts += 1
            case "videoDidEnd": ended = true
            case "sceneDidChange": changes += 1
            case "attractStep":
                steps.append(((e.fields["index"] as? Int) ?? -1, ended))
                ended = false
            default: break
            }
        }
        #expect(steps.prefix(4).map(\.index) == [0, 1, 0, 1], "\(steps)")
        #expect(starts == 1 + changes, "\(starts) starts, \(changes) scene changes")
        // The step's film (no seconds) ended before the loop went on.
        #expect(steps.filter { $0.index == 1 }.allSatisfy { $0.endedBefore }, "\(steps)")
        #expect(starts >= 3, "\(starts) starts")
    }

    /// In real time a paused film's kiosk sleeps, and still the controls go when their time is up: the frame that
    /// hides them is drawn then (it was not: nothing else changed, and the panel stayed on the screen until
    /// something else drew a frame).
    @Test func thePausedFilmsControlsGoInRealTime() throws {
        let clip = dir.appendingPathComponent("paused.mp4").path
        try Self.clip(clip, seconds: 2)
        let config = try manifest(video: clip)
        var log = Self.controlsLog([(352, 1000)])
        log.lines.append(#"{"timestamp": 7500, "type": "SDL_KEYUP", "key": "F24"}"#)
        let shot = dir.appendingPathComponent("gone.png").path
        let r = try Kiosk.run(
            [
                "--headless", "640x400", "--realtime", "--config", config, "--replay", try log.write(dir),
                "--screenshot", "7000:\(shot)",
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let changes = r.events.filter { $0.name == "videoControlsDidChange" }.map { $0.fields["shown"] as? Bool }
        #expect(changes == [true, false], "\(changes)")
        // Drawn when their time was up (shown at 1060 ms after the pause's lift, for 5 s), not only when the
        // screenshot at 7000 drew a frame.
        let hidden = r.trace.first { line in
            ((line["events"] as? [[String: Any]]) ?? []).contains {
                $0["name"] as? String == "videoControlsDidChange" && $0["shown"] as? Bool == false
            }
        }
        let at = (hidden?["t"] as? Double) ?? -1
        #expect(at >= 6000 && at < 6500, "the frame that hides the controls at \(at) ms")
        let picture = try #require(Picture(path: shot))
        let panel = Self.controlsPanel(in: picture)
        #expect(panel < 100, "the controls are still on the screen (\(panel) pixels of the panel)")
    }
}
