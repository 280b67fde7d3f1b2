import CSDL2
import Foundation
import Kiosk
import Testing

@testable import KioskSDL

/// In `SDLEventTests`' serialized suite: SDL's state is the process's.
extension SDLEventTests {
    /// A frame's pixels (`kiosk-bench`'s `tourWorstFramePixels`), counted from its SDL calls: a scroll scene's
    /// first frame copies its picture over the whole screen (a screen), and a still frame after it writes the
    /// same again; each call is cut to its target and clip.
    @Test func aFramesPixelsAreCountedFromItsCalls() throws {
        let session = try attractSession(width: 320, height: 240)
        session.frame(at: 0)
        let first = Double(session.lastFramePixels) / Double(session.screenPixels)
        #expect(first >= 1 && first <= 2.5, "\(first) screens")
        let calls = DrawCalls(display: session.display)
        var screen = SDL_Rect(x: -100, y: -100, w: 1000, h: 1000)
        #expect(calls.pixelsWritten([.fill(screen)]) == 320 * 240, "cut to the screen")
        screen = SDL_Rect(x: 10, y: 10, w: 20, h: 20)
        #expect(calls.pixelsWritten([.clip(SDL_Rect(x: 0, y: 0, w: 15, h: 15)), .fill(screen)]) == 25, "and its clip")
        #expect(calls.pixelsWritten([.fillF(SDL_FRect(x: 0.5, y: 0.5, w: 2, h: 2))]) == 9, "partly covered pixels")
    }
}
