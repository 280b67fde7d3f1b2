import CSDL2
import EventLog
import Testing

@testable import KioskSDL

/// One smoke test through SDL_PushEvent: SDL overwrites the timestamp, so replay does not use
/// this path, but the conversion of SDL's events must hold.
@Suite(.serialized) struct SDLEventTests {
    @Test func fingerMouseKeyAndQuitThroughSDL() throws {
        setenvDummy()
        #expect(SDL_Init(SDL_INIT_EVENTS) == 0)
        defer { SDL_Quit() }
        var finger = SDL_Event()
        finger.tfinger.type = SDL_FINGERDOWN.rawValue
        finger.tfinger.touchId = 7
        finger.tfinger.fingerId = 3
        finger.tfinger.x = 0.25
        finger.tfinger.y = 0.75
        finger.tfinger.pressure = 1
        var wheel = SDL_Event()
        wheel.wheel.type = SDL_MOUSEWHEEL.rawValue
        wheel.wheel.y = -2
        wheel.wheel.preciseY = -2
        var fromTouch = SDL_Event()
        fromTouch.button.type = SDL_MOUSEBUTTONDOWN.rawValue
        fromTouch.button.which = kiosk_touch_mouse_id()
        var quit = SDL_Event()
        quit.type = SDL_QUIT.rawValue
        for var e in [finger, wheel, fromTouch, quit] { #expect(SDL_PushEvent(&e) == 1) }
        var got: [EventLog.Event] = []
        var e = SDL_Event()
        while SDL_PollEvent(&e) != 0 { if let event = logEvent(e) { got.append(event) } }
        #expect(
            got == [
                .finger(.down, touchId: 7, fingerId: 3, x: 0.25, y: 0.75, dx: 0, dy: 0, pressure: 1),
                .mouseWheel(x: 0, y: -2, preciseX: 0, preciseY: -2), .quit,
            ])
    }

    func setenvDummy() { setenv("SDL_VIDEODRIVER", "dummy", 1) }
}
