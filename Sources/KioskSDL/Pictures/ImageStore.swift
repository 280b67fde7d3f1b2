import CSDL2
import CSDL2Image
import Foundation
import Kiosk
import ScrollEngine

/// Images as textures, loaded once. An image that fails to load is logged once (naming the file) and stands
/// as a placeholder; an image larger than the renderer's textures is scaled down to fit at load (tile
/// pyramids come with deep zoom). The pictures' whole textures are held to `budgetBytes`: beyond it those drawn
/// least recently (never one of the frame just drawn, nor one coming next) are let go, their size kept, and
/// decoded again when next drawn.
final class ImageStore {
    struct Entry {
        var texture: OpaquePointer?
        var info: ImageInfo
        /// Texture pixels per image pixel (below 1 when scaled down to fit a texture).
        var scale: Double
        /// The file as it was when loaded (a reload keeps the entry only while the file is the same).
        var identity: FileIdentity? = nil
        /// The frame it was last drawn in (`ImageStore.frame`; 0: never).
        var drawnInFrame = 0
        /// Its texture was let go to keep within the budget (its size stays known): decoded again when drawn.
        var isLetGo = false
        /// Still on its way from a worker (real clock): drawn as loading, not as broken.
        var isLoading = false

        /// What its texture holds (4 bytes a pixel).
        var textureBytes: Int {
            guard let texture else { return 0 }
            var w: Int32 = 0
            var h: Int32 = 0
            SDL_QueryTexture(texture, nil, nil, &w, &h)
            return Int(w) * Int(h) * 4
        }

        /// What shows where a picture cannot: nothing loaded (the scene draws its placeholder).
        static var placeholder: Entry { Entry(texture: nil, info: .missing, scale: 1) }
    }

    /// Held so that the renderer outlives every texture made with it.
    let display: Display
    var renderer: OpaquePointer { display.renderer }
    var maxTextureSize: Int? { display.maxTextureSize }
    var entries: [String: Entry] = [:]
    let tiles: TileStore
    /// A plain image larger than this (a side, in pixels) is drawn from a pyramid: GL renderers do not mipmap,
    /// so a large image zoomed far out would alias (SDL 2.26 has no mipmaps), and a Raspberry Pi 5's GPU takes no
    /// larger texture (`--check` says what each costs).
    static let pyramidThreshold = ContentCheck.largestWholePicture

    /// The most the pictures' whole textures hold (`TextureBudget.pictures`).
    var budgetBytes: Int
    /// The number of the frame being drawn (counted by `prepareUpcoming`, after each).
    var frame = 1
    /// The pictures coming next (the attract loop's, a carousel's pages a swipe away), set after each frame:
    /// never let go, so the budget is exceeded rather than a picture on its way decoded twice.
    var spared: Set<String> = []

    init(display: Display, tiles: TileStore, budgetBytes: Int) {
        self.display = display
        self.tiles = tiles
        self.budgetBytes = budgetBytes
        IMG_Init(Int32(IMG_INIT_PNG.rawValue | IMG_INIT_JPG.rawValue))
    }

    /// What this store's pictures are before they load (`ImageFacts`: its renderer's texture limit, whether it
    /// can cut large pictures into the cache folder), for the content's catalog.
    var facts: ImageFacts { ImageFacts(maxTextureSize: maxTextureSize, canCut: cacheFolder() != nil) }

    /// The number each pyramid picture's tiles are registered under (`TileKey.image`), by path: given when the
    /// content's catalog is numbered, kept while the picture is (a reload that keeps it keeps its tiles).
    var pyramidIDs: [String: Int] = [:]

    /// `catalog` with its pyramids numbered as this store registers them, kept as the content shown's: a picture
    /// it keeps keeps its number, a new one takes the next (never reused: a retired pyramid's late tiles are
    /// recognised by it).
    func number(_ catalog: ImageCatalog) -> ImageCatalog {
        var numbered = catalog
        for (path, info) in catalog.infos.sorted(by: { $0.key < $1.key }) where info.pyramid != nil {
            numbered.infos[path]?.id = pyramidID(path)
        }
        self.catalog = numbered
        return numbered
    }

    /// The catalog of the content shown, as numbered.
    var catalog = ImageCatalog()

