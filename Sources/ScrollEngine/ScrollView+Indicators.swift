/// A colour with components from 0 to 1.
public struct Color: Equatable, Hashable, Sendable {
    public var red, green, blue, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }
}

/// UIScrollView.IndicatorStyle.
public enum IndicatorStyle: String, Sendable, CaseIterable {
    /// Dark with a light border: visible on any background.
    case `default`
    /// Dark, for light content.
    case black
    /// Light, for dark content.
    case white

    /// The bar's fill. iOS's values are not published; these match screenshots of iOS' indicators.
    public var fillColor: Color {
        switch self {
        case .default: Color(red: 0, green: 0, blue: 0, alpha: 0.35)
        case .black: Color(red: 0, green: 0, blue: 0, alpha: 0.5)
        case .white: Color(red: 1, green: 1, blue: 1, alpha: 0.5)
        }
    }

    /// The bar's one-point border, if it has one.
    public var borderColor: Color? {
        self == .default ? Color(red: 1, green: 1, blue: 1, alpha: 0.3) : nil
    }
}

/// One scroll indicator: its frame in view coordinates and its current opacity.
public struct ScrollIndicator: Equatable, Sendable {
    public var frame: Rect
    public var alpha: Double
}

extension ScrollView {
    /// The opacity every shown indicator has now: 1 while the view is active and for `indicatorHideDelay` after,
    /// then fading out over `indicatorFadeDuration`.
    public var indicatorAlpha: Double {
        if indicatorsVisibleUntil == .infinity || time <= indicatorsVisibleUntil { return 1 }
        return Swift.max(0, 1 - (time - indicatorsVisibleUntil) / ScrollConstants.indicatorFadeDuration)
    }

    /// The horizontal indicator, or nil when it is not shown (hidden by option, or the content fits).
    public var horizontalIndicator: ScrollIndicator? { indicator(.horizontal) }
    /// The vertical indicator, or nil when it is not shown.
    public var verticalIndicator: ScrollIndicator? { indicator(.vertical) }

    func showsIndicator(_ axis: Axis) -> Bool {
        let shows = axis == .horizontal ? showsHorizontalScrollIndicator : showsVerticalScrollIndicator
        let r = offsetLimits(axis)
        return shows && r.upperBound > r.lowerBound
    }

    func indicator(_ axis: Axis) -> ScrollIndicator? {
        guard showsIndicator(axis), bounds.width > 0, bounds.height > 0 else { return nil }
        let cross: Axis = axis == .horizontal ? .vertical : .horizontal
        let thickness = ScrollConstants.indicatorThickness
        let inset = ScrollConstants.indicatorInset
        // Leave the corner to the other indicator when both are shown, as iOS does.
        let corner = showsIndicator(cross) ? thickness + inset : 0
        let insets = axis == .horizontal ? horizontalScrollIndicatorInsets : verticalScrollIndicatorInsets
        let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
        // The corner is at the trailing end of the horizontal track: the left in a right-to-left layout.
        let before = insets.leading(axis) + (axis == .horizontal && rightToLeft ? corner : 0)
        let track = Swift.max(0, bounds[axis] - 2 * inset - corner - insets.leading(axis) - insets.trailing(axis))
        let r = offsetLimits(axis)
        let contentExtent = r.upperBound - r.lowerBound + bounds[axis]
        var length = Swift.min(
            track, Swift.max(ScrollConstants.indicatorMinimumLength, track * bounds[axis] / contentExtent))
        let position = offset[axis]
        let overscroll =
            position < r.lowerBound ? r.lowerBound - position : position > r.upperBound ? position - r.upperBound : 0
        length = Swift.max(Swift.min(ScrollConstants.indicatorMinimumBouncingLength, length), length - overscroll)
        let progress = ((position - r.lowerBound) / (r.upperBound - r.lowerBound)).clamped(0, 1)
        let start = inset + before + progress * (track - length)
        let crossPosition =
            axis == .vertical && rightToLeft
            ? inset + insets.left : bounds[cross] - inset - thickness - insets.trailing(cross)
        let frame =
            axis == .horizontal
            ? Rect(x: start, y: crossPosition, width: length, height: thickness)
            : Rect(x: crossPosition, y: start, width: thickness, height: length)
        return ScrollIndicator(frame: frame, alpha: indicatorAlpha)
    }
}

/// UIKit's `UISemanticContentAttribute`, the cases that decide a direction.
public enum SemanticContentAttribute: Sendable {
    case unspecified, forceLeftToRight, forceRightToLeft
}

/// UIKit's `UIUserInterfaceLayoutDirection`.
public enum UserInterfaceLayoutDirection: Sendable {
    case leftToRight, rightToLeft
}

extension ScrollView {
    /// The direction the view lays out in (UIView's): right to left only when forced so (the kiosk forces it in
    /// a right-to-left language; there is no trait environment to inherit from).
    public var effectiveUserInterfaceLayoutDirection: UserInterfaceLayoutDirection {
        semanticContentAttribute == .forceRightToLeft ? .rightToLeft : .leftToRight
    }
}
