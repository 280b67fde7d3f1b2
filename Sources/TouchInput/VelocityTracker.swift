import ScrollEngine

/// The release velocity of a finger (or of several fingers' centroid): a least-squares line through the
/// samples of the last 100 ms. A pause of more than 40 ms means the finger stopped (velocity 0). Samples that
/// share a timestamp (SDL stamps evdev touches when it polls) are fine: the fit never divides by a time step.
/// Capped at `ScrollConstants.maximumFlingVelocity`. A fixed ring of samples: adding one never allocates.
public struct VelocityTracker: Sendable {
    private var times: [Double]
    private var positions: [Point]
    private var next = 0
    private var count = 0

    public init() {
        times = [Double](repeating: 0, count: TouchConstants.velocityHistorySize)
        positions = [Point](repeating: .zero, count: TouchConstants.velocityHistorySize)
    }

    public mutating func reset() { count = 0 }

    /// A position (points) at time `t` (seconds). Non-finite samples are ignored.
    public mutating func add(_ position: Point, at t: Double) {
        guard position.isFinite, t.isFinite else { return }
        times[next] = t
        positions[next] = position
        next = (next + 1) % times.count
        count = Swift.min(count + 1, times.count)
    }

    /// The velocity (points per second) at time `now` (the release).
    public func velocity(at now: Double) -> Point {
        guard count > 0 else { return .zero }
        let newest = (next - 1 + times.count) % times.count
        let newestTime = times[newest]
        if now - newestTime > TouchConstants.velocityStopGap { return .zero }
        // Walk back from the newest sample while within the horizon and without a stopping gap.
        var used = 0
        var previous = newestTime
        var sumT = 0.0
        var sumX = 0.0
        var sumY = 0.0
        while used < count {
            let i = (newest - used + times.count) % times.count
            let t = times[i]
            if newestTime - t > TouchConstants.velocityHorizon || previous - t > TouchConstants.velocityStopGap {
                break
            }
            previous = t
            sumT += t - newestTime
            sumX += positions[i].x
            sumY += positions[i].y
            used += 1
        }
        guard used >= 2 else { return .zero }
        let n = Double(used)
        let meanT = sumT / n
        let meanX = sumX / n
        let meanY = sumY / n
        var stt = 0.0
        var stx = 0.0
        var sty = 0.0
        for k in 0..<used {
            let i = (newest - k + times.count) % times.count
            let dt = times[i] - newestTime - meanT
            stt += dt * dt
            stx += dt * (positions[i].x - meanX)
            sty += dt * (positions[i].y - meanY)
        }
        // All samples at one instant carry no time information: no velocity rather than a division by zero.
        guard stt > 1e-12 else { return .zero }
        let cap = ScrollConstants.maximumFlingVelocity
        return Point(x: (stx / stt).clamped(to: cap), y: (sty / stt).clamped(to: cap))
    }
}

extension Double {
    fileprivate func clamped(to cap: Double) -> Double { Swift.min(Swift.max(self, -cap), cap) }
}

/// The pinch geometry of docs/scroll-engine.md (Android's ScaleGestureDetector): the focal point is the fingers' mean,
/// the span `2 * hypot(mean |xi - fx|, mean |yi - fy|)`.
public enum PinchGeometry {
    public static func focalPoint(_ points: some Collection<Point>) -> Point {
        guard !points.isEmpty else { return .zero }
        var sum = Point.zero
        for p in points { sum = sum + p }
        return sum / Double(points.count)
    }

    public static func span(_ points: some Collection<Point>) -> Double {
        guard points.count > 1 else { return 0 }
        let f = focalPoint(points)
        var dx = 0.0
        var dy = 0.0
        for p in points {
            dx += abs(p.x - f.x)
            dy += abs(p.y - f.y)
        }
        let n = Double(points.count)
        return 2 * ((dx / n) * (dx / n) + (dy / n) * (dy / n)).squareRoot()
    }
}
