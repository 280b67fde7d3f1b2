import EventLog
import Foundation

/// The kiosk's health for a monitoring system (docs/operations.md): counted from the same typed events the trace writes
/// (and the fingers put down), and written in Prometheus' text exposition format, the format node_exporter's
/// textfile collector reads. Pure: the caller says the time, the memory and the clock's state.
public struct Metrics: Sendable {
    public var framesPresented = 0
    var framesLate = 0
    /// Wall time (Unix seconds) of the last frame shown.
    public var lastFrameWallSeconds = 0.0
    public var touches = 0
    public var visits = 0
    /// Visits ended that used each accessibility mode (`Visit.accessibilityModes`).
    var accessibleVisits: [String: Int] = [:]
    var reloadsOK = 0
    var reloadsFailed = 0
    /// The longest frame (draw and present, ms) since the last write, which starts it again (`wrote()`).
    var longestFrameMs = 0.0
    public var scene: String
    /// What the screen shows: `on`, `attract`, `blank_idle`, `blank_hours`, `still_there` (docs/operations.md).
    var screenState = "on"
    /// The decoder the last film played with (`videoDidStart`), nil before any.
    var videoDecoder: String?

    public static let screenStates = ["on", "attract", "blank_idle", "blank_hours", "still_there"]

    public init(scene: String) { self.scene = scene }

    /// A frame shown at `wallSeconds` (`late`: over the display's budget; `ms`: how long it took), with its
    /// events.
    public mutating func frameShown(_ events: [TraceEvent], wallSeconds: Double, late: Bool, ms: Double = 0) {
        framesPresented += 1
        if late { framesLate += 1 }
        longestFrameMs = max(longestFrameMs, ms)
        lastFrameWallSeconds = wallSeconds
        for e in events {
            switch e.kind {
            case .sceneDidChange(let id): scene = id
            case .contentDidReload(let error): if error == nil { reloadsOK += 1 } else { reloadsFailed += 1 }
            case .attractDidStart: screenState = "attract"
            case .screenDidBlank(let reason): screenState = "blank_\(reason.rawValue)"
            case .stillThereShown: screenState = "still_there"
            case .attractDidEnd, .screenDidWake, .stillThereDismissed, .idleReset: screenState = "on"
            case .videoDidStart(_, let decoder, _, _): videoDecoder = decoder
            default: break
            }
        }
    }

    /// The metrics were written: the longest frame is counted again from now.
    /// A visit ended (counted by its accessibility too).
    public mutating func visitEnded(_ visit: Visit) {
        visits += 1
        for mode in visit.accessibility ?? [] { accessibleVisits[mode, default: 0] += 1 }
    }

    public mutating func wrote() { longestFrameMs = 0 }

    /// An input event: a finger (or the mouse button) put down is a touch.
    public mutating func input(_ event: EventLog.Event) {
        switch event {
        case .finger(.down, _, _, _, _, _, _, _), .mouseButton(true, _, _, _, _): touches += 1
        default: break
        }
    }

    /// What the kiosk is now, beside the counts: for the exposition.
    public struct Now: Sendable {
        public var version: String
        /// A hash of the manifest in use.
        public var content: String
        public var upSeconds: Double
        public var placeholders: Int
        public var residentBytes: Int
        public var textureBytes: Int
        public var clockSynchronized: Bool
        /// SDL's video driver and the renderer that draws on it (its picture read back right at start).
        public var videoDriver: String
        public var renderer: String
        /// Whether the panel is powered: false only when the kiosk turned it off (DPMS) for a blank screen.
        public var displayPowerOn: Bool
        /// How a picture's rows are copied onto the screen, as measured at start (`memcpy`, `streamed`, `sdl`;
        /// empty where a GPU draws or before the measurement ends).
        public var copyMethod = ""
        /// Films' frames shown, and decoded but overtaken before they could be (docs/video.md).
        public var videoFramesShown = 0
        public var videoFramesDropped = 0
        /// From a finger to the panel (`TouchLatency`); nil on the virtual clock, where it means nothing.
        public var touchToPresent: TouchLatency?
        /// The pictures and films of the content in use that cannot be shown (`Manifest.contentProblems`).
        public var contentProblems = 0

        public init(
            version: String, content: String, upSeconds: Double, placeholders: Int, residentBytes: Int,
            textureBytes: Int, clockSynchronized: Bool, videoDriver: String = "", renderer: String = "",
            displayPowerOn: Bool = true
        ) {
            self.videoDriver = videoDriver
            self.renderer = renderer
            self.displayPowerOn = displayPowerOn
            self.version = version
            self.content = content
            self.upSeconds = upSeconds
            self.placeholders = placeholders
            self.residentBytes = residentBytes
            self.textureBytes = textureBytes
            self.clockSynchronized = clockSynchronized
        }
    }

