import ScrollEngine

/// `--rotate`: the picture turned clockwise on the physical screen, touches mapped through the same turn.
public enum Rotation: Int, Sendable, CaseIterable {
    case none = 0
    case quarter = 90
    case half = 180
    case threeQuarters = 270

    /// The size the scenes see on a physical screen of `physical` (width and height swap for 90 and 270).
    public func sceneSize(_ physical: Size) -> Size {
        self == .quarter || self == .threeQuarters ? Size(width: physical.height, height: physical.width) : physical
    }

    /// A normalised point of the physical screen as a normalised point of the scene.
    public func toScene(_ p: Point) -> Point {
        switch self {
        case .none: p
        case .quarter: Point(x: p.y, y: 1 - p.x)
        case .half: Point(x: 1 - p.x, y: 1 - p.y)
        case .threeQuarters: Point(x: 1 - p.y, y: p.x)
        }
    }
}
