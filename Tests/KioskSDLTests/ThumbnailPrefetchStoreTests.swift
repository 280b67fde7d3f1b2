import Foundation
import Kiosk
import Testing

@testable import KioskSDL

/// In `SDLEventTests`' serialized suite: SDL's state is the process's.
extension SDLEventTests {
    /// A thumbnail asked for ahead is decoded on the thumbnails' thread before its row is drawn: the first time
    /// the row asks for it, it is ready.
    @Test func aThumbnailAskedAheadIsReadyWhenItsRowArrives() throws {
        setenvDummy()
        let session = try attractSession()
        let store = ThumbnailStore(textures: session.display.textures, synchronous: false, notify: nil)
        let path = "\(Self.images)/gallery-sunset.jpg"
        store.prefetch([path], pixels: 64)
        #expect(store.isLoading)
        for _ in 0..<500 where store.isLoading {
            store.nextFrame()
            usleep(10_000)
        }
        guard case .ready = store.thumbnail(path, pixels: 64) else {
            Issue.record("not ready when its row asks for it")
            return
        }
    }
}
