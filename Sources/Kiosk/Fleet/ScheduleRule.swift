/// The schedule as the kiosk applies it (docs/operations.md): the choice wanted now, read on the wall clock and computed
/// again only when it may have changed, and the choice in effect, which follows it at the next idle reset (never
/// under a visitor's finger), or at once while nobody is here or the screen is blank.
struct ScheduleRule {
    struct Wanted: Equatable {
        /// The entry's JSON path (`schedule[2]`); nil: no entry applies.
        var entry: String?
        var choice: Schedule.Choice
    }

    private var last: (schedule: Schedule, wanted: Wanted, from: Double, until: Double)?
    /// The choice in effect.
    private(set) var inEffect = Wanted(entry: nil, choice: .standard)

    /// What `schedule` wants at `wall` (Unix seconds), and until when.
    mutating func wanted(_ schedule: Schedule, at wall: Double, calendar: LocalCalendar) -> (
        wanted: Wanted, until: Double
    ) {
        if let s = last, s.schedule == schedule, wall >= s.from, wall < s.until { return (s.wanted, s.until) }
        let c = schedule.choice(at: wall, calendar: calendar)
        let wanted = Wanted(entry: c.entry.map { schedule.entries[$0].path }, choice: c.choice)
        last = (schedule, wanted, wall, c.nextChange)
        return (wanted, c.nextChange)
    }

    /// `wanted` takes effect; true when it differs from the choice in effect.
    mutating func adopt(_ wanted: Wanted) -> Bool {
        guard wanted != inEffect else { return false }
        inEffect = wanted
        return true
    }

    /// The wall clock jumped: what is wanted is computed again.
    mutating func forget() { last = nil }
}

/// The wall clock as the kiosk has seen it advance against its own (docs/operations.md, an honest clock): a jump either way
/// of a second or more is noticed at the next frame.
struct ClockWatch {
    private var last: (wall: Double, ms: Double)?
    /// The smallest difference between the wall clock's advance and the kiosk's that counts as a jump.
    static let jumpSeconds = 1.0

    /// How far the wall clock jumped since the last look (seconds; nil: it did not).
    mutating func jump(wall: Double, at ms: Double) -> Double? {
        defer { last = (wall, ms) }
        guard let last else { return nil }
        let jump = (wall - last.wall) - (ms - last.ms) / 1000
        return abs(jump) >= Self.jumpSeconds ? jump : nil
    }
}
