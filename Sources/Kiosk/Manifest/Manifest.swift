import EventLog
import ScrollEngine

/// The kiosk's manifest (docs/manifest.md): what scenes it shows and how they scroll.
///
/// A data record: one stored property per top-level key of docs/manifest.md (`home`, `idleTimeoutSeconds`,
/// … `languages`, `fonts`, `stillThere`) and the folder paths resolve in, so more than 15 of them.
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
    /// The texture budget in bytes.
    public var textureBudgetBytes: Int { Int(textureBudgetMiB * 1_048_576) }
    /// Blank the screen after this long without input (an addition; 0, the default, never blanks).
    public var blankAfterSeconds: Double = 0
    /// How scene changes look, and how long they take.
    public var transition = TransitionStyle.fade
    public var transitionMs = 300.0
    public var attract: Attract?
    /// Nil: always open.
    public var openingHours: OpeningHours?
    /// The languages offered, the first the default (docs/manifest.md); empty: one, unnamed.
    public var languages: [String] = []
    /// Font files by language tag or `default` (resolved paths); a language without one uses an installed font.
    public var fonts: [String: String] = [:]
    /// "Still there?" this long before the idle reset (`stillThere.seconds`; 0: never asked).
    var stillThereSeconds: Double = 0
    /// How often the metrics file is written (`metricsSeconds`, docs/operations.md).
    public var metricsSeconds: Double = 15
    /// What to show by weekday and date (docs/operations.md, `schedule`); nil: the manifest's own home and attract loop.
    public var schedule: Schedule?
    /// The attract loops a schedule names (`attractSets`); `attract` stays the default.
    public var attractSets: [String: Attract] = [:]
    /// Voices, the viewing distance, the panel's size and more keys (`accessibility`).
    public var accessibility = AccessibilityConfig()
    /// A hash of the manifest's text (FNV-1a, hex), which `kiosk_info` names.
    public var contentHash = ""
    /// The pictures and films it names that cannot be shown, each as a line says it (a start goes on with them as
    /// placeholders, `ManifestError.showsPlaceholder`; a reload and `--check` refuse them): empty for content
    /// that checked clean.
    public var contentProblems: [String] = []

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

/// A touch calibration: a finger's raw normalised position (as SDL reports it, before `--rotate`) mapped to its
/// normalised position on the physical screen, clamped to the screen's edge. Either a full affine `matrix`
/// (docs/deploying.md, libinput's `LIBINPUT_CALIBRATION_MATRIX` convention), or the manifest's per-axis keys: a raw
/// reading `minX` maps to 0 and `maxX` to 1 (likewise y), after an optional swap of the axes; `invertX`/`invertY`
/// mirror the result.
public struct Calibration: Equatable, Sendable {
    var swapAxes = false
    var invertX = false
    public var invertY = false
    public var minX = 0.0
    public var maxX = 1.0
    public var minY = 0.0
    public var maxY = 1.0
    /// When set, the per-axis keys are not used.
    public var matrix: AffineMatrix?
    public init() {}
    public init(matrix: AffineMatrix) { self.matrix = matrix }

    /// The calibration as one matrix (the per-axis keys composed into it).
    public var affine: AffineMatrix {
        if let matrix { return matrix }
        var m = swapAxes ? AffineMatrix(a: 0, b: 1, c: 0, d: 1, e: 0, f: 0) : .identity
        let sx = 1 / (maxX - minX)
        let sy = 1 / (maxY - minY)
        m = AffineMatrix(a: m.a * sx, b: m.b * sx, c: -minX * sx, d: m.d * sy, e: m.e * sy, f: -minY * sy)
        if invertX { (m.a, m.b, m.c) = (-m.a, -m.b, 1 - m.c) }
        if invertY { (m.d, m.e, m.f) = (-m.d, -m.e, 1 - m.f) }
        return m
    }

    public func apply(_ p: Point) -> Point {
        let q = affine.apply(p)
        return Point(x: min(1, max(0, q.x)), y: min(1, max(0, q.y)))
    }
}

