import CSDL2
import Foundation
import Kiosk
import Testing

@testable import KioskSDL

/// In `SDLEventTests`' serialized suite: SDL's state is the process's.
extension SDLEventTests {
    /// While the attract loop shows the map, the gallery it shows next is decoded on another thread and made
    /// into textures one a frame; its scene then finds them ready instead of decoding them in a frame.
    @Test func theAttractLoopsNextSceneIsDecodedAhead() throws {
        setenvDummy()
        let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Assets/images").path
        let path = NSTemporaryDirectory() + "kiosk-prefetch-\(UUID().uuidString).json"
        try """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0,
         "attract": {"afterSeconds": 1, "steps": [{"scene": "map", "seconds": 2}, {"scene": "gallery", "seconds": 2}]},
         "scenes": [
           {"id": "map", "type": "scroll", "image": "\(images)/menu-long.png"},
           {"id": "gallery", "type": "carousel", "pages": ["\(images)/gallery-sunset.jpg", "\(images)/gallery-night.jpg"]}
         ]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let session = try HeadlessSession(manifestPath: path, width: 320, height: 240, synchronous: true)
        var t = 0.0
        func frame() {
            t += 1000.0 / 60
            session.frame(at: t)
        }
        while !session.app.isAttracting { frame() }
        #expect(session.app.upcomingImagePaths == ["\(images)/gallery-sunset.jpg", "\(images)/gallery-night.jpg"])
        frame()
        #expect(session.images.prefetching.count == 2)
        // Wait (real time) for the decoding thread.
        for _ in 0..<500 {
            session.images.prefetched.lock.lock()
            let n = session.images.prefetched.ready.count
            session.images.prefetched.lock.unlock()
            if n == 2 { break }
            usleep(10_000)
        }
        // Their textures are made one a frame while the map is still shown.
        frame()
        frame()
        #expect(session.app.scene.config.id == "map")
        #expect(session.images.entries["\(images)/gallery-night.jpg"]?.texture != nil)
        #expect(session.images.entries["\(images)/gallery-sunset.jpg"]?.texture != nil)
        while session.app.scene.config.id != "gallery" { frame() }
        // Both pages were taken from what was decoded ahead, and they are drawn.
        #expect(session.images.prefetching.isEmpty)
        #expect(session.images.prefetched.ready.isEmpty)
        #expect(session.images.entries["\(images)/gallery-night.jpg"]?.info.size.width == 2400)
        #expect(session.images.entries["\(images)/gallery-sunset.jpg"]?.texture != nil)
    }
}