    /// The pictures of a scene about to be drawn (`paths`) that load before its draw list is made: a pyramid is
    /// registered (the draw list asks for its tiles by number), and a picture the catalog found broken is tried,
    /// so the reason is said once, when its scene first shows. A plain picture loads when it is drawn.
    func prepare(_ paths: [String]) {
        collectCuts()
        loading.shown.removeAll()
        for path in paths where entries[path] == nil {
            let info = catalog[path]
            if info.pyramid != nil || !info.loaded { _ = loaded(path) }
        }
    }

    /// The number of pyramid picture `path`: its own, or the next.
    func pyramidID(_ path: String) -> Int {
        if let id = pyramidIDs[path] { return id }
        pyramidIDs[path] = nextPyramidID
        nextPyramidID += 1
        return nextPyramidID - 1
    }

    /// What the pictures' whole textures hold (4 bytes a pixel; a pyramid's tiles are the tile cache's).
    var textureBytes: Int { entries.values.reduce(0) { $0 + $1.textureBytes } }

    /// The image to draw now: loaded, or decoded again if it was let go, and marked drawn in this frame. On the
    /// real clock a plain picture not yet decoded is decoded on a worker and drawn as loading meanwhile.
    func entry(_ path: String) -> Entry {
        if entries[path].map({ $0.isLetGo }) ?? true, !synchronous, let waiting = decodingAhead(path) {
            loading.shown.insert(path)
            return waiting
        }
        var e = entries[path].flatMap { $0.isLetGo ? nil : $0 } ?? loaded(path)
        e.drawnInFrame = frame
        entries[path] = e
        if e.isLoading { loading.shown.insert(path) }
        return e
    }

    /// Whether pictures load before the frame that draws them (headless on the virtual clock, so that every run
    /// draws the same), rather than on workers while frames show them loading.
    var synchronous: Bool { tiles.synchronous }

    /// Loads `path` (its decoding ahead if ready) as an entry, within the budget.
    func loaded(_ path: String) -> Entry {
        let identity = FileIdentity(path)
        var e = load(path)
        e.identity = identity
        entries[path] = e
        letGoBeyondBudget(sparing: path)
        return e
    }

    /// Whether `e` was drawn in the frame being drawn or the one before.
    func isOnScreen(_ e: Entry) -> Bool { e.drawnInFrame > 0 && e.drawnInFrame + 1 >= frame }

    /// Whether picture `path` loaded as a placeholder (its file broken past what its header said).
    func isPlaceholder(_ path: String) -> Bool { entries[path].map { !$0.info.loaded } ?? false }

    /// Whether `path` has no texture it could have: never loaded, or let go.
    func needsTexture(_ path: String) -> Bool { entries[path].map(\.isLetGo) ?? true }

    /// Lets go of the whole textures beyond `budgetBytes`, the least recently drawn first; never one on screen
    /// (drawn in the frame being drawn or the one before), one `spared`, or `path` (just loaded).
    func letGoBeyondBudget(sparing path: String? = nil) {
        var held = textureBytes
        guard held > budgetBytes else { return }
        let candidates = entries.filter { p, e in
            e.texture != nil && !isOnScreen(e) && p != path && !spared.contains(p)
        }
        for (going, e) in candidates.sorted(by: { $0.value.drawnInFrame < $1.value.drawnInFrame }) {
            guard held > budgetBytes else { return }
            held -= e.textureBytes
            SDL_DestroyTexture(e.texture)
            entries[going]?.texture = nil
            entries[going]?.isLetGo = true
        }
    }

    /// New content: every image it does not name, or whose file changed since it was loaded, is let go (its
    /// texture, its tiles); those it still shows unchanged stay loaded.
    func retire(keeping paths: Set<String>) {
        dropPrefetched()
        for (path, e) in entries where !paths.contains(path) || e.identity == nil || FileIdentity(path) != e.identity {
            if let t = e.texture { SDL_DestroyTexture(t) }
            if e.info.pyramid != nil { tiles.unregister(e.info.id) }
            entries[path] = nil
            pyramidIDs[path] = nil
        }
        pyramidIDs = pyramidIDs.filter { paths.contains($0.key) }
        for path in loading.cuts.keys where entries[path] == nil { loading.cuts[path] = nil }
    }

