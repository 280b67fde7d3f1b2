import Foundation

/// The size a PNG, JPEG or WebP file declares in its header, read without decoding it (nil for other files, and
/// for a JPEG whose frame header is not within `PictureHeader.jpegMetadataLimit`).
func headerSize(_ path: String) -> (Int, Int)? {
    guard case .size(let w, let h) = PictureHeader.read(path) else { return nil }
    return (w, h)
}

/// The size the first bytes of a PNG, JPEG or WebP file declare (nil: not one, or not within `data`).
func headerSize(of data: [UInt8]) -> (Int, Int)? {
    func be16(_ i: Int) -> Int { Int(data[i]) << 8 | Int(data[i + 1]) }
    func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
    // PNG: the signature, then IHDR with width and height.
    if data.count >= 24, data[0] == 0x89, data[1] == 0x50, data[2] == 0x4E, data[3] == 0x47 {
        return (be32(16), be32(20))
    }
    if let size = PictureHeader.webPSize(data) { return size }
    // JPEG: walk the markers to the first start-of-frame.
    guard PictureHeader.isJPEG(data) else { return nil }
    var i = 2
    while i + 9 < data.count {
        switch PictureHeader.segment(Array(data[i..<(i + 9)])) {
        case .frame(let w, let h): return (w, h)
        case .skip(let n): i += n
        case .stop: return nil
        }
    }
    return nil
}

/// What a picture file's header says, read as image tools read it: a JPEG's frame header is found past however
/// many metadata segments come first (an export of Photoshop or Lightroom carries megabytes of XMP edit history
/// and previews in a hundred APP1 segments), stepped over by their lengths, up to a bound.
enum PictureHeader {
    /// How far into a JPEG its frame header is looked for: metadata beyond this is a file made to be slow, or
    /// a damaged one.
    static let jpegMetadataLimit = 64 << 20
    /// How many segments are stepped over on the way (one read each).
    static let jpegSegmentLimit = 65_536

    enum Found: Equatable {
        case size(Int, Int)
        /// Not a PNG, JPEG or WebP (or not readable).
        case unknown
        /// A JPEG whose frame header was not found: why, for a line.
        case jpegWithoutFrame(String)
    }

    static func read(_ path: String) -> Found {
        guard let head = RegularFile.bytes(path, count: 1 << 16) else { return .unknown }
        if let (w, h) = headerSize(of: head) { return .size(w, h) }
        guard isJPEG(head) else { return .unknown }
        let walked = RegularFile.answered(path) { () -> Result<Found, ReadProblem> in
            guard case .success(let f) = RegularFile.open(path) else { return .failure(ReadProblem("")) }
            defer { close(f.fd) }
            return .success(walkJPEG(f.fd, size: f.size))
        }
        guard case .success(let found) = walked else { return .unknown }
        return found
    }

    static func isJPEG(_ data: [UInt8]) -> Bool { data.count >= 4 && data[0] == 0xFF && data[1] == 0xD8 }

    /// Why a PNG, JPEG or WebP file (its first 12 and last 16 bytes, and its size) stops before its end (a copy
    /// cut short, a half-finished rsync): decoders show the missing part grey rather than fail. Nil when it ends as
    /// it should, or is of another format.
    static func endsEarly(head: [UInt8], tail: [UInt8], size: Int) -> String? {
        guard head.count == 12, tail.count == 16 else { return nil }
        // A WebP (RIFF) says its length in its header.
        if head[0..<4].elementsEqual("RIFF".utf8) {
            let declared = (0..<4).reduce(0) { $0 | Int(head[4 + $1]) << (8 * $1) } + 8
            return size >= declared
                ? nil : "the file is cut short (\(size) of the \(declared) bytes its header declares)"
        }
        // JPEG ends with EOI (FF D9), PNG with its IEND chunk (then a CRC).
        if isJPEG(head) {
            return tail.suffix(2) == [0xFF, 0xD9] ? nil : "the file is cut short (no end-of-image marker at its end)"
        }
        guard head.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        return Array(tail[8..<12]) == Array("IEND".utf8) ? nil : "the file is cut short (no IEND chunk at its end)"
    }

    /// A JPEG's segments through the file, to its frame header.
    static func walkJPEG(_ fd: Int32, size: Int) -> Found {
        var offset = 2
        var segments = 0
        while offset < min(size, jpegMetadataLimit) && segments < jpegSegmentLimit {
            guard let bytes = RegularFile.bytes(fd, at: offset, count: 9), bytes.count == 9 else { break }
            switch segment(bytes) {
            case .frame(let w, let h): return .size(w, h)
            case .skip(let n): offset += n
            case .stop: return .jpegWithoutFrame("its markers end before a frame header, at byte \(offset)")
            }
            segments += 1
        }
        if offset >= size { return .jpegWithoutFrame("the file ends before its frame header (cut short?)") }
        return .jpegWithoutFrame(
            "no frame header in its first \(jpegMetadataLimit >> 20) MB or \(jpegSegmentLimit) segments "
                + "(metadata before the picture: save it again without its edit history)")
    }

    enum Segment: Equatable {
        case frame(Int, Int)
        case skip(Int)
        case stop
    }

    /// The JPEG segment whose first 9 bytes are `b`: a frame header's size, or how far to the next marker.
    static func segment(_ b: [UInt8]) -> Segment {
        guard b[0] == 0xFF else { return .stop }
        let marker = b[1]
        // Fill bytes before a marker, and markers without a length (TEM, RSTn).
        if marker == 0xFF { return .skip(1) }
        if marker == 0x01 || (0xD0...0xD7).contains(marker) { return .skip(2) }
        // Start of scan or end of image before any frame: no size to find.
        if marker == 0xDA || marker == 0xD9 { return .stop }
        let length = Int(b[2]) << 8 | Int(b[3])
        if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
            return .frame(Int(b[7]) << 8 | Int(b[8]), Int(b[5]) << 8 | Int(b[6]))
        }
        return length >= 2 ? .skip(2 + length) : .stop
    }

    /// A WebP's size (Google's container: RIFF, then a lossy `VP8 `, lossless `VP8L` or extended `VP8X` chunk).
    static func webPSize(_ d: [UInt8]) -> (Int, Int)? {
        guard d.count >= 30, d[0..<4].elementsEqual("RIFF".utf8), d[8..<12].elementsEqual("WEBP".utf8) else {
            return nil
        }
        func le(_ i: Int, _ n: Int) -> Int { (0..<n).reduce(0) { $0 | Int(d[i + $1]) << (8 * $1) } }
        switch String(decoding: d[12..<16], as: UTF8.self) {
        case "VP8X": return (le(24, 3) + 1, le(27, 3) + 1)
        case "VP8L":
            let bits = le(21, 4)
            return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
        case "VP8 ": return (le(26, 2) & 0x3FFF, le(28, 2) & 0x3FFF)
        default: return nil
        }
    }
}
