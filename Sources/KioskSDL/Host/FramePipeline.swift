import CSDL2
import Kiosk
import ScrollEngine

/// One frame, the same on every clock: the window's real-time loop, the virtual clock's and a benchmark's
/// session. The app has stepped to the frame's time (once, by the loop that owns it); the renderer draws it; `beforePresent` runs (screenshots, a
/// reload keeping the old content's last frame); the frame is presented and timed (the next frame's uploads get
/// what its drawing left); `afterPresent` runs; and the pictures coming next are decoded ahead in what is left.
final class FramePipeline {
    let app: KioskApp
    let renderer: Renderer
    let display: Display
    /// The longest a frame took to draw and present (without the wait for vsync).
    private(set) var worstMs = 0.0
    /// How many frames took longer than a frame at 60 Hz.
    private(set) var lateFrames = 0
    /// From each finger event to the return of the first present after it (real time only: nil on the virtual
    /// clock, where it means nothing); the loop that owns the clock says both times.
    var touchToPresent: TouchLatency?
    /// What each frame shown is handed to, in this order (`FrameLoop`'s; none for a benchmark's session).
    var observers: [any FrameObserver] = []

    init(app: KioskApp, renderer: Renderer, display: Display) {
        self.app = app
        self.renderer = renderer
        self.display = display
    }

    /// The frames drawn so far.
    private(set) var framesDrawn = 0

    /// Draws and presents the frame at `t` (the app stepped there: `shown`); its draw list.
    @discardableResult
    func frame<Failure: Error>(
        _ shown: KioskFrame, at t: Double, beforePresent: () throws(Failure) -> Void,
        afterPresent: (_ ms: Double) -> Void = { _ in }
    ) throws(Failure) -> [DrawCommand] {
        let start = SDL_GetPerformanceCounter()
        let list = renderer.draw(shown, of: app, at: t)
        try beforePresent()
        SDL_RenderPresent(display.renderer)
        let ms = msSince(start)
        renderer.frameTook(ms)
        worstMs = max(worstMs, ms)
        if ms > Runner.frameMs { lateFrames += 1 }
        framesDrawn += 1
        afterPresent(ms)
        renderer.images.prepareUpcoming(shown.upcomingPictures, moving: shown.needsFrame, spentMs: msSince(start))
        renderer.thumbnails?.prefetch(shown.upcomingThumbnails, pixels: Int(ListStyle.thumbnailSize))
        return list
    }
}
