import CSDL2
import CSDL2Image
import Foundation
import Kiosk

/// A decoded tile on its way from a worker to the render thread.
struct SurfaceBox: @unchecked Sendable {
    let surface: UnsafeMutablePointer<SDL_Surface>?
}

/// Where a pyramid's tiles come from. `surface` may be called from a worker thread.
protocol TileSource: AnyObject, Sendable {
    var pyramid: DeepZoomImage { get }
    /// Names the image in log lines.
    var name: String { get }
    /// Cheap sources are cut on the render thread; the others are decoded by the workers.
    var isCheap: Bool { get }
    func surface(level: Int, column: Int, row: Int) -> UnsafeMutablePointer<SDL_Surface>?
    func describe(level: Int, column: Int, row: Int) -> String
}

/// What is wrong with a Deep Zoom descriptor, as the check and the log say it.
struct DescriptorProblem: Error {
    var message: String
}

/// The tiles of a `.dzi`, one file each.
final class DeepZoomFileSource: TileSource {
    let pyramid: DeepZoomImage
    let name: String
    let folder: String
    let base: String
    var isCheap: Bool { false }

    /// The descriptor at `path`, read and parsed (the start, `--check` and loading the image read it alike).
    static func descriptor(_ path: String) -> Result<DeepZoomImage, DescriptorProblem> {
        guard case .success(let data) = RegularFile.read(path, limit: RegularFile.textLimit),
            let text = String(validating: data, as: UTF8.self)
        else { return .failure(DescriptorProblem(message: "cannot read the Deep Zoom descriptor")) }
        do { return .success(try DeepZoomImage.parse(text)) } catch {
            return .failure(DescriptorProblem(message: error.message))
        }
    }

    init(path: String, pyramid: DeepZoomImage) {
        self.pyramid = pyramid
        name = path
        folder = (path as NSString).deletingLastPathComponent
        base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    func describe(level: Int, column: Int, row: Int) -> String {
        let relative = DeepZoomImage.tilePath(
            name: base, level: level, column: column, row: row, format: pyramid.format)
        return folder.isEmpty ? relative : folder + "/" + relative
    }

    func surface(level: Int, column: Int, row: Int) -> UnsafeMutablePointer<SDL_Surface>? {
        try? decodeImage(describe(level: level, column: column, row: row)).get()
    }
}

/// A plain image too large for one texture (or large enough to alias when zoomed out), decoded once and kept as
/// a pyramid of halved surfaces; tiles are cut from it on demand.
final class MemoryPyramidSource: TileSource, @unchecked Sendable {
    static let tileSize = 512
    let pyramid: DeepZoomImage
    let name: String
    /// Level surfaces, index = level.
    let levels: [UnsafeMutablePointer<SDL_Surface>]
    var isCheap: Bool { true }

    /// The levels keep the picture's pixels in `opaqueFormat` where it has no alpha (then its tiles are copied,
    /// never blended), else in ARGB.
    init?(path: String, surface: UnsafeMutablePointer<SDL_Surface>, opaqueFormat: UInt32) {
        let format = keptFormat(surface, opaqueFormat)
        guard let top = SDL_ConvertSurfaceFormat(surface, format, 0) else { return nil }
        let w = Int(top.pointee.w)
        let h = Int(top.pointee.h)
        pyramid = DeepZoomImage(width: w, height: h, tileSize: Self.tileSize, overlap: 1, format: "memory")
        name = path
        var levels = [top]
        var level = pyramid.maxLevel
        while level > 0 {
            level -= 1
            let s = pyramid.size(level: level)
            guard let next = SDL_CreateRGBSurfaceWithFormat(0, Int32(s.width), Int32(s.height), 32, format)
            else { break }
            // Halving with linear filtering averages each 2 x 2 block: the smaller levels do not alias.
            SDL_SoftStretchLinear(levels[0], nil, next, nil)
            levels.insert(next, at: 0)
        }
        self.levels = levels
    }

