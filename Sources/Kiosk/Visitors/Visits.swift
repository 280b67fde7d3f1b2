import EventLog
import Foundation

/// One visit (docs/operations.md): from the first touch after the kiosk was idle to the idle reset (or exit). What
/// was looked at and how: no coordinates, nothing that identifies a person.
public struct Visit: Codable, Equatable, Sendable {
    /// Local time with its offset (`2026-11-30T10:12:03+01:00`).
    public var start: String
    /// From the first touch to the last.
    public var durationMs: Int
    /// Milliseconds spent in each scene (between the first touch and the last).
    public var scenes: [String: Int]
    public var hotspots: [String: Int]
    /// `pan`, `pinch`, `doubleTap`, `page`.
    public var gestures: [String: Int]
    /// The gestures counted, in the line's order.
    public static let gestureNames = ["pan", "pinch", "doubleTap", "page"]
    /// Milliseconds read in each language (docs/manifest.md), where the kiosk offers languages.
    public var languages: [String: Int]?
    /// The accessibility the visitor used (docs/accessibility.md): `audio`, `largeText`, `highContrast`, in that
    /// order; nil (not written) when none.
    public var accessibility: [String]?
    /// The modes, in the line's order.
    public static let accessibilityModes = ["audio", "largeText", "highContrast"]
    /// When it began on the kiosk's clock (not written): a visit that ended while the wall clock was not yet
    /// synchronised is dated again from it once it is (docs/operations.md).
    public var startMs = 0.0
    /// The wall clock (Unix seconds) when it began, as read then: a visit is dated by the clock it started under,
    /// not by one set back to 1970 before it ended.
    public var startWall = 0.0

    /// The wall-clock years a visit is filed under: a clock outside them (a board's 1970, a year-1 typo) is
    /// wrong, and a visit started under it waits for the clock to be right.
    public static let plausibleWallSeconds = 946_684_800.0..<7_258_118_400.0  // 2000-01-01 to 2200-01-01 UTC

    /// Whether it began under a plausible wall clock.
    public var isPlausiblyDated: Bool { Self.plausibleWallSeconds.contains(startWall) }

    /// The longest a visit may last (a day): a line that says more is not a visit's.
    public static let longestMs = 86_400_000

    /// Why a line read back is not a visit the statistics can count (a count or a time below zero, a visit longer
    /// than a day, a start that is not a date of the plausible years), or nil. The kiosk writes none of these;
    /// a line edited by hand or corrupt may.
    public var problem: String? {
        guard (0...Self.longestMs).contains(durationMs) else {
            return "durationMs \(durationMs) is not a visit's (0 to \(Self.longestMs))"
        }
        for (field, counts) in [("scenes", scenes), ("hotspots", hotspots), ("gestures", gestures)]
            + (languages.map { [("languages", $0)] } ?? [])
        {
            if let (key, v) = counts.sorted(by: { $0.key < $1.key }).first(where: { $0.value < 0 }) {
                return "\(field).\(key) is \(v), below zero"
            }
        }
        guard let t = LocalTime.parse(String(start.prefix(19))), Self.plausibleWallSeconds.contains(t) else {
            return "start \(start) is not a date and time of the years 2000 to 2199"
        }
        return nil
    }

    enum CodingKeys: String, CodingKey {
        case start, durationMs, scenes, hotspots, gestures, languages, accessibility
    }

    public init(
        start: String, durationMs: Int, scenes: [String: Int], hotspots: [String: Int], gestures: [String: Int],
        languages: [String: Int]? = nil
    ) {
        self.start = start
        self.durationMs = durationMs
        self.scenes = scenes
        self.hotspots = hotspots
        self.gestures = gestures
        self.languages = languages
    }

