import Foundation

/// The size a PNG or JPEG file declares in its header, read without decoding it (nil for other files).
func headerSize(_ path: String) -> (Int, Int)? {
    RegularFile.bytes(path, count: 1 << 16).flatMap(headerSize(of:))
}

/// The size the first bytes of a PNG or JPEG file declare (nil: not one, or not within `data`).
func headerSize(of data: [UInt8]) -> (Int, Int)? {
    func be16(_ i: Int) -> Int { Int(data[i]) << 8 | Int(data[i + 1]) }
    func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
    // PNG: the signature, then IHDR with width and height.
    if data.count >= 24, data[0] == 0x89, data[1] == 0x50, data[2] == 0x4E, data[3] == 0x47 {
        return (be32(16), be32(20))
    }
    // JPEG: walk the markers to the first start-of-frame.
    guard data.count >= 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
    var i = 2
    while i + 9 < data.count {
        guard data[i] == 0xFF else { return nil }
        let marker = data[i + 1]
        if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
            return (be16(i + 7), be16(i + 5))
        }
        i += 2 + be16(i + 2)
    }
    return nil
}
