import CSDL2
import Foundation
import Testing

@testable import KioskSDL

/// In `SDLEventTests`' serialized suite: SDL's state is the process's.
extension SDLEventTests {
    /// Work that can wait shares a frame's time: the next frame's uploads get what the last frame's drawing left
    /// of 12 ms (1 ms at least, 4 at most), and a picture's tiles are kept only in the first half of a frame in
    /// real time (always on the virtual clock, whose screenshots must not depend on the machine's speed).
    @Test func deferrableWorkSharesTheFrame() throws {
        setenvDummy()
        let session = try attractSession()
        let renderer = session.renderer
        #expect(renderer.tiles.uploadBudgetMs == 4)
        renderer.frameTook(9)
        #expect(renderer.tiles.uploadBudgetMs == 3)
        renderer.frameTook(11.5)
        #expect(renderer.tiles.uploadBudgetMs == 1)
        renderer.frameTook(30)
        #expect(renderer.tiles.uploadBudgetMs == 1)
        renderer.frameTook(2)
        #expect(renderer.tiles.uploadBudgetMs == 4)

        let virtual = session
        virtual.renderer.frameStart = 0
        #expect(virtual.renderer.frameHasRoom)
        let realtime = try attractSession(synchronous: false)
        realtime.renderer.frameStart = SDL_GetPerformanceCounter()
        #expect(realtime.renderer.frameHasRoom)
        realtime.renderer.frameStart = SDL_GetPerformanceCounter() - SDL_GetPerformanceFrequency() / 100
        #expect(!realtime.renderer.frameHasRoom, "10 ms into the frame")
    }
}
