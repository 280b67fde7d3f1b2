import Kiosk
import Testing

@testable import KioskSDL

/// Line breaking and the ellipsis (`TextLayout`), measured in characters of 10 pixels each.
@Suite struct TextLayoutTests {
    static func measure(_ s: String) -> Int { s.count * 10 }

    static func lines(_ text: String, width: Int, lines: Int) -> [String] {
        TextLayout.lines(text, width: width, maximumLines: lines, measure: measure)
    }

    @Test func wrapsAtWordBoundariesWithinTheWidth() {
        #expect(Self.lines("the city at night", width: 110, lines: 5) == ["the city at", "night"])
        #expect(Self.lines("one\ntwo three", width: 200, lines: 5) == ["one", "two three"])
    }

    @Test func aTextThatDoesNotFitEndsInAnEllipsis() {
        // Three lines of text, two lines of room: the second ends in an ellipsis.
        #expect(Self.lines("aaaa bbbb cccc", width: 50, lines: 2) == ["aaaa", "bbbb…"])
        // One word wider than the box: cut, with an ellipsis.
        #expect(Self.lines("abcdefghijkl", width: 60, lines: 1) == ["abcde…"])
        // One line: the words after it are cut, and the ellipsis says so.
        #expect(Self.lines("aaa bbb ccc", width: 80, lines: 1) == ["aaa bbb…"])
        #expect(Self.lines("aaa bbb ccc", width: 70, lines: 1) == ["aaa…"])
        // 100 000 characters in one line of 20: found by halving, 20 wide.
        let cut = Self.lines(String(repeating: "x", count: 100_000), width: 200, lines: 1)
        #expect(cut == [String(repeating: "x", count: 19) + "…"])
    }

    @Test func linesStartAtTheReadingDirectionsStart() {
        #expect(TextLayout.offset(width: 30, in: 100, align: .start, rightToLeft: false) == 0)
        #expect(TextLayout.offset(width: 30, in: 100, align: .start, rightToLeft: true) == 70)
        #expect(TextLayout.offset(width: 30, in: 100, align: .end, rightToLeft: false) == 70)
        #expect(TextLayout.offset(width: 30, in: 100, align: .center, rightToLeft: true) == 35)
    }
}
