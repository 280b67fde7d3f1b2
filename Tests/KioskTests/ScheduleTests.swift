import Foundation
import ScrollEngine
import TestSupport
import Testing

@testable import Kiosk

/// `schedule` and `attractSets` (docs/operations.md): parsing and its mistakes, which entry wins, when the choice changes
/// (midnight, an entry's hours, a daylight-saving night), the plan, and the app that follows it (never under a
/// visitor's finger) on an honest clock.
@Suite struct ScheduleTests {
    static let sets =
        #""attractSets": {"morning": {"afterSeconds": 5, "steps": [{"scene": "gallery", "seconds": 4}]}},"#

    static func check(_ schedule: String, sets: String = Self.sets) -> ManifestCheck {
        Manifest.check(
            AppRig.manifestText.replacingOccurrences(
                of: "\"idleTimeoutSeconds\": 2,", with: "\"idleTimeoutSeconds\": 2, \(sets) \"schedule\": \(schedule),"),
            file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
    }

    static let paris = OpeningHoursTests.parisCalendar
    static func at(_ text: String) -> Double { OpeningHoursTests.at(text) }

    @Test(arguments: [
        (#"[{"days": "mon-fry", "home": "map"}]"#, "schedule[0].days: \"mon-fry\" is not a day"),
        (#"[{"days": "mon", "dates": "2026-12-24", "closed": true}]"#, "schedule[0]: has both \"days\" and \"dates\""),
        (#"[{"home": "map"}]"#, "schedule[0]: needs \"days\""),
        (
            #"[{"dates": "2026-12-24..2026-12-01", "closed": true}]"#,
            "schedule[0].dates: \"2026-12-24..2026-12-01\" ends before it starts"
        ),
        (
            #"[{"dates": ["2026-12-01..2026-12-10", "2026-12-05"], "closed": true}]"#,
            "schedule[0].dates[1]: \"2026-12-05\" overlaps 2026-12-01..2026-12-10"
        ),
        (#"[{"dates": "2026-02-30", "closed": true}]"#, "schedule[0].dates: \"2026-02-30\" is not a date"),
        (
            #"[{"days": "sat", "attract": "evening"}]"#,
            "schedule[0].attract: no attract set is named \"evening\" (known: morning)"
        ),
        (#"[{"days": "sat", "home": "lobby"}]"#, "schedule[0].home: no scene has the id \"lobby\""),
        (
            #"[{"days": "sat", "hours": "18:00-08:00", "home": "map"}]"#,
            "schedule[0].hours: \"18:00-08:00\" is empty or ends before it starts"
        ),
        (#"[{"days": "sat"}]"#, "schedule[0]: chooses nothing"),
        (#"[{"days": "sat", "closed": true, "home": "map"}]"#, "schedule[0]: a closed entry shows nothing"),
        (#"{"days": "sat"}"#, "schedule: expected a list of entries"),
    ])
    func mistakes(schedule: String, message: String) {
        let check = Self.check(schedule)
        #expect(check.manifest == nil)
        #expect(check.errors.contains { $0.description.contains(message) }, "\(check.errors)")
    }

    @Test func anAttractSetIsCheckedAsAttractIs() {
        let check = Self.check(
            #"[{"days": "sat", "attract": "morning"}]"#,
            sets: #""attractSets": {"morning": {"afterSeconds": 5, "steps": [{"scene": "hall", "seconds": 4}]}},"#)
        #expect(
            check.errors.contains {
                $0.description.contains("attractSets.morning.steps[0].scene: no scene has the id \"hall\"")
            })
    }

    static let advent = #"""
        [{"days": "mon-fri", "hours": "08:00-12:00", "home": "gallery", "attract": "morning"},
         {"days": "fri", "home": "menu"},
         {"dates": ["2026-12-24", "2026-12-31"], "closed": true},
         {"dates": "2026-12-01..2026-12-23", "home": "menu"}]
        """#

    /// A date entry wins over a weekday entry, a later entry over an earlier one of its kind; each entry's hours
    /// bound it; the choice may change next at an entry's hour or at midnight.
    @Test func whichEntryWins() throws {
        let schedule = try #require(Self.check(Self.advent).manifest?.schedule)
        func at(_ text: String) -> (entry: Int?, choice: Schedule.Choice, nextChange: Double) {
            schedule.choice(at: Self.at(text), calendar: Self.paris)
        }
        // Monday 2026-01-05: the morning's gallery until noon, then the manifest's own.
        #expect(at("2026-01-05T07:59:00").entry == nil)
        #expect(at("2026-01-05T07:59:00").nextChange == Self.at("2026-01-05T08:00:00"))
        #expect(at("2026-01-05T08:00:00").choice == Schedule.Choice(home: "gallery", attract: "morning"))
        #expect(at("2026-01-05T11:00:00").nextChange == Self.at("2026-01-05T12:00:00"))
        #expect(at("2026-01-05T12:00:00").entry == nil)
        #expect(at("2026-01-05T12:00:00").nextChange == Self.at("2026-01-06T00:00:00"))
        // Friday: the later weekday entry (all day) over the morning's.
        #expect(at("2026-01-09T09:00:00").entry == 1)
        // In Advent the date entry, whatever the weekday; Christmas Eve closed.
        #expect(at("2026-12-04T09:00:00").entry == 3)
        #expect(at("2026-12-24T09:00:00").choice.closed)
        #expect(at("2026-12-25T09:00:00").entry == 1)
    }

    /// Many weekday entries (a seeded 2 000, each some days and an hour): the winner looked up in the table made
    /// once (and the next change by halving) is, at every quarter hour of a week, the rule's own: the last
    /// weekday entry whose days and hours hold, and the next change the first boundary ahead. (10 000 such
    /// entries took `--check --plan 366` over a minute, reading every entry at each moment; now two seconds.)
    @Test func manyWeekdayEntriesWinAsTheRuleSays() throws {
        var random = SplitMix(seed: 7)
        let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        var spans: [(days: Set<Int>, start: Int, end: Int)] = []
        var entries: [String] = []
        for _ in 0..<2000 {
            let first = Int(random.next() % 7)
            let last = first + Int(random.next() % UInt64(7 - first))
            let start = Int(random.next() % 88) * 15
            let end = start + 15 * (1 + Int(random.next() % 8))
            spans.append((Set(first...last), start, end))
            func hhmm(_ m: Int) -> String { String(format: "%02d:%02d", m / 60, m % 60) }
            entries.append(
                #"{"days": "\#(names[first])-\#(names[last])", "hours": "\#(hhmm(start))-\#(hhmm(end))", "home": "map"}"#
            )
        }
        let schedule = try #require(Self.check("[" + entries.joined(separator: ", ") + "]").manifest?.schedule)
        let monday = Self.at("2026-01-05T00:00:00")
        for quarter in 0..<(7 * 96) {
            let (weekday, minute) = (quarter / 96, quarter % 96 * 15)
            let t = monday + Double(quarter * 900)
            let expected = spans.lastIndex { $0.days.contains(weekday) && ($0.start..<$0.end).contains(minute) }
            let got = schedule.choice(at: t, calendar: Self.paris)
            #expect(got.entry == expected, "\(quarter)")
            let ends = spans.flatMap { [$0.start, $0.end] }.filter { $0 > minute && $0 < 24 * 60 }
            let next =
                ends.min().map { monday + Double(weekday * 86_400 + $0 * 60) } ?? monday
                + Double((weekday + 1) * 86_400)
            #expect(got.nextChange == next, "\(quarter)")
        }
    }

    /// A clock far ahead (2099) or at 1970 is read like any other: the weekday entries of its day, no date entry.
    @Test func aClockIn2099OrIn1970() throws {
        let schedule = try #require(Self.check(Self.advent).manifest?.schedule)
        // 2099-12-31 is a Thursday; 1970-01-02 a Friday.
        let late = schedule.choice(at: Self.at("2099-12-31T09:00:00"), calendar: Self.paris)
        #expect(late.entry == 0 && late.nextChange == Self.at("2099-12-31T12:00:00"))
        let early = schedule.choice(at: Self.at("1970-01-02T13:00:00"), calendar: Self.paris)
        #expect(early.entry == 1)
    }

    /// The night the clocks go forward (Paris, 2026-03-29) the next change is the next local midnight, 23 hours
    /// after the one before.
    @Test func midnightAcrossADaylightSavingChange() throws {
        let schedule = try #require(Self.check(#"[{"days": "sun", "home": "menu"}]"#).manifest?.schedule)
        let saturday = schedule.choice(at: Self.at("2026-03-28T00:00:00"), calendar: Self.paris)
        #expect(saturday.nextChange == Self.at("2026-03-29T00:00:00"))
        let sunday = schedule.choice(at: saturday.nextChange, calendar: Self.paris)
        #expect(sunday.entry == 0 && sunday.nextChange - saturday.nextChange == 23 * 3600)
    }

    /// The night the clocks go back (Paris, 2026-10-25, 03:00 becomes 02:00): in the second pass of the repeated
    /// hour an entry's boundary inside it is not placed in the past (a deadline gone would wake the kiosk
    /// again and again).
    @Test func theRepeatedHour() throws {
        let schedule = try #require(
            Self.check(#"[{"days": "sun", "hours": "02:30-23:00", "home": "menu"}]"#).manifest?.schedule)
        // 01:00 CEST plus 2 h 10 min: 02:10 CET, in the hour's second pass.
        let secondPass = Self.at("2026-10-25T01:00:00") + 7800
        #expect(Self.paris.moment(secondPass).hour == 2 && Self.paris.moment(secondPass).minute == 10)
        let c = schedule.choice(at: secondPass, calendar: Self.paris)
        #expect(c.nextChange > secondPass)
    }

    @Test func thePlan() throws {
        let text = AppRig.manifestText.replacingOccurrences(
            of: "\"idleTimeoutSeconds\": 2,",
            with:
                "\"idleTimeoutSeconds\": 2, \(Self.sets) \"openingHours\": {\"mon-sun\": \"07:00-20:00\"}, \"schedule\": \(Self.advent),"
        )
        let manifest = try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        let lines = Plan.lines(manifest, from: Self.at("2026-12-23T10:00:00"), days: 2, calendar: Self.paris)
        #expect(
            lines == [
                "plan for 2 days from Wed 2026-12-23 10:00:",
                "  Wed 2026-12-23 10:00  home \"menu\", the default attract loop (schedule[3])",
                "  Wed 2026-12-23 20:00  closed (opening hours)",
                "  Thu 2026-12-24 00:00  closed (schedule[2])",
                "  Fri 2026-12-25 00:00  closed (opening hours)",
                "  Fri 2026-12-25 07:00  home \"menu\", the default attract loop (schedule[1])",
            ], "\(lines)")
    }

    /// The app on a schedule: it starts on the entry's home without a transition; at noon, a visitor's session
    /// keeps the morning's until its idle reset, which takes the kiosk to the manifest's home.
    static func app(from start: String, schedule: String = Self.advent) throws -> KioskApp {
        let app = try AppRig.app(extra: "\(Self.sets) \"schedule\": \(schedule),")
        app.calendar = Self.paris
        app.wallTime = WallTime(unixAtKioskZero: Self.at(start))
        return app
    }

    @Test func changesWaitForTheIdleReset() throws {
        let app = try Self.app(from: "2026-01-05T11:59:57")
        app.step(to: 0)
        #expect(app.scene.config.id == "gallery" && app.transition == nil)
        #expect(
            app.sink.events.first?.json
                == #"{"name": "scheduleDidApply", "entry": "schedule[0]", "home": "gallery", "attract": "morning"}"#)
        app.dropFrameEvents()
        // A finger down from 2 s to 4 s, across noon (3 s).
        app.finger(.down, x: 0.5, y: 0.5, at: 2000)
        AppRig.run(app, from: 0, to: 3900)
        #expect(app.scene.config.id == "gallery")
        #expect(!AppRig.names(app).contains("scheduleDidApply"))
        app.finger(.up, x: 0.5, y: 0.5, at: 4000)
        AppRig.run(app, from: 3900, to: 5900)
        #expect(app.scene.config.id == "gallery")
        AppRig.run(app, from: 5900, to: 6200)
        let names = AppRig.names(app)
        let reset = try #require(names.firstIndex(of: "idleReset"))
        #expect(names.firstIndex(of: "scheduleDidApply") == reset + 1, "\(names)")
        #expect(app.scene.config.id == "map")
    }

    /// Nobody here: a change takes effect at once, and an attract loop of the old set ends.
    @Test func anIdleKioskChangesAtOnce() throws {
        let app = try Self.app(from: "2026-01-05T07:59:50")
        AppRig.run(app, from: 0, to: 9000)
        #expect(app.scene.config.id == "map")
        AppRig.run(app, from: 9000, to: 10_500)
        #expect(app.scene.config.id == "gallery")
        // The morning's attract set, 5 s after.
        AppRig.run(app, from: 10_500, to: 16_000)
        #expect(app.isAttracting)
    }

    /// The morning's attract loop plays at noon, when the morning ends: nobody is here, so the change comes at
    /// once, the loop of the old set ends and the manifest's home is shown.
    @Test func aChangeEndsTheLoopOfTheOldSet() throws {
        let app = try Self.app(from: "2026-01-05T11:59:40")
        AppRig.run(app, from: 0, to: 19_900)
        #expect(app.isAttracting && app.scene.config.id == "gallery")
        app.dropFrameEvents()
        AppRig.run(app, from: 19_900, to: 20_100)
        let names = AppRig.names(app)
        #expect(names.prefix(2) == ["scheduleDidApply", "attractDidEnd"], "\(names)")
        #expect(!app.isAttracting && app.scene.config.id == "map")
    }

    /// Not synchronised: neither the hours nor the schedule apply (open, the manifest's home); once synchronised
    /// both do at once. A jump is noticed at the next frame.
    @Test func anUnsynchronisedClockAppliesNothing() throws {
        let app = try Self.app(from: "2026-12-24T10:00:00")
        app.wallTime?.isSynchronized = false
        AppRig.run(app, from: 0, to: 1000)
        #expect(!app.isBlanked && app.scene.config.id == "map")
        app.wallTime?.isSynchronized = true
        AppRig.run(app, from: 1000, to: 1100)
        #expect(app.blankReason == .hours)
        #expect(AppRig.names(app).prefix(1) == ["clockDidSynchronize"])
    }

    @Test func aJumpIsNoticedAtTheNextFrame() throws {
        let app = try AppRig.app(extra: "\"openingHours\": {\"mon-sun\": \"08:00-20:00\"},")
        app.calendar = Self.paris
        app.wallTime = WallTime(unixAtKioskZero: Self.at("2026-10-25T10:00:00"))
        AppRig.run(app, from: 0, to: 1000)
        #expect(!app.isBlanked)
        app.dropFrameEvents()
        // Forward a year to 21:00: closed at the next frame.
        app.wallTime?.unixAtKioskZero = Self.at("2027-10-25T21:00:00") - 1
        AppRig.run(app, from: 1000, to: 1020)
        #expect(app.blankReason == .hours)
        let jump = try #require(app.sink.events.first { $0.name == "clockDidJump" })
        #expect(jump.json.contains("\"seconds\": 31"))
        // Back an hour: still closed; back to the morning: open.
        app.wallTime?.unixAtKioskZero -= 3600
        AppRig.run(app, from: 1020, to: 1040)
        #expect(app.blankReason == .hours)
        app.wallTime?.unixAtKioskZero = Self.at("2026-10-25T10:00:00") - 1
        AppRig.run(app, from: 1040, to: 1060)
        #expect(!app.isBlanked)
    }
}
