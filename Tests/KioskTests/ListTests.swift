import EventLog
import Foundation
import ScrollEngine
import Testing

@testable import Kiosk

/// The list scene (docs/manifest.md): UITableView's plain style with sticky headers, the section index,
/// the highlight under the finger and its cancel when the touch scrolls, a row that shows a place on the map.
@Suite struct ListTests {
    static let size = Size(width: 800, height: 480)

    /// Three sections of ten rows (A, B, C), each row going to the gallery, but C's first, which shows the map's
    /// cafe; the list under a title.
    static func manifest(rowsPerSection: Int = 10, languages: String = #"["en", "ar"]"#) -> String {
        var rows: [String] = []
        for (s, name) in ["Alpha", "Bravo", "Charlie"].enumerated() {
            for i in 0..<rowsPerSection {
                let action = s == 2 && i == 0 ? #""show": "map#cafe""# : #""goto": "gallery""#
                rows.append(
                    #"{"id": "\#(name)-\#(i)", "title": {"en": "\#(name) \#(i)", "ar": "صف \#(i)"}, "section": {"en": "\#(name)", "ar": "ال\#(name)"}, \#(action)}"#
                )
            }
        }
        return """
            {"kioskManifest": 1, "home": "directory", "idleTimeoutSeconds": 0, "languages": \(languages),
             "scenes": [
               {"id": "directory", "type": "list", "title": "Directory", "sectionIndex": true,
                "rows": [\(rows.joined(separator: ",\n"))]},
               {"id": "map", "type": "zoom", "image": "map.png", "maxZoom": 2.0,
                "hotspots": [{"id": "cafe", "rect": [1800, 1000, 400, 300]}]},
               {"id": "gallery", "type": "zoom", "image": "a.jpg"}
             ]}
            """
    }

    static func app(_ text: String = manifest()) throws -> KioskApp {
        let m = try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        return KioskApp(manifest: m, physicalSize: size) { _ in
            ImageInfo(size: Size(width: 4000, height: 2400), loaded: true)
        }
    }

    /// The trace line's `list` object.
    static func listTrace(_ app: KioskApp) throws -> [String: Any] {
        let line = app.traceLine(frame: 0, events: [])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try #require(json["list"] as? [String: Any])
    }

    /// Header 44, rows 88: A's header at 0, its rows from 44; B's header at 924, C's at 1848.
    @Test func stickyHeadersStayAtTheTopUntilTheNextPushesThemUp() throws {
        let app = try Self.app()
        let view = app.scene.view
        #expect(view.contentInset.top == WordStyle.titleBarHeight)
        #expect(view.contentOffset.y == -WordStyle.titleBarHeight)
        var seen: [(offset: Double, section: String, y: Double)] = []
        for top in stride(from: 0.0, through: 2200, by: 20) {
            view.setContentOffset(Point(x: 0, y: top - 64), animated: false)
            let header = try #require(try Self.listTrace(app)["stickyHeader"] as? [String: Any])
            seen.append((top, header["section"] as! String, header["y"] as! Double))
        }
        func at(_ top: Double) -> (String, Double) {
            let s = seen.first { $0.offset == top }!
            return (s.section, s.y)
        }
        // Within a section its header is held under the title bar (64).
        #expect(at(0) == ("Alpha", 64))
        #expect(at(500) == ("Alpha", 64))
        // B's header (at 924) pushes A's up: 20 points before it arrives A's is 20 points up.
        #expect(at(900) == ("Alpha", 64 - 20))
        #expect(at(920) == ("Alpha", 64 - 40))
        #expect(at(940) == ("Bravo", 64))
        #expect(at(1840) == ("Bravo", 64 - 36))
        #expect(at(2200) == ("Charlie", 64))
        #expect(Set(seen.map(\.section)) == ["Alpha", "Bravo", "Charlie"])
    }

    /// A touch on the index's C jumps to C's header; sliding up to B jumps there (one event per section).
    @Test func theIndexJumpsToItsSection() throws {
        let app = try Self.app()
        let list = try #require(app.scene.list)
        #expect(list.indexEntries.map(\.letter) == ["A", "B", "C"])
        // The strip is the trailing 48 points below the title bar; three letters 40 points apart about its middle.
        let middle = 64 + (480 - 64) / 2.0
        let x = (800 - 24) / 800.0
        app.finger(.down, x: x, y: (middle + 40) / 480, at: 100)
        AppRig.run(app, from: 100, to: 200)
        #expect(app.scene.view.contentOffset.y == 1848 - 64)
        #expect(app.frameEvents.contains { $0.kind == .sectionIndexJump(section: "Charlie") })
        app.dropFrameEvents()
        app.finger(.motion, x: x, y: middle / 480, at: 220)
        app.finger(.motion, x: x, y: (middle + 2) / 480, at: 240)
        app.finger(.up, x: x, y: (middle + 2) / 480, at: 260)
        AppRig.run(app, from: 200, to: 400)
        #expect(app.scene.view.contentOffset.y == 924 - 64)
        #expect(app.frameEvents.filter { $0.name == "sectionIndexJump" }.count == 1)
        // The list did not scroll under the finger, and nothing was tapped.
        #expect(!app.frameEvents.contains { $0.name == "rowTapped" || $0.name == "scrollViewWillBeginDragging" })
        #expect(app.scene.config.id == "directory")
    }

