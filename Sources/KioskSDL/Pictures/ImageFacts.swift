import CSDL2
import Foundation
import Kiosk
import ScrollEngine

/// What a picture is, read from what its file declares (a PNG or JPEG header, a Deep Zoom descriptor), taking
/// the image store's decisions without its work: whether it is drawn from a pyramid (a `.dzi`, or a plain image
/// larger than `ImageStore.pyramidThreshold` or a texture), its size, whether it is opaque, or that it cannot be
/// shown. Only a picture in a format whose header is not read here is decoded. Made when content is loaded (on
/// the reload's thread), it becomes the app's `ImageCatalog`; the store then numbers its pyramids
/// (`ImageStore.number`). Safe on any thread.
struct ImageFacts: Sendable {
    /// The renderer's largest texture side (nil: no limit known).
    var maxTextureSize: Int?
    /// Whether a large picture can be cut into tiles in the cache folder (else it is decoded whole).
    var canCut: Bool

    /// The catalog of every picture `manifest` names.
    func catalog(_ manifest: Manifest) -> ImageCatalog { ImageCatalog(manifest) { info($0) } }

    func info(_ path: String) -> ImageInfo {
        if path.lowercased().hasSuffix(".dzi") {
            guard case .success(let pyramid) = DeepZoomFileSource.descriptor(path) else { return .missing }
            return ImageInfo(
                size: Size(width: Double(pyramid.width), height: Double(pyramid.height)), loaded: true,
                pyramid: pyramid, isOpaque: ["jpg", "jpeg"].contains(pyramid.format.lowercased()))
        }
        guard RegularFile.problem(path) == nil else { return .missing }
        let w: Int
        let h: Int
        let opaque: Bool
        // A PNG's header and its chunks before the pixels are in its first few kilobytes; a JPEG's frame header
        // may follow megabytes of metadata, stepped over (`PictureHeader`). Content of ten thousand pictures
        // reads 40 MB here, not 640. A file that cannot be read (or does not answer: `RegularFile.answered`) is
        // not decoded either.
        guard let head = RegularFile.bytes(path, count: 1 << 12) else { return .missing }
        if let (hw, hh) = headerSize(of: head) ?? (head.count == 1 << 12 ? headerSize(path) : nil) {
            (w, h, opaque) = (hw, hh, Self.declaresNoAlpha(head))
            if PictureLimits.sizeProblem(path, width: w, height: h) != nil { return .missing }
            let cut = isLarge(w, h) && canCut
            if !cut && PictureLimits.wholeDecodeProblem(width: w, height: h) != nil { return .missing }
        } else {
            // A format whose header is not read here: decoded, as the store will.
            guard case .success(let surface) = decodeImage(path) else { return .missing }
            defer { SDL_FreeSurface(surface) }
            (w, h, opaque) = (Int(surface.pointee.w), Int(surface.pointee.h), isOpaque(surface))
            guard w > 0, h > 0 else { return .missing }
        }
        let size = Size(width: Double(w), height: Double(h))
        guard isLarge(w, h) else { return ImageInfo(size: size, loaded: true, isOpaque: opaque) }
        // Cut into the cache folder or halved in memory, a large picture's tiles are `TileFile.tileSize`.
        let pyramid = DeepZoomImage(width: w, height: h, tileSize: TileFile.tileSize, overlap: 1, format: "raw")
        return ImageInfo(size: size, loaded: true, pyramid: pyramid, isOpaque: opaque)
    }

    /// Whether a plain picture of `w` x `h` is drawn from a pyramid (`ImageStore.load`).
    func isLarge(_ w: Int, _ h: Int) -> Bool {
        max(w, h) > min(ImageStore.pyramidThreshold, maxTextureSize ?? Int.max)
    }

    /// Whether the first bytes of a PNG or JPEG (`data`) declare no transparency: a JPEG never does; a PNG does
    /// with an alpha channel (colour types 4 and 6) or a `tRNS` chunk. Where it does, the picture is drawn over
    /// the background (if its pixels turn out all opaque, that costs a fill, never a wrong pixel).
    static func declaresNoAlpha(_ data: [UInt8]) -> Bool {
        guard data.count > 25 else { return false }
        guard data[0] == 0x89, data[1] == 0x50 else { return data[0] == 0xFF && data[1] == 0xD8 }
        if data[25] == 4 || data[25] == 6 { return false }
        // The chunks before the pixels: a `tRNS` among them makes a colour transparent.
        var i = 8
        while i + 8 <= data.count {
            let length = Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3])
            let type = String(decoding: data[(i + 4)..<(i + 8)], as: UTF8.self)
            if type == "tRNS" { return false }
            if type == "IDAT" || type == "IEND" { return true }
            i += 12 + length
        }
        // The chunks before the pixels go on past what was read: said to have alpha (a fill, never a wrong pixel).
        return false
    }
}
