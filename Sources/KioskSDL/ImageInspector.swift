import CSDL2
import CSDL2Image
import Foundation
import Kiosk
import ScrollEngine

/// Decodes what the manifest names, to find what would show as a placeholder before a visitor does
/// (`kiosk --check`, the start, a reload). Safe on any thread: it touches no renderer.
enum ImageInspector {
    /// A plain image: its header, then the whole picture decoded. A `.dzi`: its descriptor, then every tile of
    /// the lowest level that fills a `screen`-sized screen (what a visitor sees first).
    static func inspect(_ path: String, screen: Size) -> ImageReport {
        if path.lowercased().hasSuffix(".dzi") { return inspectDeepZoom(path, screen: screen) }
        guard let (w, h) = headerSize(path) else { return ImageReport(problem: "not a PNG or JPEG") }
        if w * h > ImageStore.maximumPixels || w > 1 << 16 || h > 1 << 16 {
            return ImageReport(problem: "\(w)x\(h) is too large to decode whole; make it a Deep Zoom image")
        }
        if let ending = endsEarly(path) { return ImageReport(problem: ending) }
        guard let surface = IMG_Load(path) else { return ImageReport(problem: "cannot decode (\(sdlError()))") }
        defer { SDL_FreeSurface(surface) }
        guard surface.pointee.w > 0, surface.pointee.h > 0 else { return ImageReport(problem: "the image is empty") }
        return ImageReport(width: Int(surface.pointee.w), height: Int(surface.pointee.h))
    }

    /// Only the size an image declares (a PNG or JPEG header, a Deep Zoom descriptor), decoding nothing: what
    /// the start checks against (0x0 when it cannot tell; loading the image reports why).
    static func size(_ path: String) -> ImageReport {
        if path.lowercased().hasSuffix(".dzi") {
            guard case .success(let p) = DeepZoomFileSource.descriptor(path) else {
                return ImageReport(width: 0, height: 0)
            }
            return ImageReport(width: p.width, height: p.height, levels: p.maxLevel + 1)
        }
        guard let (w, h) = headerSize(path) else { return ImageReport(width: 0, height: 0) }
        return ImageReport(width: w, height: h)
    }

    /// Why the file at `path` does not decode, or nil.
    static func decodeProblem(_ path: String) -> String? {
        guard let surface = IMG_Load(path) else { return "cannot decode: \(sdlError())" }
        SDL_FreeSurface(surface)
        return nil
    }

    /// Why a PNG or JPEG file stops before its end marker (a copy cut short): decoders show the missing part
    /// grey rather than fail. Nil when it ends as it should.
    static func endsEarly(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "cannot read the file" }
        defer { try? handle.close() }
        let head = [UInt8](handle.readData(ofLength: 2))
        guard let end = try? handle.seekToEnd(), end >= 16 else { return "the file is cut short" }
        handle.seek(toFileOffset: end - 16)
        let tail = [UInt8](handle.readData(ofLength: 16))
        let isJPEG = head == [0xFF, 0xD8]
        // JPEG ends with EOI (FF D9), PNG with its IEND chunk (then a CRC).
        let ends = isJPEG ? tail.suffix(2) == [0xFF, 0xD9] : Array(tail[8..<12]) == Array("IEND".utf8)
        return ends ? nil : "the file is cut short (no \(isJPEG ? "end-of-image marker" : "IEND chunk") at its end)"
    }

    static func inspectDeepZoom(_ path: String, screen: Size) -> ImageReport {
        let pyramid: DeepZoomImage
        switch DeepZoomFileSource.descriptor(path) {
        case .success(let p): pyramid = p
        case .failure(let problem): return ImageReport(problem: problem.message)
        }
        let level = firstLevel(pyramid, filling: screen)
        let source = DeepZoomFileSource(path: path, pyramid: pyramid)
        let grid = pyramid.tiles(level: level)
        var broken: [String] = []
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                let tile = source.describe(level: level, column: column, row: row)
                if let why = endsEarly(tile) ?? decodeProblem(tile) {
                    broken.append(ContentCheck.relative(tile, to: source.folder) + " (\(why))")
                }
            }
        }
        if let first = broken.first {
            let count = grid.rows * grid.columns
            return ImageReport(
                problem: "\(broken.count) of the \(count) tiles of level \(level) do not decode, the first \(first)")
        }
        return ImageReport(width: pyramid.width, height: pyramid.height, levels: pyramid.maxLevel + 1)
    }

    /// The lowest level at least as large as the picture fitted to `screen`.
    static func firstLevel(_ p: DeepZoomImage, filling screen: Size) -> Int {
        let fit = min(1, screen.width / Double(p.width), screen.height / Double(p.height))
        let w = (Double(p.width) * fit).rounded(.down)
        let h = (Double(p.height) * fit).rounded(.down)
        return (0...p.maxLevel).first { Double(p.size(level: $0).width) >= w && Double(p.size(level: $0).height) >= h }
            ?? p.maxLevel
    }
}

extension Runner {
    /// Reads the manifest at `path` and checks everything it names (operations.md); without `decode` the
    /// images are only looked for. Errors reading the file itself are its one problem.
    static func checkContent(_ path: String, screen: Size, decode: Bool = true) -> ContentReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .unreadable(path, "cannot read the manifest (missing or unreadable)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .unreadable(path, "the manifest is not UTF-8 text")
        }
        // Paths resolve in the folder the manifest really is in: with content published by switching a symlink
        // (`current` → `releases/…`), a running kiosk keeps reading the release it started with.
        let base = URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent().path
        return ContentCheck.run(
            text, file: path, baseDirectory: base.isEmpty ? "." : base,
            fileExists: { FileManager.default.isReadableFile(atPath: $0) },
            inspect: { decode ? ImageInspector.inspect($0, screen: screen) : ImageInspector.size($0) })
    }

    /// `kiosk --check`: every problem on standard error, or the summary and `ok` on standard output.
    public static func check(_ options: Options, defaultManifest: String?) -> Int32 {
        guard let path = manifestPath(options, defaultManifest: defaultManifest) else {
            log(.error, noManifest)
            return 3
        }
        IMG_Init(Int32(IMG_INIT_PNG.rawValue | IMG_INIT_JPG.rawValue))
        let report = checkContent(path, screen: options.mode.size ?? Size(width: 1920, height: 1080))
        for p in report.problems { log(p.isWarning ? .warning : .error, p.description) }
        guard report.errors.isEmpty else { return 3 }
        for line in report.summary { print(line) }
        print("ok")
        return 0
    }
}
