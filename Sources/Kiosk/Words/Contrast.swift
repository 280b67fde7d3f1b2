import Foundation
import ScrollEngine

/// WCAG 2's contrast (1.4.3, 1.4.11; EN 301 549 9.1.4.3): the ratio of two colours' relative luminances, from 1
/// (the same) to 21 (black on white). Text needs 4.5:1 against what is behind it, a control's parts 3:1.
extension Color {
    /// WCAG 2's relative luminance of the colour's sRGB (its alpha ignored: blend it first, `over`).
    var relativeLuminance: Double {
        func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// The contrast ratio with `other`, lighter over darker, each with 0.05 of flare.
    func contrast(with other: Color) -> Double {
        let (a, b) = (relativeLuminance, other.relativeLuminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// This colour blended over the opaque `below` (source-over, as the renderer blends).
    func over(_ below: Color) -> Color {
        func mix(_ top: Double, _ under: Double) -> Double { top * alpha + under * (1 - alpha) }
        return Color(red: mix(red, below.red), green: mix(green, below.green), blue: mix(blue, below.blue), alpha: 1)
    }
}
