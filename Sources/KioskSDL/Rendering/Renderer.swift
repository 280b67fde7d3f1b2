import CSDL2
import Kiosk
import ScrollEngine

/// Executes a frame's draw list with SDL. The list is in scene points; each rectangle is turned onto the
/// physical screen here (`--rotate`), and the textures were turned once when they were made, so a turned
/// frame costs what an upright one does. Copies at one texture pixel per screen pixel land on whole pixels:
/// a plain copy, no filtering (UIKit also rounds to device pixels). Where a list lands is a `DrawContext`
/// passed down with it.
final class Renderer {
    /// Held so that the renderer outlives every texture made with it.
    let display: Display
    var renderer: OpaquePointer { display.renderer }
    let images: ImageStore
    var tiles: TileStore { images.tiles }
    var rotation: Rotation { display.rotation }
    let dot: OpaquePointer?
    let home: OpaquePointer?
    /// SDL's software renderer, which truncates float rectangles to whole pixels.
    let truncatesRects: Bool
    /// Pictures kept at their scale (software renderer only: a GPU scales for free).
    let layers: PictureLayers?
    /// The frame's tile query: which tiles it drew, missed and would like next.
    var query = TileQuery.everything
    /// Which pictures' scales are moving (`PictureScales`).
    var scales = PictureScales()
    /// Every SDL call of a frame goes through here.
    let calls: DrawCalls
    /// The pictures scene changes are drawn from.
    let snapshots: SceneSnapshots
    /// When the frame being drawn began (`SDL_GetPerformanceCounter`).
    var frameStart: UInt64 = 0
    /// The words drawn, as textures (a reload replaces it: fonts may change).
    private(set) var words: TextStore
    /// A list's thumbnails (made when a list first shows one; a reload replaces them: files may change), and
    /// what wakes the frame loop when one is decoded.
    var thumbnails: ThumbnailStore?
    /// The videos playing (docs/video.md).
    private(set) lazy var videos = VideoStore(
        renderer: renderer, rgbFormat: display.isSoftware ? display.textures.opaqueFormat : nil,
        synchronous: tiles.synchronous)
    var onThumbnail: (@Sendable () -> Void)?

    init(display: Display, images: ImageStore, fonts: [String: String], textureBudgetBytes: Int) {
        self.display = display
        let renderer = display.renderer
        self.images = images
        calls = DrawCalls(display: display)
        snapshots = SceneSnapshots(display: display)
        truncatesRects = display.isSoftware
        layers = truncatesRects ? PictureLayers(screen: display.size) : nil
        dot = makeTexture(display.textures, size: 64) { x, y in
            // A white disc with a one-pixel soft edge.
            let d = ((x - 32) * (x - 32) + (y - 32) * (y - 32)).squareRoot()
            return (255, 255, 255, max(0, min(1, 31.5 - d)))
        }
        home = makeTexture(display.textures, size: 128, HomeIcon.pixel)
        words = TextStore(
            fonts: FontBook(named: fonts), textures: display.textures,
            budgetBytes: TextureBudget.words(textureBudgetBytes))
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    }

    /// Draws the app's current frame at `ms`: takes the tiles decoded since the last frame, draws, and asks for
    /// the tiles the frame missed. Returns the draw list (the benchmark replays it).
    @discardableResult
    func draw(_ shown: KioskFrame, of app: KioskApp, at ms: Double) -> [DrawCommand] {
        frameStart = SDL_GetPerformanceCounter()
        tiles.beginFrame(at: ms)
        images.prepare(shown.scene.imagePaths + (shown.outgoing?.imagePaths ?? []))
        query = TileQuery { [tiles] key in tiles.isLoaded(key) }
        query.opacity = { [tiles] key in tiles.opacity(key) }
        if let transition = shown.transition, let outgoing = shown.outgoing,
            !transition.reload || snapshots.shownBeforeReload != nil || snapshots.running?.transition == transition
        {
            drawTransition(transition, from: outgoing, to: shown, of: app, at: ms)
            return []
        }
        snapshots.endTransition()
        snapshots.dropShownBeforeReload()
        let list = withTilesAtHand { app.drawList(tiles: &$0) }
        draw(
            list, in: frameContext(scene: shown.scene, background: app.manifest.background, sceneSize: shown.drawSize))
        tiles.request(missing: self.query.missing, prefetch: self.query.prefetch)
        tiles.endBlends()
        return list
    }

    /// What `make` returns with the frame's tile query (`query`): the tiles it missed that are at hand are
    /// loaded and it is made again, so they are drawn this frame (`TileStore.loadAtHand`).
    func withTilesAtHand<T>(_ make: (inout TileQuery) -> T) -> T {
        let before = query
        let made = make(&query)
        guard tiles.loadAtHand(query.missing[before.missing.count...]) else { return made }
        query = before
        return make(&query)
    }

