import Testing

@testable import Kiosk

/// The bidirectional algorithm for a line of a manifest's text: runs of one direction, in the order a reader
/// sees them from left to right (UAX #9's examples, and the labels a museum writes).
@Suite struct BidiTests {
    /// The runs as "text>" (left to right) or "text<" (right to left), from left to right.
    func seen(_ line: String, rightToLeft: Bool) -> [String] {
        Bidi.runs(line, rightToLeft: rightToLeft).map { $0.text + ($0.isRightToLeft ? "<" : ">") }
    }

    @Test func oneDirectionIsOneRun() {
        #expect(seen("Gallery A: Paintings", rightToLeft: false) == ["Gallery A: Paintings>"])
        #expect(seen("المعرض أ: اللوحات", rightToLeft: true) == ["المعرض أ: اللوحات<"])
        #expect(seen("", rightToLeft: true).isEmpty)
    }

    /// A year in Arabic text reads left to right (it is not "6202"), before the words it follows.
    @Test func aNumberInArabicReadsLeftToRight() {
        #expect(seen("عام 2026", rightToLeft: true) == ["2026>", "عام <"])
        // A range of Arabic numbers reads from its right end, as Arabic readers write it.
        #expect(seen("المقهى 101-105", rightToLeft: true) == ["105>", "-<", "101>", "المقهى <"])
        // A per cent sign belongs to a European number (Hebrew); after Arabic letters the number is an Arabic
        // one (W2) and the sign stays on its left, as Arabic writes it.
        #expect(seen("הנחה 20%", rightToLeft: true) == ["20%>", "הנחה <"])
        #expect(seen("خصم 20%", rightToLeft: true) == ["%<", "20>", "خصم <"])
    }

    /// A Latin name in an Arabic label: its own run, left to right, in its own script (another font draws it).
    @Test func aLatinNameInArabic() {
        let runs = Bidi.runs("متحف Louvre الكبير", rightToLeft: true)
        #expect(runs.map(\.text) == [" الكبير", "Louvre", "متحف "])
        #expect(runs.map(\.isRightToLeft) == [true, false, true])
        #expect(runs.map(\.script) == ["Arab", "Latn", "Arab"])
        // Latin alone in a right-to-left language is not reversed ("WC", not "CW").
        #expect(seen("WC", rightToLeft: true) == ["WC>"])
    }

    /// An Arabic word in English text reads right to left in its place; a number after it joins it (W2).
    @Test func arabicInEnglish() {
        #expect(seen("The word قهوة means coffee", rightToLeft: false) == ["The word >", "قهوة<", " means coffee>"])
        #expect(seen("Café مقهى 12", rightToLeft: false) == ["Café >", "12>", "مقهى <"])
    }

    /// Marks stay with their letter; white space at the end of a line takes the paragraph's direction (L1); a
    /// left-to-right mark makes a neutral left to right.
    @Test func marksAndSpaces() {
        #expect(seen("مُتحَف", rightToLeft: true) == ["مُتحَف<"])
        #expect(seen("Hello ", rightToLeft: true) == [" <", "Hello>"])
        #expect(seen("abc!", rightToLeft: true) == ["!<", "abc>"])
        #expect(seen("abc!\u{200E}", rightToLeft: true) == ["abc!\u{200E}>"])
    }
}
