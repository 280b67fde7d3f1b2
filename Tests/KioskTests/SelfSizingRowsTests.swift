import Foundation
import ScrollEngine
import Testing

@testable import Kiosk

/// A list's rows are as tall as their titles (UITableView's self-sizing cells): a title wraps at spaces up to
/// three lines, in every language, and the row grows by its lines; the rows under a finger, the ones drawn, the
/// spoken elements and `scrollToRow` all follow the grown rows.
@Suite struct SelfSizingRowsTests {
    static let size = Size(width: 800, height: 480)
    static let long = "Sammlung historischer Musikinstrumente aus dem achtzehnten Jahrhundert"
    static let longer = String(repeating: "Wort ", count: 60) + "Ende"

    static func app(metrics: TextMetrics = .estimate) throws -> KioskApp {
        let rows = [
            #"{"id": "a", "title": "Short", "goto": "map"}"#,
            #"{"id": "b", "title": "\#(long)", "subtitle": "Room 3", "goto": "map"}"#,
            #"{"id": "c", "title": "\#(longer)", "goto": "map"}"#,
            #"{"id": "d", "title": "After"}"#,
        ]
        let text = """
            {"kioskManifest": 1, "home": "directory", "idleTimeoutSeconds": 0, "languages": ["de"],
             "scenes": [
               {"id": "directory", "type": "list", "title": "Verzeichnis", "rows": [\(rows.joined(separator: ","))]},
               {"id": "map", "type": "zoom", "image": "map.png"}
             ]}
            """
        let m = try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        return KioskApp(
            manifest: m, physicalSize: size, images: ImageCatalog(m) { _ in ImageInfo(size: size, loaded: true) },
            metrics: metrics)
    }

    /// The title runs drawn, by their text.
    static func titles(_ app: KioskApp) -> [String: TextRun] {
        var out: [String: TextRun] = [:]
        for case .text(let run) in app.drawList() where run.size == ListStyle.titleSize { out[run.text] = run }
        return out
    }

    @Test func aLongTitleWrapsAndItsRowGrows() throws {
        let app = try Self.app()
        let layout = try #require(app.scene.list?.layout)
        // 800 points less the thumbnails' column, the margin and the chevron: about 620 points, 39 characters
        // of 26 points at the estimate's 0.6 em: the long title (71) takes two lines, the longer (304) three.
        #expect(layout.lines.map(Int.init) == [1, 2, 3, 1])
        let line = layout.lineHeight
        #expect(layout.rowHeight(0) == ListStyle.rowHeight)
        #expect(layout.rowHeight(1) == ListStyle.rowHeight + 2 * line + 2 - 38)
        // The rows follow each other: each starts where the one before ends.
        for p in 1..<4 { #expect(layout.rowTop(p) == layout.rowTop(p - 1) + layout.rowHeight(p - 1)) }
        #expect(layout.height == layout.rowTop(3) + layout.rowHeight(3))
        #expect(app.scene.view.contentSize.height == layout.height)
        // Drawn in a box as tall as its lines, wrapping; the subtitle below it.
        let titles = Self.titles(app)
        let b = try #require(titles[Self.long])
        #expect(b.wraps && b.rect.height >= 2 * line)
        let subtitle = try #require(
            app.drawList().lazy.compactMap { if case .text(let r) = $0, r.text == "Room 3" { r } else { nil } }.first)
        #expect(subtitle.rect.minY >= b.rect.maxY)
        #expect(try #require(titles["Short"]).rect.height == ListStyle.rowHeight)
    }

    /// A tap on the grown row's last line is that row's; below it, the next row's.
    @Test func aTapOnAGrownRowIsThatRows() throws {
        let app = try Self.app()
        let layout = try #require(app.scene.list?.layout)
        let view = app.scene.view
        let y = layout.rowTop(1) + layout.rowHeight(1) - 4 - view.contentOffset.y
        #expect(app.scene.row(at: Point(x: 400, y: y))?.id == "b")
        #expect(app.scene.row(at: Point(x: 400, y: y + 8))?.id == "c")
        // The old arithmetic (88 points a row) put the first point past row b's first 88 in row c.
        let old = layout.rowTop(1) + 100 - view.contentOffset.y
        #expect(app.scene.row(at: Point(x: 400, y: old))?.id == "b")
        let elements = app.scene.accessibilityElements(language: "de", fallback: "de")
        let row = try #require(elements.first { $0.id == "row:b" })
        #expect(row.frame.height == layout.rowHeight(1))
    }

    /// With the fonts' widths: a title that fits one line stays one, whatever its length in characters.
    @Test func theFontsWidthsDecide() throws {
        // Every character a tenth of an em: the long title fits one line, the longer takes two.
        var advances: [Unicode.Scalar: Double] = [:]
        for s in (Self.long + Self.longer + "ShortAfter ").unicodeScalars { advances[s] = 0.1 }
        let narrow = TextMetrics(fonts: ["de": .init(advances: advances, otherAdvance: 0.1, lineHeight: 1.5)])
        let layout = try #require(try Self.app(metrics: narrow).scene.list?.layout)
        #expect(layout.lines.map(Int.init) == [1, 1, 2, 1])
        #expect(layout.lineHeight == 1.5 * ListStyle.titleSize)
    }

    /// `scrollToRow(.middle)` puts the grown row's middle in the middle of the list's space.
    @Test func scrollToRowKnowsTheGrownRow() throws {
        let app = try Self.app()
        let layout = try #require(app.scene.list?.layout)
        let view = app.scene.view
        view.contentSize.height = 5000
        #expect(app.scene.scrollToRow("c", at: .middle, animated: false))
        let inset = view.contentInset
        let middle = view.contentOffset.y + inset.top + (Self.size.height - inset.top - inset.bottom) / 2
        #expect(abs(middle - (layout.rowTop(2) + layout.rowHeight(2) / 2)) < 1e-9)
    }

    /// Line breaks as the renderer's (`TextLayout`): whole words, a line break in the text starts a line, at most
    /// the lines asked.
    @Test func linesAreCountedAsTheRendererBreaksThem() {
        let m = TextMetrics.estimate
        // 0.6 em a character at 10 points: 6 points each, 60 points for ten.
        #expect(m.lineCount("aaaa bbbb", language: "en", size: 10, width: 60, maximumLines: 3) == 1)
        #expect(m.lineCount("aaaa bbbbbb", language: "en", size: 10, width: 60, maximumLines: 3) == 2)
        #expect(m.lineCount("one\ntwo", language: "en", size: 10, width: 600, maximumLines: 3) == 2)
        #expect(m.lineCount("a b c d e f g h", language: "en", size: 10, width: 6, maximumLines: 3) == 3)
        #expect(m.lineCount("", language: "en", size: 10, width: 60, maximumLines: 3) == 1)
        // A word longer than the line is one line of its own (the renderer cuts it with an ellipsis).
        #expect(
            m.lineCount(String(repeating: "x", count: 40), language: "en", size: 10, width: 60, maximumLines: 3) == 1)
    }
}