    /// Whether the last frame showed the picture as a frame at rest should: no visible tile missing (a stand-in
    /// drawn for it) and none that needs another frame.
    var pictureIsComplete: Bool {
        query.missing.isEmpty && !pictureNeedsFrame && !(thumbnails?.isLoading ?? false) && images.loading.shown.isEmpty
    }

    /// Whether the picture needs another frame whatever the app does: a tile blending in (GL renderers), or
    /// decoded and waiting for its upload (more than the last frame's upload budget took).
    var pictureNeedsFrame: Bool {
        tiles.isBlending || tiles.hasDecodedWaiting || (thumbnails?.hasDecodedWaiting ?? false) || images.hasArrived
    }

    /// A whole screen's frame of `scene` (nil: a list that belongs to no scene) of `sceneSize`.
    func frameContext(scene: Scene?, background: RGB, sceneSize: Size) -> DrawContext {
        DrawContext(
            box: sceneSize, targetSize: display.size, background: background, scene: scene,
            paths: scene?.imagePaths ?? [], rotation: rotation)
    }

    /// New content replaces the old: its images are retired (but those it shows unchanged), its kept pictures
    /// dropped, its words too unless its fonts are the old ones, its texture budget taken.
    func contentChanged(keeping paths: Set<String>, fonts: FontFingerprint, textureBudgetBytes: Int) {
        // The words stay when their fonts and their budget do: the new content's first frames draw what was
        // already made, not every word again.
        let wordsBudget = TextureBudget.words(textureBudgetBytes)
        if words.fonts.fingerprint != fonts || words.budgetBytes != wordsBudget {
            words = TextStore(fonts: FontBook(named: fonts.named), textures: display.textures, budgetBytes: wordsBudget)
            words.fonts.fingerprint = fonts
        }
        tiles.setBudget(TextureBudget.tiles(textureBudgetBytes))
        images.budgetBytes = TextureBudget.pictures(textureBudgetBytes)
        thumbnails = nil
        images.retire(keeping: paths)
        layers?.drop()
        scales = PictureScales()
    }

    /// The renderer reset its targets (`device` false: what was drawn into them is gone) or its device (true:
    /// every texture is; SDL_RENDER_DEVICE_RESET, after a GPU reset or a display unplugged): what depends on it
    /// is let go and made again as the next frames need it, from the files, the tile cache and the words.
    func resetTextures(device: Bool) {
        snapshots.dropAll()
        layers?.removeAll()
        guard device else { return }
        for t in tiles.cache.removeAll() { SDL_DestroyTexture(t) }
        images.remakeTextures()
        words.removeAll()
        thumbnails = nil
        scales = PictureScales()
    }

    /// Draws one frame of `list` in `context`. The list covers the whole screen (its `background` commands fill
    /// what no picture covers): nothing is cleared first.
    func draw(_ list: [DrawCommand], in context: DrawContext) {
        layers?.nextFrame()
        words.nextFrame()
        thumbnails?.nextFrame()
        scales.nextFrame()
        execute(list, in: context)
    }

    /// The screen has held still for a while: what the last frame did not draw is let go, and the heap's free
    /// pages go back to the system.
    func settle() {
        snapshots.settle()
        tiles.settle()
        layers?.settle()
        kiosk_trim_heap()
    }

    func execute(_ commands: [DrawCommand], in context: DrawContext) {
        for c in commands { execute(c, in: context) }
    }

