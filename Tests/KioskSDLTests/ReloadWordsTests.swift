import Foundation
import Kiosk
import Testing

@testable import KioskSDL

/// In `SDLEventTests`' serialized suite: SDL's state is the process's.
extension SDLEventTests {
    /// A reload whose fonts are the same files as before keeps the words already made: the new content's first
    /// frames draw them, not every word shaped and rasterised again (a new font book made the frame after each
    /// reload of the demo 20 ms). New font files, or the same named files changed on the disk, make them anew.
    @Test func aReloadWithTheSameFontsKeepsItsWords() throws {
        setenvDummy()
        let folder = NSTemporaryDirectory() + "kiosk-reload-words-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let font = try #require(FontBook.installedFont(covering: "en"))
        try FileManager.default.copyItem(atPath: font, toPath: folder + "/font.ttf")
        let path = folder + "/kiosk.json"
        try """
        {"kioskManifest": 1, "idleTimeoutSeconds": 0, "fonts": {"default": "\(folder)/font.ttf"},
         "scenes": [{"id": "a", "type": "zoom", "image": "\(Self.images)/floorplan.png",
          "overlays": [{"text": "Words", "rect": [0, 0, 2000, 1000], "size": 200}]}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let session = try HeadlessSession(manifestPath: path, width: 640, height: 400, synchronous: true)
        let fonts = ["default": folder + "/font.ttf"]
        let budget = session.app.manifest.textureBudgetBytes
        session.renderer.words.fonts.fingerprint = FontFingerprint(fonts)
        session.frame(at: 0)
        let words = session.renderer.words
        let made = words.made
        #expect(made > 0)
        session.renderer.contentChanged(keeping: [], fonts: FontFingerprint(fonts), textureBudgetBytes: budget)
        #expect(session.renderer.words === words)
        session.frame(at: 1000.0 / 60)
        #expect(session.renderer.words.made == made)
        // The same name, other bytes: a curator's new version of the font.
        let newer = Date().addingTimeInterval(10)
        try FileManager.default.setAttributes([.modificationDate: newer], ofItemAtPath: folder + "/font.ttf")
        session.renderer.contentChanged(keeping: [], fonts: FontFingerprint(fonts), textureBudgetBytes: budget)
        #expect(session.renderer.words !== words)
        session.frame(at: 2000.0 / 60)
        #expect(session.renderer.words.made > 0)
    }
}
