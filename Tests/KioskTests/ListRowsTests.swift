import Testing

@testable import Kiosk

/// A list's rows from a CSV or JSON Lines file (RFC 4180; docs/manifest.md), and every way such a file
/// goes wrong: a clear line naming the file and the line, never a crash.
@Suite struct ListRowsTests {
    static func check(_ file: String, _ bytes: [UInt8], rows: String = "rows.csv") -> ManifestCheck {
        let text = """
            {"kioskManifest": 1, "home": "d", "languages": ["en", "de"],
             "scenes": [{"id": "d", "type": "list", "rows": "\(rows)", "title": "D"},
                        {"id": "map", "type": "zoom", "image": "m.png", "hotspots": [{"id": "cafe", "rect": [0, 0, 9, 9]}]},
                        {"id": "menu", "type": "scroll", "image": "menu.png"}]}
            """
        return Manifest.check(
            text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true },
            readFile: { $0 == "/k/" + file ? .success(bytes) : .failure(FileReadError("missing")) })
    }

    static func check(csv: String) -> ManifestCheck { check("rows.csv", Array(csv.utf8)) }

    @Test func quotedFieldsHoldCommasLineBreaksAndQuotes() throws {
        let csv =
            "\u{FEFF}id,title,title.de,subtitle,show\r\n"
            + "cafe,Café,Café,\"Coffee, cake\",map#cafe\r\n"
            + "menu,\"The \"\"daily\"\" menu\",Tageskarte,\"two\nlines\",\r\n\r\n"
        let check = Self.check(csv: csv)
        let rows = try #require(check.manifest?.scenes[0].list?.rows, "\(check.problems)")
        #expect(rows.map(\.id) == ["cafe", "menu"])
        #expect(rows[0].subtitle?.text(in: "en", fallback: "en") == "Coffee, cake")
        #expect(rows[0].action == .show(scene: "map", hotspot: "cafe"))
        #expect(rows[1].title.text(in: "en", fallback: "en") == "The \"daily\" menu")
        #expect(rows[1].title.text(in: "de", fallback: "en") == "Tageskarte")
        #expect(rows[1].subtitle?.text(in: "de", fallback: "en") == "two\nlines")
        #expect(rows[1].path == "line 3")
        #expect(check.errors.isEmpty, "\(check.problems)")
    }

    @Test(arguments: [
        ("id,subtitle\na,b\n", "/k/rows.csv: line 1: no \"title\" column (the header line names the columns)"),
        (
            "id,title,colour\na,b,c\n",
            "/k/rows.csv: line 1: unknown column \"colour\" (known: id, title, subtitle, thumbnail, section, goto, show, description)"
        ),
        (
            "id,title,title.fr\na,b,c\n",
            "/k/rows.csv: line 1: column \"title.fr\": \"fr\" is not one of the manifest's languages"
        ),
        ("id,title,title\na,A,B\n", "/k/rows.csv: line 1: column \"title\" is named twice (columns 2 and 3)"),
        (
            "id,title\na,Caf\u{0}e\n",
            "/k/rows.csv: line 2.title: contains a NUL character (U+0000), which would end the text there"
        ),
        ("id,title\na,A\nb\n", "/k/rows.csv: line 3: 1 fields; the header has 2"),
        ("id,title\na,A,extra\n", "/k/rows.csv: line 2: 3 fields; the header has 2"),
        (
            "id,title\na,Th\"e A\n",
            "/k/rows.csv: line 2: a quote inside a field that is not quoted whole (write \"\" for a quote in a quoted field)"
        ),
        ("id,title\na,\"open\nb,B\n", "/k/rows.csv: line 2: a quote opened here is never closed"),
        ("id,title\na,A\nb,B\na,C\n", "/k/rows.csv: line 4: the id \"a\" is also the id of line 2"),
        ("id,title,goto\na,A,nowhere\n", "/k/rows.csv: line 2.goto: no scene has the id \"nowhere\""),
        ("id,title,show\na,A,map#bar\n", "/k/rows.csv: line 2.show: the scene \"map\" has no hotspot \"bar\""),
        (
            "id,title,show\na,A,menu#x\n",
            "/k/rows.csv: line 2.show: \"menu\" is a scroll scene; show needs a zoom scene"
        ),
        ("id,title,show\na,A,map\n", "/k/rows.csv: line 2.show: expected \"scene#hotspot\", found \"map\""),
        ("id,title,goto\na,A,d#zz\n", "/k/rows.csv: line 2.goto: the list \"d\" has no row \"zz\""),
        (
            "id,title,goto\na,A,menu#a\n",
            "/k/rows.csv: line 2.goto: \"menu\" is a scroll scene; a row (#a) needs a list scene"
        ),
        ("id,title\n,A\n", "/k/rows.csv: line 2.id: missing"),
        ("", "/k/rows.csv: the file is empty (it needs a header line)"),
    ])
    func eachMistakeIsNamedWithItsLine(csv: String, message: String) {
        let check = Self.check(csv: csv)
        #expect(check.manifest == nil)
        #expect(check.problems.map(\.description).contains(message), "\(check.problems.map(\.description))")
    }

    /// A CSV that Excel wrote as its plain "CSV" on Windows (Windows-1252) is read as such, and said; so is one
    /// with semicolons between its columns, as Excel writes CSV in German or French.
    @Test func bytesThatAreNotUTF8AreReadAsWindows1252AndSaid() throws {
        let check = Self.check("rows.csv", Array("id,title\nb,caf".utf8) + [0xE9, 0x80] + Array("\n".utf8))
        #expect(check.errors.isEmpty, "\(check.errors)")
        #expect(
            check.problems.map(\.description).contains(
                "/k/rows.csv: line 2 is not UTF-8 text: read as Windows-1252, as Excel writes it; save it as "
                    + "\"CSV UTF-8\" to be sure of every letter"), "\(check.problems)")
        let rows = try #require(check.manifest?.scene("d")?.list?.rows)
        #expect(rows.first?.title.text(in: "en", fallback: "en") == "caf\u{E9}\u{20AC}")
        let semicolons = Self.check(csv: "id;title;subtitle\na;Caf\u{E9}, bar;open\n")
        #expect(semicolons.errors.isEmpty, "\(semicolons.errors)")
        #expect(
            semicolons.problems.contains { $0.message.hasPrefix("read with \";\" between columns") },
            "\(semicolons.problems)")
        #expect(
            semicolons.manifest?.scene("d")?.list?.rows.first?.title.text(in: "en", fallback: "en") == "Caf\u{E9}, bar")
    }

    @Test func aMillionRowsIsAMistakeNotACrash() throws {
        var csv = "id,title\n"
        csv.reserveCapacity(16 * 1_000_010)
        for i in 0..<1_000_000 { csv += "r\(i),R\n" }
        let check = Self.check(csv: csv)
        #expect(check.manifest == nil)
        #expect(
            check.errors.map(\.description) == ["/k/rows.csv: line 100002: more than 100000 rows"],
            "\(check.problems.prefix(3))")
    }

    @Test func jsonLinesAreRowsToo() throws {
        let lines = #"""
            {"id": "cafe", "title": {"en": "Café", "de": "Café"}, "section": "Food", "show": "map#cafe"}

            {"id": "menu", "title": "Menu", "goto": "menu"}
            {"id": "oops", "title": 3}
            """#
        let check = Self.check("rows.jsonl", Array(lines.utf8), rows: "rows.jsonl")
        #expect(
            check.errors.map(\.description) == [
                #"/k/rows.jsonl: line 4.title: expected a text (a string, or one per language), found a number"#
            ])
        let good = Self.check(
            "rows.jsonl", Array(lines.split(separator: "\n").dropLast().joined(separator: "\n").utf8),
            rows: "rows.jsonl")
        let rows = try #require(good.manifest?.scenes[0].list?.rows)
        #expect(rows.map(\.action) == [.show(scene: "map", hotspot: "cafe"), .goto(scene: "menu")])
    }

    /// A title with a quoted line break is kept, and said: a row shows one line.
    @Test func aTitleOnTwoLinesIsSaid() throws {
        let check = Self.check(csv: "id,title\na,\"Line one\nline two\"\n")
        #expect(check.errors.isEmpty)
        #expect(
            check.problems.map(\.description).filter { $0.hasPrefix("/k/rows.csv") } == [
                "/k/rows.csv: line 2.title: holds a line break; a row shows its title on one line, cut where it ends"
            ])
    }

    /// A Windows editor's JSON Lines: a byte-order mark and CRLF line ends, read as the CSV reader reads them
    /// (JSON itself takes "\r" as white space); the line numbers stay the file's.
    @Test func jsonLinesWithCRLFAndABOMAreRead() throws {
        let lines =
            "\u{FEFF}{\"id\": \"cafe\", \"title\": \"Café\", \"show\": \"map#cafe\"}\r\n\r\n"
            + "{\"id\": \"menu\", \"title\": \"Menu\", \"goto\": \"menu\"}\r\n{\"id\": \"oops\", \"title\": 3}\r\n"
        let check = Self.check("rows.jsonl", Array(lines.utf8), rows: "rows.jsonl")
        #expect(
            check.errors.map(\.description) == [
                #"/k/rows.jsonl: line 4.title: expected a text (a string, or one per language), found a number"#
            ])
        let good = Self.check("rows.jsonl", Array(lines.utf8.dropLast(28)), rows: "rows.jsonl")
        let rows = try #require(good.manifest?.scenes[0].list?.rows, "\(good.problems)")
        #expect(rows.map(\.id) == ["cafe", "menu"])
    }

    @Test func aMissingFileIsNamed() {
        let check = Self.check("other.csv", [], rows: "rows.csv")
        #expect(check.errors.map(\.description) == ["k.json: scenes[0].rows: /k/rows.csv: cannot be read (missing)"])
    }
}
