/// The rubber band of a drag past an edge: `f(x) = (1 - 1 / (x c / dim + 1)) dim`.
/// `x` is the overscroll the finger asks for, the result the overscroll shown; it never reaches `dim`.
public enum RubberBand {
    public static func offset(
        overscroll x: Double, dimension dim: Double, coefficient c: Double = ScrollConstants.rubberBandCoefficient
    ) -> Double {
        guard dim > 0, x.isFinite else { return 0 }
        if x < 0 { return -offset(overscroll: -x, dimension: dim, coefficient: c) }
        return (1 - 1 / (x * c / dim + 1)) * dim
    }

    /// The overscroll the finger must ask for to show `shown`: the inverse of `offset`, so a drag that starts
    /// while the view is overscrolled continues without a jump. `shown` is limited to just under `dim`.
    public static func overscroll(
        showing shown: Double, dimension dim: Double, coefficient c: Double = ScrollConstants.rubberBandCoefficient
    ) -> Double {
        guard dim > 0, shown.isFinite else { return 0 }
        if shown < 0 { return -overscroll(showing: -shown, dimension: dim, coefficient: c) }
        let f = Swift.min(shown, dim * 0.999)
        return dim * f / (c * (dim - f))
    }

    /// How fast the shown overscroll moves per point of finger overscroll at overscroll `x`: `f'(x)`.
    /// A release while rubber-banding hands the content this fraction of the finger's velocity.
    public static func slope(
        overscroll x: Double, dimension dim: Double, coefficient c: Double = ScrollConstants.rubberBandCoefficient
    ) -> Double {
        guard dim > 0, x.isFinite else { return 1 }
        let q = abs(x) * c / dim + 1
        return c / (q * q)
    }

    /// `value` banded beyond `lo...hi`: inside, itself; outside, the edge plus the rubber-banded excess.
    public static func band(_ value: Double, _ lo: Double, _ hi: Double, dimension dim: Double) -> Double {
        if value < lo { return lo + offset(overscroll: value - lo, dimension: dim) }
        if value > hi { return hi + offset(overscroll: value - hi, dimension: dim) }
        return value
    }

    /// The inverse of `band`.
    public static func unband(_ shown: Double, _ lo: Double, _ hi: Double, dimension dim: Double) -> Double {
        if shown < lo { return lo + overscroll(showing: shown - lo, dimension: dim) }
        if shown > hi { return hi + overscroll(showing: shown - hi, dimension: dim) }
        return shown
    }
}
