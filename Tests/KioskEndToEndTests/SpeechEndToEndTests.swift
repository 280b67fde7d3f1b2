import Foundation
import Testing

/// What the kiosk says, through the real engine (espeak-ng) and SDL's `disk` audio driver, which records what was
/// played: the samples in the file are compared with espeak-ng's own for the texts the trace says.
@Suite(.serialized) struct SpeechEndToEndTests {
    let dir = Kiosk.folder()

    /// A German kiosk: a map under a title, one described hotspot.
    static let manifest = """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0, "languages": ["de"],
         "scenes": [
           {"id": "map", "type": "zoom", "image": "images/floorplan.png", "maxZoom": 2.0, "title": "Lageplan",
            "hotspots": [{"id": "cafe", "rect": [1200, 800, 700, 500], "label": "Café",
                          "description": "Kaffee und Kuchen im Erdgeschoss"}]}
         ]}
        """

    /// A key pressed at `ms` (down, and up 60 ms later), as the event log writes it.
    static func keys(_ presses: [(ms: Int, key: String)], endAt end: Int) -> String {
        var lines = [#"{"kioskEventLog": 1, "display": {"w": 640, "h": 400}, "source": "speech test"}"#]
        for (ms, key) in presses {
            lines.append(#"{"timestamp": \#(ms), "type": "SDL_KEYDOWN", "key": "\#(key)", "repeat": 0}"#)
            lines.append(#"{"timestamp": \#(ms + 60), "type": "SDL_KEYUP", "key": "\#(key)", "repeat": 0}"#)
        }
        lines.append(#"{"timestamp": \#(end), "type": "SDL_KEYUP", "key": "Down", "repeat": 0}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs the kiosk in real time on `keys`, with `environment`; its trace, log and the recording of its sound.
    func run(keys: String, environment: [String: String] = [:]) throws -> (Kiosk.Result, [Int16]) {
        let log = dir.appendingPathComponent("keys.jsonl")
        try keys.write(to: log, atomically: true, encoding: .utf8)
        let audio = dir.appendingPathComponent("sound.raw").path
        let r = try Kiosk.run(
            [
                "--headless", "640x400", "--realtime", "--config", try Kiosk.manifest(Self.manifest, in: dir),
                "--replay", log.path,
            ], in: dir,
            environment: ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": audio].merging(environment) { $1 })
        let data = (try? Data(contentsOf: URL(fileURLWithPath: audio))) ?? Data()
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        return (r, samples)
    }

    /// What espeak-ng says for `text` in `voice`, as the kiosk's mixer plays it at the default volume (12 dB below
    /// full scale; the mixer's own arithmetic).
    static func espeak(_ text: String, voice: String) throws -> [Int16] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        p.arguments = ["-v", voice, "--stdout"]
        let input = Pipe()
        let output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try input.fileHandleForWriting.close()
        let wav = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        p.waitUntilExit()
        guard let data = (0..<wav.count - 4).first(where: { wav[$0..<$0 + 4] == [0x64, 0x61, 0x74, 0x61] }) else {
            return []
        }
        let gain = Float(pow(10, -12.0 / 20))
        return stride(from: data + 8, to: wav.count - 1, by: 2).map {
            let s = Int16(bitPattern: UInt16(wav[$0]) | UInt16(wav[$0 + 1]) << 8)
            return Int16(max(-32768, min(32767, Float(s) * gain)))
        }
    }

    /// Where `clip`'s first sounding 200 samples are in `recording`, and how many of its samples follow there.
    static func find(_ clip: [Int16], in recording: [Int16]) -> (at: Int, run: Int, from: Int)? {
        guard let k = clip.firstIndex(where: { $0 != 0 }), clip.count >= k + 200 else { return nil }
        let probe = Array(clip[k..<k + 200])
        guard recording.count >= 200,
            let at = (0...(recording.count - 200)).first(where: {
                recording[$0] == probe[0] && Array(recording[$0..<$0 + 200]) == probe
            })
        else { return nil }
        var n = 0
        while at + n < recording.count, k + n < clip.count, recording[at + n] == clip[k + n] { n += 1 }
        return (at, n, k)
    }

    static func said(_ r: Kiosk.Result) -> [(text: String, language: String)] {
        r.trace.flatMap { line in
            ((line["events"] as? [[String: Any]]) ?? []).compactMap { e in
                e["name"] as? String == "speechDidStart"
                    ? ((e["text"] as? String) ?? "", (e["language"] as? String) ?? "") : nil
            }
        }
    }

    static func ends(_ r: Kiosk.Result) -> [String] {
        r.trace.flatMap { line in
            ((line["events"] as? [[String: Any]]) ?? []).compactMap { e in
                e["name"] as? String == "speechDidEnd" ? e["reason"] as? String : nil
            }
        }
    }

    @Test func whatTheTraceSaysIsPlayedInAGermanVoiceAndAKeyCutsItShort() throws {
        let (r, recording) = try run(keys: Self.keys([(500, "Down"), (2500, "Down")], endAt: 7000))
        #expect(r.status == 0, "\(r.stderr)")
        let said = Self.said(r)
        try #require(said.count == 2, "\(said) \(r.stderr)")
        #expect(said.allSatisfy { $0.language == "de" })
        // The second key moves from the title to the accessibility button.
        #expect(said[1].text == "Barrierefreiheit, Taste")
        // The welcome and the title: espeak-ng's German samples, sample for sample, cut short by the second key
        // (2 s later) long before their end.
        let first = try Self.espeak(said[0].text, voice: "de")
        let heard = try #require(Self.find(first, in: recording), "the welcome is not in the recording")
        #expect(heard.run > 22_050, "\(heard.run) samples of the welcome")
        #expect(heard.from + heard.run < first.count - 22_050)
        // Not an English voice.
        let english = try Self.espeak(said[0].text, voice: "en")
        #expect((Self.find(english, in: recording)?.run ?? 0) < 2_205)
        // After the cut nothing of the welcome: silence until the button's words, then all of them.
        let second = try Self.espeak(said[1].text, voice: "de")
        let next = try #require(Self.find(second, in: recording), "the second thing said is not in the recording")
        let cut = heard.at + heard.run
        // (The button's words may begin in the very sample the welcome was cut at: the key's words were made
        // ahead, and the mixer switches within one of the audio device's callbacks.)
        #expect(next.at >= cut)
        #expect(recording[cut..<next.at].allSatisfy { $0 == 0 })
        #expect(next.from + next.run == second.count, "played to its end")
        #expect(Self.ends(r) == ["interrupted", "finished"])
    }

    /// The synthesiser the kiosk starts begins with no signal blocked or ignored (the kiosk's own threads block
    /// SIGTERM and the like: a child that inherited that could not be ended).
    @Test func theSynthesiserStartsWithItsSignalsAtTheirDefaults() throws {
        let seen = dir.appendingPathComponent("signals.txt").path
        let path = dir.appendingPathComponent("espeak-signals").path
        // Read by the shell itself: a grep would read its parent's state mid-fork, when it blocks every signal.
        let script =
            "#!/bin/sh\nwhile read k v; do case $k in SigBlk:|SigIgn:) echo \"$k $v\";; esac; done "
            + "< /proc/$$/status > \(seen)\nexit 1\n"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        let (r, _) = try run(keys: Self.keys([(300, "Down")], endAt: 1000), environment: ["KIOSK_ESPEAK": path])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try String(contentsOfFile: seen, encoding: .utf8).split(separator: "\n")
        // Nothing blocked; SIGHUP, SIGINT, SIGALRM and SIGTERM not ignored (bits 0, 1, 13 and 14).
        let masks = Dictionary(
            uniqueKeysWithValues: lines.compactMap { l -> (String, UInt64)? in
                let kv = l.split(separator: " ")
                return kv.count == 2 ? (String(kv[0]), UInt64(kv[1], radix: 16) ?? .max) : nil
            })
        #expect(masks["SigBlk:"] == 0, "\(lines)")
        #expect(masks["SigIgn:"].map { $0 & 0x6003 == 0 } == true, "\(lines)")
    }

    /// `--check` asks espeak-ng for its voices: one that never answers is ended at the synthesis's time limit, and
    /// the check finishes (it hung for ever).
    @Test func theCheckEndsWhenTheVoicesNeverCome() throws {
        let path = dir.appendingPathComponent("espeak-hangs").path
        try "#!/bin/sh\ntrap '' TERM\nsleep 600\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        let (p, _) = try Kiosk.launch(
            ["--check", "--config", try Kiosk.manifest(Self.manifest, in: dir)], environment: ["KIOSK_ESPEAK": path])
        // The time limit is 10 s; the test gives it three times that before it calls the check hung.
        for _ in 0..<300 where p.isRunning { usleep(100_000) }
        let hung = p.isRunning
        if hung { p.terminate() }
        p.waitUntilExit()
        #expect(!hung, "the check ended")
        #expect(p.terminationStatus == 0)
    }

    /// A synthesiser that is missing, or crashes mid-sentence: one line says so, the kiosk runs on, the trace says
    /// what it would have said, and the voice is never stuck.
    @Test(arguments: [
        ("/nonexistent/espeak-ng", "is not a program: the kiosk does not speak"),
        ("crash", "espeak-ng stopped by signal"),
    ])
    func aSynthesiserThatFailsIsOneLineAndNoStuckVoice(program: String, line: String) throws {
        var path = program
        if program == "crash" {
            path = dir.appendingPathComponent("espeak-crash").path
            try "#!/bin/sh\nprintf 'RIFF'\nkill -SEGV $$\n".write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        let (r, recording) = try run(
            keys: Self.keys([(300, "Down"), (600, "Down"), (900, "Down")], endAt: 1500),
            environment: ["KIOSK_ESPEAK": path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: line).count == 2, "\(r.stderr)")
        #expect(Self.said(r).count == 3)
        #expect(recording.allSatisfy { $0 == 0 })
        #expect(Self.ends(r).last == "finished")
    }

    @Test func noSoundDeviceIsOneLine() throws {
        let (r, _) = try run(
            keys: Self.keys([(300, "Down"), (600, "Down")], endAt: 1000), environment: ["SDL_AUDIODRIVER": "nosuch"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "no sound device").count == 2, "\(r.stderr)")
        #expect(Self.said(r).count == 2)
    }
}
