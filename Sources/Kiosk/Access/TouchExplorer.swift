import ScrollEngine
import TouchInput

/// Explore by touch in audio mode (docs/accessibility.md, as VoiceOver and TalkBack do): one finger says what is
/// under it and activates nothing; a double tap anywhere activates the element said last; with two fingers or
/// more the touch goes to the scene as it is (a two-finger swipe scrolls, a pinch zooms). A finger that moves
/// says what it crosses at once; one that is still, or a tap, says what is under it once a double tap can no
/// longer begin (so that the first tap of a double tap elsewhere does not move the focus away from what it is
/// to activate).
struct TouchExplorer {
    enum Outcome: Equatable {
        /// One finger is at this point: what is under it is said.
        case touched(Point)
        /// The second tap of a double tap lifted.
        case activate
        /// For the scene's gestures.
        case scene(InputEvent)
    }

    private var fingers: [Int64: Point] = [:]
    /// Two fingers came down: the touch is the scene's until every finger is up.
    private var passing = false
    /// Where and when the one finger came down.
    private var down: (time: Double, point: Point)?
    /// The last tap's lift, which a second tap's down must follow closely.
    private var lastTap: (time: Double, point: Point)?
    /// The finger down is a double tap's second.
    private var secondTap = false
    /// A still finger or a tap: what is under it is said at `due`, unless a double tap begins first.
    private var pending: (point: Point, due: Double)?
    /// The one finger has moved past the slop: what it crosses is said as it goes.
    private var exploring = false

    /// When the kiosk's clock next has something for it (a still finger or a tap to say).
    var deadline: Double? { pending?.due }

    /// The kiosk's clock at `now`: a still finger or a tap whose double tap did not come is said.
    mutating func step(to now: Double) -> [Outcome] {
        guard let p = pending, now >= p.due else { return [] }
        pending = nil
        return [.touched(p.point)]
    }

    mutating func take(_ e: InputEvent) -> [Outcome] {
        switch e.kind {
        case .down:
            fingers[e.finger] = e.position
            if passing { return [.scene(e)] }
            if fingers.count >= 2 {
                passing = true
                secondTap = false
                pending = nil
                return fingers.sorted { $0.key < $1.key }.map {
                    .scene(InputEvent(.down, finger: $0.key, at: $0.value, time: e.timestamp))
                }
            }
            down = (e.timestamp, e.position)
            exploring = false
            if let tap = lastTap, e.timestamp - tap.time <= TouchConstants.doubleTapTimeout * 1000,
                (tap.point - e.position).length <= TouchConstants.doubleTapSlop
            {
                secondTap = true
                pending = nil
                return []
            }
            pending = (e.position, e.timestamp + TouchConstants.doubleTapTimeout * 1000)
            return []
        case .move:
            // A finger that came down before audio mode began is the scene's to its end.
            guard fingers[e.finger] != nil else { return [.scene(e)] }
            fingers[e.finger] = e.position
            if passing { return [.scene(e)] }
            if secondTap { return [] }
            if !exploring, let d = down, (d.point - e.position).length > TouchConstants.panSlop { exploring = true }
            guard exploring else { return [] }
            pending = nil
            return [.touched(e.position)]
        case .up, .cancel:
            guard fingers.removeValue(forKey: e.finger) != nil else { return [.scene(e)] }
            if passing {
                if fingers.isEmpty { passing = false }
                lastTap = nil
                pending = nil
                return [.scene(e)]
            }
            defer {
                down = nil
                secondTap = false
            }
            let isTap =
                e.kind == .up
                && down.map {
                    e.timestamp - $0.time <= TouchConstants.tapMaximumDuration * 1000
                        && ($0.point - e.position).length <= TouchConstants.panSlop
                } == true
            if secondTap {
                lastTap = nil
                return isTap ? [.activate] : []
            }
            lastTap = isTap ? (e.timestamp, e.position) : nil
            return []
        }
    }
}
