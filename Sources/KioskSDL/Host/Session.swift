import CSDL2
import Kiosk
import ScrollEngine

/// A headless kiosk driven frame by frame by its owner: for benchmarks and tools that time the real renderer.
public final class HeadlessSession {
    public let app: KioskApp
    let display: Display
    let images: ImageStore
    let renderer: Renderer
    let pipeline: FramePipeline

    /// How this session's plain copies are made, once measured (`CopyCalibration`): the method, and each
    /// candidate's fastest batch per 1920x1080 screen (ms). Nil before the measurement ends.
    public var rowCopies: (choice: String, milliseconds: [String: Double])? {
        guard let c = display.rowCopy?.calibration, let choice = c.measured else { return nil }
        return (
            choice.rawValue,
            Dictionary(
                uniqueKeysWithValues: CopyCalibration.perScreen(c.bestPerMiB).map { ($0.key.rawValue, $0.value) })
        )
    }

    /// Opens `manifestPath` on SDL's dummy driver at `width` x `height`, in scene `scene` (or home). Tiles
    /// load on worker threads unless `synchronous`.
    public init(
        manifestPath: String, width: Int, height: Int, scene: String? = nil, synchronous: Bool = false,
        rotation: Rotation = .none
    ) throws(KioskError) {
        let manifest = try Runner.loadManifest(manifestPath)
        display = try Display(mode: .headless(width: width, height: height), rotation: rotation)
        let tiles = TileStore(
            display: display, budgetBytes: TextureBudget.tiles(manifest.textureBudgetBytes), synchronous: synchronous)
        images = ImageStore(
            display: display, tiles: tiles, budgetBytes: TextureBudget.pictures(manifest.textureBudgetBytes))
        renderer = Renderer(
            display: display, images: images, fonts: manifest.fonts, textureBudgetBytes: manifest.textureBudgetBytes)
        app = KioskApp(
            manifest: manifest, physicalSize: display.size, rotation: rotation, startScene: scene,
            images: images.number(images.facts.catalog(manifest)),
            metrics: TextMetricsReader.metrics(manifest, fonts: renderer.words.fonts))
        pipeline = FramePipeline(app: app, renderer: renderer, display: display)
    }

    /// Steps to `ms` and draws and presents one frame as the kiosk's loops do (`FramePipeline`); returns its
    /// draw list. Its SDL calls are kept for `replayCalls`.
    @discardableResult
    public func frame(at ms: Double) -> [DrawCommand] {
        renderer.calls.log.removeAll(keepingCapacity: true)
        renderer.calls.recording = true
        let shown = app.step(to: ms)
        // The calls recorded are the frame's drawing: presenting is not one of them.
        let list = pipeline.frame(shown, at: ms, beforePresent: { [renderer] in renderer.calls.recording = false })
        _ = app.endFrame(tracing: nil)  // as a frame of the real loop without a trace does
        return list
    }

    /// Performs the last frame's SDL calls again, exactly those, with nothing around them, and presents: what
    /// that frame cost SDL alone.
    public func replayCalls() {
        renderer.calls.replay(renderer.calls.log)
        SDL_RenderPresent(display.renderer)
    }

    /// The pixels the last frame wrote (copies, scaled copies, fills, clears), and the screen's: its work in
    /// screens, the same on every machine.
    public var lastFramePixels: Int { renderer.calls.pixelsWritten(renderer.calls.log) }
    public var screenPixels: Int { Int(display.size.width) * Int(display.size.height) }

    /// The most bytes the tile cache held.
    public var peakTextureBytes: Int { images.tiles.peakBytes }
    /// What the words drawn so far hold as textures.
    public var textTextureBytes: Int { renderer.words.bytes }

    /// Whether tiles are still being decoded or uploaded.
    public var isLoadingTiles: Bool { images.tiles.isBusy }
}
