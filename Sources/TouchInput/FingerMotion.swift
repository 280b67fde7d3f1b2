import ScrollEngine

/// Where the fingers of one touch sequence are and have gone: their focal point, their accumulated movement and
/// its velocity, and the span a pinch measures. Re-anchoring on a change of fingers moves nothing.
struct FingerMotion {
    /// The fingers' focal point (centroid).
    private(set) var centroid: Point = .zero
    /// The fingers' accumulated movement.
    private(set) var translation: Point = .zero
    private(set) var tracker = VelocityTracker()
    /// `translation` when the pan began: where a view that the drag reaches later begins its drag from.
    var panStartTranslation: Point = .zero
    /// The span at the last move, and at the last change of fingers.
    private(set) var lastSpan = 0.0
    private(set) var pinchStartSpan = 0.0
    /// The most fingers down at once in this sequence.
    var maximumFingers = 0

    /// A sequence begins: no movement yet.
    mutating func begin(at seconds: Double) {
        translation = .zero
        tracker.reset()
        tracker.add(.zero, at: seconds)
    }

    /// The finger set changed: the centroid and the span start again from here, so nothing jumps.
    mutating func reanchor(_ positions: some Collection<Point>) {
        centroid = PinchGeometry.focalPoint(positions)
        lastSpan = PinchGeometry.span(positions)
        pinchStartSpan = lastSpan
    }

    /// The fingers moved to `positions`: returns how far their centroid went, and how far it is from where the
    /// sequence began.
    mutating func move(_ positions: some Collection<Point>, at seconds: Double) -> (delta: Point, distance: Double) {
        let c = PinchGeometry.focalPoint(positions)
        let delta = c - centroid
        centroid = c
        translation = translation + delta
        tracker.add(translation, at: seconds)
        return (delta, translation.length)
    }

    /// The span is now `span`: returns the one before.
    mutating func swapSpan(_ span: Double) -> Double {
        defer { lastSpan = span }
        return lastSpan
    }

    /// The velocity of the movement at `seconds`.
    func velocity(at seconds: Double) -> Point { tracker.velocity(at: seconds) }
}
