/// The motion of one axis after the finger lifts: a deceleration that hands over to a spring where its path
/// crosses an edge, a spring back from an overscroll, or a spring to a chosen target (a page, or a target the
/// delegate changed). Flutter's BouncingScrollSimulation does the same hand-off.
public struct AxisSimulation: Equatable, Sendable {
    enum Phase: Equatable, Sendable {
        case decelerate(DecelerationSimulation)
        /// Decelerate until `handoff`, then spring (time measured from `handoff`).
        case decelerateThenSpring(DecelerationSimulation, handoff: Double, spring: SpringSimulation)
        /// Decelerate until `handoff`, then stop dead at the edge (`bounces == false`).
        case decelerateThenStop(DecelerationSimulation, handoff: Double, edge: Double)
        case spring(SpringSimulation)
    }

    let phase: Phase

    /// The natural motion after a release at `position` with `velocity` between the limits `lo...hi`.
    public init(position: Double, velocity: Double, lo: Double, hi: Double, rate: Double, bounces: Bool) {
        let hi = Swift.max(lo, hi)
        if position < lo || position > hi {
            let edge = position < lo ? lo : hi
            // Without bounces an out-of-range start can only come from a limit that moved: settle there.
            phase = .spring(SpringSimulation(start: position, target: edge, velocity: bounces ? velocity : 0))
            return
        }
        let decel = DecelerationSimulation(position: position, velocity: velocity, rate: rate)
        let rest = decel.restPosition
        guard rest < lo || rest > hi, let handoff = decel.time(toReach: rest < lo ? lo : hi) else {
            phase = .decelerate(decel)
            return
        }
        let edge = rest < lo ? lo : hi
        if bounces {
            phase = .decelerateThenSpring(
                decel, handoff: handoff,
                spring: SpringSimulation(start: edge, target: edge, velocity: decel.dx(handoff)))
        } else {
            phase = .decelerateThenStop(decel, handoff: handoff, edge: edge)
        }
    }

    /// A spring from `position` (moving at `velocity`) to `target`: paging snaps and changed targets.
    public init(position: Double, velocity: Double, target: Double) {
        phase = .spring(SpringSimulation(start: position, target: target, velocity: velocity))
    }

    /// Where the motion ends.
    public var restPosition: Double {
        switch phase {
        case .decelerate(let d): return d.restPosition
        case .decelerateThenSpring(_, _, let s): return s.target
        case .decelerateThenStop(_, _, let edge): return edge
        case .spring(let s): return s.target
        }
    }

    public func x(_ t: Double) -> Double {
        if isDone(t) { return restPosition }
        switch phase {
        case .decelerate(let d): return d.x(t)
        case .decelerateThenSpring(let d, let h, let s): return t < h ? d.x(t) : s.x(t - h)
        case .decelerateThenStop(let d, let h, let edge): return t < h ? d.x(t) : edge
        case .spring(let s): return s.x(t)
        }
    }

    public func dx(_ t: Double) -> Double {
        if isDone(t) { return 0 }
        switch phase {
        case .decelerate(let d): return d.dx(t)
        case .decelerateThenSpring(let d, let h, let s): return t < h ? d.dx(t) : s.dx(t - h)
        case .decelerateThenStop(let d, let h, _): return t < h ? d.dx(t) : 0
        case .spring(let s): return s.dx(t)
        }
    }

    public func isDone(_ t: Double) -> Bool {
        switch phase {
        case .decelerate(let d): return d.isDone(t)
        case .decelerateThenSpring(_, let h, let s): return t >= h && s.isDone(t - h)
        case .decelerateThenStop(_, let h, _): return t >= h
        case .spring(let s): return s.isDone(t)
        }
    }
}

/// Paging targets (Flutter's PageScrollPhysics): with a release faster than the tolerance the view goes
/// half a page further in the direction of motion and rounds; slower, it goes to the nearest page.
public enum Paging {
    /// The page index a release at `offset` (points, 0 = first page) with `velocity` lands on.
    /// `fromPage` limits the result to one page either side (never more than one page per fling).
    public static func targetPage(
        offset: Double, pageSize: Double, velocity: Double, pageCount: Int, fromPage: Int? = nil,
        tolerance: Double = ScrollConstants.pagingVelocityTolerance
    ) -> Int {
        guard pageSize > 0, pageCount > 0, offset.isFinite else { return 0 }
        var page = offset / pageSize
        if abs(velocity) > tolerance { page += velocity > 0 ? 0.5 : -0.5 }
        var index = Int(page.rounded().clamped(0, Double(pageCount - 1)))
        if let from = fromPage { index = index.clamped(from - 1, from + 1) }
        return index.clamped(0, pageCount - 1)
    }
}

extension Int {
    func clamped(_ lo: Int, _ hi: Int) -> Int { Swift.min(Swift.max(self, lo), Swift.max(lo, hi)) }
}
