import ScrollEngine
import Testing

@testable import Kiosk

/// Images that depend on the language (docs/manifest.md: `"image": {"en": "menu-en.png", …}`): parsed per
/// scene and page, shown in the visitor's language, in place when the sizes match.
@Suite struct LanguageImagesTests {
    static let manifestText = """
        {"kioskManifest": 1, "home": "menu", "idleTimeoutSeconds": 5, "languages": ["en", "de", "ar"],
         "scenes": [
           {"id": "menu", "type": "zoom", "maxZoom": 2.0,
            "image": {"en": "menu-en.png", "de": "menu-de.png", "ar": "menu-ar.png"},
            "hotspots": [{"id": "more", "rect": [0, 0, 100, 100], "goto": "gallery", "description": "More"}]},
           {"id": "gallery", "type": "carousel",
            "pages": ["a.jpg", {"image": {"en": "b-en.jpg", "de": "b-de.jpg"}, "caption": "B"}]}
         ]}
        """

    /// Arabic's menu is taller than the others.
    static func app() throws -> KioskApp {
        let m = try Manifest.parse(manifestText, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        return KioskApp(manifest: m, physicalSize: Size(width: 800, height: 480)) { path in
            ImageInfo(size: Size(width: 1600, height: path.hasSuffix("-ar.png") ? 2400 : 1200), loaded: true)
        }
    }

    @Test func anImageIsAPathOrOnePerLanguage() throws {
        let check = Manifest.check(Self.manifestText, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        let m = try #require(check.manifest)
        #expect(m.scenes[0].imagePaths == ["/k/menu-en.png"])
        #expect(m.scenes[0].imagePaths(in: "de") == ["/k/menu-de.png"])
        #expect(m.scenes[1].imagePaths(in: "de") == ["/k/a.jpg", "/k/b-de.jpg"])
        // A language without its own image shows the first language's, and the check says so.
        #expect(m.scenes[1].imagePaths(in: "ar") == ["/k/a.jpg", "/k/b-en.jpg"])
        #expect(
            check.problems.map(\.description) == [
                #"k.json: scenes[1].pages[1].image: no "ar" image; it shows the "en" image"#
            ])
        #expect(Set(m.scenes[0].allImagePaths) == ["/k/menu-en.png", "/k/menu-de.png", "/k/menu-ar.png"])
        // A missing file of one language is an error naming it.
        let missing = Manifest.check(
            Self.manifestText, file: "k.json", baseDirectory: "/k", fileExists: { !$0.hasSuffix("menu-de.png") })
        #expect(
            missing.problems.map(\.description).contains("k.json: scenes[0].image.de: file not found: /k/menu-de.png"))
        // A language that is not offered is an error, as in a text.
        let other = Manifest.check(
            Self.manifestText.replacingOccurrences(of: #""ar": "menu-ar.png""#, with: #""fr": "menu-fr.png""#),
            file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        #expect(other.manifest == nil)
        #expect(other.problems.contains { $0.description.hasPrefix("k.json: scenes[0].image.fr: ") })
    }

    /// German's menu has the English one's size: it takes its place, the visitor's zoom and place kept; Arabic's
    /// is another size: the scene opens again, laid out for it.
    @Test func theVisitorsLanguageShowsItsImage() throws {
        let app = try Self.app()
        #expect(app.scene.imagePaths == ["/k/menu-en.png"])
        app.scene.view.setZoomScale(1.0, animated: false)
        app.scene.view.setContentOffset(Point(x: 300, y: 200), animated: false)
        app.chooseLanguage("de")
        #expect(app.scene.imagePaths == ["/k/menu-de.png"])
        #expect(app.scene.view.zoomScale == 1.0 && app.scene.view.contentOffset == Point(x: 300, y: 200))
        app.chooseLanguage("ar")
        #expect(app.scene.imagePaths == ["/k/menu-ar.png"])
        #expect(app.scene.images[0].size.height == 2400)
        #expect(app.scene.view.zoomScale < 1.0)
        // The idle reset (5 s after the last touch) returns to English, and to its image.
        app.tap(x: 0.5, y: 0.5, at: 100)
        AppRig.run(app, from: 0, to: 5000)
        #expect(app.language == "ar")
        AppRig.run(app, from: 5000, to: 6000)
        #expect(app.language == "en" && app.scene.imagePaths == ["/k/menu-en.png"])
    }
}
