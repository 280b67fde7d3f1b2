import Foundation
import ScrollEngine

/// How the kiosk is drawn for the visitor in front of it (UIKit's `UITraitCollection`): how many of the screen's
/// pixels a point is (`displayScale`: the panel's, `PanelScale`, or larger with larger text on) and its contrast (`accessibilityContrast`:
/// high with high contrast on). The scenes are laid out in points on a screen `displayScale` times smaller than
/// its pixels, so larger text lays every text out again (a list's rows grow, fewer fit), and their draw lists
/// are turned into pixels and the theme's colours in one place, `apply(to:)`.
public struct TraitCollection: Equatable, Sendable {
    /// Pixels per point.
    public var displayScale = 1.0
    public var accessibilityContrast = Contrast.normal

    public enum Contrast: Sendable {
        case normal, high
    }

    public init(displayScale: Double = 1, accessibilityContrast: Contrast = .normal) {
        self.displayScale = displayScale
        self.accessibilityContrast = accessibilityContrast
    }

    /// Whether drawing needs no change.
    var isIdentity: Bool { displayScale == 1 && accessibilityContrast == .normal }

    /// A draw list in points and the standard colours as the screen draws it: in pixels, in the high-contrast
    /// theme's colours when contrast is high.
    public func apply(to list: [DrawCommand]) -> [DrawCommand] {
        guard !isIdentity else { return list }
        let k = displayScale
        if accessibilityContrast == .high { return list.map { $0.scaled(by: k, colors: HighContrast.color) } }
        return list.map { $0.scaled(by: k, colors: { $0 }) }
    }
}

extension DrawCommand {
    /// The command with its points times `k` (image and tile sources stay in their pixels) and its colours
    /// through `colors`.
    func scaled(by k: Double, colors: (Color) -> Color) -> DrawCommand {
        switch self {
        case .image(let image, let source, let destination):
            return .image(image: image, source: source, destination: destination * k)
        case .tile(let key, let source, let destination, let opacity):
            return .tile(key, source: source, destination: destination * k, opacity: opacity)
        case .placeholder(let destination): return .placeholder(destination: destination * k)
        case .fill(let r, let color): return .fill(r * k, colors(color))
        case .dot(let center, let radius, let color): return .dot(center: center * k, radius: radius * k, colors(color))
        case .homeButton(let r): return .homeButton(r * k)
        case .text(let run): return .text(run.scaled(by: k, colors: colors))
        case .thumbnail(let path, let destination): return .thumbnail(path: path, destination: destination * k)
        case .background(let r): return .background(r * k)
        case .video(var shot):
            shot.box = shot.box * k
            return .video(shot)
        case .picture(var picture, let inner):
            picture.frame = picture.frame * k
            picture.clip = picture.clip * k
            picture.scale *= k
            picture.words = picture.words.map { $0.scaled(by: k, colors: colors) }
            return .picture(picture, inner.map { $0.scaled(by: k, colors: colors) })
        }
    }
}

extension TextRun {
    func scaled(by k: Double, colors: (Color) -> Color) -> TextRun {
        var run = self
        run.size *= k
        run.rect = rect * k
        run.color = colors(color)
        run.plate = plate.map(colors)
        return run
    }
}

extension Rect {
    public static func * (r: Rect, k: Double) -> Rect {
        k == 1 ? r : Rect(x: r.minX * k, y: r.minY * k, width: r.width * k, height: r.height * k)
    }
}

/// How many pixels a point is on the manifest's panel (UIKit's `UIScreen.scale`): one on the panel the kiosk's
/// sizes are chosen for, a 27-inch 1080p screen (1920 pixels over 598 mm), and as many more as the panel's pixels
/// are denser (2 on a 27-inch 4K panel), never under one. So a control is as many millimetres on every panel
/// (at least 15 mm, `everyControlIsFingerSized`), and a word as large.
public enum PanelScale {
    /// A 27-inch 1080p panel's pixels per millimetre: there a point is a pixel.
    static let referencePixelsPerMM = 1920.0 / 598

