/// The geometry of a scaled copy cut into whole-pixel pieces (`Renderer.copyInPieces`), for SDL's software
/// renderer.
extension Renderer {
    /// One axis of a scaled copy cut into pieces: source pixels `source..<source+count` land on target pixels
    /// `start..<end`. A target pixel shows the source pixel under its centre; the first and last pieces may be
    /// source pixels seen in part, the middle one the pixels seen whole.
    struct Piece: Equatable {
        var source: Int32
        var count: Int32
        var start: Int32
        var end: Int32
    }

    /// At most three pieces, kept inline (a frame makes thousands of these: no heap allocation).
    struct Pieces: RandomAccessCollection {
        var items = (
            Piece(source: 0, count: 0, start: 0, end: 0), Piece(source: 0, count: 0, start: 0, end: 0),
            Piece(source: 0, count: 0, start: 0, end: 0)
        )
        var endIndex = 0
        var startIndex: Int { 0 }

        subscript(i: Int) -> Piece {
            switch i {
            case 0: items.0
            case 1: items.1
            default: items.2
            }
        }

        mutating func append(_ piece: Piece) {
            switch endIndex {
            case 0: items.0 = piece
            case 1: items.1 = piece
            default: items.2 = piece
            }
            endIndex += 1
        }
    }

    /// The pieces of source pixels `s0..<s1` (fractional ends allowed) drawn over `d0..<d1`, within the target
    /// pixels `lo..<hi`.
    static func pieces(
        source s0: Double, _ s1: Double, destination d0: Double, _ d1: Double, visible lo: Double, _ hi: Double
    )
        -> Pieces
    {
        guard hi > lo, s1 > s0, d1 > d0 else { return Pieces() }
        let f = (d1 - d0) / (s1 - s0)
        let first = s0.rounded(.down)
        let last = s1.rounded(.up) - 1
        /// The source pixel under target pixel `p`'s centre, and the first target pixel that shows pixel `i`
        /// (`edge`), within view (`boundary`).
        func column(_ p: Double) -> Double { min(last, max(first, (s0 + (p + 0.5 - d0) / f).rounded(.down))) }
        func edge(_ i: Double) -> Double {
            var e = (d0 + (i - s0) * f - 0.5).rounded(.up)
            // The outermost pixels also fill the view's whole pixels past the copy's fractional ends.
            if i <= first { return min(lo, e) }
            if i > last { return max(hi, e) }
            // A centre on the edge between two source pixels lands on either side by a rounding error: the
            // edge agrees with `column`, so no target pixel falls between two pieces.
            if column(e - 1) >= i {
                e -= 1
            } else if column(e) < i {
                e += 1
            }
            return e
        }
        func boundary(_ i: Double) -> Double { min(hi, max(lo, edge(i))) }
        let a = column(lo)
        let b = column(hi - 1)
        // The pixels seen whole: from the first that starts within view to the last that ends within it.
        let wholeFirst = edge(a) >= lo ? a : a + 1
        let wholeLast = edge(b + 1) <= hi ? b : b - 1
        var out = Pieces()
        func add(_ i: Double, _ n: Double, _ start: Double, _ end: Double) {
            guard end > start, n > 0 else { return }
            out.append(Piece(source: Int32(i), count: Int32(n), start: Int32(start), end: Int32(end)))
        }
        if wholeFirst > wholeLast {
            // No pixel seen whole: at most two pixels, each in part.
            add(a, 1, lo, a == b ? hi : boundary(b))
            if a != b { add(b, 1, boundary(b), hi) }
            return out
        }
        if wholeFirst > a { add(a, 1, lo, boundary(wholeFirst)) }
        add(wholeFirst, wholeLast - wholeFirst + 1, boundary(wholeFirst), boundary(wholeLast + 1))
        if wholeLast < b { add(b, 1, boundary(wholeLast + 1), hi) }
        return out
    }
}
