import CSDL2
import CSDL2Image
import Foundation
import Kiosk

/// The tiles of every pyramid image as textures: a byte-budgeted LRU cache, filled synchronously (headless,
/// so every picture is the same) or by worker threads with the uploads spread over frames (real time).
final class TileStore {
    /// Held so that the renderer outlives every texture made with it.
    let display: Display
    var renderer: OpaquePointer { display.renderer }
    var sources: [Int: any TileSource] = [:]
    var cache: TileCache<OpaquePointer>
    var failed: Set<TileKey> = []
    /// The images one of whose tiles failed and was logged.
    var failedImages: Set<Int> = []
    /// The pyramids still being cut on a worker (`ImageStore.cutAhead`): drawn as loading, not as failed.
    var loading: Set<Int> = []
    let synchronous: Bool
    let workers: TileWorkers?
    /// When a tile was uploaded (real time), for its blend-in.
    var arrived: [TileKey: Double] = [:]
    var now: Double = 0
    /// Uploads stop for the frame once this much time went on them: `maximumUploadMs`, or less when the last
    /// frame's own drawing left less of `Renderer.frameWorkMs` (the renderer sets it), but `minimumUploadMs`
    /// at least (tiles keep coming however heavy the frames).
    var uploadBudgetMs = TileStore.maximumUploadMs
    static let maximumUploadMs = 4.0
    static let minimumUploadMs = 1.0
    /// Time the last frame spent on uploads.
    private(set) var uploadedMs = 0.0
    /// A new tile blends in over its stand-in in this long (CATiledLayer fades its tiles in too), where blending
    /// is free: on a GPU. In software, blending a screenful of tiles costs more than a frame; there a tile
    /// appears at once.
    static let blendMs = 150.0
    let blendsIn: Bool

    /// Beyond this many bytes, tiles unused for `trimFrames` frames are let go (`softBudgetScreens` of pixels:
    /// the budget is a ceiling, not a target).
    private(set) var softBudget: Int
    /// Screens' worth of pixels kept beyond what a frame draws (a few: a pan back or a zoom out finds them).
    static let softBudgetScreens = 4.0
    /// One second at 60 frames a second (and how often the trim looks).
    static let trimFrames: UInt64 = 60
    var frames: UInt64 = 0

    init(display: Display, budgetBytes: Int, synchronous: Bool) {
        self.display = display
        cache = TileCache(budget: budgetBytes)
        softBudget = Self.softBudget(budgetBytes, display: display)
        self.synchronous = synchronous
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(display.renderer, &info)
        blendsIn = info.flags & SDL_RENDERER_SOFTWARE.rawValue == 0
        let (rotation, format) = (display.textures.rotation, display.textures.opaqueFormat)
        workers =
            synchronous
            ? nil
            : TileWorkers(count: TileWorkers.count(cores: TileWorkers.availableCores())) { surface in
                TextureMaker.prepare(surface, rotation: rotation, opaqueFormat: format)?.0
            }
    }

    /// Adds a pyramid under `id`, and loads its smallest levels (one tile each) at once, pinned: whatever is
    /// missing later, they stand in, so there is never a hole, and the first frame has a picture.
    func register(_ source: any TileSource, id: Int) {
        sources[id] = source
        loading.remove(id)
        for level in 0...source.pyramid.maxLevel {
            let grid = source.pyramid.tiles(level: level)
            guard grid.columns == 1 && grid.rows == 1 else { break }
            load(TileKey(image: id, level: level, column: 0, row: 0), pinned: true)
        }
    }

    /// Forgets the pyramid `id` (new content replaced it): its textures are freed, and its tiles still on their
    /// way are dropped when they arrive.
    func unregister(_ id: Int) {
        sources[id] = nil
        loading.remove(id)
        for t in cache.remove(where: { $0.image == id }) { SDL_DestroyTexture(t) }
        failed = failed.filter { $0.image != id }
        failedImages.remove(id)
        arrived = arrived.filter { $0.key.image != id }
    }

    /// Whether a tile can be drawn: loaded, or failed (a placeholder is drawn for it).
    func isLoaded(_ key: TileKey) -> Bool { cache.contains(key) || failed.contains(key) }

    /// Loads those of `keys` (tiles a draw list missed) that are at hand: every tile on the virtual clock, where
    /// each is loaded before its frame; an in-memory pyramid's, which costs less than a request. Whether any was
    /// (the draw list is then made again, and draws them this frame). The draw list itself only asks what is
    /// loaded (`TileQuery.isLoaded`): loading is the store's.
    func loadAtHand(_ keys: some Sequence<TileKey>) -> Bool {
        var loadedAny = false
        for key in keys where !isLoaded(key) {
            guard let source = sources[key.image] else {
                // A pyramid still being cut: drawn as loading until it is registered.
                if loading.contains(key.image) { continue }
                // A pyramid that did not load (the image store said why): a placeholder, as for a failed tile.
                failed.insert(key)
                loadedAny = true
                continue
            }
            guard synchronous || source.isCheap else { continue }
            load(key, pinned: false)
            loadedAny = true
        }
        return loadedAny
    }