    func describe(level: Int, column: Int, row: Int) -> String { "\(name) (level \(level), tile \(column)_\(row))" }

    func surface(level: Int, column: Int, row: Int) -> UnsafeMutablePointer<SDL_Surface>? {
        guard level >= 0, level < levels.count else { return nil }
        let r = pyramid.storedRect(level: level, column: column, row: row)
        guard r.width > 0, r.height > 0,
            let tile = SDL_CreateRGBSurfaceWithFormat(
                0, Int32(r.width), Int32(r.height), 32, levels[level].pointee.format.pointee.format)
        else { return nil }
        var src = SDL_Rect(x: Int32(r.x), y: Int32(r.y), w: Int32(r.width), h: Int32(r.height))
        SDL_SetSurfaceBlendMode(levels[level], SDL_BLENDMODE_NONE)
        SDL_UpperBlit(levels[level], &src, tile, nil)
        return tile
    }

    deinit { for s in levels { SDL_FreeSurface(s) } }
}

/// Decodes tiles on a few threads. The render thread says which tiles it wants (replacing what it wanted
/// before: a queued tile no longer wanted is never decoded) and takes the decoded ones each frame; a tile that
/// was decoding when it stopped being wanted is freed, never uploaded. At most `maximumDone` decoded tiles wait
/// to be taken: the workers do not run ahead of the uploads.
final class TileWorkers: @unchecked Sendable {
    let condition = NSCondition()
    var wanted: [(TileKey, any TileSource)] = []
    /// Every tile of the latest request, queued or decoding.
    var stillWanted: Set<TileKey> = []
    var inFlight: Set<TileKey> = []
    var done: [(TileKey, SurfaceBox)] = []
    var stopping = false
    var threads: [Thread] = []
    /// Turns a decoded surface into what a texture is made from (format, turn), on the worker's thread.
    let prepare: @Sendable (UnsafeMutablePointer<SDL_Surface>) -> UnsafeMutablePointer<SDL_Surface>?
    /// Decoded tiles dropped because nothing wanted them any more (for tests and the log).
    private(set) var cancelled = 0
    static let maximumDone = 8
    /// The workers' nice value (the frame loop runs at 0).
    static let niceness: Int32 = 10
    /// Workers at most, whatever the board: what they hold (a tile each, and `maximumDone`) stays small.
    static let maximumCount = 3

    /// How many workers for `cores` CPUs: one core is the frame loop's own. A worker on its core takes it
    /// from the frame loop for a millisecond or more at a time, nice value or not (on the 2-core machine here,
    /// two workers cost 12 to 23 frames of two tours a millisecond or more of preemption each, one worker 0 to 1,
    /// and the last tile after each double tap came no later: the uploads set the pace, not the decoding).
    static func count(cores: Int) -> Int { max(1, min(maximumCount, cores - 1)) }

    /// The CPUs this process may run on: its affinity (as `taskset` or systemd's `CPUAffinity=` set it), which
    /// `ProcessInfo.activeProcessorCount` does not read here; the kernel lists it in `/proc/self/status`.
    static func availableCores() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else {
            return ProcessInfo.processInfo.activeProcessorCount
        }
        // A hexadecimal mask in comma-separated groups of 32 CPUs.
        let mask = line.dropFirst("Cpus_allowed:".count).compactMap(\.hexDigitValue)
        return max(1, mask.reduce(0) { $0 + $1.nonzeroBitCount })
    }

