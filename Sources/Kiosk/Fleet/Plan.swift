/// `kiosk --check --plan [DAYS]` (docs/operations.md): what the kiosk will show, from a moment on, at each change of its
/// opening hours and schedule: a line per change, in local time.
public enum Plan {
    /// What the kiosk shows at a moment: closed (and by what), or open with its home and attract loop.
    struct Showing: Equatable {
        var closedBy: String?
        var home: String
        var attract: String?
        var entry: String?

        var description: String {
            if let closedBy { return "closed (\(closedBy))" }
            let loop = attract.map { "attract \"\($0)\"" } ?? "the default attract loop"
            return "home \"\(home)\", \(loop)" + (entry.map { " (\($0))" } ?? "")
        }
    }

    static func showing(_ manifest: Manifest, at unix: Double, calendar: LocalCalendar) -> (
        Showing, nextChange: Double?
    ) {
        let hours = manifest.openingHours?.state(at: unix, calendar: calendar)
        let scheduled = manifest.schedule?.choice(at: unix, calendar: calendar)
        let entry = scheduled?.entry.flatMap { manifest.schedule?.entries[$0].path }
        let choice = scheduled?.choice ?? .standard
        let closedBy = choice.closed ? (entry ?? "schedule") : hours?.open == false ? "opening hours" : nil
        let showing = Showing(
            closedBy: closedBy, home: choice.home ?? manifest.home, attract: choice.attract, entry: entry)
        let next = [hours?.nextChange, scheduled?.nextChange].compactMap { $0 }.min()
        return (showing, next)
    }

    /// The lines for `days` days from `start` (Unix seconds): `Tue 2026-12-01 08:00  home "map", …`.
    public static func lines(_ manifest: Manifest, from start: Double, days: Int, calendar: LocalCalendar = .system)
        -> [String]
    {
        guard manifest.openingHours != nil || manifest.schedule != nil else {
            return ["plan: no opening hours and no schedule; always open, home \"\(manifest.home)\""]
        }
        var lines = ["plan for \(days) day\(days == 1 ? "" : "s") from \(stamp(start, calendar)):"]
        let end = start + Double(days) * 86_400
        var t = start
        var last: Showing?
        while t < end {
            let (now, next) = showing(manifest, at: t, calendar: calendar)
            if now != last { lines.append("  \(stamp(t, calendar))  \(now.description)") }
            last = now
            guard let next, next > t else { break }
            t = next
        }
        return lines
    }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// `Tue 2026-12-01 08:00`.
    static func stamp(_ unix: Double, _ calendar: LocalCalendar) -> String {
        let m = calendar.moment(unix)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(weekdays[m.weekday]) \(m.year)-\(two(m.month))-\(two(m.day)) \(two(m.hour)):\(two(m.minute))"
    }
}