    func execute(_ command: DrawCommand, in context: DrawContext) {
        switch command {
        case .image(let index, let source, let destination):
            guard index < context.paths.count else { return }
            let e = images.entry(context.paths[index])
            guard let texture = e.texture else {
                e.isLoading ? loading(destination, in: context) : placeholder(destination, in: context)
                return
            }
            copy(texture, source: source * e.scale, destination: destination, in: context)
        case .tile(let key, let source, let destination, let opacity):
            guard let texture = tiles.texture(key) else {
                if tiles.loading.contains(key.image) {
                    loading(destination, in: context)
                } else {
                    placeholder(destination, in: context)
                }
                return
            }
            // Opaque tiles are copied (blending is slow in software), except while one blends in over its stand-in.
            let opaque = isOpaqueTexture(texture)
            calls.perform(.blend(texture, opaque && opacity >= 1 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND))
            calls.perform(.alpha(texture, channel(opacity)))
            copy(texture, source: source, destination: destination, in: context)
        case .placeholder(let destination):
            placeholder(destination, in: context)
        case .fill(let rect, let color):
            setColor(color)
            let r = frect(context.screen(rect))
            if color.alpha >= 1 && truncatesRects {
                // Opaque on the CPU raster: written, not blended (a memset, not a blend per pixel), the same pixels
                // (SDL's software renderer truncates a float rectangle so).
                calls.perform(.fill(SDL_Rect(x: Int32(r.x), y: Int32(r.y), w: Int32(r.w), h: Int32(r.h))))
            } else {
                calls.perform(.fillF(r))
            }
        case .background(let rect):
            // Whole pixels, outward: a picture drawn after it covers any pixel it shares.
            let background = context.background
            calls.perform(.color(background.r, background.g, background.b, 255))
            let r = context.screen(rect)
            let x0 = r.minX.rounded(.down)
            let y0 = r.minY.rounded(.down)
            let whole = SDL_Rect(
                x: Int32(x0), y: Int32(y0), w: Int32(r.maxX.rounded(.up) - x0), h: Int32(r.maxY.rounded(.up) - y0))
            calls.perform(.fill(whole))
        case .dot(let center, let radius, let color):
            guard let dot else { return }
            calls.perform(.colorMod(dot, channel(color.red), channel(color.green), channel(color.blue)))
            calls.perform(.alpha(dot, channel(color.alpha)))
            let r = frect(
                context.screen(Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)))
            calls.perform(.copyF(dot, nil, r))
        case .homeButton(let rect):
            guard let home else { return }
            calls.perform(.copyF(home, nil, frect(context.screen(rect))))
        case .text(let run):
            drawText(run, in: context)
        case .thumbnail(let path, let destination):
            drawThumbnail(path, in: destination, context: context)
        case .picture(let picture, let commands):
            drawPicture(picture, commands, in: context)
        case .video(let shot):
            drawVideo(shot, in: context)
        }
    }

    func drawPicture(_ picture: Picture, _ commands: [DrawCommand], in context: DrawContext) {
        let id = PictureID(scene: context.scene?.config.id ?? "", index: picture.index)
        let moving = scales.isMoving(id, at: picture.scale) && !context.snapshotting
        // In software, what is drawn straight from the tiles (a moving zoom, tiles on their way, the stand-ins
        // of a picture at one texture pixel per screen pixel) is filtered to the nearest pixel: it lasts a few
        // frames. What stays on screen is drawn filtered, once, into the kept tiles (and so is all of a
        // transition's snapshot: it stays on screen as long as the transition lasts).
        var context = context
        if layers != nil && !context.snapshotting { context.scaleMode = SDL_ScaleModeNearest }
        let standsIn = moving && PictureLayers.wordsOutweighPixels(picture)
        if moving { layers?.forget(id, except: picture.scale, keepingLast: standsIn) }
        if let layers, let scene = context.scene, !isUnscaled(commands, in: context), !moving || standsIn {
            layers.draw(picture, in: scene, with: self, context: context, moves: moving)
            return
        }
        calls.batch { execute(commands, in: context) }
    }

    /// Whether the frame has time left for work that can wait (a picture's kept tiles): in real time, until
    /// `deferrableWithinMs` of it are spent (tiles uploaded, tiles kept so far); headless on the virtual clock
    /// always, so its screenshots are the same on every run.
    var frameHasRoom: Bool { tiles.synchronous || msSince(frameStart) < Self.deferrableWithinMs }
    /// Half a 60 Hz frame.
    static let deferrableWithinMs = 1000.0 / 60 / 2

    /// A frame took `ms` in all (drawn and presented): the next frame's uploads get what its own drawing left of
    /// `frameWorkMs` (animations draw alike from frame to frame), so uploads do not take a heavy frame past its
    /// time.
    func frameTook(_ ms: Double) {
        let drawing = ms - tiles.uploadedMs
        tiles.uploadBudgetMs = min(
            TileStore.maximumUploadMs, max(TileStore.minimumUploadMs, Self.frameWorkMs - drawing))
    }

    /// What a frame may take with its uploads, leaving the rest of a 60 Hz frame to the system.
    static let frameWorkMs = 12.0

    deinit {
        layers?.removeAll()
        for t in [dot, home] { if let t { SDL_DestroyTexture(t) } }
    }
}

/// Each picture's scale in the last frame and in this one: a picture whose scale changes (a pinch, a zoom
/// animation) is drawn directly, with nearest-pixel filtering in software; once it holds still it is kept.
struct PictureScales {
    private var last: [PictureID: Double] = [:]
    private var seen: [PictureID: Double] = [:]

    /// Whether picture `id`, drawn now at `scale`, was at another scale (or not drawn) in the last frame.
    mutating func isMoving(_ id: PictureID, at scale: Double) -> Bool {
        seen[id] = scale
        return last[id] != scale
    }

    /// A new frame: this frame's scales become the last.
    mutating func nextFrame() {
        last = seen
        seen = [:]
    }
}
