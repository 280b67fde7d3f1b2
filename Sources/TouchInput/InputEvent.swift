import ScrollEngine

/// One finger's event, as the touch layer sees it: the SDL boundary (or a replayed log) converts its events
/// into these, in points of the scene and milliseconds.
public struct InputEvent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case down, move, up
        /// The system took the touch: lifted without a tap and without a fling.
        case cancel
    }

    public var kind: Kind
    public var finger: Int64
    /// Points from the scene's top-left corner.
    public var position: Point
    /// Milliseconds on the kiosk's clock.
    public var timestamp: Double

    public init(_ kind: Kind, finger: Int64, at position: Point, time timestamp: Double) {
        self.kind = kind
        self.finger = finger
        self.position = position
        self.timestamp = timestamp
    }
}

/// What the touch layer tells its owner, besides what the scroll views tell their delegates.
public enum GestureEvent: Equatable, Sendable {
    /// A single tap at a point (view coordinates), reported once a double tap is no longer possible.
    case tap(Point)
    /// A double tap at the second tap's point; a zoomable view also toggles its zoom.
    case doubleTap(Point)
    /// A hit target (hotspot) received the touch (after `delaysContentTouches`' delay, if any).
    case contentTouchBegan(String)
    /// The touch on a hit target turned into a scroll or a pinch and was taken from it.
    case contentTouchCancelled(String)
    /// A hit target was tapped: fires once per tap.
    case hotspotTapped(String)
}