    /// The renderer's device was reset: every plain image's texture is gone, and is made again from its file
    /// (pyramids keep their sources; their tiles come back through the tile cache).
    func remakeTextures() {
        dropPrefetched()
        for (path, e) in entries where e.texture != nil {
            SDL_DestroyTexture(e.texture)
            var again = load(path)
            again.identity = e.identity
            again.drawnInFrame = e.drawnInFrame
            entries[path] = again
        }
    }

    /// The number the next pyramid is registered under (never reused: a retired pyramid's late tiles are
    /// recognised by it).
    var nextPyramidID = 1
    /// Called now and then during a long load on the frame loop's thread (a large picture cut into its tiles
    /// before its frame, on the virtual clock), so the service's watchdog knows the work goes on.
    var whileWorking: () -> Void = {}
    /// What is on its way from workers (real clock).
    var loading = Loading()

    /// A plain image is decoded whole: beyond this many pixels (512 megapixels, 2 GiB decoded) it is refused
    /// with a pointer to Deep Zoom rather than risking the kiosk's memory.
    static let maximumPixels = 1 << 29

    func load(_ path: String) -> Entry {
        if RegularFile.stalled.contains(path) {
            log(.warning, "\(path): cannot load the image (\(RegularFile.stalledMessage)); showing a placeholder")
            return .placeholder
        }
        if path.lowercased().hasSuffix(".dzi") { return loadDeepZoom(path) }
        // In real time the catalog's size (read when the content loaded) decides, so the frame thread reads
        // nothing of a large picture: a worker cuts it.
        if !synchronous, let p = catalog.infos[path]?.pyramid {
            return cutAhead(path, width: p.width, height: p.height, folder: cacheFolder())
        }
        if let (w, h) = headerSize(path) {
            if let problem = PictureLimits.sizeProblem(path, width: w, height: h) {
                log(.warning, "\(path): \(problem); showing a placeholder")
                return .placeholder
            }
            // A large plain image is cut into tiles kept in the cache folder once, read a band of rows at a time;
            // later starts read only the tiles they draw.
            let large = max(w, h) > min(Self.pyramidThreshold, maxTextureSize ?? Int.max)
            if large && !synchronous { return cutAhead(path, width: w, height: h, folder: cacheFolder()) }
            if large, let folder = cacheFolder() {
                let format = display.textures.opaqueFormat
                switch TileFile.open(
                    image: path, width: w, height: h, folder: folder, opaqueFormat: format, progress: whileWorking)
                {
                case .file(let file): return pyramidEntry(file, path: path, isOpaque: file.isOpaque)
                case .broken(let why):
                    log(.warning, "\(path): cannot load the image (\(why)); showing a placeholder")
                    return .placeholder
                case .notCut: break
                }
            }
            if let problem = PictureLimits.wholeDecodeProblem(width: w, height: h) {
                log(.warning, "\(path): \(problem); showing a placeholder")
                return .placeholder
            }
        }
        if adopting?.path == path {
            continueAdopting(whole: true)
            if let e = entries[path] { return e }
        }
        if let decoded = takePrefetched(path), let e = entry(decoded) { return e }
        var surface: UnsafeMutablePointer<SDL_Surface>
        switch decodeImage(path) {
        case .success(let s): surface = s
        case .failure(let p):
            log(.warning, "\(path): cannot load the image (\(p.message)); showing a placeholder")
            return .placeholder
        }
        defer { SDL_FreeSurface(surface) }
        let w = Int(surface.pointee.w)
        let h = Int(surface.pointee.h)
        guard w > 0, h > 0 else {
            log(.warning, "\(path): the image is empty; showing a placeholder")
            return .placeholder
        }
        let opaque = isOpaque(surface)
        if max(w, h) > Self.pyramidThreshold || max(w, h) > (maxTextureSize ?? Int.max),
            let source = MemoryPyramidSource(
                path: path, surface: surface, opaqueFormat: display.textures.opaqueFormat)
        {
            return pyramidEntry(source, path: path, isOpaque: opaque)
        }
        var scale = 1.0
        if let limit = maxTextureSize, max(w, h) > limit {
            scale = Double(limit) / Double(max(w, h))
            let sw = Int32(max(1, (Double(w) * scale).rounded(.down)))
            let sh = Int32(max(1, (Double(h) * scale).rounded(.down)))
            if let scaled = SDL_CreateRGBSurfaceWithFormat(0, sw, sh, 32, SDL_PIXELFORMAT_ARGB8888.rawValue) {
                SDL_SetSurfaceBlendMode(surface, SDL_BLENDMODE_NONE)
                SDL_UpperBlitScaled(surface, nil, scaled, nil)
                SDL_FreeSurface(surface)
                surface = scaled
                log(.info, "\(path): \(w)x\(h) is larger than a texture; scaled to \(sw)x\(sh)")
            }
        }
        guard let texture = display.textures.texture(surface) else {
            log(.warning, "\(path): cannot make a texture (\(sdlError())); showing a placeholder")
            return .placeholder
        }
        let info = ImageInfo(size: Size(width: Double(w), height: Double(h)), loaded: true, isOpaque: opaque)
        return Entry(texture: texture, info: info, scale: scale)
    }

