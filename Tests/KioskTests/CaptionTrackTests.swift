import ScrollEngine
import Testing

@testable import Kiosk

/// WebVTT captions (docs/video.md): read, looked up at a film's time, shown and switched with the language.
@Suite struct CaptionTrackTests {
    static let vtt = """
        \u{FEFF}WEBVTT - the museum's opening

        NOTE written by hand

        intro
        00:00.000 --> 00:01.500 line:90%
        <v Guide>Welcome</v> to the <i>museum</i>

        00:00:02.000 --> 00:00:04.250
        Tea &amp; cake
        upstairs

        00:04.250 --> 00:05.000
        &lt;end&gt;
        """

    @Test func cuesAreReadWithTheirTimesAndPlainWords() throws {
        let track = try CaptionTrack.parse(Self.vtt.replacingOccurrences(of: "\n", with: "\r\n")).get()
        #expect(track.cues.map(\.text) == ["Welcome to the museum", "Tea & cake\nupstairs", "<end>"])
        #expect(track.cues.map(\.start) == [0, 2, 4.25])
        #expect(track.text(at: 0) == "Welcome to the museum")
        #expect(track.text(at: 1.499) == "Welcome to the museum")
        #expect(track.text(at: 1.5) == nil)
        #expect(track.text(at: 4.2499) == "Tea & cake\nupstairs")
        #expect(track.text(at: 4.25) == "<end>")
        #expect(track.text(at: 9) == nil)
    }

    @Test(arguments: [
        ("WEBVTX\n", 1, "begins with WEBVTT"),
        ("WEBVTT\n\n00:01.000 -> 00:02.000\nHi\n", 3, "a cue without its times"),
        ("WEBVTT\n\n\n1\n00:01.000 --> 00:02.00\nHi\n", 5, "is not a cue's times"),
        ("WEBVTT\n\n00:03.000 --> 00:02.000\nHi\n", 3, "ends before it begins"),
        ("WEBVTT\n\n00:61.000 --> 01:02.000\nHi\n", 3, "is not a cue's times"),
        // A cue longer than a manifest's text (one of 640 KB stopped the frames for seconds), named at its words.
        ("WEBVTT\n\n00:01.000 --> 00:02.000\n" + String(repeating: "words ", count: 110_000) + "\n", 4, "too long"),
        (
            "WEBVTT\n\n00:01.000 --> 00:02.000\n" + String(repeating: "字", count: 2001) + "\n", 4,
            "2001 characters"
        ),
        ("WEBVTT\n\n00:01.000 --> 00:02.000\nHi\u{0}\n", 4, "NUL"),
    ])
    func theFirstProblemIsNamedWithItsLine(text: String, line: Int, message: String) {
        switch CaptionTrack.parse(text) {
        case .success: Issue.record("parsed: \(text)")
        case .failure(let p):
            #expect(p.line == line, "\(p)")
            #expect(p.message.contains(message), "\(p)")
        }
    }

    /// A file that is not UTF-8 (a Windows editor's Latin-1) is named at its first such line, not read with
    /// U+FFFD in place of its letters.
    @Test func aLineThatIsNotUTF8IsNamed() throws {
        let bytes = Array("WEBVTT\n\n00:01.000 --> 00:02.000\nCaf".utf8) + [0xE9] + Array("\n".utf8)
        switch CaptionTrack.parse(bytes: bytes) {
        case .success: Issue.record("parsed")
        case .failure(let p):
            #expect(p.line == 4, "\(p)")
            #expect(p.message.contains("not UTF-8"), "\(p)")
        }
        // Without an ending line break too; and a good file reads as its text does.
        #expect((try? CaptionTrack.parse(bytes: Array(bytes.dropLast())).get()) == nil)
        #expect(try CaptionTrack.parse(bytes: Array(Self.vtt.utf8)).get() == (try CaptionTrack.parse(Self.vtt).get()))
    }

