/// Whether a visitor is at the kiosk, what the screen is doing about it, and every timed rule between them
/// (docs/manifest.md: `idleTimeoutSeconds`, `blankAfterSeconds`, `openingHours`, `attract`). Each rule says when it
/// is due; the same answer decides it each frame and gives the sleeping frame loop its next deadline.
public struct Presence {
    /// The visitor's session.
    public enum Session: Equatable, Sendable {
        /// Nobody has touched since the kiosk started or was reset; `since` is when it went idle.
        case idle(since: Double)
        /// A visitor is here; `since` is their first input after the kiosk was idle.
        case active(since: Double)
    }

    /// Why the screen is blank: no input for `blankAfterSeconds`, or outside the opening hours.
    public enum BlankReason: String, Sendable {
        case idle, hours
    }

    /// What the screen shows.
    enum Screen {
        case scenes
        /// The attract loop plays.
        case attracting(AttractLoop)
        /// Blank; the next touch only wakes it.
        case blank(BlankReason)
        /// "Still there?" asked since `since`, before the idle reset; the next touch only keeps the visitor's place.
        case askingStillThere(since: Double)
    }

    /// The manifest's timed rules, in milliseconds (0: the rule is off).
    struct Rules {
        var blankMs: Double
        var idleTimeoutMs: Double
        var attract: Attract?
        /// The opening hours or the schedule may close the kiosk.
        var mayClose: Bool
        /// How long before the idle reset "still there?" is asked (docs/manifest.md).
        var stillThereMs: Double

        init(_ manifest: Manifest) {
            stillThereMs = manifest.stillThereSeconds * 1000
            blankMs = manifest.blankAfterSeconds * 1000
            idleTimeoutMs = manifest.idleTimeoutSeconds * 1000
            attract = manifest.attract
            mayClose = manifest.openingHours != nil || manifest.schedule?.entries.contains { $0.choice.closed } == true
        }
    }

    var rules: Rules
    public internal(set) var session: Session = .idle(since: 0)
    /// What the screen shows: changed only by `change(to:byVisitor:)`, which says so.
    private(set) var screen: Screen = .scenes
    /// When the last touch (or click, wheel, key) came, on the kiosk's clock.
    public internal(set) var lastInput: Double = 0

    init(_ manifest: Manifest) { rules = Rules(manifest) }

    /// How long a touch keeps a closed kiosk awake when the idle timeout is 0 (never).
    static let awakeWhenClosedMs = 120_000.0

    /// How long before the attract loop starts its pictures are decoded.
    static let attractPrepareMs = 5000.0

    public var isIdle: Bool {
        if case .idle = session { return true }
        return false
    }

    var blankReason: BlankReason? {
        if case .blank(let reason) = screen { return reason }
        return nil
    }

    public var isBlanked: Bool { blankReason != nil }

    /// Whether "still there?" is on the screen.
    var isAskingStillThere: Bool {
        if case .askingStillThere = screen { return true }
        return false
    }

    var attractLoop: AttractLoop? {
        if case .attracting(let loop) = screen { return loop }
        return nil
    }

    /// When the visitor's activity began (the last time it did, once the kiosk is idle again).
    var activeSince: Double {
        switch session {
        case .active(let since): return since
        case .idle: return lastActiveSince
        }
    }
    var lastActiveSince = 0.0

    /// A touch, click, wheel step or key: the session is active from now (if it was not already).
    mutating func noteInput(at now: Double) {
        if isIdle {
            session = .active(since: now)
            lastActiveSince = now
        }
        lastInput = now
    }

    /// A saved session restored: the last input `lastInput`, the visitor still there.
    mutating func restore(lastInput: Double) {
        self.lastInput = lastInput
        session = .active(since: lastActiveSince)
    }

    /// The idle reset happened at `now`.
    mutating func becomeIdle(at now: Double) { session = .idle(since: now) }

    /// The screen changes to `new`: the one place it does, and the events that say so, in order. The attract
    /// loop ends whenever the screen leaves it (after the blank, when it blanks); "still there?" is dismissed only
    /// by the visitor (the idle reset that follows it unanswered says `idleReset` itself).
    mutating func change(to new: Screen, byVisitor: Bool = false) -> [TraceEvent.Kind] {
        let old = screen
        screen = new
        var events: [TraceEvent.Kind] = []
        switch (old, new) {
        case (.blank, .scenes): events.append(.screenDidWake)
        case (.askingStillThere, .scenes) where byVisitor: events.append(.stillThereDismissed)
        default: break
        }
        switch new {
        case .blank(let reason): events.append(.screenDidBlank(reason: reason))
        case .attracting: events.append(.attractDidStart)
        case .askingStillThere: events.append(.stillThereShown)
        case .scenes: break
        }
        if case .attracting = old { events.append(.attractDidEnd) }
        return events
    }

