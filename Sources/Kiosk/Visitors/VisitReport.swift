import EventLog

/// What `kiosk --stats --report` draws (docs/operations.md): `--stats`'s numbers, and the visits by hour of the
/// week, their lengths as a histogram, the time read in each language, and the touches on each picture. Pure:
/// the visits and the day grids in, numbers out; `json` is `report.json`.
public struct VisitReport: Equatable, Sendable {
    /// What `kiosk --stats --json` says, as it says it.
    public var statistics: VisitStatistics
    /// Visits begun in each hour of the week, by their local time: Monday first, hours 0 to 23.
    public var hoursOfWeek: [[Int]] = Array(repeating: Array(repeating: 0, count: 24), count: 7)
    /// How many visits were shorter than each bound (and the last: any longer), `durationBinsSeconds`.
    public var durationBins: [Int] = Array(repeating: 0, count: durationBinsSeconds.count + 1)
    /// Milliseconds read in each language (visits that say).
    public var languages: [String: Int] = [:]
    /// The touches on each picture over the days read.
    public var touches = TouchGrid()

    /// The histogram's bounds: 10 s, 30 s, 1, 2, 5 and 10 minutes.
    public static let durationBinsSeconds = [10, 30, 60, 120, 300, 600]
    public static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    public init(_ visits: [Visit], touches days: [TouchGrid]) {
        statistics = VisitStatistics(visits)
        for v in visits {
            if let (weekday, hour) = Self.weekdayAndHour(v.start) { hoursOfWeek[weekday][hour] += 1 }
            let bin = Self.durationBinsSeconds.firstIndex { v.durationMs < $0 * 1000 } ?? Self.durationBinsSeconds.count
            durationBins[bin] += 1
            for (tag, ms) in v.languages ?? [:] { languages[tag, default: 0] += ms }
        }
        for day in days { touches.merge(day) }
    }

    public var medianMs: Int { statistics.medianMs }
    public var p90Ms: Int { statistics.p90Ms }

    /// The weekday (Monday 0) and hour of a visit's local start (`2026-03-02T14:30:00+01:00`), read from its
    /// date and hour as written (the kiosk's local time then).
    static func weekdayAndHour(_ start: String) -> (Int, Int)? {
        let date = start.prefix(10).split(separator: "-")
        guard date.count == 3, let y = Int(date[0]), let m = Int(date[1]), let d = Int(date[2]), (1...12).contains(m),
            (1...31).contains(d), let hour = Int(String(start.dropFirst(11).prefix(2))), (0..<24).contains(hour)
        else { return nil }
        // Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil); that day was a Thursday.
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return (((days % 7) + 7 + 3) % 7, hour)
    }

    /// `report.json`: `--stats --json`'s object as `stats`, and the rest beside it.
    public var json: String {
        let pictures = touches.pictures.sorted { $0.key < $1.key }.map { key, p in
            "\(jsonString(key)): {\"image\": [\(Int(p.image.width)), \(Int(p.image.height))], \"touches\": "
                + "\(p.counts.reduce(0, +))}"
        }
        return
            "{\"stats\": \(statistics.json), \"hoursOfWeek\": [\(hoursOfWeek.map { "[" + $0.map(String.init).joined(separator: ", ") + "]" }.joined(separator: ", "))], "
            + "\"durationHistogram\": {\"boundsSeconds\": [\(Self.durationBinsSeconds.map(String.init).joined(separator: ", "))], "
            + "\"counts\": [\(durationBins.map(String.init).joined(separator: ", "))]}, "
            + "\"languagesMs\": \(jsonObject(languages)), \"touches\": {\(pictures.joined(separator: ", "))}}\n"
    }
}
