import ScrollEngine
import Testing

@testable import Kiosk

/// Larger text grows the words on a picture against it (EN 301 549 5.1.4); a text box on the picture keeps its
/// width and grows down, as Dynamic Type wraps a label, so that a caption that fitted its box still fits it
/// (before, the box stayed as it was and the larger words ended in an ellipsis).
@Suite struct OverlayGrowthTests {
    static func app(align: String) throws -> KioskApp {
        let text = """
            {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0,
             "scenes": [{"id": "map", "type": "zoom", "image": "map.png",
               "overlays": [{"text": "Tap the café", "rect": [1600, 1000, 800, 200], "size": 24, "align": "\(align)"}]}]}
            """
        let m = try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        return KioskApp(manifest: m, physicalSize: Size(width: 1920, height: 1080)) { _ in
            ImageInfo(size: Size(width: 4000, height: 2400), loaded: true)
        }
    }

    /// The overlay's run as drawn, in the screen's pixels, and its picture's frame.
    static func overlay(_ app: KioskApp) throws -> (run: TextRun, picture: Rect) {
        for case .picture(let p, _) in app.drawList() {
            return (try #require(p.words.first), p.frame)
        }
        throw CancellationError()
    }

    @Test(arguments: ["start", "center", "end"])
    func aBoxOnThePictureGrowsWithItsWords(align: String) throws {
        let app = try Self.app(align: align)
        app.step(to: 0)
        let before = try Self.overlay(app)
        app.tapControl(AccessibilityMenu.settingPrefix + "largerText")
        app.step(to: 100)
        #expect(app.access.largeText)
        let growth = app.textGrowth
        #expect(growth > 1.2)
        let after = try Self.overlay(app)
        // The picture keeps its pixels; the words grow by `growth`; their box keeps its width and grows down from
        // its middle to hold as many more lines (growth squared).
        #expect(abs(after.picture.width - before.picture.width) < 1)
        #expect(abs(after.run.size / before.run.size - growth) < 1e-6)
        let (b, a) = (before.run.rect, after.run.rect)
        #expect(abs(a.width - b.width) < 1e-6 && abs(a.minX - b.minX) < 1e-6)
        #expect(abs(a.height / b.height - growth * growth) < 1e-6)
        #expect(abs(a.midY - b.midY) < 1e-6)
        // Larger text off: the box is the picture's again.
        app.tapControl(AccessibilityMenu.settingPrefix + "largerText")
        app.step(to: 200)
        #expect(abs(try Self.overlay(app).run.rect.width - b.width) < 1e-6)
    }
}
