import EventLog
import Foundation
import ScrollEngine
import Testing

@testable import Kiosk

/// Visits counted from the frames' events (docs/operations.md), and what `--stats` makes of them.
@Suite struct VisitTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// The idle reset after a hotspot's scene goes home, and stays there (the hotspot's tap is not acted on
    /// again when home is shown).
    @Test func theIdleResetAfterAHotspotStaysHome() throws {
        let app = try AppRig.app()
        app.tap(x: 0.05, y: 0.1, at: 100)
        AppRig.run(app, from: 100, to: 1000)
        #expect(app.scene.config.id == "menu")
        AppRig.run(app, from: 1000, to: 3000)
        #expect(app.scene.config.id == "map")
        AppRig.run(app, from: 3000, to: 4000)
        #expect(app.scene.config.id == "map")
    }

    /// A list's row tapped is counted beside the hotspots, named as a goto names it (`directory#Alpha-1`): the
    /// report's "Hotspots and rows by taps" counts rows too.
    @Test func aRowTappedIsCounted() throws {
        let app = try ListTests.app(
            ListTests.manifest().replacingOccurrences(
                of: "\"idleTimeoutSeconds\": 0", with: "\"idleTimeoutSeconds\": 1"))
        app.wallTime = WallTime(unixAtKioskZero: 1_767_603_600)
        let counter = VisitCounter(app)
        let events: [(Double, EventLog.Event)] = [
            (100, .finger(.down, 1, 0.5, 240.0 / 480)), (320, .finger(.up, 1, 0.5, 240.0 / 480)),
        ]
        let ended = AppRig.frames(app, counter, from: 0, to: 4000, events: events)
        let visit = try #require(ended.first)
        #expect(visit.hotspots == ["directory#Alpha-1": 1])
    }

    /// Two visits separated by the idle timeout: their scenes, hotspots and gestures, to the millisecond.
    @Test func twoVisits() throws {
        let app = try AppRig.app()
        app.wallTime = WallTime(unixAtKioskZero: 1_767_603_600)  // 2026-01-05T09:00:00Z
        let counter = VisitCounter(app)
        #expect(AppRig.frames(app, counter, from: 0, to: 500).isEmpty)
        #expect(!counter.isCounting)
        // The first: the cafe hotspot (to the menu) at 500, a scroll of the menu from 1000 to 1200.
        var events: [(Double, EventLog.Event)] = [
            (500, .finger(.down, 1, 0.05, 0.1)), (580, .finger(.up, 1, 0.05, 0.1)),
        ]
        events.append((1000, .finger(.down, 2, 0.5, 0.8)))
        for i in 1...10 { events.append((1000 + 20 * Double(i), .finger(.motion, 2, 0.5, 0.8 - Double(i) * 0.04))) }
        events.append((1200, .finger(.up, 2, 0.5, 0.4)))
        let ended = AppRig.frames(app, counter, from: 500, to: 5000, events: events)
        #expect(ended.count == 1)
        let first = try #require(ended.first)
        #expect(first.durationMs == 700)
        // The hotspot's scene change came with its touch's lift at 580.
        #expect(first.scenes == ["map": 80, "menu": 620])
        #expect(first.hotspots == ["cafe": 1])
        #expect(first.gestures == ["pan": 1, "pinch": 0, "doubleTap": 0, "page": 0])
        #expect(LocalTime.parse(String(first.start.prefix(19)), calendar: .foundation(Self.utc)) != nil)
        // The second: a tap on nothing at 6000, then the kiosk stops at 7000.
        let tap: [(Double, EventLog.Event)] = [(6000, .finger(.down, 3, 0.9, 0.9)), (6080, .finger(.up, 3, 0.9, 0.9))]
        #expect(AppRig.frames(app, counter, from: 5000, to: 7000, events: tap).isEmpty)
        let second = try #require(counter.finish())
        #expect(second.durationMs == 80)
        #expect(second.scenes == ["map": 80])
        #expect(second.hotspots.isEmpty)
        #expect(counter.finish() == nil)
    }

    /// A visit that used audio mode says so in its line, and the metrics count it by mode; one that only touched
    /// writes no `accessibility` at all.
    /// A visit's line is read back as Foundation's decoder reads it (the statistics read a year of them without
    /// it); what is not a visit's line is nil.
    @Test func aVisitsLineIsReadBackAsTheDecoderReadsIt() throws {
        var v = Visit(
            start: "2026-01-05T10:00:00+01:00", durationMs: 61_000, scenes: ["map": 60_000, "menu": 1000],
            hotspots: ["cafe": 2], gestures: ["tap": 3], languages: ["en": 1000, "de": 60_000])
        v.accessibility = ["audio", "largeText"]
        for visit in [v, Visit(start: v.start, durationMs: 0, scenes: [:], hotspots: [:], gestures: [:])] {
            let json = try #require(JSONValue.parse(Substring(visit.line)))
            let read = try #require(Visit(json: json))
            #expect(read == (try JSONDecoder().decode(Visit.self, from: Data(visit.line.utf8))))
        }
        for line in [
            #"{"start": "2026-01-05T10:00:00+01:00", "durationMs": 1.5, "scenes": {}, "hotspots": {}, "gestures": {}}"#,
            #"{"start": "2026-01-05T10:00:00+01:00", "durationMs": 1, "scenes": {}, "hotspots": {}}"#,
            #"{"start": 5, "durationMs": 1, "scenes": {}, "hotspots": {}, "gestures": {}}"#,
            #"{"start": "x", "durationMs": 1, "scenes": {"a": "b"}, "hotspots": {}, "gestures": {}}"#,
            #"{"start": "x", "durationMs": 1, "scenes": {}, "hotspots": {}, "gestures": {}, "accessibility": [1]}"#,
            "[]",
        ] {
            let json = try #require(JSONValue.parse(Substring(line)))
            #expect(Visit(json: json) == nil, "\(line)")
            #expect((try? JSONDecoder().decode(Visit.self, from: Data(line.utf8))) == nil, "\(line)")
        }
    }

    @Test func aVisitSaysWhichAccessibilityItUsed() throws {
        let app = try AppRig.app()
        app.wallTime = WallTime(unixAtKioskZero: 1_767_603_600)
        let counter = VisitCounter(app)
        let keys: [(Double, EventLog.Event)] = [
            (500, .key(down: true, key: "Down", repeat: false)), (560, .key(down: false, key: "Down", repeat: false)),
        ]
        let ended = AppRig.frames(app, counter, from: 0, to: 4000, events: keys)
        let visit = try #require(ended.first)
        #expect(visit.accessibility == ["audio"])
        #expect(visit.line.hasSuffix(#", "accessibility": ["audio"]}"#))
        var metrics = Metrics(scene: "map")
        metrics.visitEnded(visit)
        let touched = AppRig.frames(
            app, counter, from: 4000, to: 8000,
            events: [(5000, .finger(.down, 1, 0.9, 0.9)), (5080, .finger(.up, 1, 0.9, 0.9))])
        let plain = try #require(touched.first)
        #expect(plain.accessibility == nil)
        #expect(!plain.line.contains("accessibility"))
        metrics.visitEnded(plain)
        let s = MetricsTests.samples(metrics.exposition(MetricsTests.now))
        #expect(s["kiosk_visits_total"] == "2")
        #expect(s[#"kiosk_accessible_visits_total{mode="audio"}"#] == "1")
        #expect(s[#"kiosk_accessible_visits_total{mode="largeText"}"#] == "0")
    }

    /// A visit is dated by the wall clock it started under: the clock set back to 1970 in its middle does not
    /// file it under 1969 (where the next start's pruning would delete it); a visit begun under a clock outside
    /// 2000-2200 says so (`isPlausiblyDated`), and the kiosk holds it until the clock is right.
    @Test func aVisitKeepsTheDateItBeganUnder() throws {
        let app = try AppRig.app()
        app.wallTime = WallTime(unixAtKioskZero: 1_767_603_600)  // 2026-01-05T09:00:00Z
        let counter = VisitCounter(app)
        let tap: [(Double, EventLog.Event)] = [(500, .finger(.down, 1, 0.9, 0.9)), (580, .finger(.up, 1, 0.9, 0.9))]
        #expect(AppRig.frames(app, counter, from: 0, to: 1000, events: tap).isEmpty)
        app.wallTime = WallTime(unixAtKioskZero: 0)  // the clock jumps to 1970
        let visit = try #require(counter.finish())
        #expect(visit.day == LocalTime.iso(1_767_603_600.5).prefix(10).description)
        #expect(visit.isPlausiblyDated)
        app.wallTime = WallTime(unixAtKioskZero: -62_135_596_800)  // year 1
        let late = VisitCounter(app)
        #expect(
            AppRig.frames(
                app, late, from: 1000, to: 2000,
                events: [(1500, .finger(.down, 2, 0.9, 0.9)), (1580, .finger(.up, 2, 0.9, 0.9))]
            ).isEmpty)
        #expect(try #require(late.finish()).isPlausiblyDated == false)
    }

    @Test func theLineIsTheContractsShape() throws {
        let v = Visit(
            start: "2026-11-30T10:12:03+01:00", durationMs: 48210, scenes: ["map": 30100, "menu": 18110],
            hotspots: ["cafe": 1], gestures: ["pan": 9, "pinch": 2, "doubleTap": 1, "page": 0])
        #expect(
            v.line
                == #"{"start": "2026-11-30T10:12:03+01:00", "durationMs": 48210, "scenes": {"map": 30100, "menu": 18110}, "hotspots": {"cafe": 1}, "gestures": {"pan": 9, "pinch": 2, "doubleTap": 1, "page": 0}}"#
        )
        #expect(v.day == "2026-11-30")
        #expect(try JSONDecoder().decode(Visit.self, from: Data(v.line.utf8)) == v)
    }

    @Test func statistics() {
        func visit(_ day: String, _ ms: Int, _ scenes: [String: Int], _ hotspots: [String: Int] = [:]) -> Visit {
            Visit(start: day + "T10:00:00+00:00", durationMs: ms, scenes: scenes, hotspots: hotspots, gestures: [:])
        }
        let s = VisitStatistics([
            visit("2026-01-05", 1000, ["map": 1000], ["cafe": 2]),
            visit("2026-01-05", 3000, ["map": 1000, "menu": 2000]),
            visit("2026-01-06", 2000, ["menu": 2000], ["cafe": 1, "shop": 1]),
            visit("2026-01-06", 10_000, ["map": 10_000]),
        ])
        #expect(s.visits == 4)
        #expect(s.days == ["2026-01-05": 2, "2026-01-06": 2])
        #expect(s.scenes == ["map": 12_000, "menu": 4000])
        #expect(s.hotspots == ["cafe": 3, "shop": 1])
        #expect(s.medianMs == 2500)
        #expect(s.p90Ms == 10_000)
        #expect(
            s.json
                == #"{"visits": 4, "days": {"2026-01-05": 2, "2026-01-06": 2}, "scenes": {"map": 12000, "menu": 4000}, "hotspots": {"cafe": 3, "shop": 1}, "durationMs": {"median": 2500, "p90": 10000}}"#
        )
        #expect(s.text.contains("  map   12.0 s  75 %"), "\(s.text)")
        #expect(VisitStatistics([]).text == "visits: 0\n")
    }

    @Test func localTime() {
        let t = LocalTime.parse("2026-01-05T09:00:00", calendar: .foundation(Self.utc))
        #expect(t == 1_767_603_600)
        #expect(LocalTime.iso(1_767_603_600.7, calendar: .foundation(Self.utc)) == "2026-01-05T09:00:00+00:00")
        let paris = TimeZone(identifier: "Europe/Paris")!
        #expect(LocalTime.iso(1_767_603_600, calendar: .foundation(paris)) == "2026-01-05T10:00:00+01:00")
        #expect(LocalTime.parse("yesterday") == nil)
    }
}