    /// The panel's pixels per millimetre, either way round (`pixels` turned or not).
    static func pixelsPerMM(_ pixels: Size, _ config: AccessibilityConfig) -> Double {
        max(pixels.width, pixels.height) / max(config.panelMM.width, config.panelMM.height)
    }

    public static func displayScale(pixels: Size, config: AccessibilityConfig) -> Double {
        max(1, pixelsPerMM(pixels, config) / referencePixelsPerMM)
    }
}

/// Larger text (EN 301 549 5.1.4): the display scale at which the kiosk's smallest text has a capital H that
/// subtends `AccessibilityConfig.largeTextDegrees` at the manifest's viewing distance on its panel, at least
/// `minimumScale` times the panel's own (larger text is always visibly larger) and at most what leaves the screen
/// `minimumSide` points on its shorter side (past that nothing fits; the text is then as large as the screen
/// allows).
public enum LargerText {
    /// The smallest text the kiosk sets, in points (a list row's subtitle).
    static let smallestTextSize = [
        WordStyle.titleSize, WordStyle.labelSize, WordStyle.captionSize, WordStyle.languageNameSize,
        ListStyle.titleSize, ListStyle.subtitleSize, ListStyle.headerSize, ListStyle.indexSize,
    ].min()!
    /// A capital H's height per point of font size in the kiosk's fonts (DejaVu Sans 0.73, Noto Sans 0.71): the
    /// lower, so that the rule holds in either. Checked against rendered text by `LargerTextTests`.
    public static let capitalHeightPerPoint = 0.71
    static let minimumScale = 1.25
    /// An iPhone SE's width in points: the smallest screen UIKit lays out for.
    static let minimumSide = 320.0

    /// The display scale of larger text on a screen of `pixels` showing `config.panelMM`.
    public static func displayScale(pixels: Size, config: AccessibilityConfig) -> Double {
        let base = PanelScale.displayScale(pixels: pixels, config: config)
        let wanted =
            config.largeTextCapitalHeightMM * PanelScale.pixelsPerMM(pixels, config)
            / (capitalHeightPerPoint * smallestTextSize)
        let most = min(pixels.width, pixels.height) / minimumSide
        return max(base, min(max(base * minimumScale, wanted), most))
    }
}

/// The high-contrast theme (WCAG 1.4.3 and 1.4.11 at their enhanced reading: text at least 4.5:1 and a control's
/// parts at least 3:1 against what is behind them; `HighContrastTests` computes every pair): the kiosk's
/// standard colours, each mapped to its high-contrast one. Chrome goes black with white words and a yellow
/// tint; a list goes white with black words; the pictures' own colours stay.
enum HighContrast {
    static let black = Color(red: 0, green: 0, blue: 0, alpha: 1)
    static let white = WordStyle.white
    /// UIKit's dark `systemYellow`, #FFD60A: 14:1 on black.
    static let yellow = FocusRing.inner
    /// The list's tint on white: UIKit's light `systemBlue` in its accessible variant, #0040DD (7.3:1).
    static let blue = Color(red: 0, green: 0.251, blue: 0.867, alpha: 1)
    /// A control's part that is off (a switch's track) on black: #8E8E93, 6.5:1.
    static let grey = Color(red: 0.557, green: 0.557, blue: 0.576, alpha: 1)

    static let table: [Color: Color] = [
        ChromeStyle.bar: black, ChromeStyle.separator: white, ChromeStyle.tint: yellow,
        SwitchStyle.offTrack: grey,
        WordStyle.labelPlate: black,
        ListStyle.headerBackground: white, ListStyle.separator: black, ListStyle.titleColor: black,
        ListStyle.subtitleColor: black, ListStyle.indexColor: blue, ListStyle.chevronColor: black,
        ListStyle.highlight: Color(red: 0.75, green: 0.75, blue: 0.75, alpha: 1),
        StillThereCard.paper: white, StillThereCard.ink: black, StillThereCard.accent: blue,
    ]

    static func color(_ c: Color) -> Color { table[c] ?? c }
}
