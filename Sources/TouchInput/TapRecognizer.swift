import ScrollEngine

/// Single and double taps of one touch sequence after another, as UITapGestureRecognizer does with a double tap
/// that the single tap must wait for: a first tap where a double tap could follow waits
/// `TouchConstants.doubleTapTimeout` before it counts as a single tap.
///
/// Pure bookkeeping: the controller says when a sequence begins and ends and when the tap has failed (the
/// fingers moved beyond the slop, a second finger came, a gesture claimed the touch).
struct TapRecognizer {
    /// Whether the current sequence can still end as a tap.
    private(set) var isPossible = false
    private var start: (time: Double, position: Point) = (0, .zero)
    /// This sequence began close enough in time and place to the last tap to make a double tap.
    private var isSecondTap = false
    private var lastTap: (time: Double, position: Point)?
    private var pendingSingleTap: (fireAt: Double, position: Point)?

    /// What a sequence that ended as a tap was.
    enum Tap {
        case first
        case second
    }

    /// Whether a single tap awaits its confirmation.
    var isWaiting: Bool { pendingSingleTap != nil }

    /// A sequence began at `p`. Returns the waiting single tap that this touch elsewhere confirms, if any.
    mutating func begin(at p: Point, now: Double) -> Point? {
        isPossible = true
        start = (now, p)
        var confirmed: Point?
        if let last = lastTap, now - last.time <= TouchConstants.doubleTapTimeout * 1000,
            (p - last.position).length <= TouchConstants.doubleTapSlop
        {
            isSecondTap = true
            pendingSingleTap = nil
        } else {
            isSecondTap = false
            // A touch elsewhere: the first tap can no longer become a double tap.
            confirmed = pendingSingleTap?.position
            pendingSingleTap = nil
        }
        lastTap = nil
        return confirmed
    }

    /// The sequence can no longer end as a tap.
    mutating func fail() { isPossible = false }

    /// The sequence ended at `now`: which tap it was, or nil when it was none.
    mutating func end(now: Double) -> Tap? {
        guard isPossible, now - start.time <= TouchConstants.tapMaximumDuration * 1000 else { return nil }
        guard isSecondTap else { return .first }
        isSecondTap = false
        return .second
    }

    /// A first tap at `p` waits for a second one before it counts as a single tap.
    mutating func awaitSecondTap(at p: Point, now: Double) {
        lastTap = (now, p)
        pendingSingleTap = (now + TouchConstants.doubleTapTimeout * 1000, p)
    }

    /// When a waiting single tap is confirmed.
    var dueAt: Double? { pendingSingleTap?.fireAt }

    /// The waiting single tap, once no second tap came in time.
    mutating func confirmedTap(at now: Double) -> Point? {
        guard let pending = pendingSingleTap, now >= pending.fireAt else { return nil }
        pendingSingleTap = nil
        return pending.position
    }
}