    /// A loaded tile's opacity now: below 1 for `blendMs` after its upload.
    func opacity(_ key: TileKey) -> Double {
        guard let t = arrived[key] else { return 1 }
        return max(0.05, min(1, (now - t) / Self.blendMs))
    }

    /// The texture of a tile drawn this frame (nil for a tile that failed: the renderer draws a placeholder).
    func texture(_ key: TileKey) -> OpaquePointer? { cache.use(key) }

    var isBusy: Bool { workers?.isBusy ?? false }

    /// Decoded tiles wait for a frame to upload them (more than the last frame's upload budget took). Their
    /// worker's wake came and went: the loop must draw again rather than sleep with them.
    var hasDecodedWaiting: Bool { workers?.hasDone ?? false }

    /// Whether a tile is still blending in: the last frame drew one at less than full opacity, or one arrived
    /// and was not drawn yet. Frames are drawn until a frame draws every tile whole (a loop that stopped when
    /// the blend's time was up would sleep on a tile drawn at 90 %, or at 5 %).
    var isBlending: Bool { !arrived.isEmpty }

    /// A new frame at `ms`: takes what the workers decoded and uploads it within the frame's budget.
    func beginFrame(at ms: Double) {
        now = ms
        cache.nextFrame()
        endBlends()
        if frames % Self.trimFrames == 0 {
            for t in cache.trim(toSoftBudget: softBudget, unusedFor: Self.trimFrames) { SDL_DestroyTexture(t) }
        }
        frames += 1
        guard let workers else { return }
        let start = SDL_GetPerformanceCounter()
        defer { uploadedMs = msSince(start) }
        // One at a time, within the frame's budget; what does not fit waits for the next frame.
        while msSince(start) < uploadBudgetMs,
            let (key, box) = workers.takeDone(limit: 1).first
        {
            guard sources[key.image] != nil else {
                if let s = box.surface { SDL_FreeSurface(s) }
                continue
            }
            install(key, box.surface, pinned: false, prepared: true)
            if blendsIn { arrived[key] = now }
        }
    }

    /// Tiles that have blended in for `blendMs` are whole: drawn at full opacity by the frame that just ended, or
    /// not drawn (they left the screen) and with nothing left to blend.
    func endBlends() {
        arrived = arrived.filter { now - $0.value < Self.blendMs }
    }

    /// The soft budget for a budget of `budgetBytes` on `display`: `softBudgetScreens` of its pixels at most.
    static func softBudget(_ budgetBytes: Int, display: Display) -> Int {
        min(budgetBytes, Int(softBudgetScreens * display.size.width * display.size.height * 4))
    }

    /// New content's budget (`textureBudgetMiB`): a lower one lets the least recently used tiles go now.
    func setBudget(_ budgetBytes: Int) {
        for t in cache.setBudget(budgetBytes) { SDL_DestroyTexture(t) }
        softBudget = Self.softBudget(budgetBytes, display: display)
    }

    /// Once the screen holds still: every tile the last frame did not draw goes (the smallest levels stay), so
    /// memory settles near what the picture on screen needs.
    func settle() {
        for t in cache.trim(toSoftBudget: 0, unusedFor: 1) { SDL_DestroyTexture(t) }
    }

    /// After drawing: ask for the missing tiles (the visible ones first, then those a fling is heading to).
    func request(missing: [TileKey], prefetch: [TileKey]) {
        guard let workers else { return }
        var seen = Set<TileKey>()
        var list: [(TileKey, any TileSource)] = []
        for key in missing + prefetch where !cache.contains(key) && !failed.contains(key) && seen.insert(key).inserted {
            if let source = sources[key.image] { list.append((key, source)) }
        }
        workers.want(list)
    }

    func load(_ key: TileKey, pinned: Bool) {
        guard let source = sources[key.image] else { return }
        install(key, source.surface(level: key.level, column: key.column, row: key.row), pinned: pinned)
    }

    /// Makes a tile's texture (from a surface a worker already `prepared`, or from a decoded one) and caches it.
    func install(_ key: TileKey, _ surface: UnsafeMutablePointer<SDL_Surface>?, pinned: Bool, prepared: Bool = false) {
        guard let surface else {
            // One line per image, not per tile: a broken pyramid would fill the journal.
            if failed.insert(key).inserted, failedImages.insert(key.image).inserted, let source = sources[key.image] {
                log(
                    .warning,
                    "\(source.describe(level: key.level, column: key.column, row: key.row)): cannot load the tile "
                        + "(\(sdlError())); showing a placeholder for it and for any other tile of \(source.name) "
                        + "that fails (not logged again)")
            }
            return
        }
        defer { SDL_FreeSurface(surface) }
        let made =
            prepared
            ? display.textures.texture(prepared: surface, opaque: isOpaque(surface))
            : display.textures.texture(surface)
        guard let texture = made else {
            failed.insert(key)
            return
        }
        let bytes = Int(surface.pointee.w) * Int(surface.pointee.h) * 4
        for old in cache.insert(key, texture, bytes: bytes, pinned: pinned) { SDL_DestroyTexture(old) }
    }

    var peakBytes: Int { cache.peakBytes }

    deinit {
        workers?.stop()
        for t in cache.removeAll() { SDL_DestroyTexture(t) }
    }
}
