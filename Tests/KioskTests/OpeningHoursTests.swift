import Foundation
import ScrollEngine
import Testing

@testable import Kiosk

/// `openingHours` (docs/manifest.md): parsing, its mistakes, and the state on the local clock across midnight and
/// daylight-saving changes.
@Suite struct OpeningHoursTests {
    static func manifest(_ hours: String) -> ManifestCheck {
        Manifest.check(
            #"{"kioskManifest": 1, "openingHours": \#(hours), "scenes": [{"id": "a", "type": "zoom", "image": "a.png"}]}"#,
            file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
    }

    static let paris = TimeZone(identifier: "Europe/Paris")!
    static let parisCalendar = LocalCalendar.foundation(paris)

    /// Unix seconds of a local time in Paris.
    static func at(_ text: String) -> Double { LocalTime.parse(text, calendar: .foundation(paris))! }

    @Test(arguments: [
        (#"{"mon-fri": "8-20"}"#, "openingHours.mon-fri: \"8-20\": expected \"HH:MM-HH:MM\""),
        (#"{"monday": "08:00-20:00"}"#, "openingHours.monday: \"monday\" is not a day"),
        (#"{"mon": "10:00-10:00"}"#, "openingHours.mon: \"10:00-10:00\" is empty or ends before it starts"),
        (#"{"sat": "22:00-02:00"}"#, "openingHours.sat: \"22:00-02:00\" is empty or ends before it starts"),
        (#"{"mon-fri": "08:00-12:00", "fri": "11:00-18:00"}"#, "openingHours.mon-fri: overlaps other hours of fri"),
        (#"{"mon": "08:00-24:01"}"#, "expected \"HH:MM-HH:MM\""),
        (#"{"mon": 8}"#, "openingHours.mon: expected \"HH:MM-HH:MM\", found a number"),
        (#""always""#, "openingHours: expected an object of days to hours"),
    ])
    func mistakes(hours: String, message: String) {
        let check = Self.manifest(hours)
        #expect(check.manifest == nil)
        #expect(check.errors.contains { $0.description.contains(message) }, "\(check.errors)")
    }

    /// Three mistakes in three days' hours: all three said in one check, not one a run.
    @Test func everyDaysMistakeIsSaid() {
        let check = Self.manifest(#"{"monday": "08:00-20:00", "tue": "8-20", "sat": "22:00-02:00"}"#)
        #expect(check.manifest == nil)
        let said = check.errors.map(\.description).filter { $0.contains("openingHours.") }
        #expect(said.count == 3, "\(said)")
        for key in ["monday", "tue", "sat"] { #expect(said.contains { $0.contains("openingHours.\(key):") }, "\(key)") }
    }

    @Test func daysRangesAndMidnight() throws {
        let hours = try #require(
            Self.manifest(#"{"mon-fri": "08:00-12:00, 13:00-20:00", "sat": "20:00-24:00", "sun": "00:00-02:00"}"#)
                .manifest?.openingHours)
        // 2026-01-05 is a Monday.
        #expect(hours.state(at: Self.at("2026-01-05T07:59:59"), calendar: Self.parisCalendar).open == false)
        #expect(hours.state(at: Self.at("2026-01-05T08:00:00"), calendar: Self.parisCalendar).open)
        #expect(hours.state(at: Self.at("2026-01-05T12:30:00"), calendar: Self.parisCalendar).open == false)
        let lunch = hours.state(at: Self.at("2026-01-05T12:30:00"), calendar: Self.parisCalendar)
        #expect(lunch.nextChange == Self.at("2026-01-05T13:00:00"))
        // Friday evening: closed until Saturday 20:00; open across midnight into Sunday until 02:00.
        let friday = hours.state(at: Self.at("2026-01-09T21:00:00"), calendar: Self.parisCalendar)
        #expect(!friday.open && friday.nextChange == Self.at("2026-01-10T20:00:00"))
        #expect(hours.state(at: Self.at("2026-01-10T23:59:59"), calendar: Self.parisCalendar).open)
        #expect(hours.state(at: Self.at("2026-01-11T01:59:00"), calendar: Self.parisCalendar).open)
        #expect(hours.state(at: Self.at("2026-01-11T02:00:00"), calendar: Self.parisCalendar).open == false)
    }

    /// The night the clocks go forward (Paris, 2026-03-29, 02:00 becomes 03:00) has 23 hours: Sunday 08:00 is
    /// 10 hours after Saturday 21:00, not 11.
    @Test func daylightSaving() throws {
        let hours = try #require(Self.manifest(#"{"sat-sun": "08:00-20:00"}"#).manifest?.openingHours)
        let saturday = Self.at("2026-03-28T21:00:00")
        let s = hours.state(at: saturday, calendar: Self.parisCalendar)
        #expect(!s.open)
        #expect(abs((s.nextChange ?? 0) - saturday - 10 * 3600) < 0.001)
        #expect(abs((s.nextChange ?? 0) - Self.at("2026-03-29T08:00:00")) < 0.001)
        // And back (2026-10-25, 03:00 becomes 02:00): 12 hours.
        let october = Self.at("2026-10-24T21:00:00")
        #expect(
            abs((hours.state(at: october, calendar: Self.parisCalendar).nextChange ?? 0) - october - 12 * 3600) < 0.001)
    }

    /// Hours that begin inside the hour the spring's change skips (02:30 on 2026-03-29 in Paris, where 02:00
    /// becomes 03:00) begin as the clock jumps past them, at 03:00, not at 03:30 (an hour after 02:30 as the
    /// clocks read before the change); so do hours that end there.
    @Test func hoursInsideTheSkippedHourBeginAsTheClockJumps() throws {
        let calendar = Self.parisCalendar
        let hours = try #require(Self.manifest(#"{"sun": "02:30-20:00"}"#).manifest?.openingHours)
        let paris = Self.at("2026-03-29T03:00:00")
        #expect(paris == 1_774_746_000)
        let night = Self.at("2026-03-29T01:00:00")
        let s = hours.state(at: night, calendar: calendar)
        #expect(!s.open)
        #expect(s.nextChange == paris)
        let after = hours.state(at: paris, calendar: calendar)
        #expect(after.open)
        #expect(after.nextChange == Self.at("2026-03-29T20:00:00"))
        // Every time the change skips is the moment of the jump; the second before it is itself.
        #expect(calendar.unix(2026, 3, 29, 2, 0, 0) == paris)
        #expect(calendar.unix(2026, 3, 29, 2, 59, 59) == paris)
        #expect(calendar.unix(2026, 3, 29, 1, 59, 59) == paris - 1)
    }

    @Test func wallSecondsCountCivilDays() {
        #expect(LocalCalendar.wallSeconds(1970, 1, 1, 0, 0, 0) == 0)
        #expect(LocalCalendar.wallSeconds(2026, 3, 29, 2, 30, 0) == 1_774_751_400)
        // Carries: month 13, day 32, hour 24.
        #expect(LocalCalendar.wallSeconds(2025, 13, 1, 0, 0, 0) == LocalCalendar.wallSeconds(2026, 1, 1, 0, 0, 0))
        #expect(LocalCalendar.wallSeconds(2026, 1, 32, 0, 0, 0) == LocalCalendar.wallSeconds(2026, 2, 1, 0, 0, 0))
        #expect(LocalCalendar.wallSeconds(2026, 2, 28, 24, 0, 0) == LocalCalendar.wallSeconds(2026, 3, 1, 0, 0, 0))
        #expect(
            LocalCalendar.wallSeconds(2024, 2, 29, 0, 0, 0) + 86_400 == LocalCalendar.wallSeconds(2024, 3, 1, 0, 0, 0))
    }

    /// The test app with `hours`, its wall clock at `start` (Paris) when its own clock is at 0; 500 ms run.
    static func app(hours: String, from start: Double) throws -> KioskApp {
        let app = try AppRig.app(extra: "\"openingHours\": \(hours),")
        app.calendar = Self.parisCalendar
        app.wallTime = WallTime(unixAtKioskZero: start)
        AppRig.run(app, from: 0, to: 500)
        return app
    }

    /// Closed: blank (reason "hours") when idle; a touch wakes it and does nothing else; after the idle reset
    /// it is blank again; opening time wakes it.
    @Test func blankOutsideTheHours() throws {
        let start = Self.at("2026-01-05T16:59:59")
        let app = try Self.app(hours: #"{"mon-fri": "09:00-17:00"}"#, from: start)
        #expect(!app.isBlanked)
        #expect(abs((app.nextDeadline ?? 0) - 1000) < 0.01)
        AppRig.run(app, from: 500, to: 1100)
        #expect(app.blankReason == .hours)
        #expect(app.sink.events.map(\.json).last == #"{"name": "screenDidBlank", "reason": "hours"}"#)
        // A tap on the cafe: it wakes the screen and nothing else.
        _ = app.sink.take()
        app.tap(x: 0.05, y: 0.1, at: 2000)
        AppRig.run(app, from: 2000, to: 3000)
        #expect(!app.isBlanked)
        #expect(app.scene.config.id == "map")
        #expect(AppRig.names(app) == ["screenDidWake"])
        // Awake until the idle reset (2 s after the last touch), then blank again.
        AppRig.run(app, from: 3000, to: 4500)
        #expect(app.blankReason == .hours)
        // Tuesday 09:00 wakes it by itself.
        let opening = Self.at("2026-01-06T09:00:00")
        let wake = (opening - start) * 1000
        #expect(abs((app.nextDeadline ?? 0) - wake) < 0.01)
        AppRig.run(app, from: wake - 100, to: wake + 100)
        #expect(!app.isBlanked)
    }

    /// Open, with no idle timeout, touched more than two minutes ago: nothing is due until closing time. (The
    /// passed end of the touch's "awake when closed" time stayed the next deadline, and a sleeping frame loop
    /// never slept again.)
    @Test func anOpenKioskTouchedLongAgoSleepsUntilClosingTime() throws {
        let start = Self.at("2026-01-05T10:00:00")
        let app = try AppRig.app(extra: "\"openingHours\": {\"mon-sun\": \"06:00-22:00\"},", idleTimeout: 0)
        app.calendar = Self.parisCalendar
        app.wallTime = WallTime(unixAtKioskZero: start)
        app.tap(x: 0.9, y: 0.9, at: 1000)
        AppRig.run(app, from: 1000, to: 130_000)
        #expect(!app.isBlanked)
        let closing = (Self.at("2026-01-05T22:00:00") - start) * 1000
        #expect(abs((app.nextDeadline ?? 0) - closing) < 0.01, "\(app.nextDeadline ?? 0)")
    }

    /// New hours in a reload take effect at once: the state cached until the old hours' next change is let go
    /// (an operator who moves closing time from midnight to 18:00 and reloads at 19:00 sees the screen go blank).
    @Test func aReloadWithNewHoursTakesEffectAtOnce() throws {
        let app = try Self.app(hours: #"{"mon-sun": "06:00-24:00"}"#, from: Self.at("2026-01-05T19:00:00"))
        #expect(!app.isBlanked)
        let text = AppRig.manifestText.replacingOccurrences(
            of: "\"idleTimeoutSeconds\": 2,",
            with: "\"idleTimeoutSeconds\": 2, \"openingHours\": {\"mon-sun\": \"06:00-18:00\"},")
        app.reload(try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true }))
        AppRig.run(app, from: 500, to: 1500)
        #expect(app.blankReason == .hours)
    }

    /// The frame says which wall clock it was stepped with: the host reads the clock once a frame and hands
    /// that reading to the visits and the metrics too.
    @Test func aFrameCarriesTheWallClockItWasSteppedWith() throws {
        let app = try AppRig.app()
        #expect(app.step(to: 10).wall == nil)
        let wall = WallTime(unixAtKioskZero: Self.at("2026-03-28T09:00:00"), isSynchronized: true)
        #expect(app.step(to: 20, wall: wall).wall == wall)
        #expect(app.step(to: 30).wall == wall)
    }
}
