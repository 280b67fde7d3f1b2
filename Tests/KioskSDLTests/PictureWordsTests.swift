import Foundation
import Kiosk
import ScrollEngine
import Testing

@testable import KioskSDL

/// In `SDLEventTests`' serialized suite: SDL's state is the process's.
extension SDLEventTests {
    /// Twenty overlays as large as the picture: their words are the picture's, kept in its tiles, so a pan
    /// copies them with its pixels; and where a tile is not kept yet, its square is drawn with only the square
    /// of each word (each word over the whole screen, once for every such square, made a frame of 24 screens
    /// and panning 120 ms a frame in software).
    @Test func wordsOnAPictureAreKeptWithIt() throws {
        setenvDummy()
        let path = NSTemporaryDirectory() + "kiosk-overlays-\(UUID().uuidString).json"
        let overlays = (0..<20).map { i in
            #"{"text": "\#(["ABC", "DEF", "GHI", "JKL"][i % 4])", "rect": [0, 0, 4800, 3000], "size": 400, "align": "center"}"#
        }
        try """
        {"kioskManifest": 1, "idleTimeoutSeconds": 0, "scenes": [{"id": "a", "type": "zoom", "maxZoom": 8,
          "image": "\(Self.images)/floorplan.png", "overlays": [\(overlays.joined(separator: ", "))]}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let session = try HeadlessSession(manifestPath: path, width: 1280, height: 720, synchronous: true)
        var screens: [Double] = []
        for i in 0..<3 {
            session.frame(at: Double(i) * 1000 / 60)
            screens.append(Double(session.lastFramePixels) / Double(session.screenPixels))
        }
        // The first frame keeps twelve tiles and draws the rest directly, the second keeps the rest, the third
        // copies them: about two screens (without the squares cut, the second frame was 34 screens; without the
        // words kept, every frame 9.5).
        #expect(screens[0] < 16 && screens[1] < 16, "\(screens)")
        #expect(screens[2] < 3, "\(screens)")
        let view = session.app.scene.view
        view.setZoomScale(view.maximumZoomScale, animated: false)
        var t = 100.0
        var zoomed: [Double] = []
        for _ in 0..<3 {
            t += 1000.0 / 60
            session.frame(at: t)
            zoomed.append(Double(session.lastFramePixels) / Double(session.screenPixels))
        }
        // The first frame zoomed in moved: it is drawn from the tiles kept at the scale before, magnified (every
        // word over the screen again was 21 screens, and a zoom's animation as many each frame). The next keeps
        // twelve tiles, each with every word, and draws the rest from the magnified tiles (with the squares of
        // each word drawn directly instead, 38 screens; without the squares cut, 259).
        #expect(zoomed[0] < 3, "\(zoomed)")
        #expect(zoomed[1] < 30, "\(zoomed)")
        // Zoomed in and at rest: a pan step copies the kept tiles (and keeps the few it uncovers).
        view.contentOffset = view.contentOffset + Point(x: 40, y: 0)
        t += 1000.0 / 60
        session.frame(at: t)
        let pan = Double(session.lastFramePixels) / Double(session.screenPixels)
        #expect(pan < 3, "\(pan) screens (21 without the words kept)")
    }

    /// A picture with a few labels keeps none of the tiles of the scale it left while it zooms (a screenful is
    /// 8 MiB at 1920x1080, and a zoom-1 pan carried them): only one whose words outweigh its pixels keeps them, to
    /// stand in while it moves.
    @Test func aZoomLetsGoOfTheTilesOfTheScaleItLeft() throws {
        setenvDummy()
        let path = NSTemporaryDirectory() + "kiosk-label-\(UUID().uuidString).json"
        try """
        {"kioskManifest": 1, "idleTimeoutSeconds": 0, "scenes": [{"id": "a", "type": "zoom", "maxZoom": 8,
          "image": "\(Self.images)/floorplan.png",
          "overlays": [{"text": "Hall", "rect": [100, 100, 600, 150], "size": 60}]}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let session = try HeadlessSession(manifestPath: path, width: 1280, height: 720, synchronous: true)
        for i in 0..<3 { session.frame(at: Double(i) * 1000 / 60) }
        let layers = try #require(session.renderer.layers)
        let rested = Set(layers.tiles.keys.map(\.scale))
        #expect(rested.count == 1, "\(rested)")
        let view = session.app.scene.view
        view.setZoomScale(view.maximumZoomScale, animated: false)
        session.frame(at: 100)
        #expect(!layers.tiles.keys.contains { rested.contains($0.scale) }, "\(Set(layers.tiles.keys.map(\.scale)))")
    }

    /// The words kept in a picture's tiles are its words in the visitor's language: after a language switch the
    /// tiles are drawn again with the new words (they kept showing the old language's).
    @Test func aLanguageSwitchRedrawsTheWordsInThePicture() throws {
        setenvDummy()
        let path = NSTemporaryDirectory() + "kiosk-overlays-\(UUID().uuidString).json"
        try """
        {"kioskManifest": 1, "idleTimeoutSeconds": 0, "languages": ["en", "de"], "scenes": [{"id": "a", "type": "zoom",
          "image": "\(Self.images)/floorplan.png",
          "overlays": [{"text": {"en": "Open daily", "de": "Täglich geöffnet"}, "rect": [0, 2600, 4800, 400], "size": 40}]}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let session = try HeadlessSession(manifestPath: path, width: 640, height: 400, synchronous: true)
        func picture(_ list: [DrawCommand]) -> Picture? {
            list.lazy.compactMap { if case .picture(let p, _) = $0 { p } else { nil } }.first
        }
        var t = 0.0
        for _ in 0..<3 {
            session.frame(at: t)
            t += 1000.0 / 60
        }
        let layers = try #require(session.renderer.layers)
        let english = try #require(picture(session.frame(at: t)))
        #expect(layers.tiles.keys.allSatisfy { $0.words == PictureLayers.wordsKey(english) })
        session.app.chooseLanguage("de")
        t += 1000.0 / 60
        let german = try #require(picture(session.frame(at: t)))
        #expect(german.words.map(\.text) == ["Täglich geöffnet"])
        #expect(PictureLayers.wordsKey(german) != PictureLayers.wordsKey(english))
        #expect(layers.tiles.keys.contains { $0.words == PictureLayers.wordsKey(german) })
        #expect(Double(session.lastFramePixels) / Double(session.screenPixels) > 1.5, "the tiles drawn again")
    }
}
