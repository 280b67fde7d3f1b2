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
        if let problem = RegularFile.problem(path) { return ImageReport(problem: problem) }
        if path.lowercased().hasSuffix(".dzi") { return inspectDeepZoom(path, screen: screen) }
        let w: Int
        let h: Int
        switch PictureHeader.read(path) {
        case .size(let hw, let hh): (w, h) = (hw, hh)
        case .unknown: return ImageReport(problem: "not a PNG, JPEG or WebP")
        case .jpegWithoutFrame(let why):
            return ImageReport(problem: "a JPEG whose picture size cannot be found: \(why)")
        }
        if let problem = PictureLimits.sizeProblem(path, width: w, height: h) { return ImageReport(problem: problem) }
        if let ending = endsEarly(path) { return ImageReport(problem: ending) }
        // A picture the start cuts into tiles is read as the start reads it, a row at a time (a JPEG's at an
        // eighth), never whole: a broken middle is found, with the memory of one row.
        if max(w, h) > ImageStore.pyramidThreshold {
            if let why = PictureRows.verify(path) { return ImageReport(problem: "cannot decode (\(why))") }
            return ImageReport(width: w, height: h)
        }
        if let problem = PictureLimits.wholeDecodeProblem(width: w, height: h) {
            return ImageReport(problem: problem)
        }
        let surface: UnsafeMutablePointer<SDL_Surface>
        switch decodeImage(path) {
        case .success(let s): surface = s
        case .failure(let p): return ImageReport(problem: "cannot decode (\(p.message))")
        }
        defer { SDL_FreeSurface(surface) }
        guard surface.pointee.w > 0, surface.pointee.h > 0 else { return ImageReport(problem: "the image is empty") }
        return ImageReport(width: Int(surface.pointee.w), height: Int(surface.pointee.h))
    }

    /// Only the size an image declares (a PNG or JPEG header, a Deep Zoom descriptor), decoding nothing: what
    /// the start checks against (0x0 when it cannot tell; loading the image reports why).
    static func size(_ path: String) -> ImageReport {
        if let problem = RegularFile.problem(path) { return ImageReport(problem: problem) }
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
        switch decodeImage(path) {
        case .success(let surface):
            SDL_FreeSurface(surface)
            return nil
        case .failure(let p): return "cannot decode: \(p.message)"
        }
    }

    /// Why a PNG or JPEG file stops before its end marker (a copy cut short): decoders show the missing part
    /// grey rather than fail. Nil when it ends as it should.
    static func endsEarly(_ path: String) -> String? {
        guard let (head, tail, size) = RegularFile.ends(path, head: 12, tail: 16) else { return "cannot read the file" }
        guard size >= 16 else { return "the file is cut short" }
        return PictureHeader.endsEarly(head: head, tail: tail, size: size)
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

/// What one plain picture may cost. SDL_image decodes a picture at once, 4 bytes a pixel (and cutting it into
/// tiles from memory holds a second copy); one larger than a texture is read a band of rows at a time into its
/// tile file instead, which costs that band and the cache folder's room.
enum PictureLimits {
    /// A side beyond this is refused whatever the memory (SDL's surfaces hold sides in 32 bits; beyond it a
    /// picture is a Deep Zoom image's work).
    static let maximumSide = 1 << 16
    /// A compressed picture holds far fewer bytes than pixels, but not this many fewer: deflate compresses at
    /// most about 1000 to 1, a JPEG's 8x8 block takes a few bits at the least (a flat 20000x20000 JPEG is
    /// megabytes). A header that claims more pixels per byte belongs to a file cut short or made up.
    static let maximumPixelsPerByte = 4096
    static let deepZoom = "make it a Deep Zoom image (vips dzsave, see README)"

    /// Why the picture at `path` (its header says `width` x `height`) is not to be shown at all, or nil: too
    /// many pixels, a side too long, or more pixels than its bytes can hold.
    static func sizeProblem(_ path: String, width w: Int, height h: Int) -> String? {
        if w * h > ImageStore.maximumPixels || w > maximumSide || h > maximumSide {
            return "\(w)x\(h) is too large to show; \(deepZoom)"
        }
        // Large PNGs and JPEGs are read a few rows at a time into their tile file; a WebP cannot be.
        if max(w, h) > ImageStore.pyramidThreshold, let head = RegularFile.bytes(path, count: 30),
            PictureHeader.webPSize(head) != nil
        {
            return "a WebP of \(w)x\(h) is larger than \(ImageStore.pyramidThreshold) px a side, which only PNG and "
                + "JPEG pictures may be (they are cut into tiles): save it as one (dwebp converts it)"
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if bytes > 0 && w * h / bytes > maximumPixelsPerByte {
            return "the header claims \(w)x\(h) pixels in only \(bytes) bytes: the file is cut short or broken"
        }
        return nil
    }

    /// Why a `width` x `height` picture cannot be decoded whole here (and cut into tiles from memory, a second
    /// copy), or nil.
    static func wholeDecodeProblem(width w: Int, height h: Int) -> String? {
        memoryProblem(needed: w * h * 4 * 2, for: "\(w)x\(h)")
    }

    /// Why `needed` bytes for `what` are more than this machine has free, or nil.
    static func memoryProblem(needed: Int, for what: String) -> String? {
        guard let available = availableMemoryBytes(), needed > available else { return nil }
        return "\(what) needs \(needed >> 20) MiB to decode and cut into tiles, more than the "
            + "\(available >> 20) MiB this machine has free; \(deepZoom)"
    }

    /// `MemAvailable` of `/proc/meminfo` in bytes (nil where there is none).
    static func availableMemoryBytes() -> Int? {
        guard case .success(let bytes) = RegularFile.read("/proc/meminfo", limit: 1 << 20) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }),
            let kib = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kib * 1024
    }
}

