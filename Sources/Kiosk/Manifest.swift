import EventLog
import ScrollEngine

/// The kiosk's manifest (shared/design/manifest.md): what scenes it shows and how they scroll.
public struct Manifest: Equatable, Sendable {
    public var home: String
    public var idleTimeoutSeconds: Double
    public var background: RGB
    public var scenes: [SceneConfig]
    /// Draw the home button on every scene but the home scene (an addition: the way back for a visitor).
    public var homeButton: Bool
    /// Touch calibration (an addition), applied to normalised finger positions before rotation.
    public var calibration: Calibration
    /// The folder paths are relative to.
    public var baseDirectory: String
    /// The most texture memory the tiles of pyramid images may hold (an addition; default 128 MiB).
    public var textureBudgetMiB: Double = 128
    /// Blank the screen after this long without input (an addition; 0, the default, never blanks).
    public var blankAfterSeconds: Double = 0

    public func scene(_ id: String) -> SceneConfig? { scenes.first { $0.id == id } }
}

public struct RGB: Equatable, Sendable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }
}

/// Per-axis touch calibration: a raw normalised reading `minX` maps to 0 and `maxX` to 1 (likewise y),
/// after an optional swap of the axes; `invertX`/`invertY` mirror the result.
public struct Calibration: Equatable, Sendable {
    public var swapAxes = false
    public var invertX = false
    public var invertY = false
    public var minX = 0.0
    public var maxX = 1.0
    public var minY = 0.0
    public var maxY = 1.0
    public init() {}

    public func apply(_ p: Point) -> Point {
        var q = swapAxes ? Point(x: p.y, y: p.x) : p
        if maxX != minX { q.x = (q.x - minX) / (maxX - minX) }
        if maxY != minY { q.y = (q.y - minY) / (maxY - minY) }
        if invertX { q.x = 1 - q.x }
        if invertY { q.y = 1 - q.y }
        return q
    }
}

public enum SceneType: String, Sendable { case zoom, carousel, scroll }

public enum ZoomLimit: Equatable, Sendable {
    case fit
    case scale(Double)
}

public struct Hotspot: Equatable, Sendable {
    /// The id the trace reports: the manifest's `id`, else the hotspot's index.
    public var id: String
    /// Image pixels: x, y, width, height.
    public var rect: Rect
    public var goto: String?
    /// For a carousel, the page the hotspot is on (an addition; default 0).
    public var page: Int
}

public struct SceneConfig: Equatable, Sendable {
    public var id: String
    public var type: SceneType
    /// Resolved paths (relative to the manifest's folder).
    public var image: String?
    public var pages: [String]
    public var pageControl: Bool
    public var minZoom: ZoomLimit
    public var maxZoom: Double?
    public var doubleTapZoom: Double?
    public var axis: Axis
    public var hotspots: [Hotspot]
    public var options: ScrollOptions

    /// The scene's images: a carousel's pages, else its one image.
    public var imagePaths: [String] { type == .carousel ? pages : [image ?? ""] }
}

/// The UIScrollView options a scene may set, with UIKit's defaults.
public struct ScrollOptions: Equatable, Sendable {
    public var bounces = true
    public var alwaysBounceHorizontal = false
    public var alwaysBounceVertical = false
    public var bouncesZoom = true
    public var decelerationRate = DecelerationRate.normal
    public var directionalLockEnabled = false
    public var scrollEnabled = true
    public var showsHorizontalScrollIndicator = true
    public var showsVerticalScrollIndicator = true
    public var indicatorStyle = IndicatorStyle.default
    public var delaysContentTouches = true
    public var canCancelContentTouches = true

    public func apply(to v: ScrollView) {
        v.bounces = bounces
        v.alwaysBounceHorizontal = alwaysBounceHorizontal
        v.alwaysBounceVertical = alwaysBounceVertical
        v.bouncesZoom = bouncesZoom
        v.decelerationRate = decelerationRate
        v.isDirectionalLockEnabled = directionalLockEnabled
        v.isScrollEnabled = scrollEnabled
        v.showsHorizontalScrollIndicator = showsHorizontalScrollIndicator
        v.showsVerticalScrollIndicator = showsVerticalScrollIndicator
        v.indicatorStyle = indicatorStyle
        v.delaysContentTouches = delaysContentTouches
        v.canCancelContentTouches = canCancelContentTouches
    }
}

/// A manifest that cannot be used: names the file and the JSON path of the field.
public struct ManifestError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var path: String
    public var message: String
    public var description: String { path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)" }
}
