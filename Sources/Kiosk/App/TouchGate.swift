import EventLog

/// Touches a gate took whole: the one that woke a blank screen, the one that ended the attract loop, one that
/// came during a scene change. Each is swallowed until its last finger (or the mouse button) is up, so the
/// visitor does not also press what was under their finger.
struct TouchGate {
    enum Reason: Sendable {
        case wake, attractEnd, transition, stillThere
    }

    /// The fingers held, and why the touch they belong to was taken.
    private(set) var held: [FingerKey: Reason] = [:]

    /// The mouse, as one finger of SDL's (touch and finger -1, ids SDL never gives a touchscreen); the gesture
    /// controller knows it as `InputMapper.mouseFinger`.
    static let mouse = FingerKey(touchId: -1, fingerId: -1)

    var isHolding: Bool { !held.isEmpty }

    /// Takes `event` whole when it begins an input: a finger or the mouse button going down (its whole touch is
    /// then held), or with `orKey` a key pressed or a headset plugged in. Every gate decides through here, so a
    /// key wakes and ends alike.
    mutating func take(_ event: EventLog.Event, for reason: Reason, orKey: Bool = false) -> Bool {
        switch event {
        case .finger(.down, let t, let f, _, _, _, _, _): held[FingerKey(touchId: t, fingerId: f)] = reason
        case .mouseButton(true, _, _, _, _): held[Self.mouse] = reason
        case .key(true, _, _) where orKey: break
        case .headset(true) where orKey: break
        default: return false
        }
        return true
    }

    /// The fingers held (not the mouse).
    var fingers: Set<FingerKey> { Set(held.keys.filter { $0 != Self.mouse }) }

    /// Fingers whose device went away or whose lift was lost are let go (no lift will come for them); the
    /// fingers let go, in order.
    @discardableResult
    mutating func release(where lost: (FingerKey) -> Bool) -> [FingerKey] {
        let gone = held.keys.filter { $0 != Self.mouse && lost($0) }.sorted()
        held = held.filter { !lost($0.key) }
        return gone
    }

    /// Whether `event` is part of a held touch: while one is held every finger is (another finger put down
    /// joins it, up to `FingerKey.maximumDown`), and the mouse's button; a touch is let go when its finger or the
    /// button is up.
    mutating func swallows(_ event: EventLog.Event) -> Bool {
        guard let reason = held.values.first else { return false }
        switch event {
        case .finger(let phase, let t, let f, _, _, _, _, _):
            let key = FingerKey(touchId: t, fingerId: f)
            if phase == .down, held.count < FingerKey.maximumDown { held[key] = reason }
            if phase == .up { held[key] = nil }
            return true
        case .mouseMotion:
            return held[Self.mouse] != nil
        case .mouseButton(let down, _, _, _, _):
            if !down { held[Self.mouse] = nil }
            return true
        default:
            return false
        }
    }
}
