/// The thresholds real touchscreens need, each with its source. Times in seconds, distances in points.
public enum TouchConstants {
    /// A drag starts after the fingers' centroid moved this far (docs/scroll-engine.md: Android 8 dp, LVGL 10 px, Flutter 18).
    public static let panSlop = 10.0
    /// With two or more fingers a drag starts only after twice the slop: fingers settling on a real panel each
    /// move about 10 pt without meaning to scroll (the Atmel two-finger press recording: 10.8 and 12 pt).
    public static let multiFingerPanSlop = 2 * panSlop
    /// A pinch starts when the span changed this much (Android ScaleGestureDetector: twice the touch slop).
    public static let pinchSpanSlop = 2 * panSlop
    /// Second tap's down within this time of the first tap's up (Android ViewConfiguration DOUBLE_TAP_TIMEOUT).
    public static let doubleTapTimeout = 0.3
    /// ... and within this distance of it (Android ViewConfiguration DOUBLE_TAP_SLOP, 100 dp).
    public static let doubleTapSlop = 100.0
    /// A press longer than this is not a tap (Android ViewConfiguration's long-press timeout, 500 ms).
    public static let tapMaximumDuration = 0.5
    /// `delaysContentTouches`: a touch on content waits this long to see whether it scrolls (UIKit, 150 ms).
    public static let contentTouchDelay = 0.15
    /// Velocity tracker: fit over this much history (Flutter VelocityTracker, 100 ms) ...
    public static let velocityHorizon = 0.1
    /// ... with at most this many samples (Flutter: 20) ...
    public static let velocityHistorySize = 20
    /// ... and a gap longer than this means the finger stopped: velocity 0 (Flutter: 40 ms).
    public static let velocityStopGap = 0.04
}
