import EventLog
import Foundation
import ScrollEngine

/// `kiosk --edit` as the person filling the kiosk uses it (docs/authoring.md): what the last reload's check said,
/// as a banner over the content it kept; a rectangle drawn on a zoom, scroll or carousel scene's picture with the
/// right mouse button (or Ctrl and the left) becomes a hotspot's JSON in the picture's pixels; `G` shows a grid of
/// the picture's coordinates. It takes the inputs that are its own before the app sees them and draws over the
/// frame; the app never knows it is there.
public struct ContentEditor {
    /// What the last check found wrong (a line each: the file, then the line or the JSON path); empty once a
    /// reload succeeds.
    public private(set) var problems: [String] = []
    /// The grid of the picture's coordinates is shown (`G`).
    public private(set) var showsGrid = false
    /// The rectangle being drawn: its picture (a carousel's page), where it began and where the pointer is, in the
    /// picture's pixels; and the mouse button drawing it.
    var drag: (page: Int, from: Point, to: Point, button: Int)?
    /// Ctrl keys held (a left-button drag with one held draws).
    private var controlKeys = 0
    /// Hotspots drawn so far (their ids follow the scene's).
    private var drawn = 0

    public init() {}

    /// What an input was to the editor.
    public enum Outcome: Equatable {
        /// Not the editor's: the app takes it.
        case notTaken
        /// The editor's.
        case taken
        /// The editor's, and it finished a rectangle: the hotspot's JSON, ready to paste into `hotspots`.
        case hotspot(String)
    }

    /// The problems the last check said (an empty list: the content is good again).
    public mutating func checked(problems: [String]) { self.problems = problems }

    /// An input before the app sees it (mouse positions in window pixels, as `KioskApp.handle` takes them).
    public mutating func take(_ event: EventLog.Event, app: KioskApp) -> Outcome {
        switch event {
        case .key(let down, let key, let isRepeat):
            if key.hasSuffix("Ctrl") { controlKeys = max(0, controlKeys + (down ? 1 : -1)) }
            guard key == "G", controlKeys == 0 else { return .notTaken }
            if down && !isRepeat { showsGrid.toggle() }
            return .taken
        case .mouseButton(true, let button, _, let x, let y)
        where drag == nil && (button == Self.rightButton || (button == Self.leftButton && controlKeys > 0)):
            let p = app.scenePoint(pixel: Point(x: x, y: y))
            guard let (page, point) = app.scene.loadedPicturePoint(at: p) else { return .notTaken }
            drag = (page, point, point, button)
            return .taken
        case .mouseButton(let down, let button, _, let x, let y) where drag?.button == button:
            guard !down, let d = drag else { return .taken }
            drag = nil
            let to = app.scene.picturePoint(onPage: d.page, at: app.scenePoint(pixel: Point(x: x, y: y)))
            guard let rect = Self.pixelRect(from: d.from, to: to ?? d.to, image: app.scene.imageSize(page: d.page))
            else { return .taken }
            drawn += 1
            return .hotspot(Self.hotspotJSON(rect, scene: app.scene, page: d.page, number: drawn))
        case .mouseMotion(let x, let y, _, _, _) where drag != nil:
            if let d = drag,
                let to = app.scene.picturePoint(onPage: d.page, at: app.scenePoint(pixel: Point(x: x, y: y)))
            {
                drag?.to = to
            }
            // The app still learns where the pointer is (it shows nothing for it).
            return .notTaken
        default:
            return .notTaken
        }
    }

    /// SDL's mouse buttons.
    static let leftButton = 1
    static let rightButton = 3

    /// A drag this short (in the picture's pixels, on either side) is a click, not a rectangle.
    static let shortestSide = 2.0

    /// The rectangle between two points of a picture, clamped to it and rounded to whole pixels; nil for a click.
    static func pixelRect(from a: Point, to b: Point, image: Size) -> Rect? {
        func clamp(_ v: Double, _ limit: Double) -> Double { min(max(v, 0), limit).rounded() }
        let x0 = clamp(min(a.x, b.x), image.width)
        let x1 = clamp(max(a.x, b.x), image.width)
        let y0 = clamp(min(a.y, b.y), image.height)
        let y1 = clamp(max(a.y, b.y), image.height)
        guard x1 - x0 >= shortestSide, y1 - y0 >= shortestSide else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// A hotspot's JSON for `rect` on `scene` (a carousel's says its page): an id after the scene's hotspots, for
    /// the curator to give a `goto` and a `label`.
    static func hotspotJSON(_ rect: Rect, scene: Scene, page: Int, number: Int) -> String {
        let n = [rect.minX, rect.minY, rect.width, rect.height].map { String(Int($0)) }.joined(separator: ", ")
        let id = "\(scene.config.id)-\(scene.config.hotspots.count + number)"
        let onPage = scene.config.type == .carousel ? ", \"page\": \(page)" : ""
        return "{\"id\": \(jsonString(id)), \"rect\": [\(n)]\(onPage)}"
    }
}

extension Scene {
    /// A point of the scene as a point of page `page`'s picture (nil when that page is no longer shown).
    func picturePoint(onPage page: Int, at p: Point) -> Point? {
        guard let (origin, scale) = placement(page: page), scale > 0 else { return nil }
        return (p - origin) / scale
    }

    /// Page `page`'s picture's size in its pixels.
    func imageSize(page: Int) -> Size { page < images.count ? images[page].size : .zero }
}

extension Manifest {
    /// The manifest as `kiosk --edit` shows it: the rules that would take the screen away from what is being
    /// edited while the editor looks at their text editor (the idle reset and its question, the attract loop,
    /// blanking, the opening hours) are off; the content, and the schedule that chooses it, stay.
    public var forEditing: Manifest {
        var m = self
        m.idleTimeoutSeconds = 0
        m.stillThereSeconds = 0
        m.blankAfterSeconds = 0
        m.attract = nil
        m.openingHours = nil
        return m
    }
}

extension Manifest {
    /// What `kiosk --edit` shows when the manifest at `path` cannot be used at the start: an empty page titled
    /// with its file's name (a longer title would not fit a narrow window), under the banner of its problems,
    /// until a save makes it good.
    public static func waiting(for path: String) -> Manifest {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let text = """
            {"kioskManifest": 1, "home": "edit", "idleTimeoutSeconds": 0,
             "scenes": [{"id": "edit", "type": "list", "title": \(jsonString(name)),
                         "rows": []}]}
            """
        // A list of no rows names no file, and the text is the kiosk's own: it parses.
        return try! Manifest.parse(text, file: path, baseDirectory: "/", fileExists: { _ in false })
    }
}
