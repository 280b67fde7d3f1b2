import ScrollEngine
import Testing

@testable import Kiosk

/// `KioskApp.reload` (docs/operations.md): what stays and what goes when new content is swapped in.
@Suite struct AppReloadTests {
    static func manifest(_ text: String) throws -> Manifest {
        try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
    }

    @Test func theSceneAndItsPositionAreKeptWhenItsImageIs() throws {
        let app = try AppRig.app(scene: "menu")
        app.key("End", at: 100)
        AppRig.run(app, from: 100, to: 1500)
        let offset = app.scene.view.contentOffset
        #expect(offset.y > 0)
        _ = app.sink.take()
        // Another zoom limit elsewhere and another idle timeout: the menu is still the menu.
        let text = AppRig.manifestText.replacingOccurrences(of: "\"maxZoom\": 2.0", with: "\"maxZoom\": 4.0")
            .replacingOccurrences(of: "\"idleTimeoutSeconds\": 2", with: "\"idleTimeoutSeconds\": 60")
        app.reload(try Self.manifest(text))
        #expect(app.scene.config.id == "menu")
        #expect(app.scene.view.contentOffset == offset)
        #expect(app.manifest.idleTimeoutSeconds == 60)
        // New content fades in over the old as the screen showed it (the manifest's transition, a fade).
        #expect(
            app.sink.events.map(\.json) == [
                #"{"name": "sceneTransition", "from": "menu", "to": "menu", "style": "fade"}"#,
                #"{"name": "contentDidReload", "ok": true}"#,
            ])
        #expect(app.transition?.reload == true && app.transition?.duration == 300)
        #expect(app.outgoing != nil && app.outgoing !== app.scene)
    }

    /// A reload's fade follows the manifest's transition: none is a cut, and a long one is cut to 300 ms
    /// (docs/operations.md).
    @Test(arguments: [
        (#""transition": "none","#, nil), (#""transitionMs": 1000,"#, 300.0), ("", 300),
        (#""transitionMs": 120,"#, 120),
    ])
    func theFadeIsTheManifests(keys: String, duration: Double?) throws {
        let app = try AppRig.app(scene: "gallery")
        let text = AppRig.manifestText.replacingOccurrences(
            of: #""kioskManifest": 1,"#, with: #""kioskManifest": 1, "# + keys)
        app.reload(try Self.manifest(text))
        #expect(app.transition?.duration == duration)
        #expect(app.sink.events.contains { $0.name == "sceneTransition" } == (duration != nil))
    }

    @Test(arguments: [
        // The menu removed (and the hotspot that went to it).
        (
            #"{"id": "menu", "type": "scroll", "image": "menu.png"}"#,
            #"{"id": "other", "type": "scroll", "image": "menu.png"}"#
        ),
        // The menu showing another image.
        (#""image": "menu.png""#, #""image": "menu2.png""#),
    ])
    func otherwiseTheKioskGoesHome(old: String, new: String) throws {
        let app = try AppRig.app(scene: "menu")
        let text = AppRig.manifestText.replacingOccurrences(of: old, with: new)
            .replacingOccurrences(of: #""goto": "menu""#, with: #""goto": "gallery""#)
        app.reload(try Self.manifest(text))
        #expect(app.scene.config.id == "map")
        #expect(app.scene.view.zoomScale == app.scene.view.minimumZoomScale)
        #expect(app.sink.events.map(\.name) == ["sceneDidChange", "sceneTransition", "contentDidReload"])
        // The hotspot leads where the new manifest says.
        #expect(app.scene.config.hotspots[0].goto == "gallery")
    }

    @Test func aFailedReloadOnlySaysWhy() throws {
        let app = try AppRig.app(scene: "gallery")
        app.reload(failedWith: "k.json: not valid JSON")
        #expect(app.scene.config.id == "gallery")
        #expect(
            app.sink.events.map(\.json) == [
                #"{"name": "contentDidReload", "ok": false, "error": "k.json: not valid JSON"}"#
            ])
    }
}
