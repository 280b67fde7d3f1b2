/// UIScrollView's deceleration as a pure function of time: `v(t) = v0 * d^(1000 t)`.
///
/// ```swift
/// let s = DecelerationSimulation(position: 0, velocity: 1000, rate: 0.998)
/// s.x(0.5)      // 315.928
/// s.restPosition // 499.4998
/// ```
public struct DecelerationSimulation: Equatable, Sendable {
    public let position: Double
    public let velocity: Double
    /// `1000 * ln(d)`: velocity decays as `exp(k t)`.
    let k: Double

    public init(position: Double, velocity: Double, rate: Double) {
        self.position = position
        self.velocity = velocity
        self.k = 1000 * naturalLog(DecelerationRate(rawValue: rate).sanitized)
    }

    public func x(_ t: Double) -> Double { position + velocity * (exponential(k * t) - 1) / k }
    public func dx(_ t: Double) -> Double { velocity * exponential(k * t) }

    /// Where the motion would end given infinite time (`x0 - v0 / (1000 ln d)`).
    public var restPosition: Double { position - velocity / k }

    /// The time at which less than `restDistance` remains.
    public var duration: Double {
        let total = abs(velocity / k)
        guard total > ScrollConstants.restDistance else { return 0 }
        return naturalLog(ScrollConstants.restDistance / total) / k
    }

    public func isDone(_ t: Double) -> Bool { t >= duration }

    /// The first time the path reaches `target`, or nil when it never does.
    public func time(toReach target: Double) -> Double? {
        if target == position { return 0 }
        guard velocity != 0 else { return nil }
        let e = 1 + (target - position) * k / velocity
        guard e > 0, e <= 1 else { return nil }
        return naturalLog(e) / k
    }

    /// WWDC 2018 session 803's discrete projection of where a fling at `velocity` (points per second)
    /// comes to rest: `(v / 1000) * d / (1 - d)`.
    public static func projectedDistance(velocity: Double, rate: Double) -> Double {
        let d = DecelerationRate(rawValue: rate).sanitized
        return velocity / 1000 * d / (1 - d)
    }
}
