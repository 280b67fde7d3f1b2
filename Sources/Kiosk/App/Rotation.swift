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

    /// A rectangle of a box of `size` (before the turn) as a rectangle of the turned box: how the renderer
    /// places the scene's draw commands on the physical screen, and a texture's source rectangle within the
    /// texture that was turned once at load. The same turn as `toScene`, the other way.
    public func rect(_ r: Rect, in size: Size) -> Rect {
        switch self {
        case .none: r
        case .quarter: Rect(x: size.height - r.maxY, y: r.minX, width: r.height, height: r.width)
        case .half: Rect(x: size.width - r.maxX, y: size.height - r.maxY, width: r.width, height: r.height)
        case .threeQuarters: Rect(x: r.minY, y: size.width - r.maxX, width: r.height, height: r.width)
        }
    }

    /// The turn back.
    public var inverse: Rotation { Rotation(rawValue: (360 - rawValue) % 360) ?? .none }

    /// Whether the turn swaps width and height.
    public var swapsAxes: Bool { self == .quarter || self == .threeQuarters }
}