    /// A visit from its line's JSON, read as the decoder reads it (the same keys; whole numbers; `languages` and
    /// `accessibility` optional), nil when it is not one. Read without Foundation's decoder: a year of a busy
    /// kiosk's visits took 15 s through it.
    public init?(json: JSONValue) {
        func counts(_ v: JSONValue?) -> [String: Int]? {
            guard case .object(let o)? = v else { return nil }
            var out: [String: Int] = [:]
            for (k, v) in o {
                guard case .number(let d) = v, let n = Int(exactly: d) else { return nil }
                out[k] = n
            }
            return out
        }
        guard case .object(let o) = json, case .string(let start)? = o["start"],
            case .number(let d)? = o["durationMs"], let durationMs = Int(exactly: d),
            let scenes = counts(o["scenes"]), let hotspots = counts(o["hotspots"]),
            let gestures = counts(o["gestures"])
        else { return nil }
        self.init(start: start, durationMs: durationMs, scenes: scenes, hotspots: hotspots, gestures: gestures)
        switch o["languages"] {
        case nil, .null?: break
        case let v:
            guard let l = counts(v) else { return nil }
            languages = l
        }
        switch o["accessibility"] {
        case nil, .null?: break
        case .array(let a)?:
            var modes: [String] = []
            for m in a {
                guard case .string(let s) = m else { return nil }
                modes.append(s)
            }
            accessibility = modes
        default: return nil
        }
    }

    /// The visit's line in `visits/YYYY-MM-DD.jsonl`, keys in the contract's order.
    public var line: String {
        let g = Self.gestureNames.map { "\(jsonString($0)): \(gestures[$0] ?? 0)" }
        let words = languages.map { ", \"languages\": \(jsonObject($0))" } ?? ""
        let access = accessibility.map { ", \"accessibility\": [\($0.map(jsonString).joined(separator: ", "))]" } ?? ""
        return "{\"start\": \(jsonString(start)), \"durationMs\": \(durationMs), \"scenes\": \(jsonObject(scenes)), "
            + "\"hotspots\": \(jsonObject(hotspots)), \"gestures\": {\(g.joined(separator: ", "))}\(words)\(access)}"
    }

    /// The local date of its start (`YYYY-MM-DD`): the name of its file.
    public var day: String { String(start.prefix(10)) }
}

/// Counts visits from what the kiosk already reports: the trace's events of each frame and the time of the
/// last touch. Nothing else is kept: the trace and the statistics cannot disagree.
public final class VisitCounter {
    struct Open {
        var startMs: Double
        var startWall: Double
        var lastTouchMs: Double
        var scene: String
        var sceneSince: Double
        var scenes: [String: Double] = [:]
        var hotspots: [String: Int] = [:]
        var gestures: [String: Int] = [:]
        /// The language read now and since when (nil: the kiosk offers none), and the time in each.
        var language: String?
        var languageSince = 0.0
        var languages: [String: Double] = [:]
        var accessibility: Set<String> = []
    }

    var open: Open?
    /// The last touch already seen: a later one after the kiosk was idle starts a visit.
    var seenInput: Double

    /// The scene shown in the last frame seen (a visit that begins in a frame whose events change the scene
    /// began in this one).
    var shownScene: String
    /// The language of the last frame seen (nil: the kiosk offers none).
    var shownLanguage: String?

    /// Counts from `app` as it is now: its last touch (a restored state's is no visit), scene and language.
    public init(_ app: KioskApp) {
        seenInput = app.lastInput
        shownScene = app.scene.config.id
        shownLanguage = app.manifest.languages.isEmpty ? nil : app.language
    }

    var isCounting: Bool { open != nil }

    /// The frame of `app` at `ms`: its `events`, the scene shown, the first and last touch. Returns the visit
    /// that ended in it (at an idle reset).
    public func observe(_ app: KioskApp, events: [TraceEvent], at ms: Double) -> Visit? {
        let (scene, lastInput) = (app.scene.config.id, app.lastInput)
        if open == nil && lastInput > seenInput {
            let start = min(lastInput, max(seenInput, app.activeSince))
            open = Open(
                startMs: start, startWall: app.wallTime?.unix(at: start) ?? start / 1000, lastTouchMs: lastInput,
                scene: shownScene,
                sceneSince: start, language: shownLanguage,
                languageSince: start)
        }
        seenInput = lastInput
        shownScene = scene
        shownLanguage = app.manifest.languages.isEmpty ? nil : app.language
        guard var v = open else { return nil }
        v.lastTouchMs = max(v.lastTouchMs, lastInput)
        defer { if open != nil { open = v } }
        for e in events {
            switch e.kind {
            case .scrollView(.willBeginDragging): v.gestures["pan", default: 0] += 1
            case .scrollView(.willBeginZooming): v.gestures["pinch", default: 0] += 1
            case .doubleTap: v.gestures["doubleTap", default: 0] += 1
            case .pageDidChange: v.gestures["page", default: 0] += 1
            case .hotspotTapped(let id): v.hotspots[id, default: 0] += 1
            // A list's row, as a goto names it (`directory#cafe`): the report's "Hotspots and rows by taps".
            case .rowTapped(let row): v.hotspots["\(v.scene)#\(row)", default: 0] += 1
            case .sceneDidChange(let id):
                v.scenes[v.scene, default: 0] += max(0, min(ms, v.lastTouchMs) - v.sceneSince)
                v.scene = id
                // (The change came with the touch that made it, up to a frame before this frame's time.)
                v.sceneSince = min(ms, v.lastTouchMs)
            case .languageDidChange(let tag):
                if let language = v.language {
                    v.languages[language, default: 0] += max(0, min(ms, v.lastTouchMs) - v.languageSince)
                    v.language = tag
                    v.languageSince = min(ms, v.lastTouchMs)
                }
            case .accessibilityDidChange(let audio, let largeText, let highContrast):
                for (mode, on) in zip(Visit.accessibilityModes, [audio, largeText, highContrast]) where on {
                    v.accessibility.insert(mode)
                }
            case .idleReset:
                open = nil
                return Self.close(v)
            default: break
            }
        }
        return nil
    }

