import CSDL2
import Foundation
import Kiosk

/// A list's thumbnails: decoded and shrunk to their size on one thread off the frame loop (the newest asked
/// first), uploaded a few a frame, and kept as small textures, the least recently drawn going beyond
/// `maximumCount`. One that cannot be decoded is remembered as broken: its row shows a placeholder. Headless on
/// the virtual clock (`synchronous`) each is decoded when first asked, so that screenshots are the same on every
/// run, as tiles are.
final class ThumbnailStore {
    enum State {
        case loading
        case ready(OpaquePointer)
        case broken
    }

    private let textures: TextureMaker
    private let worker: ThumbnailWorker?
    private var states: [Key: State] = [:]
    private var lastDrawn: [Key: Int] = [:]
    private var frame = 0
    /// Thumbnails kept at most (each a few tens of KiB).
    static let maximumCount = 256
    /// Uploads a frame at most (each a fraction of a millisecond).
    static let uploadsPerFrame = 4

    struct Key: Hashable {
        var path: String
        var pixels: Int
    }

    /// `notify`: called on the worker's thread after each thumbnail it decoded (the frame loop wakes to draw it).
    init(textures: TextureMaker, synchronous: Bool, notify: (@Sendable () -> Void)?) {
        self.textures = textures
        worker =
            synchronous
            ? nil
            : ThumbnailWorker(rotation: textures.rotation, opaqueFormat: textures.opaqueFormat, notify: notify)
    }

    /// Whether decoded thumbnails wait for a frame to become textures: the loop must draw again, not sleep.
    var hasDecodedWaiting: Bool { worker?.hasDone ?? false }

    /// Whether a thumbnail asked for is still on its way (the picture is not complete yet).
    var isLoading: Bool { states.values.contains { if case .loading = $0 { true } else { false } } }

    /// `path`'s thumbnail at `pixels` a side: ready, on its way (asked for now), or broken.
    func thumbnail(_ path: String, pixels: Int) -> State {
        let key = Key(path: path, pixels: pixels)
        lastDrawn[key] = frame
        if let state = states[key] { return state }
        guard let worker else {
            let surface = ThumbnailWorker.shrunk(key, rotation: textures.rotation, opaqueFormat: textures.opaqueFormat)
            adopt(key, surface)
            return states[key] ?? .broken
        }
        states[key] = .loading
        worker.ask(key)
        return .loading
    }

    /// Thumbnails about to be drawn, asked of the thread now (those it has not already): off the virtual clock
    /// only, where each is decoded when first drawn anyway.
    func prefetch(_ paths: [String], pixels: Int) {
        guard let worker else { return }
        for path in paths {
            let key = Key(path: path, pixels: pixels)
            guard states[key] == nil else { continue }
            states[key] = .loading
            lastDrawn[key] = frame
            worker.ask(key, ahead: true)
        }
    }

    /// A decoded thumbnail (nil: it did not decode) becomes its texture.
    private func adopt(_ key: Key, _ surface: UnsafeMutablePointer<SDL_Surface>?) {
        guard let surface else {
            states[key] = .broken
            return
        }
        defer { SDL_FreeSurface(surface) }
        guard let texture = textures.texture(prepared: surface, opaque: isOpaque(surface)) else {
            states[key] = .broken
            return
        }
        if case .ready(let old)? = states[key] { SDL_DestroyTexture(old) }
        states[key] = .ready(texture)
    }

    /// A new frame: the decoded thumbnails become textures, and those not drawn for long go beyond the limit.
    func nextFrame() {
        frame += 1
        for (key, surface) in worker?.take(Self.uploadsPerFrame) ?? [] { adopt(key, surface) }
        guard states.count > Self.maximumCount else { return }
        for (key, _) in lastDrawn.sorted(by: { $0.value < $1.value }).prefix(states.count - Self.maximumCount) {
            if case .ready(let texture)? = states[key] { SDL_DestroyTexture(texture) }
            states[key] = nil
            lastDrawn[key] = nil
        }
    }

    deinit {
        worker?.stop()
        for case .ready(let texture) in states.values { SDL_DestroyTexture(texture) }
    }
}

/// The thumbnails' thread: a stack of paths to decode (the newest first: the rows a fling reaches now), and the
/// shrunk surfaces done (nil: it did not decode).
final class ThumbnailWorker: @unchecked Sendable {
    private let condition = NSCondition()
    private var wanted: [ThumbnailStore.Key] = []
    private var done: [(ThumbnailStore.Key, SurfaceBox?)] = []
    private var stopping = false

    init(rotation: Rotation, opaqueFormat: UInt32, notify: (@Sendable () -> Void)?) {
        let t = Thread { [self] in
            SignalListener.leaveSignalsToTheMainThread()
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, TileWorkers.niceness)
            while let key = next() {
                let surface = Self.shrunk(key, rotation: rotation, opaqueFormat: opaqueFormat)
                condition.lock()
                done.append((key, surface.map { SurfaceBox(surface: $0) }))
                condition.unlock()
                notify?()
            }
        }
        t.name = "kiosk-thumbnails"
        t.start()
    }

    /// Decodes `key` next (the newest first), or, `ahead` of its row being drawn, after every row asked for
    /// by a frame.
    func ask(_ key: ThumbnailStore.Key, ahead: Bool = false) {
        condition.lock()
        if ahead { wanted.insert(key, at: 0) } else { wanted.append(key) }
        condition.signal()
        condition.unlock()
    }

    var hasDone: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !done.isEmpty
    }

    func take(_ count: Int) -> [(ThumbnailStore.Key, UnsafeMutablePointer<SDL_Surface>?)] {
        condition.lock()
        defer { condition.unlock() }
        let taken = done.prefix(count)
        done.removeFirst(taken.count)
        return taken.map { ($0.0, $0.1?.surface) }
    }

    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func next() -> ThumbnailStore.Key? {
        condition.lock()
        defer { condition.unlock() }
        while wanted.isEmpty && !stopping { condition.wait() }
        return stopping ? nil : wanted.popLast()
    }

    /// The image at `key.path` decoded and shrunk to fit `key.pixels` a side (linear filtering), turned as the
    /// screen is; nil when it does not decode.
    static func shrunk(
        _ key: ThumbnailStore.Key, rotation: Rotation, opaqueFormat: UInt32
    ) -> UnsafeMutablePointer<SDL_Surface>? {
        guard case .success(let decoded) = decodeImage(key.path) else { return nil }
        defer { SDL_FreeSurface(decoded) }
        // Without alpha the thumbnail is opaque: copied, not blended.
        let format = (isOpaque(decoded) ? SDL_PIXELFORMAT_RGB888 : SDL_PIXELFORMAT_ARGB8888).rawValue
        guard let full = SDL_ConvertSurfaceFormat(decoded, format, 0) else { return nil }
        defer { SDL_FreeSurface(full) }
        let (w, h) = (Double(full.pointee.w), Double(full.pointee.h))
        let scale = min(1, Double(key.pixels) / max(w, h))
        let (tw, th) = (max(1, Int32((w * scale).rounded())), max(1, Int32((h * scale).rounded())))
        guard let small = SDL_CreateRGBSurfaceWithFormat(0, tw, th, 32, format) else { return nil }
        defer { SDL_FreeSurface(small) }
        guard SDL_SoftStretchLinear(full, nil, small, nil) == 0 else { return nil }
        return TextureMaker.prepare(small, rotation: rotation, opaqueFormat: opaqueFormat)?.0
    }
}
