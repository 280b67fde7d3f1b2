/// An animated change of offset and scale: the programmatic animations (eased, fixed duration) and the
/// bounce back after a pinch (a spring, about the last focal point).
struct Transition {
    enum Kind { case programmatic, zoomBounce }
    enum Curve {
        case easeInOut(duration: Double)
        /// The spring runs a distance (points) down to 0; progress is the part covered.
        case spring(SpringSimulation, distance: Double)
    }

    let kind: Kind
    let start: Double
    let fromOffset: Point
    let toOffset: Point
    let fromScale: Double
    let toScale: Double
    /// The view point the zoom is anchored at (its content point stays under it), or nil for a straight path.
    let anchor: Point?
    let curve: Curve
    /// A scroll to the top (`ScrollView.scrollToTop`): it ends with `scrollViewDidScrollToTop`.
    var endsAtTop = false

    init(
        kind: Kind, start: Double, from: (Point, Double), to: (Point, Double), anchor: Point?,
        zoomingExtent: Double
    ) {
        self.kind = kind
        self.start = start
        (fromOffset, fromScale) = from
        (toOffset, toScale) = to
        self.anchor = anchor
        switch kind {
        case .programmatic:
            curve = .easeInOut(duration: ScrollConstants.programmaticAnimationDuration)
        case .zoomBounce:
            let distance = Swift.max(
                abs(to.0.x - from.0.x), abs(to.0.y - from.0.y), abs(to.1 - from.1) * zoomingExtent, 1)
            curve = .spring(SpringSimulation(start: distance, target: 0, velocity: 0), distance: distance)
        }
    }

    func progress(_ t: Double) -> Double {
        let local = t - start
        switch curve {
        case .easeInOut(let duration):
            guard duration > 0, local < duration else { return 1 }
            // Sine ease-in-out: slow start and end, as UIKit's default animation curve.
            return 0.5 - 0.5 * cosine(Double.pi * Swift.max(0, local) / duration)
        case .spring(let spring, let distance):
            return spring.isDone(local) ? 1 : (1 - spring.x(local) / distance).clamped(0, 1)
        }
    }

    func isDone(_ t: Double) -> Bool { progress(t) >= 1 }

    /// Offset and scale at progress `p`.
    func state(_ p: Double) -> (offset: Point, scale: Double) {
        if p >= 1 { return (toOffset, toScale) }
        let scale = fromScale + (toScale - fromScale) * p
        guard let f = anchor, fromScale > 0 else { return (fromOffset + (toOffset - fromOffset) * p, scale) }
        let contentPoint = (fromOffset + f) / fromScale
        let anchored = { (s: Double) in contentPoint * s - f }
        return (anchored(scale) + (toOffset - anchored(toScale)) * p, scale)
    }
}
