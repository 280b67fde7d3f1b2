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
    /// The Unix time of a local date and time (out-of-range fields carry over: day 32 is the next month's
    /// first); a time a daylight-saving change skips or repeats is placed as the calendar places it.
    public let unix:
        @Sendable (_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Double

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