    // MARK: When each rule is due

    /// When the screen blanks for want of input: `blankAfterSeconds` after the last input, unless it is blank
    /// already or a touch is held by a gate.
    func blankDue(touchHeld: Bool) -> Double? {
        guard rules.blankMs > 0, !isBlanked, !touchHeld else { return nil }
        return lastInput + rules.blankMs
    }

    /// When the idle reset comes: `idleTimeoutSeconds` after the last input of an active session.
    var idleResetDue: Double? {
        guard rules.idleTimeoutMs > 0, !isIdle else { return nil }
        return lastInput + rules.idleTimeoutMs
    }

    /// When "still there?" is asked: `stillThere.seconds` before the idle reset, on the scenes (not over a blank
    /// screen or the attract loop).
    var stillThereDue: Double? {
        guard rules.stillThereMs > 0, case .scenes = screen, let reset = idleResetDue else { return nil }
        return max(lastInput, reset - rules.stillThereMs)
    }

    /// How long a closed kiosk stays awake after the last touch: until the idle reset, or `awakeWhenClosedMs`.
    var awakeWhenClosedFor: Double { rules.idleTimeoutMs > 0 ? rules.idleTimeoutMs : Self.awakeWhenClosedMs }

    /// When a touch stops keeping a closed kiosk awake (nil while idle: nothing keeps it awake).
    var awakeWhenClosedUntil: Double? {
        guard rules.mayClose, !isBlanked, !isIdle else { return nil }
        return lastInput + awakeWhenClosedFor
    }

    /// When the attract loop starts if nothing happens: `afterSeconds` after the kiosk went idle (the idle
    /// reset, or its start; with no idle timeout, the last touch).
    var attractDue: Double? {
        guard let attract = rules.attract, attractLoop == nil, !isBlanked else { return nil }
        let quiet: Double
        switch session {
        case .idle(let since): quiet = since
        case .active where rules.idleTimeoutMs == 0: quiet = lastInput
        case .active: return nil
        }
        return quiet + attract.afterSeconds * 1000
    }

    // MARK: Deciding

    /// Whether the screen blanks now for want of input (`sceneAtRest`: nothing moves, no finger down).
    func blankIsDue(at now: Double, touchHeld: Bool, sceneAtRest: Bool) -> Bool {
        guard let due = blankDue(touchHeld: touchHeld) else { return false }
        return now >= due && sceneAtRest
    }

    /// Whether "still there?" is asked now (`sceneAtRest`: nothing moves, no finger down).
    func stillThereIsDue(at now: Double, sceneAtRest: Bool) -> Bool {
        guard let due = stillThereDue else { return false }
        return now >= due && sceneAtRest
    }

    func idleResetIsDue(at now: Double, sceneAtRest: Bool) -> Bool {
        guard let due = idleResetDue else { return false }
        return now >= due && sceneAtRest
    }

    /// Whether a closed kiosk blanks now: nobody kept it awake, nothing moves, no scene change runs.
    func closedBlankIsDue(at now: Double, touchHeld: Bool, quiet: Bool) -> Bool {
        guard !isBlanked, !touchHeld, quiet else { return false }
        return isIdle || now - lastInput >= awakeWhenClosedFor
    }

    /// Whether the attract loop starts now: it is due and nobody touches the screen (a finger held still keeps
    /// it off).
    func attractIsDue(at now: Double, touchHeld: Bool, quiet: Bool) -> Bool {
        guard let due = attractDue else { return false }
        return now >= due && !touchHeld && quiet
    }

    /// Whether the attract loop's pictures should be decoded now (in the last `attractPrepareMs` before it).
    func attractIsNear(at now: Double) -> Bool {
        guard let due = attractDue else { return false }
        return now >= due - Self.attractPrepareMs
    }

    /// The times the rules next have something to do, from the same due times that decide them
    /// (`closed`: the opening hours close the kiosk now; `hoursChange`: when they next open or close it).
    func dueTimes(at now: Double, touchHeld: Bool, closed: Bool, hoursChange: Double?) -> [Double] {
        var deadlines: [Double] = []
        if let due = blankDue(touchHeld: touchHeld) { deadlines.append(due) }
        if let due = idleResetDue { deadlines.append(due) }
        if let due = stillThereDue { deadlines.append(due) }
        if let change = hoursChange { deadlines.append(change) }
        // Only while closed: an open kiosk has nothing to do then. (With an idle timeout, the idle reset's
        // deadline above is this one.)
        if closed, rules.idleTimeoutMs == 0, let until = awakeWhenClosedUntil { deadlines.append(until) }
        if let due = attractDue {
            deadlines.append(now < due - Self.attractPrepareMs ? due - Self.attractPrepareMs : due)
        }
        return deadlines
    }
}