    /// A cue of no length shows nothing and is left out (it dropped the whole track as a cue "that ends before it
    /// begins"); a cue's id written as times, or a missing blank line, begins the next cue: its times are never
    /// shown as words.
    @Test func aCueOfNoLengthAndTimesWhereWordsWereExpected() throws {
        let zero = try CaptionTrack.parse("WEBVTT\n\n00:00.500 --> 00:00.500\nzero\n\n00:01.000 --> 00:02.000\nok\n")
            .get()
        #expect(zero.cues.map(\.text) == ["ok"])
        let twice = try CaptionTrack.parse("WEBVTT\n\n00:00.000 --> 00:01.000\n00:01.000 --> 00:02.000\nsecond\n").get()
        #expect(twice.cues.map(\.text) == ["", "second"])
        #expect(twice.cues.map(\.start) == [0, 1])
        #expect(!twice.cues.contains { $0.text.contains("-->") })
    }

    @Test func aHundredThousandCuesAreReadAndLookedUp() throws {
        var text = "WEBVTT\n"
        for i in 0..<CaptionTrack.maximumCues {
            let s = Double(i) * 0.1
            text += "\n\(stamp(s)) --> \(stamp(s + 0.1))\ncue \(i)\n"
        }
        let track = try CaptionTrack.parse(text).get()
        #expect(track.cues.count == CaptionTrack.maximumCues)
        #expect(track.text(at: 5_000.05) == "cue 50000")
        let more = text + "\n\(stamp(20_000)) --> \(stamp(20_001))\none too many\n"
        #expect((try? CaptionTrack.parse(more).get()) == nil)
    }

    func stamp(_ s: Double) -> String {
        let ms = Int((s * 1000).rounded())
        let h = ms / 3_600_000
        let m = ms / 60_000 % 60
        let sec = ms / 1000 % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let milli = ms % 1000
        return "\(two(h)):\(two(m)):\(two(sec)).\(milli < 10 ? "00" : milli < 100 ? "0" : "")\(milli)"
    }

    /// A film's captions in the visitor's language at the frame the host showed, a change a trace event.
    @Test func theCaptionFollowsTheFilmAndTheLanguage() throws {
        let files = [
            "/k/en.vtt": "WEBVTT\n\n00:00.500 --> 00:01.000\nHello\n",
            "/k/ar.vtt": "WEBVTT\n\n00:00.500 --> 00:01.000\nمرحبا\n",
            "/k/broken.vtt": "WEBVTT\n\nnonsense\n",
        ]
        let text = """
            {"kioskManifest": 1, "home": "film", "idleTimeoutSeconds": 0, "languages": ["en", "ar", "de"],
             "scenes": [{"id": "film", "type": "video", "video": "f.mp4",
                         "captions": {"en": "en.vtt", "ar": "ar.vtt", "de": "broken.vtt"}}]}
            """
        let read: (String) -> Result<[UInt8], FileReadError> = { path in
            files[path].map { .success(Array($0.utf8)) } ?? .failure(FileReadError("none"))
        }
        let checked = Manifest.check(
            text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true }, readFile: read)
        let warnings = checked.problems.filter(\.isWarning).map { "\($0)" }
        #expect(warnings.contains { $0.contains("scenes[0].captions.de") && $0.contains("line 3") }, "\(warnings)")
        let m = try #require(checked.manifest)
        let app = KioskApp(manifest: m, physicalSize: Size(width: 800, height: 480)) { _ in .missing }
        func frame(_ t: Double, pts: Double) -> [String] {
            app.step(to: t)
            // As the host does: the frame drawn (the film's playback begins with its first), then what it showed.
            _ = app.drawList()
            return app.endFrame(tracing: nil, video: ([], (pts, Int(pts * 30)))).events.compactMap {
                if case .captionDidChange(let text) = $0.kind { text ?? "none" } else { nil }
            }
        }
        #expect(frame(0, pts: 0).isEmpty)
        #expect(frame(500, pts: 0.5).isEmpty)  // the host showed 0.5 in this frame: the next frame shows its cue
        #expect(frame(517, pts: 0.517) == ["Hello"])
        #expect(app.drawList().contains { if case .text(let r) = $0 { r.text == "Hello" } else { false } })
        app.chooseLanguage("ar")
        #expect(frame(533, pts: 0.533) == ["مرحبا"])
        // German's track could not be read: the first language's shows.
        app.chooseLanguage("de")
        #expect(frame(550, pts: 0.55) == ["Hello"])
        #expect(frame(1100, pts: 1.1) == [])
        #expect(frame(1117, pts: 1.117) == ["none"])
        #expect(!app.drawList().contains { if case .text(let r) = $0 { r.text == "Hello" } else { false } })
    }
}