    init(
        count: Int,
        prepare: @escaping @Sendable (UnsafeMutablePointer<SDL_Surface>) -> UnsafeMutablePointer<SDL_Surface>?
    ) {
        self.prepare = prepare
        for i in 0..<count {
            let t = Thread { [unowned self] in
                // Signals are the main thread's: there they end its sleep.
                var stops = sigset_t()
                sigemptyset(&stops)
                sigaddset(&stops, SIGTERM)
                sigaddset(&stops, SIGINT)
                pthread_sigmask(SIG_BLOCK, &stops, nil)
                // Decoding yields to the frame loop: on a two-core board it must not take the loop's core.
                // (Linux sets a thread's own nice value with `who` 0.)
                setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness)
                self.work()
            }
            t.name = "kiosk-tiles-\(i)"
            t.start()
            threads.append(t)
        }
    }

    /// Called on the worker's thread after each tile it decoded (the frame loop wakes); set with `notify`.
    private var onDone: (@Sendable () -> Void)?

    func notify(_ f: @escaping @Sendable () -> Void) {
        condition.lock()
        onDone = f
        condition.unlock()
    }

    /// The tiles wanted now, most wanted first; those already decoding are not asked twice.
    func want(_ list: [(TileKey, any TileSource)]) {
        condition.lock()
        stillWanted = Set(list.map(\.0))
        wanted = list.filter { !inFlight.contains($0.0) }
        // What waits to be taken and is no longer wanted goes now.
        done = done.filter { key, box in
            if stillWanted.contains(key) { return true }
            if let s = box.surface { SDL_FreeSurface(s) }
            cancelled += 1
            return false
        }
        condition.broadcast()
        condition.unlock()
    }

    /// Takes up to `limit` decoded tiles, oldest first.
    func takeDone(limit: Int = .max) -> [(TileKey, SurfaceBox)] {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        let taken = Array(done.prefix(limit))
        done.removeFirst(taken.count)
        return taken
    }

    /// Whether decoded tiles wait to be taken (uploaded by a frame): nothing else wakes the loop for them.
    var hasDone: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !done.isEmpty
    }

    /// Whether anything is queued, decoding or waiting to be taken.
    var isBusy: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !wanted.isEmpty || !inFlight.isEmpty || !done.isEmpty
    }

    func work() {
        while true {
            condition.lock()
            while (wanted.isEmpty || done.count >= Self.maximumDone) && !stopping { condition.wait() }
            if stopping {
                condition.unlock()
                return
            }
            let (key, source) = wanted.removeFirst()
            inFlight.insert(key)
            condition.unlock()
            var surface = source.surface(level: key.level, column: key.column, row: key.row)
            if let decoded = surface {
                surface = prepare(decoded)
                SDL_FreeSurface(decoded)
            }
            condition.lock()
            inFlight.remove(key)
            var notify: (@Sendable () -> Void)?
            if stillWanted.contains(key) || surface == nil {
                done.append((key, SurfaceBox(surface: surface)))
                notify = onDone
            } else {
                if let surface { SDL_FreeSurface(surface) }
                cancelled += 1
            }
            condition.unlock()
            notify?()
        }
    }

    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        // The workers finish their tile and leave; what they decoded is freed.
        while threads.contains(where: { !$0.isFinished }) { usleep(1000) }
        for (_, box) in takeDone() { if let s = box.surface { SDL_FreeSurface(s) } }
    }
}

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
        for t in cache.remove(where: { $0.image == id }) { SDL_DestroyTexture(t) }
        failed = failed.filter { $0.image != id }
        failedImages.remove(id)
        arrived = arrived.filter { $0.key.image != id }
    }

    func isLoaded(_ key: TileKey) -> Bool {
        if cache.contains(key) || failed.contains(key) { return true }
        if synchronous || sources[key.image]?.isCheap == true {
            load(key, pinned: false)
            return true
        }
        return false
    }

    func opacity(_ key: TileKey) -> Double {
        guard let t = arrived[key] else { return 1 }
        let a = (now - t) / Self.blendMs
        if a >= 1 { arrived[key] = nil }
        return max(0.05, min(1, a))
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
        // A tile that arrived but was not drawn again (it left the screen) has nothing left to blend.
        arrived = arrived.filter { ms - $0.value < Self.blendMs }
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
