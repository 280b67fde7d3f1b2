import EventLog
import Foundation

/// What the kiosk shows by weekday and date (docs/operations.md, `schedule`): each entry chooses a home scene, a named
/// attract set (`attractSets`) or that the kiosk is closed, for some days and, optionally, some hours of them.
/// A date entry wins over a weekday entry, a later entry over an earlier one of the same kind; where none
/// applies the manifest's own `home` and `attract` do.
public struct Schedule: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        /// The weekdays it applies on (Monday = 0), for a weekday entry.
        public var days: Set<Int>?
        /// The local days it applies on (days since 1970-01-01, each range closed), for a date entry.
        public var dates: [ClosedRange<Int>]?
        /// The minutes of those days it applies in, `[start, end)`; nil: the whole day.
        public var hours: [Range<Int>]?
        public var choice: Choice
        /// Its JSON path (`schedule[2]`), for messages.
        public var path: String

        var isDateEntry: Bool { dates != nil }

        func applies(day: Int, weekday: Int, minute: Int) -> Bool {
            if let dates, !dates.contains(where: { $0.contains(day) }) { return false }
            if let days, !days.contains(weekday) { return false }
            return hours?.contains { $0.contains(minute) } ?? true
        }
    }

    /// What an entry chooses; nil fields are the manifest's own.
    public struct Choice: Equatable, Sendable {
        public var home: String?
        public var attract: String?
        public var closed = false
        public init(home: String? = nil, attract: String? = nil, closed: Bool = false) {
            self.home = home
            self.attract = attract
            self.closed = closed
        }
        /// The manifest's own home and attract loop, open.
        public static let standard = Choice()
    }

    public let entries: [Entry]
    /// Every entry's hours' boundaries (minutes of a day, within it), sorted, once: the next change is found by
    /// halving, not by reading 10 000 entries at each of a plan's hours.
    let boundaries: [Int]
    /// The date entries' indices, in order: the winner is the last that applies.
    let dateEntries: [Int]
    /// For each weekday and minute of the day, the last weekday entry that applies (-1: none), made once: 10 000
    /// weekday entries are not read at each minute a plan looks at.
    let weekdayWinner: [[Int32]]

    public init(entries: [Entry]) {
        self.entries = entries
        var ends = Set<Int>()
        for entry in entries {
            for span in entry.hours ?? [] {
                for end in [span.lowerBound, span.upperBound] where end > 0 && end < 24 * 60 { ends.insert(end) }
            }
        }
        boundaries = ends.sorted()
        dateEntries = entries.indices.filter { entries[$0].isDateEntry }
        var table = [[Int32]](repeating: [Int32](repeating: -1, count: 24 * 60), count: 7)
        for (i, entry) in entries.enumerated() where !entry.isDateEntry {
            for weekday in entry.days ?? [] where (0..<7).contains(weekday) {
                for span in entry.hours ?? [0..<24 * 60] {
                    for minute in max(0, span.lowerBound)..<min(24 * 60, span.upperBound) {
                        table[weekday][minute] = Int32(i)
                    }
                }
            }
        }
        weekdayWinner = table
    }

    /// The entry in effect (its index) and its choice at `unix`, and when that may next change (Unix seconds:
    /// the next boundary of an entry's hours, or the next local midnight).
    public func choice(at unix: Double, calendar: LocalCalendar = .system) -> (
        entry: Int?, choice: Choice, nextChange: Double
    ) {
        let m = calendar.moment(unix)
        let day = Self.dayNumber(m.year, m.month, m.day)
        let minute = m.hour * 60 + m.minute
        func applies(_ i: Int) -> Bool { entries[i].applies(day: day, weekday: m.weekday, minute: minute) }
        // A date entry wins over a weekday entry, a later over an earlier: the last that applies, read backwards.
        let weekday = (0..<24 * 60).contains(minute) ? weekdayWinner[m.weekday][minute] : -1
        let winner = dateEntries.last(where: applies) ?? (weekday >= 0 ? Int(weekday) : nil)
        var next = calendar.unix(m.year, m.month, m.day + 1, 0, 0, 0)
        // The first boundary after this minute (by halving) and on: on the night the clocks go back a boundary
        // of the repeated hour may be placed in its first pass, already gone; only one still ahead counts.
        var low = 0
        var high = boundaries.count
        while low < high {
            let mid = (low + high) / 2
            if boundaries[mid] > minute { high = mid } else { low = mid + 1 }
        }
        for end in boundaries[low...] {
            let t = calendar.unix(m.year, m.month, m.day, end / 60, end % 60, 0)
            if t > unix {
                next = min(next, t)
                break
            }
        }
        return (winner, winner.map { entries[$0].choice } ?? .standard, next)
    }

    // MARK: Parsing

    /// `schedule`: a list of entries, each with `days` (as `openingHours`' keys: `mon-fri`) or `dates`
    /// (`"2026-12-24"`, `"2026-12-01..2026-12-23"`, or a list of them), optional `hours` (`"08:00-12:00"`,
    /// several separated by commas), and `home`, `attract` or `closed`. Scenes and attract sets are checked by
    /// `check`.
    static func parse(_ value: JSONValue, problems: ProblemList) throws(ManifestError) -> Schedule {
        guard case .array(let list) = value else {
            throw problems.fail(
                "schedule", "expected a list of entries, like [{\"days\": \"mon-fri\", \"home\": \"map\"}]")
        }
        var entries: [Entry] = []
        for (i, v) in list.enumerated() {
            let path = "schedule[\(i)]"
            let entry = problems.attempt { () throws(ManifestError) -> Entry in
                let o = try Object(v, path: path, problems: problems)
                o.allow(["days", "dates", "hours", "home", "attract", "closed"])
                let days = try parseDays(o)
                let dates = try parseDates(o)
                guard (days == nil) != (dates == nil) else {
                    throw problems.fail(
                        path,
                        dates == nil
                            ? "needs \"days\" (like \"mon-fri\") or \"dates\""
                            : "has both \"days\" and \"dates\"; an entry is one kind or the other")
                }
                let hours = try parseHours(o)
                let closed = try o.bool("closed") ?? false
                let choice = Choice(home: try o.string("home"), attract: try o.string("attract"), closed: closed)
                if closed, choice.home != nil || choice.attract != nil {
                    throw problems.fail(
                        path, "a closed entry shows nothing: \"home\" and \"attract\" mean nothing here")
                }
                if !closed, choice.home == nil, choice.attract == nil {
                    throw problems.fail(path, "chooses nothing: give \"home\", \"attract\" or \"closed\": true")
                }
                return Entry(days: days, dates: dates, hours: hours, choice: choice, path: path)
            }
            if let entry { entries.append(entry) }
        }
        return Schedule(entries: entries)
    }

    static func parseDays(_ o: Object) throws(ManifestError) -> Set<Int>? {
        guard let v = o.values["days"] else { return nil }
        guard case .string(let text) = v else { throw o.fail("days", "expected days like \"mon-fri\" or \"sat,sun\"") }
        var days = Set<Int>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let key = part.trimmingCharacters(in: .whitespaces)
            guard let which = OpeningHours.days(key) else {
                throw o.fail(
                    "days", "\"\(key)\" is not a day or a range of days (mon, tue, wed, thu, fri, sat, sun; mon-fri)")
            }
            days.formUnion(which)
        }
        return days
    }

    static func parseDates(_ o: Object) throws(ManifestError) -> [ClosedRange<Int>]? {
        guard let v = o.values["dates"] else { return nil }
        let items: [(JSONValue, String)]
        switch v {
        case .string: items = [(v, o.key("dates"))]
        case .array(let list) where !list.isEmpty: items = list.enumerated().map { ($1, o.key("dates[\($0)]")) }
        default:
            throw o.fail(
                "dates", "expected a date (\"2026-12-24\"), a range (\"2026-12-01..2026-12-23\") or a list of them")
        }
        var ranges: [ClosedRange<Int>] = []
        for (item, path) in items {
            guard case .string(let text) = item else {
                throw o.problems.fail(
                    path, "expected a date like \"2026-12-24\" or a range like \"2026-12-01..2026-12-23\"")
            }
            let ends = text.components(separatedBy: "..")
            guard (1...2).contains(ends.count), let first = dayNumber(ends[0]),
                let last = dayNumber(ends[ends.count - 1])
            else {
                throw o.problems.fail(
                    path, "\"\(text)\" is not a date (YYYY-MM-DD) or a range of dates (YYYY-MM-DD..YYYY-MM-DD)")
            }
            guard first <= last else { throw o.problems.fail(path, "\"\(text)\" ends before it starts") }
            if let other = ranges.first(where: { $0.overlaps(first...last) }) {
                throw o.problems.fail(
                    path,
                    "\"\(text)\" overlaps \(isoDay(other.lowerBound))\(other.count > 1 ? ".." + isoDay(other.upperBound) : "") of the same entry"
                )
            }
            ranges.append(first...last)
        }
        return ranges
    }

    static func parseHours(_ o: Object) throws(ManifestError) -> [Range<Int>]? {
        guard let v = o.values["hours"] else { return nil }
        guard case .string(let text) = v else { throw o.fail("hours", "expected \"HH:MM-HH:MM\"") }
        let spans = try OpeningHours.spans(text, path: o.key("hours"), problems: o.problems)
        for (i, span) in spans.enumerated() where spans[..<i].contains(where: { $0.overlaps(span) }) {
            let part = text.split(separator: ",")[i].trimmingCharacters(in: .whitespaces)
            throw o.fail("hours", "\"\(part)\" overlaps the entry's other hours")
        }
        return spans
    }

    /// The checks that need the scenes and the attract sets: each `home` is a scene, each `attract` a set.
    func check(scenes ids: Set<String>, attractSets: Set<String>, problems: ProblemList) {
        for entry in entries {
            if let home = entry.choice.home, !ids.contains(home) {
                problems.error("\(entry.path).home", "no scene has the id \"\(home)\"")
            }
            if let name = entry.choice.attract, !attractSets.contains(name) {
                let known =
                    attractSets.isEmpty
                    ? "the manifest has no attractSets" : "known: \(attractSets.sorted().joined(separator: ", "))"
                problems.error("\(entry.path).attract", "no attract set is named \"\(name)\" (\(known))")
            }
        }
    }

    // MARK: Days

    /// Days since 1970-01-01 of a date of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    static func dayNumber(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of a day number (Howard Hinnant's `civil_from_days`).
    static func date(ofDay z: Int) -> (year: Int, month: Int, day: Int) {
        let z = z + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `2026-12-24` as a day number; nil when it is not a date that exists.
    static func dayNumber(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m),
            (1...31).contains(d)
        else { return nil }
        let n = dayNumber(y, m, d)
        return date(ofDay: n) == (y, m, d) ? n : nil
    }

    static func isoDay(_ n: Int) -> String {
        let d = date(ofDay: n)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(d.year)-\(two(d.month))-\(two(d.day))"
    }
}
