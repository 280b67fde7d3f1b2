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
