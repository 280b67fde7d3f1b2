import Foundation
import ScrollEngine

/// The manifest's `accessibility` (docs/manifest.md; EN 301 549's closed functionality): a speech voice per
/// language, how far the visitor stands and how large the panel is (for the larger-text rule), and more keys
/// mapped onto the kiosk's actions.
public struct AccessibilityConfig: Equatable, Sendable {
    /// espeak-ng voice names by language tag (a language not here takes its tag's own voice).
    public var voices: [String: String] = [:]
    /// The visitor's distance from the screen: EN 301 549 5.1.4's own example, 600 mm, unless the manifest says.
    public var viewingDistanceMM = 600.0
    /// The panel's visible size: a 27-inch 16:9 panel (598 x 336 mm) unless the manifest says.
    public var panelMM = Size(width: 598, height: 336)
    /// Keys (SDL key names) that do one of the kiosk's actions besides its own keys.
    public var keys: [String: KeyAction] = [:]

    public init() {}

    /// The height of a capital H that subtends 0.7 degrees at the viewing distance (EN 301 549 5.1.4, larger
    /// text): distance x tan 0.7 degrees, 7.3 mm at 600 mm.
    public var largeTextCapitalHeightMM: Double { viewingDistanceMM * tan(Self.largeTextDegrees * .pi / 180) }
    /// EN 301 549 V3.2.1, 5.1.4.
    public static let largeTextDegrees = 0.7
}

/// What a key does (the kiosk's key table; docs/manifest.md `accessibility.keys`).
public enum KeyAction: String, CaseIterable, Equatable, Sendable {
    case next, previous, activate, back, zoomIn, zoomOut, nextPage, previousPage, help, `repeat`, volumeDown, volumeUp
}

extension Manifest {
    /// `accessibility`: each value checked, a mistake named with its path.
    static func parseAccessibility(
        _ top: Object, languages: [String], problems: ProblemList
    ) throws(ManifestError) -> AccessibilityConfig {
        var config = AccessibilityConfig()
        guard let v = top.values["accessibility"] else { return config }
        let o = try Object(v, path: "accessibility", problems: problems)
        o.allow(["voices", "viewingDistanceMM", "panel", "keys"])
        if let voices = o.values["voices"] {
            let vo = try Object(voices, path: o.key("voices"), problems: problems)
            for tag in vo.values.keys.sorted() {
                guard languages.contains(tag) else {
                    problems.error(vo.key(tag), "\"\(tag)\" is not one of the manifest's languages")
                    continue
                }
                guard let name = try vo.string(tag), isVoiceName(name) else {
                    problems.error(vo.key(tag), "expected an espeak-ng voice name such as \"en-gb\"")
                    continue
                }
                config.voices[tag] = name
            }
        }
        config.viewingDistanceMM = try o.number("viewingDistanceMM", in: 100...10_000) ?? 600
        if let panel = o.values["panel"] {
            let po = try Object(panel, path: o.key("panel"), problems: problems)
            po.allow(["widthMM", "heightMM"])
            config.panelMM = Size(
                width: try po.number("widthMM", in: 20...20_000, required: true)!,
                height: try po.number("heightMM", in: 20...20_000, required: true)!)
        }
        if let keys = o.values["keys"] {
            let ko = try Object(keys, path: o.key("keys"), problems: problems)
            for key in ko.values.keys.sorted() {
                guard let name = try ko.string(key), let action = KeyAction(rawValue: name) else {
                    problems.error(
                        ko.key(key), "expected an action: \(KeyAction.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                    continue
                }
                config.keys[key] = action
            }
        }
        return config
    }

    /// A voice name as espeak-ng spells them (`en-gb`, `de`, `mb/mb-de1`): letters, digits and `-+_/`.
    static func isVoiceName(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 64
            && s.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-+_/".contains(Character($0)))
            }
    }

    /// A hotspot that acts (it goes somewhere) with neither a label nor a description has nothing a visitor who
    /// cannot see it could hear: a warning for each (a text missing in one language is warned of as any text).
    static func warnUnspoken(_ scenes: [SceneConfig], problems: ProblemList) {
        for scene in scenes {
            for h in scene.hotspots where h.goto != nil && h.label == nil && h.description == nil {
                problems.warning(
                    "\(scene.path).hotspots[\(h.index)]",
                    "hotspot \"\(h.id)\" goes somewhere but has neither a label nor a description: nothing can be spoken for it"
                )
            }
        }
    }
}