    /// The visit in progress, ended now (the kiosk stops); nil when there is none.
    public func finish() -> Visit? {
        guard let v = open else { return nil }
        open = nil
        return Self.close(v)
    }

    static func close(_ open: Open) -> Visit {
        var v = open
        v.scenes[v.scene, default: 0] += max(0, v.lastTouchMs - v.sceneSince)
        if let language = v.language { v.languages[language, default: 0] += max(0, v.lastTouchMs - v.languageSince) }
        var visit = Visit(
            start: LocalTime.iso(v.startWall), durationMs: Int((v.lastTouchMs - v.startMs).rounded()),
            scenes: v.scenes.mapValues { Int($0.rounded()) }, hotspots: v.hotspots,
            gestures: Visit.gestureNames.reduce(into: [:]) { $0[$1] = v.gestures[$1] ?? 0 },
            languages: v.language == nil ? nil : v.languages.mapValues { Int($0.rounded()) })
        if !v.accessibility.isEmpty { visit.accessibility = Visit.accessibilityModes.filter(v.accessibility.contains) }
        visit.startMs = v.startMs
        visit.startWall = v.startWall
        return visit
    }
}

/// Local time as the statistics write and read it.
public enum LocalTime {
    /// `2026-11-30T10:12:03+01:00`.
    public static func iso(_ unix: Double, calendar: LocalCalendar = .system) -> String {
        let m = calendar.moment(unix)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let sign = m.offset < 0 ? "-" : "+"
        let offset = abs(m.offset) / 60
        return "\(m.year)-\(two(m.month))-\(two(m.day))T\(two(m.hour)):\(two(m.minute)):\(two(m.second))"
            + "\(sign)\(two(offset / 60)):\(two(offset % 60))"
    }

    /// `2026-01-05T09:00:00` (or without the seconds, or a day alone) read as local time; nil when it is not
    /// one.
    public static func parse(_ text: String, calendar: LocalCalendar = .system) -> Double? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        let time = parts.count == 2 ? parts[1].split(separator: ":", omittingEmptySubsequences: false) : ["00", "00"]
        guard date.count == 3, date[0].count == 4, date[1].count == 2, date[2].count == 2,
            (2...3).contains(time.count), time.allSatisfy({ $0.count == 2 }),
            let y = Int(date[0]), let mo = Int(date[1]), let d = Int(date[2]), let h = Int(time[0]),
            let mi = Int(time[1]),
            let s = time.count == 3 ? Int(time[2]) : 0,
            (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 60
        else { return nil }
        let t = calendar.unix(y, mo, d, h, mi, s)
        // A day that does not exist (February 30) is not a day.
        let m = calendar.moment(t)
        return m.day == d || h != m.hour ? t : nil
    }

    /// The headless runs' wall clock at time zero without `--clock` (docs/event-log-and-trace.md, docs/operations.md): a Monday.
    public static let headlessDefault = "2026-01-05T09:00:00"
}

/// Counts as a JSON object, keys sorted.
func jsonObject(_ d: [String: Int]) -> String {
    "{" + d.sorted { $0.key < $1.key }.map { "\(jsonString($0.key)): \($0.value)" }.joined(separator: ", ") + "}"
}
