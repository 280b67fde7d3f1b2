#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point in points (UIKit's `CGPoint`), `x` to the right and `y` down.
public struct Point: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    public var isFinite: Bool { x.isFinite && y.isFinite }
    public var length: Double { (x * x + y * y).squareRoot() }
    public var description: String { "(\(x), \(y))" }

    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    public static func / (a: Point, s: Double) -> Point { Point(x: a.x / s, y: a.y / s) }
    public static prefix func - (a: Point) -> Point { Point(x: -a.x, y: -a.y) }

    /// The component along `axis`.
    public subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? x : y }
        set {
            if axis == .horizontal { x = newValue } else { y = newValue }
        }
    }
}

/// A size in points (UIKit's `CGSize`).
public struct Size: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    public var description: String { "\(width)x\(height)" }

    public static func * (a: Size, s: Double) -> Size { Size(width: a.width * s, height: a.height * s) }

    /// The extent along `axis`.
    public subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? width : height }
        set {
            if axis == .horizontal { width = newValue } else { height = newValue }
        }
    }

    /// Negative and non-finite extents become 0, the defined behaviour for bad sizes.
    var sanitized: Size {
        Size(width: width.isFinite ? Swift.max(0, width) : 0, height: height.isFinite ? Swift.max(0, height) : 0)
    }
}

/// A rectangle in points (UIKit's `CGRect`).
public struct Rect: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var width: Double { size.width }
    public var height: Double { size.height }
    public var isFinite: Bool { origin.isFinite && size.width.isFinite && size.height.isFinite }
    public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }

    public func contains(_ p: Point) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }
}

/// Insets in points (UIKit's `UIEdgeInsets`).
public struct EdgeInsets: Equatable, Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)

    /// The inset before the content along `axis` (left or top).
    public func leading(_ axis: Axis) -> Double { axis == .horizontal ? left : top }
    /// The inset after the content along `axis` (right or bottom).
    public func trailing(_ axis: Axis) -> Double { axis == .horizontal ? right : bottom }

    public static func + (a: EdgeInsets, b: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: a.top + b.top, left: a.left + b.left, bottom: a.bottom + b.bottom, right: a.right + b.right)
    }

    /// Non-finite insets become 0 (insets may be negative, as in UIKit).
    var sanitized: EdgeInsets {
        func f(_ v: Double) -> Double { v.isFinite ? v : 0 }
        return EdgeInsets(top: f(top), left: f(left), bottom: f(bottom), right: f(right))
    }
}

/// One of the two scrolling axes.
public enum Axis: CaseIterable, Sendable {
    case horizontal, vertical
}

/// Thin wrappers so the rest of the engine does not depend on the C library's names.
@inline(__always) func exponential(_ x: Double) -> Double { exp(x) }
@inline(__always) func naturalLog(_ x: Double) -> Double { log(x) }
@inline(__always) func cosine(_ x: Double) -> Double { cos(x) }
@inline(__always) func sine(_ x: Double) -> Double { sin(x) }
@inline(__always) func arcTangent2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }

extension Double {
    /// `self` limited to `lo...hi` (with `hi` raised to `lo` when they are crossed).
    @inline(__always) func clamped(_ lo: Double, _ hi: Double) -> Double {
        Swift.min(Swift.max(self, lo), Swift.max(lo, hi))
    }
}
