import CSDL2
import CSDL2Image
import Foundation
import Kiosk
import Testing

@testable import KioskSDL

/// In `SDLEventTests`' serialized suite: SDL's state is the process's.
extension SDLEventTests {
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets")
    static let images = assets.appendingPathComponent("images").path

    /// A kiosk whose attract loop shows a scroll scene, then a gallery of two pictures, 10 s after it starts.
    func attractSession(width: Int = 320, height: Int = 240, synchronous: Bool = true) throws -> HeadlessSession {
        let path = NSTemporaryDirectory() + "kiosk-prefetch-\(UUID().uuidString).json"
        try """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0,
         "attract": {"afterSeconds": 10, "steps": [{"scene": "map", "seconds": 2}, {"scene": "gallery", "seconds": 2}]},
         "scenes": [
           {"id": "map", "type": "scroll", "image": "\(Self.images)/menu-long.png"},
           {"id": "gallery", "type": "carousel", "pages": ["\(Self.images)/gallery-sunset.jpg", "\(Self.images)/gallery-night.jpg"]}
         ]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return try HeadlessSession(manifestPath: path, width: width, height: height, synchronous: synchronous)
    }

    /// Waits (real time: the decoding is a thread's) until `count` pictures decoded ahead are ready.
    func waitForPrefetched(_ session: HeadlessSession, count: Int) {
        for _ in 0..<500 {
            session.images.prefetched.lock.lock()
            let n = session.images.prefetched.ready.count
            session.images.prefetched.lock.unlock()
            if n == count { return }
            usleep(10_000)
        }
    }

    /// In the last 5 s before the attract loop starts, the pictures of its other scenes are decoded on another
    /// thread and, as nothing moves, made into textures at once; the loop's gallery then finds them ready
    /// instead of decoding them in a frame.
    @Test func theAttractLoopsPicturesAreReadyBeforeItStarts() throws {
        setenvDummy()
        let session = try attractSession()
        var t = 0.0
        func frame() {
            t += 1000.0 / 60
            session.frame(at: t)
        }
        let gallery = ["\(Self.images)/gallery-sunset.jpg", "\(Self.images)/gallery-night.jpg"]
        while t < 4980 { frame() }
        #expect(session.app.upcomingImagePaths.isEmpty)
        #expect(session.images.prefetching.isEmpty)
        frame()
        frame()
        #expect(session.app.upcomingImagePaths == gallery)
        #expect(session.images.prefetching.count == 2)
        waitForPrefetched(session, count: 2)
        // The kiosk is at rest: one frame makes both textures.
        frame()
        #expect(!session.app.isAttracting)
        #expect(gallery.allSatisfy { session.images.entries[$0]?.texture != nil })
        #expect(session.images.prefetching.isEmpty && session.images.adopting == nil)
        while session.app.scene.config.id != "gallery" { frame() }
        #expect(session.images.prefetched.ready.isEmpty)
        #expect(session.images.entries[gallery[1]]?.info.size.width == 2400)
    }

    /// While the screen moves, a picture decoded ahead is copied into its texture a band of rows a frame, and
    /// only after frames that left room for it; drawn before it is complete, the rest is copied at once. The
    /// texture shows exactly the picture.
    @Test func aPictureIsAdoptedInBandsWhileTheScreenMoves() throws {
        setenvDummy()
        let session = try attractSession(width: 640, height: 480)
        let images = session.images
        let path = "\(Self.images)/gallery-night.jpg"
        images.prefetch([path])
        waitForPrefetched(session, count: 1)
        images.adoptPrefetched(spentMs: 10, moving: true)
        #expect(images.adopting == nil, "a frame that took 10 ms adopts nothing")
        images.adoptPrefetched(spentMs: 1, moving: true)
        #expect(images.adopting?.row == 0, "the empty texture first")
        images.adoptPrefetched(spentMs: 1, moving: true)
        images.adoptPrefetched(spentMs: 1, moving: true)
        #expect(images.adopting?.row == 2 * ImageStore.adoptRows)
        #expect(images.entries[path] == nil)
        // Its scene is shown before the last band: the rest is copied there and then.
        let texture = try #require(images.entry(path).texture)
        #expect(images.adopting == nil)
        // Exactly what a texture made from the file in one go shows.
        guard let surface = IMG_Load(path), let direct = session.display.textures.texture(surface) else {
            Issue.record("cannot load \(path)")
            return
        }
        SDL_FreeSurface(surface)
        defer { SDL_DestroyTexture(direct) }
        /// 480 rows of the picture from row `y`, as the screen shows them.
        func pixels(_ t: OpaquePointer, from y: Int32) -> [UInt32] {
            var source = SDL_Rect(x: 0, y: y, w: 640, h: 480)
            SDL_RenderCopy(session.display.renderer, t, &source, nil)
            var out = [UInt32](repeating: 0, count: 640 * 480)
            SDL_RenderReadPixels(session.display.renderer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, &out, 640 * 4)
            return out
        }
        // The bands copied one a frame, and the rest copied at once.
        #expect(pixels(texture, from: 0) == pixels(direct, from: 0))
        #expect(pixels(texture, from: 1600 - 480) == pixels(direct, from: 1600 - 480))
    }
}

extension SDLEventTests {
    /// A gallery whose pages are each larger than the pictures' budget (8 MiB of texture budget: 4 MiB for
    /// pictures, a page 15 MB): the page shown and the one a swipe away are held anyway, each decoded once (no
    /// picture on screen let go for another and decoded again every frame); the page two swipes away is not held.
    @Test func pagesLargerThanTheBudgetAreHeldWhereTheyAreSeenAndDecodedOnce() throws {
        let path = NSTemporaryDirectory() + "kiosk-budget-\(UUID().uuidString).json"
        let pages = ["gallery-sunset.jpg", "gallery-night.jpg", "gallery-mountains.jpg"].map { "\(Self.images)/\($0)" }
        try """
        {"kioskManifest": 1, "idleTimeoutSeconds": 0, "textureBudgetMiB": 8,
         "scenes": [{"id": "gallery", "type": "carousel", "pages": [\(pages.map { "\"\($0)\"" }.joined(separator: ", "))]}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let session = try HeadlessSession(manifestPath: path, width: 320, height: 240, synchronous: true)
        // The next page is decoded ahead on a thread and made a texture after a frame: frames until it is.
        var frame = 0
        repeat {
            session.frame(at: Double(frame) * 1000 / 60)
            frame += 1
            if session.images.needsTexture(pages[1]) { usleep(10_000) }
        } while session.images.needsTexture(pages[1]) && frame < 500
        let held = pages.map { session.images.entries[$0]?.texture }
        #expect(held[0] != nil && held[1] != nil, "the page shown and the next")
        // The page two swipes away is not held: never decoded (the catalog knew its size), or let go.
        #expect(held[2] == nil && session.images.entries[pages[2]].map(\.isLetGo) ?? true, "the page two swipes away")
        for i in frame..<frame + 30 { session.frame(at: Double(i) * 1000 / 60) }
        #expect(pages.map { session.images.entries[$0]?.texture } == held, "each decoded once")
    }
}
