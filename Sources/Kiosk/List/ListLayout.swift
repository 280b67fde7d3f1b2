import Foundation
import ScrollEngine

/// Where a list scene's sections and rows are, in the list's content points (UITableView's plain style): each
/// section a header then its rows, each row as tall as its title's lines (UITableView's self-sizing cells: the
/// title wraps up to `ListStyle.titleLines` lines, reckoned from the fonts' `TextMetrics`), so that the row at any
/// offset is found by binary search, never by walking the rows. Laid out once per language (a sort by title is
/// the visitor's).
struct ListLayout: Sendable {
    struct Section: Sendable {
        /// Its header's text (nil: rows without a section, under no header).
        public var title: String?
        /// Its rows' positions in `order`.
        public var rows: Range<Int>
        /// Its header's top (its first row's, without a header).
        public var top: Double
        var headerHeight: Double { title == nil ? 0 : ListStyle.headerHeight }
    }

    /// The rows' indices in the manifest, in the order shown.
    public let order: [Int]
    public let sections: [Section]
    public let height: Double
    /// Each row position's top, and its title's lines.
    let tops: [Double]
    let lines: [UInt8]

    /// `width`: the list's (the scene's) width, which the titles wrap in.
    public init(
        _ list: ListConfig, language: String, fallback: String, width: Double = .infinity,
        metrics: TextMetrics = .estimate
    ) {
        let rows = list.rows
        // Sections in the order of their first row; rows in theirs (or both by title, as the visitor reads).
        var keys: [String?] = []
        var members: [String?: [Int]] = [:]
        for (i, row) in rows.enumerated() {
            let key = row.section?.text(in: fallback, fallback: fallback)
            if members[key] == nil { keys.append(key) }
            members[key, default: []].append(i)
        }
        let locale = Locale(identifier: language)
        func sortKey(_ s: String) -> String {
            s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: locale)
        }
        if list.sortsByTitle {
            // Sections by their title as the visitor reads it.
            var shown: [String?: String] = [:]
            for key in keys {
                shown[key] =
                    members[key]?.first.flatMap { rows[$0].section?.text(in: language, fallback: fallback) }
                    .map(sortKey) ?? ""
            }
            keys.sort { a, b in shown[a] ?? "" < shown[b] ?? "" }
            for (key, indices) in members {
                let titles = indices.map { sortKey(rows[$0].title.text(in: language, fallback: fallback)) }
                members[key] = zip(indices, titles).sorted { $0.1 < $1.1 }.map(\.0)
            }
        }
        var order: [Int] = []
        order.reserveCapacity(rows.count)
        var tops: [Double] = []
        tops.reserveCapacity(rows.count)
        var lines: [UInt8] = []
        lines.reserveCapacity(rows.count)
        var sections: [Section] = []
        // The index is drawn where a section has a title to show (`ListState.indexEntries`).
        let hasIndex =
            list.sectionIndex
            && keys.contains { key in
                key != nil
                    && members[key]?.first.map { rows[$0].section?.text(in: language, fallback: fallback) ?? "" }?
                        .isEmpty == false
            }
        let lineHeight = metrics.lineHeight(language: language, size: ListStyle.titleSize)
        var y = 0.0
        for key in keys {
            let indices = members[key] ?? []
            let first = indices.first.map { rows[$0] }
            let title = key == nil ? nil : first?.section?.text(in: language, fallback: fallback)
            let section = Section(title: title, rows: order.count..<(order.count + indices.count), top: y)
            order += indices
            y += section.headerHeight
            for i in indices {
                let row = rows[i]
                let n = metrics.lineCount(
                    row.title.text(in: language, fallback: fallback), language: language, size: ListStyle.titleSize,
                    width: ListStyle.titleWidth(listWidth: width, hasIndex: hasIndex, acts: row.action != nil),
                    maximumLines: ListStyle.titleLines)
                tops.append(y)
                lines.append(UInt8(n))
                y += ListStyle.rowHeight(lines: n, lineHeight: lineHeight)
            }
            sections.append(section)
        }
        self.order = order
        self.sections = sections
        self.tops = tops
        self.lines = lines
        self.lineHeight = lineHeight
        height = y
    }

    /// A title line's height, in points.
    let lineHeight: Double

    /// Row position `position`'s height.
    func rowHeight(_ position: Int) -> Double {
        ListStyle.rowHeight(lines: Int(lines[position]), lineHeight: lineHeight)
    }

    /// The section of row position `position` (binary search).
    public func section(ofRow position: Int) -> Int {
        var lo = 0
        var hi = sections.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if sections[mid].rows.lowerBound <= position { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The section whose header or rows are at content `y` (the last one below its end).
    public func section(at y: Double) -> Int {
        var lo = 0
        var hi = max(0, sections.count - 1)
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if sections[mid].top <= y { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The top of row position `position`.
    func rowTop(_ position: Int) -> Double { tops[position] }

    /// The position of the row of id `id` (its first, were two to share it), nil when there is none.
    func position(ofRow id: String, in list: ListConfig) -> Int? {
        order.firstIndex { list.rows[$0].id == id }
    }

    /// The row position at content `y`, nil on a header or beyond the rows.
    public func row(at y: Double) -> Int? {
        guard !sections.isEmpty, y >= 0, y < height else { return nil }
        let s = sections[section(at: y)]
        guard !s.rows.isEmpty, y >= s.top + s.headerHeight else { return nil }
        let position = lastRow(startingAtOrAbove: y, in: s.rows)
        return y < tops[position] + rowHeight(position) ? position : nil
    }

    /// The last row of `rows` whose top is at or above `y` (binary search; the first when none is).
    func lastRow(startingAtOrAbove y: Double, in rows: Range<Int>) -> Int {
        var lo = rows.lowerBound
        var hi = rows.upperBound - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if tops[mid] <= y { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The row positions at least partly between content `top` and `bottom`.
    public func rows(from top: Double, to bottom: Double) -> Range<Int> {
        guard !order.isEmpty, bottom > top else { return 0..<0 }
        let first = max(0, min(order.count - 1, firstRow(atOrBelow: max(0, top))))
        var last = first
        while last < order.count && rowTop(last) < bottom { last += 1 }
        return first..<last
    }

    /// The first row that ends below `y`.
    func firstRow(atOrBelow y: Double) -> Int {
        let s = sections[section(at: y)]
        guard !s.rows.isEmpty else { return s.rows.lowerBound }
        let position = lastRow(startingAtOrAbove: y, in: s.rows)
        return tops[position] + rowHeight(position) > y ? position : position + 1
    }

    /// The header that sticks to the top of a list scrolled to `top` (the content y at the visible top, under
    /// the title bar): the section there, its header held at the top until the next header pushes it up. Its y
    /// is in content points.
    public func stickyHeader(top: Double) -> (section: Int, y: Double)? {
        guard !sections.isEmpty else { return nil }
        let i = section(at: top)
        let s = sections[i]
        guard s.title != nil else { return nil }
        var y = max(s.top, top)
        if i + 1 < sections.count { y = min(y, sections[i + 1].top - s.headerHeight) }
        return (i, y)
    }
}

/// Where `scrollToRow` puts a row in the list's visible space (UITableView.ScrollPosition).
public enum TableScrollPosition: Sendable {
    case top, middle, bottom
}

/// How a list looks: sizes in points (UITableView's plain style, made for a finger a step back from the screen).
public enum ListStyle {
    /// A row of a one-line title: a thumbnail, a title and a subtitle (UITableView's default 44 pt row, doubled
    /// for a kiosk).
    public static let rowHeight = 88.0
    /// The most lines a row's title wraps to (past them, an ellipsis).
    public static let titleLines = 3
    /// A one-line title's box, over a subtitle.
    static let titleBoxHeight = 38.0

    /// The height of a title's box of `lines` lines `lineHeight` apart: a one-line title's, or its lines and a
    /// little room (the renderer's lines are whole pixels).
    static func titleHeight(lines: Int, lineHeight: Double) -> Double {
        lines <= 1 ? titleBoxHeight : Double(lines) * lineHeight + 2
    }

    /// A row whose title takes `lines` lines: taller by what its title's box grows.
    static func rowHeight(lines: Int, lineHeight: Double) -> Double {
        rowHeight + titleHeight(lines: lines, lineHeight: lineHeight) - titleBoxHeight
    }

    /// How wide a row's title is in a list `listWidth` wide: after the thumbnails' column, before the margin, the
    /// section index (`hasIndex`) and a row's chevron (`acts`).
    static func titleWidth(listWidth: Double, hasIndex: Bool, acts: Bool) -> Double {
        listWidth - textInset - margin - (hasIndex ? indexWidth : 0) - (acts ? chevronWidth + margin / 2 : 0)
    }
    public static let headerHeight = 44.0
    public static let titleSize = 26.0
    public static let subtitleSize = 18.0
    public static let headerSize = 20.0
    /// The section index down the trailing edge, its letters this size.
    public static let indexWidth = 48.0
    public static let indexSize = 20.0
    /// The closest two index slots may be: a letter of `indexSize` and a little air (past it, UIKit's collapse).
    public static let indexMinimumStep = 24.0
    public static let margin = 24.0
    public static let thumbnailSize = 64.0
    /// Where a row's text starts: after a column as wide as a thumbnail (where the home button sits at the top).
    public static let textInset = margin + thumbnailSize + 16
    public static let background = Color(red: 1, green: 1, blue: 1, alpha: 1)
    public static let headerBackground = Color(red: 0.94, green: 0.94, blue: 0.96, alpha: 1)
    /// UITableViewCell's selection grey.
    public static let highlight = Color(red: 0.82, green: 0.82, blue: 0.84, alpha: 1)
    public static let separator = Color(red: 0.78, green: 0.78, blue: 0.8, alpha: 1)
    public static let titleColor = Color(red: 0.07, green: 0.07, blue: 0.09, alpha: 1)
    public static let subtitleColor = Color(red: 0.42, green: 0.42, blue: 0.45, alpha: 1)
    /// The index's letters in the system tint (UIKit's blue).
    public static let indexColor = Color(red: 0, green: 0.48, blue: 1, alpha: 1)
    /// UITableViewCell's disclosure indicator on a row that acts: a chevron in `tertiaryLabel` grey.
    public static let chevronWidth = 20.0
    public static let chevronSize = 34.0
    public static let chevronColor = Color(red: 0.56, green: 0.56, blue: 0.58, alpha: 1)
    /// What a list without rows says, by language (the kiosk's own words; English for a language not here), and
    /// the language it is in.
    static func emptyText(_ language: String) -> (text: String, language: String) {
        let words = [
            "en": "Nothing here yet", "de": "Hier ist noch nichts", "ar": "لا شيء هنا بعد",
            "fr": "Rien ici pour l’instant", "es": "Aún no hay nada aquí",
        ]
        guard let text = words[Languages.primary(language)] else { return (words["en"]!, "en") }
        return (text, language)
    }
    /// The pulse on a hotspot that a row showed: how long, and its colour at its strongest.
    public static let pulseMs = 1500.0
    public static let pulse = Color(red: 0, green: 0.48, blue: 1, alpha: 0.45)
}