/// x' = a·x + b·y + c, y' = d·x + e·y + f: the first two rows of libinput's 3x3 calibration matrix.
public struct AffineMatrix: Equatable, Sendable {
    public var a, b, c, d, e, f: Double
    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }
    public init?(_ values: [Double]) {
        guard values.count == 6 else { return nil }
        self.init(a: values[0], b: values[1], c: values[2], d: values[3], e: values[4], f: values[5])
    }
    public static let identity = AffineMatrix(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0)
    public var values: [Double] { [a, b, c, d, e, f] }

    public func apply(_ p: Point) -> Point { Point(x: a * p.x + b * p.y + c, y: d * p.x + e * p.y + f) }

    /// Why this matrix cannot be a touchscreen's calibration, or nil: a coefficient that is not finite, a
    /// singular matrix (it folds the panel onto a line), or one that maps a corner of the panel far outside
    /// the screen (beyond half a screen).
    public var problem: String? {
        if !values.allSatisfy(\.isFinite) { return "a coefficient is not a finite number" }
        if abs(a * e - b * d) < 1e-6 { return "the matrix is singular" }
        for corner in [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 0, y: 1), Point(x: 1, y: 1)] {
            let q = apply(corner)
            if !(-0.5...1.5).contains(q.x) || !(-0.5...1.5).contains(q.y) {
                return "it maps the panel's corner (\(Int(corner.x)), \(Int(corner.y))) far outside the screen"
            }
        }
        return nil
    }
}

public enum SceneType: String, Sendable { case zoom, carousel, scroll, list, video }

/// A video scene's film (docs/manifest.md, docs/video.md): the file, whether it loops, whether its sound plays,
/// and how it fits the screen.
public struct VideoConfig: Equatable, Sendable {
    public var path: String
    public var loops = true
    public var sound = false
    public var fit = VideoFit.contain
    /// Its captions by language (`""`: one track for every language).
    public var captions: [String: CaptionTrack] = [:]

    /// The track for `language`: its own, else the manifest's first language's, else the one for all.
    public func captions(in language: String, fallback: String) -> CaptionTrack? {
        captions[language] ?? captions[fallback] ?? captions[""]
    }
}

/// How a video fits the screen: whole, with bars beside it (`contain`), or filling it, cut at its edges (`cover`).
public enum VideoFit: String, Equatable, Sendable {
    case contain, cover
}

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
    /// Its index in the scene's `hotspots` (for messages naming its JSON path).
    public var index = 0
    /// Words drawn on the picture at the hotspot, at `labelAt` (image pixels) or the hotspot's centre.
    public var label: LocalizedText?
    var labelAt: Point?
    /// What it is, to be spoken (its text alternative, EN 301 549 5.1.3.6), where the label does not say enough.
    public var description: LocalizedText?

    /// Where its label is drawn, in image pixels.
    var labelPoint: Point { labelAt ?? Point(x: rect.midX, y: rect.midY) }
}

/// A text box on a picture (docs/manifest.md `overlays`): in image pixels, wrapped to its width, moving and
/// growing with the picture as labels do; `size` is in points at the fitted zoom.
public struct Overlay: Equatable, Sendable {
    public var text: LocalizedText
    public var rect: Rect
    public var size: Double
    public var color: Color
    public var align: TextAlign
    /// Said after its text to a visitor who cannot see it (docs/accessibility.md).
    public var description: LocalizedText? = nil
}

/// A scene of the manifest (docs/manifest.md, `scenes`): a data record, one stored property per key of a scene, so
/// more than 15 of them.
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
    /// Its JSON path in the manifest (`scenes[2]`), for messages.
    public var path = ""
    /// Drawn in a bar at the top.
    public var title: LocalizedText?
    /// A carousel's captions, one per page (nil: none).
    var captions: [LocalizedText?] = []
    /// Text boxes on a zoom or scroll scene's image.
    public var overlays: [Overlay] = []
    /// The scene's images in each language whose images differ from the first language's (`imagePaths`):
    /// `"image": {"en": "menu-en.png", "de": "menu-de.png"}`.
    var localizedImages: [String: [String]] = [:]
    /// A list scene's rows (docs/manifest.md).
    public var list: ListConfig?
    /// What the scene is, spoken after its title (its text alternative, EN 301 549 5.1.3.6).
    public var description: LocalizedText?
    /// A carousel's pages' descriptions, one per page (empty: none), spoken after the page's caption.
    var pageDescriptions: [LocalizedText?] = []
    /// A video scene's film (its `image` is its poster, nil without one).
    public var video: VideoConfig?
    /// A carousel's pages' films, one per page (nil: a picture; empty: no page is a film). A film's page shows its
    /// poster (the page's image) until it plays.
    public var pageVideos: [VideoConfig?] = []

    /// Whether it has words to draw (a title, captions, labels).
    var hasWords: Bool {
        title != nil || !captions.isEmpty || !overlays.isEmpty || hotspots.contains { $0.label != nil }
    }

    /// The scene's images: a carousel's pages, else its one image.
    public var imagePaths: [String] {
        switch type {
        case .carousel: pages
        case .list: []
        case .video: image.map { [$0] } ?? []
        case .zoom, .scroll: [image ?? ""]
        }
    }

    /// Where its hotspots and rows go (a scene, or a list's row: `Destination`) and the scenes its rows show a
    /// place in.
    public var targets: [String] {
        hotspots.compactMap(\.goto)
            + (list?.rows ?? []).compactMap { row in
                switch row.action {
                case .goto(let scene)?, .show(let scene, _)?: scene
                case nil: nil
                }
            }
    }

    /// The scene's images in `language` (the first language's where it has none of its own).
    public func imagePaths(in language: String) -> [String] { localizedImages[language] ?? imagePaths }

    /// Every image the scene may show, in any language.
    public var allImagePaths: [String] {
        var seen = Set(imagePaths)
        return imagePaths
            + localizedImages.sorted { $0.key < $1.key }.flatMap(\.value).filter { seen.insert($0).inserted }
    }
}

