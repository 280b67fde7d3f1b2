import Testing

@testable import KioskSDL

/// A scaled copy in software is cut into pieces within the visible pixels (`Renderer.pieces`): every visible
/// pixel is drawn exactly once, from the source pixel under its centre, and no piece reaches past the target.
struct CopyPiecesTests {
    /// The source pixel under target pixel `p`'s centre, for source `s0..<s1` drawn over `d0..<d1`.
    static func sourcePixel(_ p: Int, _ s0: Double, _ s1: Double, _ d0: Double, _ d1: Double) -> Int {
        let f = (d1 - d0) / (s1 - s0)
        let i = Int((s0 + (Double(p) + 0.5 - d0) / f).rounded(.down))
        return min(Int(s1.rounded(.up)) - 1, max(Int(s0.rounded(.down)), i))
    }

    /// Checks the pieces of one axis: they tile `lo..<hi` in order; a piece of one source pixel shows the pixel
    /// under each of its target pixels' centres; a longer piece's ends agree with the centres, and it is drawn in
    /// proportion (give or take the outermost pixels, which also fill the view's last whole pixels).
    static func check(_ s0: Double, _ s1: Double, _ d0: Double, _ d1: Double, _ lo: Double, _ hi: Double) {
        let pieces = Renderer.pieces(source: s0, s1, destination: d0, d1, visible: lo, hi)
        #expect(pieces.count <= 3, "\(pieces) \(s0) \(s1) \(d0) \(d1) \(lo) \(hi)")
        var next = Int32(lo)
        for piece in pieces {
            #expect(piece.start == next)
            #expect(piece.end > piece.start)
            #expect(piece.count >= 1)
            next = piece.end
            let first = sourcePixel(Int(piece.start), s0, s1, d0, d1)
            let last = sourcePixel(Int(piece.end) - 1, s0, s1, d0, d1)
            #expect(Int(piece.source) == first)
            #expect(Int(piece.source + piece.count) - 1 == last, "\(pieces)")
            // A piece of several pixels is drawn in proportion (SDL spreads them evenly).
            if piece.count > 1 {
                let f = (d1 - d0) / (s1 - s0)
                #expect(abs(Double(piece.end - piece.start) - Double(piece.count) * f) <= 2)
            }
        }
        #expect(next == Int32(hi), "\(pieces) \(s0) \(s1) \(d0) \(d1) \(lo) \(hi)")
    }

    @Test func magnifiedPartlyOffScreen() {
        // A 512-pixel stand-in magnified 60 times, its edge pixels seen in part at both ends.
        Self.check(100.37, 140.71, -1234.43, -1234.43 + 40.34 * 60, 0, (-1234.43 + 40.34 * 60).rounded(.up))
        Self.check(0, 512, -20_000.25, -20_000.25 + 512 * 60, 0, 1080)
    }

    @Test func onePixelFillsTheView() {
        // Magnified so far that a single source pixel covers every visible pixel.
        let pieces = Renderer.pieces(source: 10, 11, destination: -500, 1500, visible: 0, 256)
        #expect(Array(pieces) == [.init(source: 10, count: 1, start: 0, end: 256)])
        Self.check(10, 12, -900, 1100, 0, 256)
    }

    @Test func wholeAndInView() {
        // Entirely on screen at 2.5x: one piece.
        let pieces = Renderer.pieces(source: 0, 100, destination: 10, 260, visible: 10, 260)
        #expect(Array(pieces) == [.init(source: 0, count: 100, start: 10, end: 260)])
        Self.check(0, 100, 10, 260, 10, 260)
    }

    @Test func minified() {
        // Half size and cut by the target's edge: one piece, every visible pixel from the pixel under its centre.
        Self.check(0, 1024, -100.5, 411.5, 0, 256)
        Self.check(3.25, 900.75, 7.5, 7.5 + 897.5 * 0.37, 7, 256)
    }

    @Test func manyScales() {
        for k in 1...200 {
            let f = 0.3 + Double(k) * 0.37
            let s0 = Double(k % 7) * 0.3
            let s1 = s0 + 50 + Double(k % 13)
            let d0 = -Double(k * 17 % 400) + 0.25
            let d1 = d0 + (s1 - s0) * f
            let lo = max(0, d0.rounded(.down))
            let hi = min(256, d1.rounded(.up))
            guard hi > lo else { continue }
            Self.check(s0, s1, d0, d1, lo, hi)
        }
    }

    /// A kept tile of a picture fitted to the screen (a 1600-pixel page on a 540-pixel screen): the tile's
    /// first pixel centre falls on a source pixel's edge, give or take a rounding error. It is drawn (it was
    /// left out, a dark line every 256 pixels).
    @Test func pixelCentresOnSourceEdges() {
        for scale in [540.0 / 1600, 1080.0 / 1600, 0.36, 0.5, 0.75, 0.3375] {
            for column in 1...4 {
                let s0 = 256 * Double(column) / scale
                let s1 = 256 * Double(column + 1) / scale
                for d0 in [0, 1e-13, -1e-13, 2.8e-14] {
                    Self.check(s0, s1, d0, d0 + 256, 0, 256)
                }
            }
        }
    }

    @Test func nothingVisible() {
        #expect(Renderer.pieces(source: 0, 10, destination: 0, 100, visible: 50, 50).isEmpty)
    }
}
