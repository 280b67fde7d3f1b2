import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A moment in local time.
public struct LocalMoment: Equatable, Sendable {
    public var year, month, day, hour, minute, second: Int
    /// 0 is Monday, 6 Sunday.
    var weekday: Int
    /// Seconds east of UTC in effect then.
    public var offset: Int
}

/// Local calendar arithmetic for the statistics and the opening hours. The kiosk's is the C library's, on the
/// system's time zone (`TZ`, `/etc/localtime`): it loads no calendar data (Foundation's calendar loads ICU's,
/// several megabytes resident). Tests may use a `TimeZone` of their own.
public struct LocalCalendar: Sendable {
    /// The local moment at a Unix time.
    public let moment: @Sendable (Double) -> LocalMoment
    /// The Unix time of a local date and time as the calendar places it (a time a daylight-saving change skips
    /// is placed as if the change had not come yet: 02:30 on the night the clocks go from 02:00 to 03:00 is
    /// 03:30; a repeated one, at one of its two times).
    let placed: @Sendable (_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Double

    public init(
        moment: @escaping @Sendable (Double) -> LocalMoment,
        unix:
            @escaping @Sendable (_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int)
            -> Double
    ) {
        self.moment = moment
        placed = unix
    }

    /// The Unix time of a local date and time (out-of-range fields carry over: day 32 is the next month's
    /// first, hour 24 the next day's midnight). A time a daylight-saving change skips is the moment the clock
    /// jumps past it, as a clock on the wall reaches it: opening hours from 02:30 open at 03:00 on the night the
    /// clocks go from 02:00 to 03:00 (the calendar placed them at 03:30). A time the change repeats (the autumn's
    /// hour from 02:00 to 03:00) is placed once, where the calendar chooses: its hours are kept once, not twice
    /// (docs/manifest.md).
    public func unix(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Double {
        let t = placed(year, month, day, hour, minute, second)
        // The local wall clock's seconds asked for, and those the placed time reads.
        let wanted = Self.wallSeconds(year, month, day, hour, minute, second)
        func reads(_ u: Double) -> Double { u + Double(moment(u).offset) }
        let gap = reads(t) - wanted
        guard gap > 0, gap <= 86_400, reads(t - gap) < wanted else { return t }
        // In a gap: the first second whose wall clock reads at least the time asked for.
        var (before, after) = (t - gap, t)
        while after - before > 1 {
            let middle = ((before + after) / 2).rounded(.down)
            if reads(middle) >= wanted { after = middle } else { before = middle }
        }
        return after
    }

    /// Seconds of a local date and time counted as if every day had 86 400 of them, from 1970-01-01 00:00 (the
    /// days from the civil date as in Howard Hinnant's `days_from_civil`), carries included.
    static func wallSeconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int)
        -> Double
    {
        let m0 = month - 1
        let y = year + (m0 >= 0 ? m0 / 12 : (m0 - 11) / 12)
        let m = ((m0 % 12) + 12) % 12 + 1
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468 + (day - 1)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second)
    }

    public static let system = LocalCalendar(
        moment: { t in
            var time = time_t(t.rounded(.down))
            var tm = Glibc.tm()
            localtime_r(&time, &tm)
            return LocalMoment(
                year: Int(tm.tm_year) + 1900, month: Int(tm.tm_mon) + 1, day: Int(tm.tm_mday), hour: Int(tm.tm_hour),
                minute: Int(tm.tm_min), second: Int(tm.tm_sec), weekday: (Int(tm.tm_wday) + 6) % 7,
                offset: Int(tm.tm_gmtoff))
        },
        unix: { year, month, day, hour, minute, second in
            var tm = Glibc.tm()
            tm.tm_year = Int32(year - 1900)
            tm.tm_mon = Int32(month - 1)
            tm.tm_mday = Int32(day)
            tm.tm_hour = Int32(hour)
            tm.tm_min = Int32(minute)
            tm.tm_sec = Int32(second)
            tm.tm_isdst = -1
            return Double(mktime(&tm))
        })

    /// Foundation's calendar in `timeZone` (for tests of other zones than the machine's).
    public static func foundation(_ timeZone: TimeZone) -> LocalCalendar {
        LocalCalendar(
            moment: { t in
                var c = Calendar(identifier: .gregorian)
                c.timeZone = timeZone
                let date = Date(timeIntervalSince1970: t.rounded(.down))
                let d = c.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
                return LocalMoment(
                    year: d.year ?? 0, month: d.month ?? 0, day: d.day ?? 0, hour: d.hour ?? 0, minute: d.minute ?? 0,
                    second: d.second ?? 0, weekday: ((d.weekday ?? 2) + 5) % 7,
                    offset: timeZone.secondsFromGMT(for: date))
            },
            unix: { year, month, day, hour, minute, second in
                var c = Calendar(identifier: .gregorian)
                c.timeZone = timeZone
                let first = DateComponents(year: year, month: month, day: 1, hour: 0, minute: 0, second: 0)
                guard let start = c.date(from: first), let day = c.date(byAdding: .day, value: day - 1, to: start),
                    let at = c.date(bySettingHour: hour, minute: minute, second: second, of: day)
                else { return 0 }
                return at.timeIntervalSince1970
            })
    }
}
