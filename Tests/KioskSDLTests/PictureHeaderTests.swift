import CSDL2
import Foundation
import Kiosk
import ScrollEngine
import Testing

@testable import KioskSDL

/// Pictures are read as image tools read them: a JPEG exported by Photoshop or Lightroom, with megabytes of edit
/// history before its frame header, and WebP (Debian's own wallpapers are WebP).
@Suite struct PictureHeaderTests {
    static let images = SDLEventTests.images

    /// A lossless, a lossy and an extended WebP (with an alpha chunk), made with ImageMagick's libwebp.
    static let webPs: [(name: String, width: Int, height: Int, base64: String)] = [
        (
            "lossless", 24, 16,
            "UklGRkwAAABXRUJQVlA4TEAAAAAvF8ADAH8AEIT/cQsT8ff/+U+WAVVk21BBBRVUUEEFFVRQQQUVVFBBBRX8bYaI/ufn4+Xh5uLkYGdjZWFmYmQg"
        ),
        (
            "lossy", 30, 20,
            "UklGRuQAAABXRUJQVlA4INgAAADwBgCdASoeABQAPrVKnUmnJCKhMAgA4BaJbACdMoPEKk458hF9DUtFNcOKvW7Dua/uY3/rqNBKFRYfNJZN"
                + "a6YAAP60IiZM0rHjv+Esuo+KqYNrjT6rSRdr0rybHjBlsQH87/l7TBglwt2IBcECd5+72onPEfMlv56LDzCFDDYWOHAInpeo4LFTAaI600t8"
                + "5/hNO0iKxcW/UHnIUn3quuB/GFZnzS9aEzh94yQOQlixpu9x9S7jcaghflzvN7yXq8ZKhB7mYETq2QCRYDMDZdghKYKKYG7QgAA="
        ),
        (
            "extended", 30, 20,
            "UklGRnAAAABXRUJQVlA4WAoAAAAQAAAAHQAAEwAAQUxQSAoAAAABB1DAiAhERP8DVlA4IEAAAABQAwCdASoeABQAPpFCnEolo6KhqAgAsBIJZQDG"
                + "qoAAQFEcAAD+7qY//sWctgXj//ucD/ucD/ucD+NspCdnCgAA"
        ),
    ]

    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "kiosk-header-\(UUID().uuidString)-\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The demo's JPEG with `count` APP1 segments of 64 KiB of XMP-like text after its start marker, as an export
    /// of Photoshop CC carries its edit history.
    static func heavyMetadataJPEG(segments count: Int) throws -> String {
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: images + "/gallery-night.jpg")))
        var out = Array(jpeg[0..<2])
        let body =
            [UInt8]("http://ns.adobe.com/xap/1.0/\0".utf8)
            + [UInt8](repeating: UInt8(ascii: "x"), count: 65_533 - 29)
        for _ in 0..<count { out += [0xFF, 0xE1, 0xFF, 0xFF] + body }
        out += jpeg[2...]
        return try write(out, "photoshop.jpg")
    }

    @Test func aJPEGWithMegabytesOfMetadataBeforeItsFrameIsRead() throws {
        let path = try Self.heavyMetadataJPEG(segments: 111)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int > 7_000_000)
        #expect(headerSize(path).map { [$0.0, $0.1] } == [2400, 1600])
        let report = ImageInspector.inspect(path, screen: Size(width: 1920, height: 1080))
        #expect(report.problem == nil && report.width == 2400 && report.height == 1600, "\(report)")
        let info = ImageFacts(maxTextureSize: 8192, canCut: false).info(path)
        #expect(info.loaded && info.size == Size(width: 2400, height: 1600) && info.isOpaque)
    }

    @Test func aJPEGWhoseFrameHeaderCannotBeFoundSaysWhy() throws {
        // A start marker, an APP0 segment, then a scan with no frame before it; then a file whose first segment
        // runs past its end.
        let scanFirst = try Self.write(
            [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xDA, 0, 8] + [UInt8](repeating: 0, count: 1 << 17), "scan.jpg")
        let cut = try Self.write(
            [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF] + [UInt8](repeating: 0x20, count: 1000), "cut.jpg")
        defer { for p in [scanFirst, cut] { try? FileManager.default.removeItem(atPath: p) } }
        let screen = Size(width: 800, height: 480)
        let first = try #require(ImageInspector.inspect(scanFirst, screen: screen).problem)
        #expect(first.hasPrefix("a JPEG whose picture size cannot be found: its markers end"), "\(first)")
        let second = try #require(ImageInspector.inspect(cut, screen: screen).problem)
        #expect(second.contains("the file ends before its frame header"), "\(second)")
        #expect(headerSize(scanFirst) == nil && headerSize(cut) == nil)
    }

    @Test func webPIsReadDecodedAndChecked() throws {
        for webP in Self.webPs {
            let bytes = try [UInt8](#require(Data(base64Encoded: webP.base64)))
            #expect(headerSize(of: bytes).map { [$0.0, $0.1] } == [webP.width, webP.height], "\(webP.name)")
            let path = try Self.write(bytes, "\(webP.name).webp")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let report = ImageInspector.inspect(path, screen: Size(width: 800, height: 480))
            #expect(report.problem == nil && report.width == webP.width, "\(webP.name): \(report)")
            let info = ImageFacts(maxTextureSize: 8192, canCut: true).info(path)
            #expect(info.loaded && info.size == Size(width: Double(webP.width), height: Double(webP.height)))
        }
    }

    @Test func aWebPTooLargeToShowWholeIsRefusedWithWhatToDo() throws {
        // An extended WebP's header claiming 6000x4000 (a canvas of width-1 and height-1 in 24 bits each).
        var bytes = [UInt8]("RIFF".utf8) + [0, 0, 0, 0] + [UInt8]("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0]
        bytes += [0x6F, 0x17, 0x00, 0x9F, 0x0F, 0x00] + [UInt8](repeating: 0, count: 100_000)
        #expect(headerSize(of: bytes).map { [$0.0, $0.1] } == [6000, 4000])
        let path = try Self.write(bytes, "large.webp")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let problem = PictureLimits.sizeProblem(path, width: 6000, height: 4000)
        #expect(problem?.contains("save it as one (dwebp converts it)") == true, "\(problem ?? "none")")
    }
}