    // MARK: Decoding ahead

    /// Images decoded ahead on a thread of their own, ready to become textures (a copy, no decoding), with
    /// their size and whether they are opaque.
    final class Prefetched: @unchecked Sendable {
        let lock = NSLock()
        var ready: [String: (UnsafeMutablePointer<SDL_Surface>, Int, Int, Bool)] = [:]
        /// Pictures the worker could not decode, and why.
        var failed: [String: String] = [:]

        func fail(_ path: String, _ why: String) {
            lock.lock()
            failed[path] = why
            lock.unlock()
        }
    }
    let prefetched = Prefetched()
    /// Called on the decoding thread when a picture is ready (the frame loop wakes to adopt it).
    var onPrefetched: (@Sendable () -> Void)?
    /// Paths asked for and not yet taken (main thread).
    var prefetching: Set<String> = []

    /// A picture decoded ahead being copied into its texture, `adoptRows` rows a frame while the screen moves,
    /// and the next row to copy.
    struct Adopting {
        var path: String
        var decoded: (UnsafeMutablePointer<SDL_Surface>, Int, Int, Bool)
        var texture: OpaquePointer
        var row: Int32
        var identity: FileIdentity?
    }
    var adopting: Adopting?
    /// Rows copied into a texture per frame: about 2 MB of a 2400-pixel-wide picture, under a millisecond.
    static let adoptRows: Int32 = 200
    /// A frame that took longer than this adopts nothing (a third of a 60 Hz frame).
    static let adoptWithinMs = 1000.0 / 60 / 3

    /// An image drawn from the tiles of `source`, registered with the tile store under its number.
    func pyramidEntry(_ source: any TileSource, path: String, isOpaque: Bool) -> Entry {
        let id = pyramidID(path)
        tiles.register(source, id: id)
        let p = source.pyramid
        let size = Size(width: Double(p.width), height: Double(p.height))
        return Entry(
            texture: nil, info: ImageInfo(size: size, loaded: true, pyramid: p, id: id, isOpaque: isOpaque), scale: 1)
    }

    /// A `.dzi`: the descriptor is read now, the tiles as they are needed.
    func loadDeepZoom(_ path: String) -> Entry {
        switch DeepZoomFileSource.descriptor(path) {
        case .success(let pyramid):
            // JPEG tiles have no alpha; PNG tiles may.
            let opaque = ["jpg", "jpeg"].contains(pyramid.format.lowercased())
            return pyramidEntry(DeepZoomFileSource(path: path, pyramid: pyramid), path: path, isOpaque: opaque)
        case .failure(let problem):
            log(.warning, "\(path): \(problem.message); showing a placeholder")
            return .placeholder
        }
    }

    deinit {
        dropPrefetched()
        for e in entries.values { if let t = e.texture { SDL_DestroyTexture(t) } }
        IMG_Quit()
    }
}

/// Which file a path names and what it holds, as far as `stat(2)` tells: a file replaced or rewritten has
/// another.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int
    var modifiedNanoseconds: Int

    init?(_ path: String) {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        device = UInt64(s.st_dev)
        inode = UInt64(s.st_ino)
        size = Int64(s.st_size)
        modified = s.st_mtim.tv_sec
        modifiedNanoseconds = s.st_mtim.tv_nsec
    }
}
