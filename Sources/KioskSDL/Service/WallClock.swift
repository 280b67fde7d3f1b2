import CClock
import Foundation
import Kiosk

/// The wall clock the kiosk reads (docs/operations.md, docs/operations.md: an honest clock): the system's, or in tests the
/// one `--clock` starts, which `--clock-jump` sets during a run. It says whether it is synchronised: the
/// system's when systemd-timesyncd's flag file is there or the kernel says so (`adjtimex`); a test's unless
/// `--clock-unsynchronized`, until its first jump.
final class WallClock {
    /// The wall clock at time zero of the kiosk's clock; nil: the system's clock.
    private var origin: Double?
    /// Jumps still to come: at `ms` of the kiosk's clock the wall clock is set to `unix`.
    private var jumps: [(ms: Double, unix: Double)]
    private(set) var isSynchronized: Bool
    /// When the system's state was last read (real ms): at the start.
    private var lastRead = 0.0
    /// How often an unsynchronised system clock is asked again, at most (the loop's own wake-ups ask).
    static let readEveryMs = 1000.0

    /// `hours`: the content's opening hours. A headless run without `--clock` starts at `LocalTime.headlessDefault`,
    /// or, where the hours are closed then, when they next open (a screenshot of a closed kiosk is black), said in
    /// one line.
    init(options: Options, hours: OpeningHours? = nil) {
        origin = options.clock
        if origin == nil, case .headless = options.mode, let start = LocalTime.parse(LocalTime.headlessDefault) {
            origin = start
            if let hours, case let state = hours.state(at: start), !state.open, let opens = state.nextChange {
                origin = opens
                log(
                    .info,
                    "headless: the opening hours are closed at \(LocalTime.headlessDefault), where a headless run "
                        + "starts; this one starts when they open, \(LocalTime.iso(opens)) (--clock sets the time)")
            }
        }
        jumps = options.clockJumps.sorted { $0.ms < $1.ms }.map { ($0.ms, $0.unix) }
        isSynchronized = options.clockUnsynchronized ? false : origin != nil || Self.systemIsSynchronized()
        followsSystem = origin == nil && !options.clockUnsynchronized && options.clockJumps.isEmpty
    }

    /// Whether the state is the system's to say (no test option replaces it).
    let followsSystem: Bool

    /// The wall clock (Unix seconds) at `ms` of the kiosk's clock, which is `kioskNow` now.
    func at(_ ms: Double, kioskNow: Double) -> Double {
        if let origin { return origin + ms / 1000 }
        return Date().timeIntervalSince1970 - (kioskNow - ms) / 1000
    }

    /// The app's reading of it when the kiosk's clock is at `kioskNow`.
    func reading(kioskNow: Double) -> WallTime {
        let zero = origin ?? Date().timeIntervalSince1970 - kioskNow / 1000
        return WallTime(unixAtKioskZero: zero, isSynchronized: isSynchronized)
    }

    /// The kiosk's clock has reached `ms` (real `realMs`): the test's jumps due are made, and an unsynchronised
    /// system clock is asked again (at most every `readEveryMs`, or at once after the clock was set).
    func advance(to ms: Double, realMs: Double) {
        let wasSet = wasSet.take()
        while let jump = jumps.first, jump.ms <= ms {
            jumps.removeFirst()
            origin = jump.unix - jump.ms / 1000
            isSynchronized = true
        }
        guard followsSystem, !isSynchronized, wasSet || realMs - lastRead >= Self.readEveryMs else { return }
        lastRead = realMs
        isSynchronized = Self.systemIsSynchronized()
    }

    /// When the next test jump is due on the kiosk's clock.
    var nextJump: Double? { jumps.first?.ms }

    static func systemIsSynchronized() -> Bool {
        FileManager.default.fileExists(atPath: "/run/systemd/timesync/synchronized")
            || kiosk_kernel_clock_synchronized() == 1
    }

    /// Set (from the clock's thread) when the system's wall clock was set.
    private let wasSet = Flag()

    /// Where the wall clock is the system's: each time it is set (an NTP client's step, `date -s`) the next
    /// `advance` reads its state at once, and `wake` wakes the loop to notice the jump.
    func watchForSets(_ wake: @escaping @Sendable () -> Void) {
        guard followsSystem else { return }
        let flag = wasSet
        _ = Self.watchForSets {
            flag.set()
            wake()
        }
    }

    /// Calls `onSet` (on a thread of its own) each time the system's wall clock is set, either way: an NTP
    /// client's step, `date -s`, a jump at a daylight-saving change does not count (local time only). False
    /// when the kernel cannot tell.
    static func watchForSets(_ onSet: @escaping @Sendable () -> Void) -> Bool {
        let fd = kiosk_clock_set_fd()
        guard fd >= 0 else { return false }
        let thread = Thread {
            while kiosk_clock_set_wait(fd) == 1 { onSet() }
        }
        thread.name = "kiosk clock"
        thread.start()
        return true
    }
}

/// A flag one thread sets and another takes.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }

    /// Whether it was set since the last take; cleared.
    func take() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        defer { value = false }
        return value
    }
}