extension Runner {
    /// Reads the manifest at `path` and checks everything it names (docs/operations.md); without `decode` the
    /// images are only looked for. Errors reading the file itself are its one problem.
    /// `measureWords`: every text laid out in its fonts (`--check` alone: a reload's check runs beside the frame
    /// loop, whose fonts FreeType would share).
    /// `fontsMustCover`: a language no usable font covers fails the check (`--check`); else it is a warning and the
    /// kiosk runs on in the fallback font (the start, a reload: the same rule for both).
    /// `seen`: every file the check read or looked for is noted there (`kiosk --edit` watches them); `memo`: what
    /// it found of each picture and film is kept, and not looked for again while the file is the same.
    static func checkContent(
        _ path: String, screen: Size, decode: Bool = true, measureWords: Bool = false, fontsMustCover: Bool = false,
        checksVoices: Bool = false, seen: FilesSeen? = nil, memo: InspectionMemo? = nil
    ) -> ContentReport {
        seen?.note(path)
        let data: [UInt8]
        switch RegularFile.read(path, limit: RegularFile.textLimit) {
        case .success(let d): data = d
        case .failure(let p):
            let why = p.isMissing ? "missing" : p.message
            return .unreadable(path, "cannot read the manifest (\(why))")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            let at = firstInvalidUTF8(data).map { " (byte \($0))" } ?? ""
            return .unreadable(path, "the manifest is not UTF-8 text\(at)")
        }
        // Paths resolve in the folder the manifest really is in: with content published by switching a symlink
        // (`current` → `releases/…`), a running kiosk keeps reading the release it started with.
        let base = URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent().path
        var report = ContentCheck.run(
            text, file: path, baseDirectory: base.isEmpty ? "." : base,
            fileExists: {
                seen?.note($0)
                return !$0.utf8.contains(0) && FileManager.default.isReadableFile(atPath: $0)
            },
            inspect: {
                seen?.note($0)
                guard decode else { return ImageInspector.size($0) }
                guard let memo else { return ImageInspector.inspect($0, screen: screen) }
                return memo.report($0) { ImageInspector.inspect($0, screen: screen) }
            },
            font: { FontBook.report(language: $0, named: $1) },
            measure: decode && measureWords ? measuring() : nil,
            screen: screen,
            readFile: { file in
                seen?.note(file)
                return RegularFile.read(file, limit: RegularFile.textLimit).mapError { p in
                    FileReadError(p.isMissing ? "missing" : p.message)
                }
            }, fontsMustCover: fontsMustCover, voices: checksVoices ? { EspeakSynthesizer.installedVoices() } : nil,
            inspectVideo: decode
                ? {
                    seen?.note($0)
                    return memo?.report($0) { VideoInspector.inspect($0) } ?? VideoInspector.inspect($0)
                } : nil)
        // A file not found: the one in its folder it most likely means, where one comes near.
        report.problems = NearMiss.hinted(report.problems)
        let described = report.errors.map(\.description)
        report.withPlaceholders?.contentProblems = described
        return report
    }

    /// Whether a text fits its box and its texture's bytes, measured in the manifest's fonts (`named`), opened once
    /// for the check.
    static func measuring() -> (TextRun, [String: String]) -> TextMeasure? {
        var book: FontBook?
        return { run, named in
            let fonts = book.flatMap { $0.named == named ? $0 : nil } ?? FontBook(named: named)
            book = fonts
            return TextStore.measure(run, fonts: fonts)
        }
    }

    /// `kiosk --check`: every problem on standard error, or the summary and `ok` on standard output.
    public static func check(_ options: Options, defaultManifest: String?) -> Int32 {
        guard let path = manifestPath(options, defaultManifest: defaultManifest) else {
            log(.error, noManifest)
            return 3
        }
        IMG_Init(Int32(IMG_INIT_PNG.rawValue | IMG_INIT_JPG.rawValue))
        let report = checkContent(
            path, screen: options.mode.size ?? ContentCheck.screen, measureWords: true, fontsMustCover: true,
            checksVoices: true)
        for p in ManifestError.logLines(report.problems) { log(p.isWarning ? .warning : .error, p.line) }
        guard report.errors.isEmpty else { return 3 }
        for line in report.summary { printLine(line) }
        if let days = options.planDays, let manifest = report.manifest {
            let start = options.clock ?? Date().timeIntervalSince1970
            for line in Plan.lines(manifest, from: start, days: days) { print(line) }
        }
        print("ok")
        return 0
    }
}
