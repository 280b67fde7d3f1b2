import EventLog
import Foundation

/// When the kiosk is open (docs/manifest.md, `openingHours`): per day of the week, the minutes of the local day it
/// shows its content. Outside them the screen is blank.
public struct OpeningHours: Equatable, Sendable {
    /// Index 0 is Monday, 6 Sunday: open spans in minutes of the local day, `[start, end)`, sorted.
    public var days: [[Range<Int>]]

    static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    public init(days: [[Range<Int>]]) { self.days = days }

    /// `{"mon-fri": "08:00-20:00", "sat": "10:00-18:00"}`: keys are days or ranges of days (`fri-mon` wraps),
    /// values `HH:MM-HH:MM` (up to `24:00`), several separated by commas (an addition). Days not named are
    /// closed. A day named twice with overlapping times, an empty or reversed span, or an unknown day is an
    /// error naming its key; each key's mistake is said, not only the first (the hours are then not used).
    static func parse(_ value: JSONValue, path: String, problems: ProblemList) throws(ManifestError) -> OpeningHours {
        guard case .object(let o) = value else {
            throw problems.fail(path, "expected an object of days to hours, like {\"mon-fri\": \"08:00-20:00\"}")
        }
        var days: [[Range<Int>]] = Array(repeating: [], count: 7)
        for (key, v) in o.sorted(by: { $0.key < $1.key }) {
            let p = "\(path).\(key)"
            problems.attempt { () throws(ManifestError) in
                guard let which = Self.days(key) else {
                    throw problems.fail(
                        p, "\"\(key)\" is not a day or a range of days (mon, tue, wed, thu, fri, sat, sun; mon-fri)")
                }
                guard case .string(let text) = v else {
                    throw problems.fail(p, "expected \"HH:MM-HH:MM\", found \(v.typeName)")
                }
                let spans = try Self.spans(text, path: p, problems: problems)
                for d in which {
                    for span in spans {
                        if days[d].contains(where: { $0.overlaps(span) }) {
                            throw problems.fail(p, "overlaps other hours of \(Self.dayNames[d])")
                        }
                        days[d].append(span)
                    }
                }
            }
        }
        return OpeningHours(days: days.map { $0.sorted { $0.lowerBound < $1.lowerBound } })
    }

    /// `08:00-12:00, 13:00-20:00` as spans of minutes, in their order: each `HH:MM-HH:MM` (up to `24:00`) and not
    /// empty, else an error at `path` naming it (opening hours and a schedule entry's hours alike).
    static func spans(_ text: String, path: String, problems: ProblemList) throws(ManifestError) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        for part in text.split(separator: ",") {
            guard let span = Self.span(part.trimmingCharacters(in: .whitespaces)) else {
                throw problems.fail(path, "\"\(text)\": expected \"HH:MM-HH:MM\" (e.g. \"08:00-20:00\", up to 24:00)")
            }
            guard !span.isEmpty else {
                throw problems.fail(
                    path,
                    "\"\(part)\" is empty or ends before it starts (a span past midnight is two: one to 24:00, one from 00:00 the next day)"
                )
            }
            spans.append(span)
        }
        return spans
    }

    /// The days a key names (`mon`, `mon-fri`, `fri-mon`), Monday = 0.
    static func days(_ key: String) -> [Int]? {
        let parts = key.lowercased().split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        let indices = parts.compactMap { dayNames.firstIndex(of: $0) }
        guard indices.count == parts.count else { return nil }
        if indices.count == 1 { return indices }
        guard indices.count == 2 else { return nil }
        var out = [indices[0]]
        var d = indices[0]
        while d != indices[1] {
            d = (d + 1) % 7
            out.append(d)
        }
        return out
    }

    /// `08:00-20:00` as minutes; nil when it does not parse.
    static func span(_ text: String) -> Range<Int>? {
        let ends = text.split(separator: "-").map(String.init)
        guard ends.count == 2, let a = minutes(ends[0]), let b = minutes(ends[1]) else { return nil }
        return a < b ? a..<b : a..<a
    }

    static func minutes(_ text: String) -> Int? {
        let hm = text.split(separator: ":")
        guard hm.count == 2, hm[0].count == 2, hm[1].count == 2, let h = Int(hm[0]), let m = Int(hm[1]), m < 60,
            h < 24 || (h == 24 && m == 0)
        else { return nil }
        return h * 60 + m
    }

    /// Whether it is open at `unix` (seconds) on `calendar`, and when that may next change (Unix seconds; nil
    /// when it never does: closed all week).
    public func state(at unix: Double, calendar: LocalCalendar = .system) -> (open: Bool, nextChange: Double?) {
        let m = calendar.moment(unix)
        let minute = m.hour * 60 + m.minute
        let open = days[m.weekday].contains { $0.contains(minute) }
        // The boundaries of the next eight local days, each placed by the calendar (a day of 23 or 25 hours,
        // and a time a daylight-saving change skips, are its to place).
        for offset in 0...8 {
            let d = (m.weekday + offset) % 7
            let times = days[d].flatMap { [$0.lowerBound, $0.upperBound] }.map {
                calendar.unix(m.year, m.month, m.day + offset, $0 / 60, $0 % 60, 0)
            }
            if let next = times.filter({ $0 > unix }).min() { return (open, next) }
        }
        return (open, nil)
    }
}

/// Opening hours as the kiosk reads them on the wall clock, every frame: their state is computed again only
/// when it may have changed (or the clock went back), and only for the hours it was computed for (a reload's
/// new hours take effect at once).
struct HoursWatch {
    private var last: (hours: OpeningHours, open: Bool, from: Double, until: Double?)?

    /// Whether `hours` are open at `wall` (Unix seconds), and until when (nil: for ever).
    mutating func state(of hours: OpeningHours, at wall: Double, calendar: LocalCalendar) -> (
        open: Bool, until: Double?
    ) {
        if let s = last, s.hours == hours, wall >= s.from, wall < (s.until ?? .infinity) { return (s.open, s.until) }
        let s = hours.state(at: wall, calendar: calendar)
        last = (hours, s.open, wall, s.nextChange)
        return (s.open, s.nextChange)
    }
}
