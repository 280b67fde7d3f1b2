import CPictureRows
import CSDL2

#if canImport(Glibc)
    import Glibc
#endif

/// A PNG or JPEG read a few rows at a time (`Sources/CPictureRows`: libpng, libjpeg), so a picture larger than a
/// texture is cut into its tile file, or checked, holding a band of rows and never the whole picture.
final class PictureRows {
    let handle: OpaquePointer
    let width: Int
    let height: Int
    /// Whether a pixel may be transparent (a PNG's alpha channel or transparent colour); a JPEG never is.
    let hasAlpha: Bool
    /// Where the C side writes why a read failed (one buffer for every row).
    private var why = [CChar](repeating: 0, count: 256)
    /// Rows are given in this SDL format: R, G, B, A bytes.
    static let format = SDL_PIXELFORMAT_RGBA32.rawValue

    enum Opened {
        case rows(PictureRows)
        /// A kind not read a row at a time here (an interlaced PNG, a CMYK JPEG): decoded whole instead.
        case wholeOnly
        case broken(String)
    }

    private init(_ handle: OpaquePointer) {
        self.handle = handle
        width = Int(kiosk_rows_width(handle))
        height = Int(kiosk_rows_height(handle))
        hasAlpha = kiosk_rows_has_alpha(handle) != 0
    }

    /// Opens `path` as `RegularFile.open` does (a folder, a FIFO or a device is a problem, never a wait).
    /// `shrink` 2, 4 or 8 gives a JPEG's rows that much smaller (every byte still decoded: a check).
    static func open(_ path: String, shrink: Int = 1) -> Opened {
        switch RegularFile.open(path) {
        case .failure(let p): return .broken(p.message)
        case .success(let f):
            var status: Int32 = 0
            var why = [CChar](repeating: 0, count: 256)
            guard let handle = kiosk_rows_open(f.fd, Int32(shrink), &status, &why, why.count) else {
                if status == Int32(KIOSK_ROWS_WHOLE_ONLY) { return .wholeOnly }
                return .broken(Self.sentence(why))
            }
            return .rows(PictureRows(handle))
        }
    }

    /// The next `count` rows into `pixels`, `pitch` bytes apart; why they could not be read, or nil.
    func read(into pixels: UnsafeMutableRawPointer, pitch: Int, count: Int) -> String? {
        guard
            kiosk_rows_read(handle, pixels.assumingMemoryBound(to: UInt8.self), pitch, Int32(count), &why, why.count)
                == 0
        else { return Self.sentence(why) }
        return nil
    }

    /// Reads every row (a JPEG's at an eighth of its size), holding one: why the picture does not decode to its
    /// end, or nil. What `--check` does with a picture too large to decode whole.
    static func verify(_ path: String) -> String? {
        switch open(path, shrink: 8) {
        case .broken(let why): return why
        case .wholeOnly: return nil
        case .rows(let rows):
            let row = UnsafeMutableRawPointer.allocate(byteCount: rows.width * 4, alignment: 16)
            defer { row.deallocate() }
            for _ in 0..<rows.height {
                if let why = rows.read(into: row, pitch: rows.width * 4, count: 1) { return why }
            }
            return nil
        }
    }

    /// The C side's sentence in `why` (NUL-terminated).
    private static func sentence(_ why: [CChar]) -> String {
        why.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    deinit { kiosk_rows_close(handle) }
}
