import CSDL2
import Foundation
import Kiosk
import ScrollEngine

/// Loading off the frame thread (real clock): a plain picture is decoded by the decoding-ahead worker, a large one
/// cut into its tile file by a worker of its own, while frames keep coming and draw it as loading (a flat tone,
/// not the broken picture's cross). What a worker made arrives as data, taken at the start of a frame.
extension ImageStore {
    /// What a large picture's worker made of it: the source of its tiles, or the line that says why it shows a
    /// placeholder.
    enum Cut: @unchecked Sendable {
        case tiles(any TileSource, isOpaque: Bool)
        case broken(String)
    }

    /// Pictures on their way: large ones being cut, by path, and those the frame being drawn showed as loading
    /// (a frame follows once one has arrived).
    struct Loading {
        var cuts: [String: WorkerResult<Cut>] = [:]
        var shown: Set<String> = []
    }

    /// A plain picture's loading entry while the decoding-ahead worker decodes it (nil: one that loads now, as the
    /// picture being copied into its texture finishes, or a file the worker does not take).
    func decodingAhead(_ path: String) -> Entry? {
        guard adopting?.path != path else { return nil }
        prefetch([path])
        guard prefetching.contains(path) else { return nil }
        return Entry(texture: nil, info: catalog[path], scale: 1, isLoading: true)
    }

    /// Large picture `path` (`width` x `height`, as its header says) as a pyramid: its current tile file at once,
    /// else a loading entry while a worker cuts it into `folder` (or, with no cache folder that takes it, decodes
    /// it whole into memory). The frame loop feeds the watchdog meanwhile; no cut does.
    func cutAhead(_ path: String, width: Int, height: Int, folder: String?) -> Entry {
        if let folder, let kept = TileFile.current(image: path, folder: folder) {
            return pyramidEntry(kept, path: path, isOpaque: kept.isOpaque)
        }
        if loading.cuts[path] == nil {
            let format = display.textures.opaqueFormat
            loading.cuts[path] = WorkerResult(name: "kiosk-cut", then: onPrefetched) {
                setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, TileWorkers.niceness)
                return Self.cut(path, width: width, height: height, folder: folder, opaqueFormat: format)
            }
        }
        let id = pyramidID(path)
        tiles.loading.insert(id)
        var info = catalog[path]
        info.id = id
        return Entry(texture: nil, info: info, scale: 1, isLoading: true)
    }

    /// Cuts large picture `path` into its tile file in `folder` (on a worker), or decodes it whole into memory
    /// where no folder takes the file.
    static func cut(_ path: String, width w: Int, height h: Int, folder: String?, opaqueFormat: UInt32) -> Cut {
        func broken(_ why: String) -> Cut { .broken("\(path): cannot load the image (\(why)); showing a placeholder") }
        if let folder {
            switch TileFile.open(image: path, width: w, height: h, folder: folder, opaqueFormat: opaqueFormat) {
            case .file(let file): return .tiles(file, isOpaque: file.isOpaque)
            case .broken(let why): return broken(why)
            case .notCut: break
            }
        }
        if let problem = PictureLimits.wholeDecodeProblem(width: w, height: h) {
            return .broken("\(path): \(problem); showing a placeholder")
        }
        switch decodeImage(path) {
        case .failure(let p): return broken(p.message)
        case .success(let surface):
            defer { SDL_FreeSurface(surface) }
            guard let source = MemoryPyramidSource(path: path, surface: surface, opaqueFormat: opaqueFormat) else {
                return broken(sdlError())
            }
            return .tiles(source, isOpaque: isOpaque(surface))
        }
    }

    /// Takes the cuts that are done (at the start of a frame): each picture becomes its pyramid, or a placeholder
    /// with its line said. A cut whose picture new content let go meanwhile is dropped.
    func collectCuts() {
        for (path, job) in loading.cuts {
            guard let cut = job.result else { continue }
            loading.cuts[path] = nil
            guard let waiting = entries[path], waiting.isLoading else { continue }
            var made: Entry
            switch cut {
            case .tiles(let source, let opaque):
                made = pyramidEntry(source, path: path, isOpaque: opaque)
            case .broken(let line):
                log(.warning, line)
                tiles.loading.remove(waiting.info.id)
                made = .placeholder
            }
            made.identity = waiting.identity
            made.drawnInFrame = waiting.drawnInFrame
            entries[path] = made
        }
    }

    /// Whether a picture the last frame drew as loading has arrived (a frame shows it), or a cut is done.
    var hasArrived: Bool {
        loading.cuts.values.contains { $0.result != nil }
            || loading.shown.contains { entries[$0].map { !$0.isLoading && !$0.isLetGo } ?? false }
    }

    /// Whether a picture is on its way from a worker: a cut, or one a frame showed as loading.
    var isBusy: Bool { !loading.cuts.isEmpty || !loading.shown.isEmpty }

    /// Whether picture `path` is on its way from a worker, or will be when first drawn (real clock).
    func isLoading(_ path: String) -> Bool {
        guard let e = entries[path], !e.isLetGo else { return !synchronous }
        return e.isLoading
    }
}
