import EventLog
import ScrollEngine
import Testing

@testable import Kiosk

/// `kiosk --edit`'s editor without SDL: a rectangle dragged with the right button (or Ctrl and the left) on
/// `AppRig`'s map (4000 x 2400 pixels, shown whole on 800 x 480: five pixels a point) becomes the hotspot's JSON
/// in the picture's pixels, zoomed out and in; the grid and the banner are drawn; the app never sees what the
/// editor takes.
@Suite struct ContentEditorTests {
    /// A drag from `a` to `b` (window pixels) with `button`, through the editor as the frame loop hands it on.
    static func drag(
        _ editor: inout ContentEditor, _ app: KioskApp, from a: Point, to b: Point, button: Int = 3
    ) -> [ContentEditor.Outcome] {
        let mask = button == 3 ? 4 : 1
        return [
            editor.take(.mouseButton(down: true, button: button, clicks: 1, x: a.x, y: a.y), app: app),
            editor.take(.mouseMotion(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, xrel: 1, yrel: 1, state: mask), app: app),
            editor.take(.mouseMotion(x: b.x, y: b.y, xrel: 1, yrel: 1, state: mask), app: app),
            editor.take(.mouseButton(down: false, button: button, clicks: 1, x: b.x, y: b.y), app: app),
        ]
    }

    @Test func aRightDragIsAHotspotInThePicturesPixels() throws {
        let app = try AppRig.app()
        var editor = ContentEditor()
        let out = Self.drag(&editor, app, from: Point(x: 300, y: 200), to: Point(x: 100, y: 50))
        #expect(out.first == .taken)
        #expect(out.last == .hotspot(#"{"id": "map-2", "rect": [500, 250, 1000, 750]}"#))
        // The next one is numbered after it; a drag past the picture's edge stops at it.
        let edge = Self.drag(&editor, app, from: Point(x: 700, y: 400), to: Point(x: 900, y: 600))
        #expect(edge.last == .hotspot(#"{"id": "map-3", "rect": [3500, 2000, 500, 400]}"#))
        // The map never moved: the drags were the editor's.
        #expect(app.scene.view.contentOffset == .zero)
    }

    @Test func zoomedInTheRectangleIsStillInThePicturesPixels() throws {
        let app = try AppRig.app()
        let view = app.scene.view
        view.setZoomScale(1, animated: false)
        view.setContentOffset(Point(x: 1200, y: 600), animated: false)
        var editor = ContentEditor()
        let out = Self.drag(&editor, app, from: Point(x: 10, y: 20), to: Point(x: 110, y: 70))
        #expect(out.last == .hotspot(#"{"id": "map-2", "rect": [1210, 620, 100, 50]}"#))
    }

    @Test func ctrlAndTheLeftButtonDrawTooButTheLeftAloneIsTheVisitors() throws {
        let app = try AppRig.app()
        var editor = ContentEditor()
        let alone = Self.drag(&editor, app, from: Point(x: 100, y: 100), to: Point(x: 200, y: 200), button: 1)
        #expect(alone.allSatisfy { $0 == .notTaken })
        #expect(editor.take(.key(down: true, key: "Left Ctrl", repeat: false), app: app) == .notTaken)
        let drawn = Self.drag(&editor, app, from: Point(x: 100, y: 100), to: Point(x: 200, y: 200), button: 1)
        #expect(drawn.last == .hotspot(#"{"id": "map-2", "rect": [500, 500, 500, 500]}"#))
        // A click is not a rectangle.
        let click = Self.drag(&editor, app, from: Point(x: 100, y: 100), to: Point(x: 100, y: 100), button: 1)
        #expect(click.last == .taken)
    }

