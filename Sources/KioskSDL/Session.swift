import CSDL2
import Kiosk
import ScrollEngine

/// A headless kiosk driven frame by frame by its owner: for benchmarks and tools that time the real renderer.
public final class HeadlessSession {
    public let app: KioskApp
    let display: Display
    let images: ImageStore
    let renderer: Renderer

    /// Opens `manifestPath` on SDL's dummy driver at `width` x `height`, in scene `scene` (or home).
    public init(manifestPath: String, width: Int, height: Int, scene: String? = nil) throws(KioskError) {
        let manifest = try Runner.loadManifest(manifestPath)
        display = try Display(mode: .headless(width: width, height: height))
        images = ImageStore(renderer: display.renderer, maxTextureSize: display.maxTextureSize)
        app = KioskApp(manifest: manifest, physicalSize: display.size, startScene: scene, imageInfo: images.info)
        renderer = Renderer(renderer: display.renderer, images: images, rotation: .none)
    }

    /// Steps to `ms` and draws and presents one frame.
    public func frame(at ms: Double) {
        app.step(to: ms)
        renderer.draw(app, screenSize: display.size)
        SDL_RenderPresent(display.renderer)
        _ = app.traceLine(frame: 0)  // drains the events, as a frame of the real loop does
    }
}