    /// A row held longer than UIKit's content-touch delay is highlighted; lifted, it is tapped and acts.
    /// Sections sharing an initial are one letter (the first section's), and an index of more letters than its
    /// strip holds collapses as UIKit's does: letters evenly from first to last, a bullet between each two, never
    /// closer than `indexMinimumStep`, the last slot jumping to the last section.
    @Test func theIndexMergesInitialsAndCollapses() throws {
        func manifest(_ sections: [String]) -> String {
            let rows = sections.enumerated().map { i, name in
                #"{"id": "r\#(i)", "title": "Row \#(i)", "section": "\#(name)", "goto": "gallery"}"#
            }
            return Self.manifest().replacing(
                #/"rows": \[[^\]]*\]\}/#, with: "\"rows\": [\(rows.joined(separator: ", "))]}")
        }
        let merged = try #require(try Self.app(manifest(["Apples", "Apricots", "Bananas"])).scene.list)
        #expect(merged.indexEntries.map(\.letter) == ["A", "B"])
        #expect(merged.indexEntries.map(\.section) == [0, 2])
        // 10 000 sections, each its own initial (CJK ideographs from U+4E00), on an 800x480 screen.
        let names = (0..<10_000).map { String(Character(UnicodeScalar(0x4E00 + $0)!)) + "\($0)" }
        let app = try Self.app(manifest(names))
        let list = try #require(app.scene.list)
        let strip = try #require(list.indexStrip(size: Self.size, top: 64))
        let shown = list.indexSlotsShown(in: strip)
        #expect(shown.count >= 3 && shown.count % 2 == 1)
        #expect(Double(shown.count) * ListStyle.indexMinimumStep <= strip.height)
        #expect(
            shown.enumerated().allSatisfy { $0.offset % 2 == 0 ? $0.element.label != "•" : $0.element.label == "•" })
        #expect(shown.first?.entry == 0 && shown.last?.entry == list.indexEntries.count - 1)
        #expect(list.indexEntry(at: strip.maxY, in: strip) == list.indexEntries.count - 1)
        let drawn = app.drawList().compactMap { c -> Rect? in
            if case .text(let run) = c, strip.contains(Point(x: run.rect.midX, y: run.rect.midY)) { return run.rect }
            return nil
        }
        #expect(drawn.count == shown.count)
        #expect(drawn.allSatisfy { $0.minY >= strip.minY - 1e-9 && $0.maxY <= strip.maxY + 1e-9 })
    }

    @Test func aTapHighlightsAndActs() throws {
        let app = try Self.app()
        // Alpha 1 is at content 44 + 88 = 132 to 220: on screen 196 to 284 under the title bar.
        app.finger(.down, x: 0.5, y: 240 / 480, at: 100)
        AppRig.run(app, from: 100, to: 300)
        #expect(try Self.listTrace(app)["highlighted"] as? String == "Alpha-1")
        app.finger(.up, x: 0.5, y: 240 / 480, at: 320)
        AppRig.run(app, from: 300, to: 340)
        #expect(app.frameEvents.contains { $0.kind == .rowTapped(row: "Alpha-1") })
        AppRig.run(app, from: 340, to: 1000)
        #expect(app.scene.config.id == "gallery")
    }

    /// The title bar takes the taps that land on it: scrolled so that a row lies under the bar, a tap on the
    /// bar's middle taps no row (it went through to the row under it, and flew the visitor away).
    @Test func aTapOnTheTitleBarTapsNoRowUnderIt() throws {
        let app = try Self.app()
        app.scene.view.setContentOffset(Point(x: 0, y: 200 - 64), animated: false)
        // The bar is the top 64 points; content 200 to 264 (Alpha 1, from 132 to 220, and Alpha 2) is under it.
        app.tap(x: 0.5, y: 32 / 480, at: 100, holdMs: 60)
        AppRig.run(app, from: 100, to: 1000)
        #expect(!app.frameEvents.contains { $0.name == "rowTapped" })
        #expect(app.scene.config.id == "directory")
        // The tap scrolled the list to its top, as a tap on UIKit's status bar does, asking first.
        #expect(app.scene.view.contentOffset.y == -64)
        let names = app.frameEvents.map(\.name).filter { $0.hasSuffix("ScrollToTop") || $0.hasSuffix("Animation") }
        #expect(names == ["scrollViewShouldScrollToTop", "scrollViewDidScrollToTop"], "\(names)")
        _ = app.sink.take()
        // A row below the bar is still tapped as before.
        app.tap(x: 0.5, y: 240 / 480, at: 1100, holdMs: 60)
        AppRig.run(app, from: 1100, to: 1400)
        #expect(app.frameEvents.contains { $0.name == "rowTapped" })
    }