    @Test func aDrawnHotspotPastedIntoTheManifestIsWhereItWasDrawn() throws {
        let app = try AppRig.app()
        var editor = ContentEditor()
        guard
            case .hotspot(let json) = Self.drag(&editor, app, from: Point(x: 400, y: 300), to: Point(x: 500, y: 380))
                .last
        else {
            Issue.record("no hotspot")
            return
        }
        let text = AppRig.manifestText.replacingOccurrences(
            of: #""goto": "menu"}]"#, with: #""goto": "menu"}, \#(json)]"#)
        let m = try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        let pasted = KioskApp(manifest: m, physicalSize: Size(width: 800, height: 480)) { _ in
            ImageInfo(size: Size(width: 4000, height: 2400), loaded: true)
        }
        #expect(pasted.scene.hotspot(at: Point(x: 450, y: 340))?.id == "map-2")
        #expect(pasted.scene.hotspot(at: Point(x: 390, y: 340))?.id == nil)
    }

    @Test func gShowsTheGridInRoundNumbersOfPixels() throws {
        let app = try AppRig.app()
        var editor = ContentEditor()
        #expect(editor.overlay(app: app).isEmpty)
        #expect(editor.take(.key(down: true, key: "G", repeat: false), app: app) == .taken)
        #expect(editor.take(.key(down: false, key: "G", repeat: false), app: app) == .taken)
        let labels = editor.overlay(app: app).compactMap { c -> String? in
            if case .text(let run) = c { return run.text } else { return nil }
        }
        // Five pixels a point: a line every 500 pixels (90 points at least).
        #expect(labels == ["500", "1000", "1500", "2000", "2500", "3000", "3500", "500", "1000", "1500", "2000"])
        #expect(ContentEditor.gridStep(pointsPerPixel: 1) == 100)
        #expect(ContentEditor.gridStep(pointsPerPixel: 0.45) == 200)
        #expect(ContentEditor.gridStep(pointsPerPixel: 0.01) == 10_000)
        #expect(ContentEditor.gridStep(pointsPerPixel: 30) == 5)
        _ = editor.take(.key(down: true, key: "G", repeat: false), app: app)
        #expect(editor.overlay(app: app).isEmpty)
        // Under a title bar the grid begins below it: its lines and labels leave the title's words alone.
        let titled = ContentEditor.grid(
            origin: .zero, scale: 0.2, image: Size(width: 4000, height: 2400), screen: Size(width: 800, height: 480),
            top: 64)
        let tops = titled.compactMap { c -> Double? in
            switch c {
            case .fill(let r, _): r.minY
            case .text(let run): run.rect.minY
            default: nil
            }
        }
        #expect(!tops.isEmpty && tops.allSatisfy { $0 >= 64 })
        #expect(
            titled.count
                == ContentEditor.grid(
                    origin: .zero, scale: 0.2, image: Size(width: 4000, height: 2400),
                    screen: Size(width: 800, height: 480)
                ).count)
    }

    @Test func theBannerNamesTheProblemsAndGoesWhenTheyAreFixed() throws {
        let app = try AppRig.app()
        var editor = ContentEditor()
        editor.checked(problems: (1...6).map { "kiosk.json: scenes[\($0)].image: file not found" })
        let texts = editor.overlay(app: app).compactMap { c -> TextRun? in
            if case .text(let run) = c { return run } else { return nil }
        }
        #expect(texts.map(\.text).first == "kiosk.json: scenes[1].image: file not found")
        #expect(texts.map(\.text).last == "… and 2 more (kiosk --check)")
        #expect(texts.allSatisfy { $0.rect.maxY <= 480 && $0.rect.minY > 240 })
        editor.checked(problems: [])
        #expect(editor.overlay(app: app).isEmpty)
    }

    @Test func editingTurnsOffWhatWouldLeaveTheScene() throws {
        let m = try Manifest.parse(
            AppRig.manifestText.replacingOccurrences(
                of: #""idleTimeoutSeconds": 2,"#,
                with:
                    #""idleTimeoutSeconds": 2, "blankAfterSeconds": 60, "attract": {"afterSeconds": 5, "steps": [{"scene": "gallery", "seconds": 10}]},"#
            ), file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        #expect(m.idleTimeoutSeconds == 2 && m.attract != nil && m.blankAfterSeconds == 60)
        let e = m.forEditing
        #expect(e.idleTimeoutSeconds == 0 && e.attract == nil && e.blankAfterSeconds == 0 && e.scenes == m.scenes)
    }
}
