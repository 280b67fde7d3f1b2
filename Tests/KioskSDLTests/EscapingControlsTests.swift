import Testing

@testable import KioskSDL

/// Every line the kiosk writes (the journal's, a tool's report) carries a name as it is, its control characters
/// written out: a file named to forge a line of the journal, or to send a terminal its escape sequences, cannot.
@Suite struct EscapingControlsTests {
    @Test func aLineBreakInANameStaysInItsLine() {
        let forged = "x.png\n<2>kiosk: FORGED critical line"
        let line = escapingControls("\(forged): file not found")
        #expect(!line.contains("\n"))
        #expect(line == #"x.png\n<2>kiosk: FORGED critical line: file not found"#)
    }

    @Test(arguments: [
        ("\u{1B}[2J\u{1B}[31mred", #"\u{1B}[2J\u{1B}[31mred"#), ("a\rb", #"a\rb"#), ("nul\u{0}", #"nul\u{0}"#),
        ("c1\u{9B}31m", #"c1\u{9B}31m"#), ("del\u{7F}", #"del\u{7F}"#), ("rlo\u{202E}gpj.exe", #"rlo\u{202E}gpj.exe"#),
        ("ls\u{2028}", #"ls\u{2028}"#),
    ])
    func controlsAreWrittenOut(raw: String, written: String) {
        #expect(escapingControls(raw) == written)
    }

    @Test func wordsOfEveryScriptAndTabsStayAsTheyAre() {
        for s in ["Café", "مقهى", "東京", "col\tumn", "emoji 🏛️", ""] { #expect(escapingControls(s) == s) }
    }
}