    /// The metrics file: each metric with its `# HELP` and `# TYPE` lines, names and units as Prometheus'
    /// conventions say (`_total` for counters, `_seconds` and `_bytes` for units).
    public func exposition(_ now: Now) -> String {
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for s in samples { out += "\(name)\(s.labels) \(s.value)\n" }
        }
        func number(_ v: Double) -> String { jsonNumber(v) }
        metric(
            "kiosk_info", "gauge",
            "The kiosk's version, a hash of the manifest in use and how its pictures are copied (measured at start).",
            [
                (
                    "{version=\"\(Self.label(now.version))\",content=\"\(Self.label(now.content))\""
                        + (now.copyMethod.isEmpty ? "" : ",copy=\"\(Self.label(now.copyMethod))\"") + "}", "1"
                )
            ])
        metric("kiosk_up_seconds", "gauge", "Seconds since the kiosk started.", [("", number(now.upSeconds))])
        metric("kiosk_frames_presented_total", "counter", "Frames shown.", [("", "\(framesPresented)")])
        metric(
            "kiosk_last_frame_timestamp_seconds", "gauge", "Wall time of the last frame shown.",
            [("", number(lastFrameWallSeconds))])
        metric("kiosk_frames_late_total", "counter", "Frames over the display's budget.", [("", "\(framesLate)")])
        metric(
            "kiosk_frame_longest_seconds", "gauge", "The longest frame (drawn and presented) since the previous write.",
            [("", number(longestFrameMs / 1000))])
        metric("kiosk_scene", "gauge", "The scene on screen.", [("{scene=\"\(Self.label(scene))\"}", "1")])
        metric(
            "kiosk_screen_state", "gauge", "What the screen shows.",
            Self.screenStates.map { ("{state=\"\($0)\"}", $0 == screenState ? "1" : "0") })
        metric("kiosk_touches_total", "counter", "Fingers put down.", [("", "\(touches)")])
        metric("kiosk_visits_total", "counter", "Visits ended.", [("", "\(visits)")])
        metric(
            "kiosk_accessible_visits_total", "counter",
            "Visits ended that used audio mode, larger text or high contrast.",
            Visit.accessibilityModes.map { ("{mode=\"\($0)\"}", "\(accessibleVisits[$0] ?? 0)") })
        metric("kiosk_placeholders", "gauge", "Images shown as placeholders now.", [("", "\(now.placeholders)")])
        metric(
            "kiosk_content_problems", "gauge",
            "Pictures and films of the content in use that cannot be shown (started with as placeholders; 0 once a "
                + "reload checked clean).", [("", "\(now.contentProblems)")])
        metric(
            "kiosk_reloads_total", "counter", "Content reloads by result.",
            [("{result=\"ok\"}", "\(reloadsOK)"), ("{result=\"failed\"}", "\(reloadsFailed)")])
        metric("kiosk_resident_memory_bytes", "gauge", "Resident memory.", [("", "\(now.residentBytes)")])
        metric("kiosk_texture_memory_bytes", "gauge", "Memory of the kept textures.", [("", "\(now.textureBytes)")])
        metric(
            "kiosk_clock_synchronized", "gauge", "1 when the wall clock is synchronised.",
            [("", now.clockSynchronized ? "1" : "0")])
        metric(
            "kiosk_renderer_info", "gauge", "The video driver and the renderer that draws (its picture read back).",
            [("{video_driver=\"\(Self.label(now.videoDriver))\",renderer=\"\(Self.label(now.renderer))\"}", "1")])
        metric(
            "kiosk_display_power", "gauge", "1 while the panel is powered, 0 while the kiosk has turned it off.",
            [("", now.displayPowerOn ? "1" : "0")])
        metric("kiosk_video_frames_shown_total", "counter", "Films' frames shown.", [("", "\(now.videoFramesShown)")])
        metric(
            "kiosk_video_frames_dropped_total", "counter", "Films' frames decoded too late to be shown.",
            [("", "\(now.videoFramesDropped)")])
        metric(
            "kiosk_video_decoder_info", "gauge", "The decoder the last film played with (none before any).",
            [("{decoder=\"\(Self.label(videoDecoder ?? "none"))\"}", "1")])
        if let latency = now.touchToPresent {
            // A summary: its quantiles over the latest finger events, its sum and count over all of them.
            let quantiles = [0.5, 0.95].map { q in
                ("{quantile=\"\(number(q))\"}", latency.quantileMs(q).map { number($0 / 1000) } ?? "NaN")
            }
            metric(
                "kiosk_touch_to_present_seconds", "summary",
                "From a finger's event (the kernel's time) to the return of the first present after the kiosk read it.",
                quantiles + [("_sum", number(latency.sumMs / 1000)), ("_count", "\(latency.count)")])
        }
        return out
    }

    /// A label value escaped as the exposition format says (backslash, double quote, line feed).
    static func label(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}

/// FNV-1a (64 bits) of `text`'s UTF-8, in hex: a short name for a manifest's content (not a security hash).
func fnv1a(_ text: String) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV offset basis (http://www.isthe.com/chongo/tech/comp/fnv/)
    for b in text.utf8 {
        h ^= UInt64(b)
        h = h &* 0x100_0000_01b3  // FNV-1a 64-bit prime
    }
    return String(h, radix: 16)
}
