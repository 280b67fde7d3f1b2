/// A damped spring from `start` toward `target` with an initial velocity, as a function of time
/// (critically damped, underdamped and overdamped cases, as Flutter's SpringSimulation).
///
/// ```swift
/// let s = SpringSimulation(start: 500, target: 0, velocity: 0)
/// s.x(0.25) // 143.6487
/// ```
public struct SpringSimulation: Equatable, Sendable {
    public let start: Double
    public let target: Double
    public let velocity: Double
    let mode: Mode
    /// Closer than this (and slower than `springRestVelocity`) the spring is at rest.
    public let tolerance: Double

    enum Mode: Equatable, Sendable {
        /// y = (c1 + c2 t) e^(r t)
        case critical(r: Double, c1: Double, c2: Double)
        /// y = e^(r t) (c1 cos(w t) + c2 sin(w t))
        case under(r: Double, w: Double, c1: Double, c2: Double)
        /// y = c1 e^(r1 t) + c2 e^(r2 t)
        case over(r1: Double, r2: Double, c1: Double, c2: Double)
    }

    public init(
        start: Double, target: Double, velocity: Double,
        mass: Double = ScrollConstants.bounceSpringMass,
        stiffness: Double = ScrollConstants.bounceSpringStiffness,
        dampingRatio: Double = ScrollConstants.bounceSpringDampingRatio,
        tolerance: Double = ScrollConstants.restDistance
    ) {
        self.start = start
        self.target = target
        self.velocity = velocity
        self.tolerance = tolerance
        let m = mass > 0 ? mass : 1
        let k = stiffness > 0 ? stiffness : 100
        let zeta = dampingRatio > 0 ? dampingRatio : 1
        let omega = (k / m).squareRoot()
        let y0 = start - target
        if abs(zeta - 1) < 1e-9 {
            mode = .critical(r: -omega, c1: y0, c2: velocity + omega * y0)
        } else if zeta < 1 {
            let w = omega * (1 - zeta * zeta).squareRoot()
            let r = -zeta * omega
            mode = .under(r: r, w: w, c1: y0, c2: (velocity - r * y0) / w)
        } else {
            let root = omega * (zeta * zeta - 1).squareRoot()
            let r1 = -zeta * omega - root
            let r2 = -zeta * omega + root
            let c2 = (velocity - r1 * y0) / (r2 - r1)
            mode = .over(r1: r1, r2: r2, c1: y0 - c2, c2: c2)
        }
    }

    /// Displacement from the target at time t.
    func y(_ t: Double) -> Double {
        switch mode {
        case .critical(let r, let c1, let c2): return (c1 + c2 * t) * exponential(r * t)
        case .under(let r, let w, let c1, let c2):
            return exponential(r * t) * (c1 * cosine(w * t) + c2 * sine(w * t))
        case .over(let r1, let r2, let c1, let c2): return c1 * exponential(r1 * t) + c2 * exponential(r2 * t)
        }
    }

    public func x(_ t: Double) -> Double { target + y(t) }

    public func dx(_ t: Double) -> Double {
        switch mode {
        case .critical(let r, let c1, let c2): return (c2 + r * (c1 + c2 * t)) * exponential(r * t)
        case .under(let r, let w, let c1, let c2):
            let e = exponential(r * t)
            let c = cosine(w * t)
            let s = sine(w * t)
            return e * (r * (c1 * c + c2 * s) + w * (c2 * c - c1 * s))
        case .over(let r1, let r2, let c1, let c2):
            return c1 * r1 * exponential(r1 * t) + c2 * r2 * exponential(r2 * t)
        }
    }

    public func isDone(_ t: Double) -> Bool {
        abs(y(t)) < tolerance && abs(dx(t)) < ScrollConstants.springRestVelocity
    }
}