/// The UIScrollView options a scene may set, with UIKit's defaults.
public struct ScrollOptions: Equatable, Sendable {
    public var bounces = true
    var alwaysBounceHorizontal = false
    var alwaysBounceVertical = false
    var bouncesZoom = true
    var decelerationRate = DecelerationRate.normal
    var directionalLockEnabled = false
    var scrollEnabled = true
    var showsHorizontalScrollIndicator = true
    var showsVerticalScrollIndicator = true
    var indicatorStyle = IndicatorStyle.default
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
    /// A warning: worth fixing, but the manifest can be used.
    public var isWarning = false
    /// An error a placeholder covers: a picture or film that is missing or cannot be shown. A start goes on with
    /// it (the rest of the kiosk works); a reload keeps the old content instead, and `--check` fails.
    public var showsPlaceholder = false
    /// The file it says is not found, when that is what it says (for a near miss to be looked for beside it).
    public var missingFile: String?
    public var description: String { path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)" }

    public init(file: String, path: String, message: String, isWarning: Bool = false) {
        self.file = file
        self.path = path
        self.message = message
        self.isWarning = isWarning
    }
}

extension ManifestError {
    /// How many problems of one kind are said one by one; the rest are one line with their count.
    public static let sameKindShown = 5

    /// What a problem says with the values it names left out (quoted words, numbers, the path): 200 languages
    /// missing from 50 texts are one kind, said five times and then counted, not 10 000 lines a start.
    var kind: String {
        var out = ""
        var quoted = false
        var lastWasDigit = false
        for c in message {
            if c == "\"" {
                quoted.toggle()
                if quoted { out += "\"…\"" }
                continue
            }
            if quoted { continue }
            if c.isNumber {
                if !lastWasDigit { out += "#" }
                lastWasDigit = true
                continue
            }
            lastWasDigit = false
            out.append(c)
        }
        return (isWarning ? "w " : "e ") + file + " " + out
    }

    /// The lines to log for `problems`, in order: each kind's first `sameKindShown` as they are, then one line
    /// saying how many more of that kind there were (after the last problem).
    public static func logLines(_ problems: [ManifestError]) -> [(isWarning: Bool, line: String)] {
        var seen: [String: Int] = [:]
        var order: [String] = []
        var firstOfKind: [String: ManifestError] = [:]
        var lines: [(isWarning: Bool, line: String)] = []
        for p in problems {
            let k = p.kind
            let n = seen[k, default: 0]
            seen[k] = n + 1
            if n == 0 {
                order.append(k)
                firstOfKind[k] = p
            }
            if n < sameKindShown { lines.append((p.isWarning, p.description)) }
        }
        for k in order {
            guard let count = seen[k], count > sameKindShown, let first = firstOfKind[k] else { continue }
            lines.append(
                (first.isWarning, "\(first.file): \(count - sameKindShown) more like \"\(first.message)\" (not listed)")
            )
        }
        return lines
    }
}

/// What `Manifest.check` found: the manifest (nil when there is an error) and every problem, in order.
struct ManifestCheck: Sendable {
    public var manifest: Manifest?
    /// The manifest, also where its only errors are pictures or films a placeholder covers.
    public var withPlaceholders: Manifest? = nil
    public var problems: [ManifestError]
    /// The scenes and the attract loop as far as they parsed, errors elsewhere or not (what `ContentCheck`
    /// checks the images of).
    public var scenes: [SceneConfig] = []
    public var attract: Attract?
    public var errors: [ManifestError] { problems.filter { !$0.isWarning } }
}