    /// A tap shorter than the content-touch delay (most taps) shows the row's highlight before the row acts, as
    /// UIScrollView delivers a held-back touch at the lift: the list leaves with the row highlighted, and it
    /// is let go when the list opens again.
    @Test func aQuickTapHighlightsTheRowBeforeItActs() throws {
        let app = try Self.app()
        let list = app.scene
        // Alpha 1, from 132 + 64 to 220 + 64 on screen: a tap of 40 ms, under the 150 ms delay.
        app.tap(x: 0.5, y: 240 / 480, at: 100, holdMs: 40)
        AppRig.run(app, from: 100, to: 160)
        #expect(app.frameEvents.contains { $0.kind == .rowTapped(row: "Alpha-1") })
        #expect(app.scene.config.id == "gallery")
        #expect(list.list?.highlighted == "Alpha-1")
        #expect(app.navigator.outgoing === list)
        app.navigator.show(scene: "directory", at: 2000)
        #expect(list.list?.highlighted == nil)
    }

    /// UITableViewCell's disclosure indicator on a row that acts (at the trailing edge, before the index;
    /// mirrored in Arabic), none on one that does not; a list without rows says so in the visitor's language.
    @Test func rowsThatActShowAChevronAndAnEmptyListSaysSo() throws {
        func texts(_ app: KioskApp) -> [TextRun] {
            app.drawList().compactMap {
                if case .text(let run) = $0 { return run }
                return nil
            }
        }
        let app = try Self.app()
        let right = texts(app).filter { $0.text == "\u{203A}" }
        #expect(right.count >= 4 && right.allSatisfy { $0.rect.maxX <= 800 - ListStyle.indexWidth }, "\(right)")
        app.chooseLanguage("ar")
        let left = texts(app).filter { $0.text == "\u{2039}" }
        #expect(
            left.count == right.count && left.allSatisfy { $0.rect.minX >= ListStyle.indexWidth && $0.rect.maxX < 120 })
        let quiet = try Self.app(Self.manifest().replacingOccurrences(of: #", "goto": "gallery""#, with: ""))
        #expect(texts(quiet).filter { $0.text == "\u{203A}" }.count == 0)
        let empty = try Self.app(
            #"{"kioskManifest": 1, "languages": ["en", "ar"], "scenes": [{"id": "d", "type": "list", "rows": []}]}"#)
        #expect(texts(empty).contains { $0.text == "Nothing here yet" })
        empty.chooseLanguage("ar")
        #expect(texts(empty).contains { $0.text == "لا شيء هنا بعد" && $0.language == "ar" })
    }

    /// A touch that becomes a scroll takes the highlight back, and its lift taps nothing.
    @Test func aScrollCancelsTheHighlightAndActsNot() throws {
        let app = try Self.app()
        app.finger(.down, x: 0.5, y: 300 / 480, at: 100)
        AppRig.run(app, from: 100, to: 300)
        #expect(try Self.listTrace(app)["highlighted"] as? String != nil)
        for i in 1...10 { app.finger(.motion, x: 0.5, y: (300 - Double(i) * 10) / 480, at: 300 + Double(i) * 10) }
        AppRig.run(app, from: 300, to: 410)
        #expect(try Self.listTrace(app)["highlighted"] is NSNull)
        app.finger(.up, x: 0.5, y: 200 / 480, at: 420)
        AppRig.run(app, from: 410, to: 1500)
        #expect(!app.frameEvents.contains { $0.name == "rowTapped" })
        #expect(app.scene.config.id == "directory")
        #expect(app.scene.view.contentOffset.y > -64)
    }

    /// `show`: the map opens and zooms until the cafe is centred and fills at most half the screen, then pulses.
    @Test func showFliesTheMapToThePlace() throws {
        let app = try Self.app()
        app.scene.list.map { _ in app.scene.view.setContentOffset(Point(x: 0, y: 1848 - 64), animated: false) }
        // Charlie 0 is C's first row, under its header at the top: on screen 108 to 196.
        app.tap(x: 0.5, y: 150 / 480, at: 100, holdMs: 60)
        AppRig.run(app, from: 100, to: 300)
        #expect(app.frameEvents.contains { $0.kind == .rowTapped(row: "Charlie-0") })
        #expect(app.scene.config.id == "map")
        AppRig.run(app, from: 300, to: 700)
        #expect(app.scene.pulse != nil)
        let cafe = try #require(app.scene.config.hotspots.first)
        let frame = try #require(app.scene.frame(of: cafe))
        #expect(abs(frame.midX - 400) < 1 && abs(frame.midY - 240) < 1, "\(frame)")
        #expect(frame.width <= 400 + 1e-9 && frame.height <= 240 + 1e-9, "\(frame)")
        #expect(frame.width >= 399 || frame.height >= 239, "\(frame)")
        #expect(app.drawList().contains { if case .fill(let r, _) = $0 { r == frame } else { false } })
        AppRig.run(app, from: 700, to: 2500)
        #expect(app.scene.pulse == nil && app.isAtRest)
    }

    /// Only the rows on screen are drawn: 30 rows or 100 000, the same commands.
    @Test func aFrameDoesNotGrowWithTheRows() throws {
        let small = try Self.app()
        let large = try Self.app(Self.manifest(rowsPerSection: 33_333))
        #expect(large.scene.list?.layout.order.count == 99_999)
        small.scene.view.setContentOffset(Point(x: 0, y: 300), animated: false)
        large.scene.view.setContentOffset(Point(x: 0, y: 300), animated: false)
        #expect(small.drawList().count == large.drawList().count)
        // 30 000 rows further down, the same rows' worth on screen.
        large.scene.view.setContentOffset(Point(x: 0, y: 300 + 30_000 * ListStyle.rowHeight), animated: false)
        #expect(large.drawList().count == small.drawList().count)
    }

    /// In Arabic the index is on the left and the rows' text reads from the right; the index shows the letter
    /// after the article.
    @Test func rightToLeftMirrors() throws {
        let app = try Self.app()
        app.chooseLanguage("ar")
        let list = try #require(app.scene.list)
        #expect(list.indexEntries.map(\.letter) == ["A", "B", "C"])
        let runs = app.drawList().compactMap { if case .text(let run) = $0 { run } else { nil } }
        let title = try #require(runs.first { $0.text == "صف 0" })
        #expect(title.isRightToLeft && title.align == .start)
        #expect(title.rect.maxX == 800 - ListStyle.textInset)
        let letters = runs.filter { $0.text == "B" }
        #expect(letters.count == 1 && letters[0].rect.minX == 0)
        // A touch on the left edge is the index's now.
        app.finger(.down, x: 10 / 800, y: 272 / 480, at: 100)
        app.finger(.up, x: 10 / 800, y: 272 / 480, at: 150)
        AppRig.run(app, from: 100, to: 200)
        #expect(app.frameEvents.contains { $0.kind == .sectionIndexJump(section: "الBravo") })
    }

    /// `"sort": "title"`: sections and their rows by title in the visitor's language, ignoring case and accents;
    /// without it, in the order of their first row.
    @Test func sortByTitleFollowsTheVisitorsLanguage() throws {
        let rows = [
            ("z", "Zebra", "Zebra", "Animals", "Tiere"), ("a", "apple", "Apfel", "Fruit", "Obst"),
            ("e", "Éclair", "Eclair", "Sweets", "Süßes"), ("b", "Banana", "Banane", "Fruit", "Obst"),
        ].map { id, en, de, section, sektion in
            #"{"id": "\#(id)", "title": {"en": "\#(en)", "de": "\#(de)"}, "section": {"en": "\#(section)", "de": "\#(sektion)"}}"#
        }
        func titles(_ sort: String, _ language: String) throws -> [String] {
            let text = """
                {"kioskManifest": 1, "home": "d", "languages": ["en", "de"],
                 "scenes": [{"id": "d", "type": "list", \(sort) "rows": [\(rows.joined(separator: ", "))]}]}
                """
            let m = try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
            let layout = ListLayout(try #require(m.scenes[0].list), language: language, fallback: "en")
            return layout.sections.map { $0.title ?? "" }
                + layout.order.map { m.scenes[0].list!.rows[$0].title.text(in: language, fallback: "en") }
        }
        #expect(try titles("", "en") == ["Animals", "Fruit", "Sweets", "Zebra", "apple", "Banana", "Éclair"])
        #expect(
            try titles(#""sort": "title","#, "en") == [
                "Animals", "Fruit", "Sweets", "Zebra", "apple", "Banana", "Éclair",
            ])
        #expect(
            try titles(#""sort": "title","#, "de") == ["Obst", "Süßes", "Tiere", "Apfel", "Banane", "Eclair", "Zebra"])
    }
}
