import EventLog

/// Fingers whose lift SDL lost: down for the kiosk, gone from their panel as the kernel keeps it.
///
/// When a frame outlasts the kernel's buffer for a reader (`SYN_DROPPED`), SDL 2.26 reads the panel's fingers
/// again (`EVIOCGMTSLOTS`, src/core/linux/SDL_evdev.c) but reports a finger it finds lifted under finger id -1,
/// which no touch has: the kiosk never hears that finger lift, and a scroll or a zoom stays held (the kiosk
/// redraws, and a touch a gate holds swallows every touch after it) until the device is unplugged. The kernel
/// knows which fingers are on the panel: one the kiosk has down that is on none of its panel's slots at every
/// look for `graceMs` is lost. The looks are taken after SDL has read its devices.
struct LiftWatch {
    /// The fingers not on their panel at the last look, and since when (the loop's ms).
    private(set) var missing: [FingerKey: Double] = [:]

    /// How long a finger is off its panel before it counts as lost. The kernel takes a finger off its slot when
    /// the panel says so and hands the event to readers at the frame's end (`SYN_REPORT`), a moment later; a
    /// lift SDL reads is reported at its next read. A quarter second is many panel frames (a few ms each) and
    /// many turns of the loop, and a small wait for a finger that is gone.
    static let graceMs = 250.0

    /// The fingers of `down` that are lost at `now`, in order. `onPanel` gives the fingers (SDL's ids) on a touch
    /// device now, nil when the kernel cannot say (a single-touch screen, a device not read, the mouse).
    mutating func lost(down: Set<FingerKey>, at now: Double, onPanel: (Int64) -> Set<Int64>?) -> [FingerKey] {
        var panels: [Int64: Set<Int64>] = [:]
        for touchId in Set(down.map(\.touchId)) { panels[touchId] = onPanel(touchId) }
        let off = down.filter { key in panels[key.touchId].map { !$0.contains(key.fingerId) } ?? false }
        missing = Dictionary(uniqueKeysWithValues: off.map { ($0, missing[$0] ?? now) })
        return missing.filter { now - $0.value >= Self.graceMs }.keys
            .sorted()
    }
}

/// A count of things to say in the journal in one line at most once a minute (the first at once), so a fault
/// that repeats every frame is said, not flooded.
struct Tally {
    private(set) var count = 0
    private var said = (count: 0, at: -Double.infinity)
    /// At most one line a minute.
    static let saidEveryMs = 60_000.0

    mutating func add(_ n: Int) { count += n }

    /// How many came since the last line, when a line may say them at `t`.
    mutating func toSay(at t: Double) -> Int? {
        guard count > said.count, t - said.at >= Self.saidEveryMs else { return nil }
        defer { said = (count, t) }
        return count - said.count
    }
}
