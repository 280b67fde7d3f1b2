import EventLog
import Testing

@testable import Kiosk

/// The metrics of docs/operations.md, counted from the frames' typed events and written in Prometheus' text exposition
/// format (a `# HELP` and a `# TYPE` line before each metric's samples).
@Suite struct MetricsTests {
    static let now = Metrics.Now(
        version: "0.2.0", content: "ab12", upSeconds: 61.5, placeholders: 1, residentBytes: 50_000_000,
        textureBytes: 6_000_000, clockSynchronized: true)

    /// The samples of an exposition: name with labels, value.
    static func samples(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            out[String(parts[0])] = String(parts[1])
        }
        return out
    }

    @Test func eventsAreCounted() {
        var m = Metrics(scene: "map")
        m.input(.finger(.down, 1, 0.5, 0.5))
        m.input(.finger(.motion, 1, 0.6, 0.5))
        m.input(.finger(.down, 2, 0.2, 0.5))
        m.frameShown([TraceEvent(.sceneDidChange(scene: "menu"))], wallSeconds: 100, late: false)
        m.frameShown([TraceEvent(.contentDidReload(error: nil))], wallSeconds: 101, late: true)
        m.frameShown([TraceEvent(.contentDidReload(error: "broken"))], wallSeconds: 102, late: false)
        m.frameShown([TraceEvent(.screenDidBlank(reason: .hours))], wallSeconds: 103, late: false)
        let s = Self.samples(m.exposition(Self.now))
        #expect(s["kiosk_frames_presented_total"] == "4")
        #expect(s["kiosk_frames_late_total"] == "1")
        #expect(s["kiosk_last_frame_timestamp_seconds"] == "103.0")
        #expect(s["kiosk_touches_total"] == "2")
        #expect(s[#"kiosk_scene{scene="menu"}"#] == "1")
        #expect(s[#"kiosk_reloads_total{result="ok"}"#] == "1")
        #expect(s[#"kiosk_reloads_total{result="failed"}"#] == "1")
        #expect(s[#"kiosk_screen_state{state="blank_hours"}"#] == "1")
        #expect(s[#"kiosk_screen_state{state="on"}"#] == "0")
        #expect(s[#"kiosk_info{version="0.2.0",content="ab12"}"#] == "1")
        #expect(s["kiosk_clock_synchronized"] == "1")
        m.frameShown([TraceEvent(.screenDidWake)], wallSeconds: 104, late: false)
        #expect(Self.samples(m.exposition(Self.now))[#"kiosk_screen_state{state="on"}"#] == "1")
        // How the pictures are copied, once measured, is a label of the kiosk's info.
        var measured = Self.now
        measured.copyMethod = "memcpy"
        #expect(
            Self.samples(m.exposition(measured))[#"kiosk_info{version="0.2.0",content="ab12",copy="memcpy"}"#] == "1")
    }

    /// The longest frame since the previous write: counted again after each.
    @Test func theLongestFrameSinceTheLastWrite() {
        var m = Metrics(scene: "map")
        m.frameShown([], wallSeconds: 100, late: false, ms: 2.5)
        m.frameShown([], wallSeconds: 101, late: true, ms: 20)
        m.frameShown([], wallSeconds: 102, late: false, ms: 3)
        #expect(Self.samples(m.exposition(Self.now))["kiosk_frame_longest_seconds"] == "0.02")
        m.wrote()
        m.frameShown([], wallSeconds: 103, late: false, ms: 4)
        #expect(Self.samples(m.exposition(Self.now))["kiosk_frame_longest_seconds"] == "0.004")
    }

    /// Every metric of docs/operations.md's table, each with its help and type, counters ending in `_total`.
    @Test func theExpositionHasEveryMetric() {
        let text = Metrics(scene: "a\"b\\c\nd").exposition(Self.now)
        for name in [
            "kiosk_info", "kiosk_up_seconds", "kiosk_frames_presented_total", "kiosk_last_frame_timestamp_seconds",
            "kiosk_frames_late_total", "kiosk_scene", "kiosk_screen_state", "kiosk_touches_total", "kiosk_visits_total",
            "kiosk_placeholders", "kiosk_reloads_total", "kiosk_resident_memory_bytes", "kiosk_texture_memory_bytes",
            "kiosk_clock_synchronized", "kiosk_renderer_info", "kiosk_display_power", "kiosk_video_frames_shown_total",
            "kiosk_video_frames_dropped_total", "kiosk_video_decoder_info", "kiosk_content_problems",
        ] {
            #expect(text.contains("# HELP \(name) "), "\(name)")
            #expect(text.contains("# TYPE \(name) "), "\(name)")
        }
        for line in text.split(separator: "\n") where line.hasPrefix("# TYPE") && line.hasSuffix(" counter") {
            #expect(line.split(separator: " ")[2].hasSuffix("_total"), "\(line)")
        }
        // A label value escapes its backslash, quote and line break.
        #expect(text.contains(#"kiosk_scene{scene="a\"b\\c\nd"} 1"#))
        #expect(text.hasSuffix("\n"))
    }

    /// Which decoder plays films, and their frames shown and dropped: the decoder is never a guess (docs/video.md).
    @Test func theFilmsDecoderAndFrames() {
        var m = Metrics(scene: "film")
        #expect(Self.samples(m.exposition(Self.now))[#"kiosk_video_decoder_info{decoder="none"}"#] == "1")
        m.frameShown(
            [TraceEvent(.videoDidStart(video: "/k/f.mp4", decoder: "software h264 (2 threads)", width: 8, height: 8))],
            wallSeconds: 1, late: false)
        var now = Self.now
        now.videoFramesShown = 300
        now.videoFramesDropped = 2
        let s = Self.samples(m.exposition(now))
        #expect(m.exposition(now).contains(#"kiosk_video_decoder_info{decoder="software h264 (2 threads)"} 1"#))
        #expect(s["kiosk_video_frames_shown_total"] == "300")
        #expect(s["kiosk_video_frames_dropped_total"] == "2")
    }

    /// Which renderer draws, and whether the panel is powered (the kiosk turns it off while the screen is blank).
    @Test func theRendererAndThePanelsPower() {
        var now = Self.now
        now.videoDriver = "kmsdrm"
        now.renderer = "opengles2"
        now.displayPowerOn = false
        let s = Self.samples(Metrics(scene: "map").exposition(now))
        #expect(s[#"kiosk_renderer_info{video_driver="kmsdrm",renderer="opengles2"}"#] == "1")
        #expect(s["kiosk_display_power"] == "0")
        #expect(Self.samples(Metrics(scene: "map").exposition(Self.now))["kiosk_display_power"] == "1")
    }

    @Test func theContentHashIsStable() {
        #expect(fnv1a("") == "cbf29ce484222325")
        #expect(fnv1a("a") == "af63dc4c8601ec8c")
        #expect(fnv1a("{}") != fnv1a("{ }"))
    }
}
