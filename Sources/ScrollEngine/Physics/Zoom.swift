/// Zoom geometry and the zoom rubber band.
public enum ZoomMath {
    /// Apple's `zoomRect(forScale:withCenter:)` recipe: the rectangle of the unzoomed content that fills a view
    /// of `frame` at `scale`, centred on `center` (a point of the unzoomed content).
    public static func zoomRect(scale: Double, center: Point, frame: Size) -> Rect {
        guard scale > 0, scale.isFinite else { return Rect(origin: center, size: .zero) }
        let size = Size(width: frame.width / scale, height: frame.height / scale)
        return Rect(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height)
    }

    /// The scale shown when a pinch asks for `requested` beyond `min...max`: resisted as a rubber band of
    /// the overshoot ratio, so it never exceeds the limit by more than `zoomRubberBandDimension`.
    public static func bandedScale(_ requested: Double, min lo: Double, max hi: Double) -> Double {
        let dim = ScrollConstants.zoomRubberBandDimension
        if requested > hi, hi > 0 {
            return hi * (1 + RubberBand.offset(overscroll: requested / hi - 1, dimension: dim))
        }
        if requested < lo, requested > 0 {
            return lo / (1 + RubberBand.offset(overscroll: lo / requested - 1, dimension: dim))
        }
        if requested <= 0 { return lo / (1 + dim * 0.999) }
        return requested
    }

    /// The inverse of `bandedScale`, so a pinch that starts while the scale is banded does not jump.
    public static func unbandedScale(_ shown: Double, min lo: Double, max hi: Double) -> Double {
        let dim = ScrollConstants.zoomRubberBandDimension
        if shown > hi, hi > 0 { return hi * (1 + RubberBand.overscroll(showing: shown / hi - 1, dimension: dim)) }
        if shown < lo, shown > 0 { return lo / (1 + RubberBand.overscroll(showing: lo / shown - 1, dimension: dim)) }
        return shown
    }
}
