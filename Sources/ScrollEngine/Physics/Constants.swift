/// Every number the engine's feel depends on, each with where it comes from.
/// Times are seconds, distances points, velocities points per second unless a name says otherwise.
public enum ScrollConstants {
    /// UIScrollView.DecelerationRate.normal, per millisecond (UIKit documentation).
    public static let decelerationRateNormal = 0.998
    /// UIScrollView.DecelerationRate.fast, per millisecond (UIKit documentation).
    public static let decelerationRateFast = 0.99
    /// A deceleration stops when less than this distance remains (Lobanov, ScrollMechanics).
    public static let restDistance = 0.5
    /// A spring is at rest when it is this close and slower than `springRestVelocity` (our choice, matching `restDistance`).
    public static let springRestVelocity = 25.0
    /// Rubber-band coefficient c (grp/XNAnimation XNScrollView.m; ScrollMechanics RubberBand.swift).
    public static let rubberBandCoefficient = 0.55
    /// Bounce-back spring: mass 1, stiffness 100, damping ratio 1 (docs/scroll-engine.md reconstruction, critically damped).
    public static let bounceSpringMass = 1.0
    public static let bounceSpringStiffness = 100.0
    public static let bounceSpringDampingRatio = 1.0
    /// A release slower than this does not decelerate (docs/scroll-engine.md: "slower than ~25 pt/s").
    public static let minimumFlingVelocity = 25.0
    /// Fling velocity cap (docs/scroll-engine.md; Android's ViewConfiguration maximum fling velocity is 8000 px/s).
    public static let maximumFlingVelocity = 8000.0
    /// Below this release speed a paging view goes to the nearest page (Flutter's tolerance, docs/scroll-engine.md case: 20).
    public static let pagingVelocityTolerance = 20.0
    /// Zoom rubber band: the overshoot ratio is banded with this dimension, so the scale can exceed a limit by at
    /// most this factor (our choice: about 10 % past the limit for a 20 % over-pinch, as UIKit feels).
    public static let zoomRubberBandDimension = 1.0
    /// Our choice: zoom limits are clamped into this range, so that a zoomed content size stays finite and
    /// within what a renderer's integer coordinates hold.
    public static let zoomScaleLimits = 1e-6...1e6
    /// Our choice: offsets, page counts and scales closer than this are the same (the rounding noise of the
    /// animations' arithmetic, far below a pixel or a visible zoom step).
    public static let sameTolerance = 1e-6
    /// Duration of programmatic animations (`setContentOffset(_:animated:)` and friends). UIKit publishes none;
    /// 0.3 s is the commonly measured value and matches UIView's default feel.
    public static let programmaticAnimationDuration = 0.3
    /// Scroll indicator geometry (docs/scroll-engine.md, measured on iOS): thickness, inset from the edges, minimum length.
    public static let indicatorThickness = 2.5
    public static let indicatorInset = 2.5
    public static let indicatorMinimumLength = 36.0
    /// While rubber-banding an indicator shrinks down to this length (a dot, as on iOS).
    public static let indicatorMinimumBouncingLength = 2.5 * 3
    /// Indicators stay this long after the view comes to rest, then fade (docs/scroll-engine.md: "shortly after the view
    /// comes to rest"; 0.25 s is our choice).
    public static let indicatorHideDelay = 0.25
    /// Fade-out duration (docs/scroll-engine.md: "faded out (0.25 s)").
    public static let indicatorFadeDuration = 0.25
    /// `flashScrollIndicators()` holds them this long before the fade (docs/scroll-engine.md: "~0.75 s").
    public static let indicatorFlashDuration = 0.75
}

/// UIKit's `UIScrollView.DecelerationRate`: the fraction of velocity kept each millisecond.
public struct DecelerationRate: Equatable, Hashable, Sendable, RawRepresentable {
    public var rawValue: Double
    public init(rawValue: Double) { self.rawValue = rawValue }
    public static let normal = DecelerationRate(rawValue: ScrollConstants.decelerationRateNormal)
    public static let fast = DecelerationRate(rawValue: ScrollConstants.decelerationRateFast)

    /// Rates outside (0, 1) or non-finite would never stop or run backwards: they are clamped into
    /// `0.5 ... 0.9999` (a 0.5 rate stops within a few milliseconds, 0.9999 coasts for about a minute).
    var sanitized: Double {
        rawValue.isFinite ? rawValue.clamped(0.5, 0.9999) : ScrollConstants.decelerationRateNormal
    }
}

extension ScrollConstants {
    /// Directional lock: a drag that starts within this angle (radians) of an axis locks to it; a more diagonal
    /// start does not lock. UIKit publishes no angle; 25 degrees is our choice (a clear diagonal stays free).
    public static let directionalLockAngle = 25.0 * Double.pi / 180
}
