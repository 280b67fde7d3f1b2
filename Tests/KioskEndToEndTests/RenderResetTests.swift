import Foundation
import Testing

/// The renderer's resets replayed (`SDL_RENDER_TARGETS_RESET`, `SDL_RENDER_DEVICE_RESET`, as a GPU reset or a
/// display unplugged and back sends them): the kiosk lets go of what depended on them and draws the next frame
/// from its files, tiles and words: the screen after is the screen a run without the reset shows.
@Suite struct RenderResetTests {
    let dir = Kiosk.folder()

    /// The cafe tapped at 0 (the transition to the menu runs from 67 ms to 367 ms); a reset at `resetMs`; shots
    /// half way through the transition, and at rest at 1000 ms.
    func run(reset: String?, at resetMs: Double, _ name: String) throws -> (Picture, Picture, String) {
        let config = try Kiosk.manifest(Kiosk.demo, in: dir)
        var log = LogWriter(width: 320, height: 240)
        log.tap(0.323, 0.375, at: 0)
        if let reset { log.lines.append(#"{"timestamp": \#(resetMs), "type": "\#(reset)"}"#) }
        let shots = ["216.6", "1000"].map { dir.appendingPathComponent("\(name)-\($0).png").path }
        let r = try Kiosk.run(
            [
                "--headless", "320x240", "--config", config, "--replay", try log.write(dir, "\(name).jsonl"),
                "--screenshot", "216.6:\(shots[0])", "--screenshot", "1000:\(shots[1])",
            ], in: dir, trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        return (try #require(Picture(path: shots[0])), try #require(Picture(path: shots[1])), r.stderr)
    }

    @Test(arguments: ["SDL_RENDER_TARGETS_RESET", "SDL_RENDER_DEVICE_RESET"])
    func aResetDuringATransition(reset: String) throws {
        let plain = try run(reset: nil, at: 0, "plain")
        let reset = try run(reset: reset, at: 150, reset)
        #expect(reset.2.contains("<4>kiosk: the renderer reset its"), "\(reset.2)")
        // Half way: the transition drawn again from its scenes (the old one as it is now: at rest, the same).
        #expect(LookTests.difference(plain.0, reset.0) <= 1.5)
        #expect(LookTests.difference(plain.1, reset.1) <= 0.5)
    }

    /// A display lost and back, as a monitor power-cycled shows itself to a window: hidden, minimised, shrunk to
    /// a pixel, its size back, restored, shown, exposed, the device reset; then a swipe. The kiosk runs on and
    /// its screen is the one a run with the swipe alone shows.
    @Test func aDisplayLostAndBack() throws {
        let config = try Kiosk.manifest(Kiosk.demo, in: dir)
        func run(_ fault: Bool, _ name: String) throws -> Picture {
            var log = LogWriter(width: 320, height: 240)
            if fault {
                for (t, event, w, h) in [
                    (100, "SDL_WINDOWEVENT_HIDDEN", 0, 0), (150, "SDL_WINDOWEVENT_MINIMIZED", 0, 0),
                    (200, "SDL_WINDOWEVENT_SIZE_CHANGED", 1, 1), (300, "SDL_WINDOWEVENT_SIZE_CHANGED", 320, 240),
                    (350, "SDL_WINDOWEVENT_RESTORED", 0, 0), (400, "SDL_WINDOWEVENT_SHOWN", 0, 0),
                    (450, "SDL_WINDOWEVENT_EXPOSED", 0, 0),
                ] {
                    log.lines.append(
                        #"{"timestamp": \#(t), "type": "SDL_WINDOWEVENT", "event": "\#(event)", "data1": \#(w), "data2": \#(h)}"#
                    )
                }
                log.lines.append(#"{"timestamp": 500, "type": "SDL_RENDER_DEVICE_RESET"}"#)
            }
            log.drag(from: (0.5, 0.5), to: (0.2, 0.5), at: 1000)
            let shot = dir.appendingPathComponent("\(name).png").path
            let r = try Kiosk.run(
                [
                    "--headless", "320x240", "--config", config, "--scene", "gallery", "--replay",
                    try log.write(dir, "\(name).jsonl"), "--screenshot", "3000:\(shot)",
                ], in: dir, trace: false)
            #expect(r.status == 0, "\(r.stderr)")
            return try #require(Picture(path: shot))
        }
        #expect(LookTests.difference(try run(true, "lost"), try run(false, "plain")) <= 0.5)
    }
}
