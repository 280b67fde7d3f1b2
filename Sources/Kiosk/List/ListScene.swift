import EventLog
import Foundation
import ScrollEngine
import TouchInput

/// A list scene live (UITableView's plain style): its rows laid out in the visitor's language, the row under
/// the finger highlighted, the section index down the trailing edge taking its touches whole. Only the rows
/// on screen are ever looked at: a frame and a touch cost the same for 100 rows as for 100 000.
final class ListState {
    public let config: ListConfig
    public private(set) var layout: ListLayout
    public private(set) var language: String
    /// The manifest's first language, for a text without the visitor's.
    let fallback: String
    /// The row the finger is on (after UIKit's content-touch delay), until the touch scrolls or lifts.
    var highlighted: String?
    /// The section the index last jumped to while a finger is on it.
    var indexSection: Int?

    /// The sections the index lists (those with a header), each by its initial: made with the layout.
    private(set) var indexEntries: [(section: Int, letter: String)] = []

    /// The list's width, which its titles wrap in, and the fonts' metrics they are reckoned with.
    let width: Double
    let metrics: TextMetrics

    init(_ config: ListConfig, language: String, fallback: String, width: Double, metrics: TextMetrics) {
        self.config = config
        self.language = language
        self.fallback = fallback
        self.width = width
        self.metrics = metrics
        layout = ListLayout(config, language: language, fallback: fallback, width: width, metrics: metrics)
        indexEntries = Self.indexEntries(of: layout, shown: config.sectionIndex)
    }

    /// Laid out again for another language (its titles, and its sort when sorted by title).
    func relayout(language: String) {
        guard language != self.language else { return }
        self.language = language
        layout = ListLayout(config, language: language, fallback: fallback, width: width, metrics: metrics)
        indexEntries = Self.indexEntries(of: layout, shown: config.sectionIndex)
    }

    var isRightToLeft: Bool { Languages.isRightToLeft(language) }

    static func indexEntries(of layout: ListLayout, shown: Bool) -> [(section: Int, letter: String)] {
        var seen = Set<String>()
        return layout.sections.enumerated().compactMap { i, s in
            guard shown, let title = s.title else { return nil }
            // Arabic's article (ال) begins most words: the index shows the letter after it, as Arabic indexes do.
            let word = title.count > 3 && title.hasPrefix("ال") ? title.dropFirst(2) : Substring(title)
            guard let first = word.first else { return nil }
            // One letter once, for the first section it begins ("Apples" and "Apricots": one A, as UIKit's
            // sectionForSectionIndexTitle maps a title to one section).
            let letter = String(first).uppercased()
            guard seen.insert(letter).inserted else { return nil }
            return (i, letter)
        }
    }

    /// The index as drawn in `strip`: every letter where they fit at `ListStyle.indexMinimumStep` apart; past
    /// that UIKit's collapse, letters chosen evenly from first to last with a bullet between each two, so the
    /// strip never holds more than it can (each slot's entry, and what it shows).
    func indexSlotsShown(in strip: Rect) -> [(entry: Int, label: String)] {
        let n = indexEntries.count
        let room = Int(strip.height / ListStyle.indexMinimumStep)
        if n <= max(1, room) { return indexEntries.indices.map { ($0, indexEntries[$0].letter) } }
        // An odd number of slots (a letter at each end), at least three.
        let slots = max(3, room % 2 == 1 ? room : room - 1)
        return (0..<slots).map { j in
            let entry = Int((Double(j) * Double(n - 1) / Double(slots - 1)).rounded())
            return (entry, j % 2 == 0 ? indexEntries[entry].letter : "•")
        }
    }

    /// The index's strip: the trailing edge (the left in a right-to-left language) below `top`.
    func indexStrip(size: Size, top: Double) -> Rect? {
        guard !indexEntries.isEmpty else { return nil }
        let x = isRightToLeft ? 0 : size.width - ListStyle.indexWidth
        return Rect(x: x, y: top, width: ListStyle.indexWidth, height: max(0, size.height - top))
    }

    /// Each slot's centre line: the slots evenly down the strip, centred, at most 40 points apart.
    func indexSlots(in strip: Rect) -> (first: Double, step: Double) {
        let n = Double(indexSlotsShown(in: strip).count)
        let step = min(40, strip.height / max(1, n))
        return (strip.midY - step * n / 2 + step / 2, step)
    }

    /// The index entry of the slot nearest `y` (sliding past the ends keeps the first or last).
    func indexEntry(at y: Double, in strip: Rect) -> Int {
        let shown = indexSlotsShown(in: strip)
        let (first, step) = indexSlots(in: strip)
        let i = Int(((y - first) / step).rounded())
        return shown[min(max(0, i), shown.count - 1)].entry
    }
}

extension Scene {
    /// The list's visible top in content points: its offset plus the title bar's inset.
    var listTop: Double { view.contentOffset.y + view.contentInset.top }

    /// The section index takes a touch that begins on it, and jumps to the section under the finger as it
    /// slides (`sectionIndexJump` for each section reached).
    func indexTouch(_ e: InputEvent) -> Bool {
        guard let list, let strip = list.indexStrip(size: size, top: view.contentInset.top) else { return false }
        if e.kind == .down && !strip.contains(e.position) { return false }
        if e.kind == .up || e.kind == .cancel {
            list.indexSection = nil
            return true
        }
        let entry = list.indexEntries[list.indexEntry(at: e.position.y, in: strip)]
        guard entry.section != list.indexSection else { return true }
        list.indexSection = entry.section
        jump(toSection: entry.section)
        return true
    }

    /// Scrolls at once so that `section`'s header is at the top (within the list's limits), as the index does.
    func jump(toSection section: Int) {
        guard let list else { return }
        let s = list.layout.sections[section]
        let y = min(s.top - view.contentInset.top, view.offsetLimits(.vertical).upperBound)
        view.setContentOffset(
            Point(x: view.contentOffset.x, y: max(view.offsetLimits(.vertical).lowerBound, y)), animated: false)
        sink.add(TraceEvent(view: config.id, .sectionIndexJump(section: s.title ?? "")))
    }

    /// Scrolls the list so that row `id` is at `position` of the space under the title bar (`.top`: just below
    /// the header that sticks there), within the list's limits, as UITableView's `scrollToRow(at:at:animated:)`.
    /// False when the list has no such row.
    @discardableResult
    func scrollToRow(_ id: String, at position: TableScrollPosition, animated: Bool) -> Bool {
        guard let list, let p = list.layout.position(ofRow: id, in: list.config) else { return false }
        let top = list.layout.rowTop(p)
        let inset = view.contentInset
        let room = size.height - inset.top - inset.bottom
        let y: Double
        switch position {
        case .top: y = top - list.layout.sections[list.layout.section(ofRow: p)].headerHeight - inset.top
        case .middle: y = top + list.layout.rowHeight(p) / 2 - room / 2 - inset.top
        case .bottom: y = top + list.layout.rowHeight(p) - room - inset.top
        }
        let limits = view.offsetLimits(.vertical)
        view.setContentOffset(
            Point(x: view.contentOffset.x, y: min(max(y, limits.lowerBound), limits.upperBound)), animated: animated)
        return true
    }

    /// The first row seen whole or in part under the title bar and the header stuck below it, and where its top is
    /// (scene points), to keep in place when the rows change (nil: no rows).
    var topRow: (id: String, y: Double)? {
        guard let list, !list.layout.order.isEmpty else { return nil }
        let header = list.layout.stickyHeader(top: listTop).map { $0.y + ListStyle.headerHeight } ?? listTop
        let p = min(list.layout.order.count - 1, list.layout.firstRow(atOrBelow: max(listTop, header)))
        return (list.config.rows[list.layout.order[p]].id, list.layout.rowTop(p) - view.contentOffset.y)
    }

    /// The thumbnails of the rows a screen ahead of those shown, in the direction the list moves (down when it
    /// is still), and of the rows where a fling or an animation comes to rest: asked for before they are drawn, so
    /// they do not pop in as they arrive (UITableView's `prefetchDataSource`).
    var upcomingThumbnails: [String] {
        guard let list, !list.layout.order.isEmpty else { return [] }
        let y0 = view.contentOffset.y
        let rest = view.restingContentOffset.y
        let h = size.height
        let margin = ListStyle.rowHeight
        let ahead =
            rest < y0
            ? list.layout.rows(from: y0 - h - margin, to: y0 - margin)
            : list.layout.rows(from: y0 + h + margin, to: y0 + 2 * h + margin)
        var positions = Array(ahead)
        if abs(rest - y0) > h { positions += list.layout.rows(from: rest - margin, to: rest + h + margin) }
        return positions.compactMap { list.config.rows[list.layout.order[$0]].thumbnail }
    }

    /// The row under a point of the scene (nil on a header, the index, or below the rows).
    func row(at p: Point) -> ListRow? {
        guard let list else { return nil }
        if let strip = list.indexStrip(size: size, top: view.contentInset.top), strip.contains(p) { return nil }
        let y = p.y + view.contentOffset.y
        // The sticky header covers the rows under it.
        if let header = list.layout.stickyHeader(top: listTop), y >= header.y,
            y < header.y + ListStyle.headerHeight
        {
            return nil
        }
        return list.layout.row(at: y).map { list.config.rows[list.layout.order[$0]] }
    }

    /// The list's commands: rows on screen (a margin of one row), then the sticky header, then the index.
    func appendList(to out: inout [DrawCommand]) {
        guard let list else { return }
        let screen = Rect(origin: .zero, size: size)
        out.append(.fill(screen, ListStyle.background))
        let layout = list.layout
        let y0 = view.contentOffset.y
        let (language, first) = (list.language, list.fallback)
        // The text starts after the leading column (the thumbnails', clear of the home button) and ends before the
        // index; both mirror right to left.
        let rtl = list.isRightToLeft
        let indexWidth = list.indexEntries.isEmpty ? 0 : ListStyle.indexWidth
        let textWidth = ListStyle.titleWidth(listWidth: size.width, hasIndex: indexWidth > 0, acts: false)
        let textLeft = rtl ? indexWidth + ListStyle.margin : ListStyle.textInset
        let separatorLeft = rtl ? 0 : ListStyle.textInset
        if layout.order.isEmpty {
            appendEmptyState(language: language, to: &out)
            return
        }
        // A row that acts ends in UITableViewCell's disclosure indicator, at the trailing edge before the index.
        let chevronX =
            rtl
            ? indexWidth + ListStyle.margin / 2
            : size.width - indexWidth - ListStyle.margin / 2 - ListStyle.chevronWidth
        let chevronRoom = ListStyle.chevronWidth + ListStyle.margin / 2
        let chevronTextLeft = rtl ? textLeft + chevronRoom : textLeft
        // The headers of the sections on screen (found by binary search, not a walk through them all).
        if !layout.sections.isEmpty {
            for s in layout.sections[layout.section(at: y0)...layout.section(at: y0 + size.height)]
            where s.title != nil {
                let top = s.top - y0
                guard top < size.height, top + ListStyle.headerHeight > 0 else { continue }
                appendHeader(s, at: top, left: textLeft, width: textWidth, language: language, to: &out)
            }
        }
        for position in layout.rows(from: y0 - ListStyle.rowHeight, to: y0 + size.height + ListStyle.rowHeight) {
            let row = list.config.rows[layout.order[position]]
            let top = layout.rowTop(position) - y0
            let height = layout.rowHeight(position)
            let band = Rect(x: 0, y: top, width: size.width, height: height)
            guard band.intersects(screen) else { continue }
            if row.id == list.highlighted { out.append(.fill(band, ListStyle.highlight)) }
            if let thumbnail = row.thumbnail {
                let side = ListStyle.thumbnailSize
                let x = rtl ? size.width - ListStyle.margin - side : ListStyle.margin
                out.append(
                    .thumbnail(
                        path: thumbnail,
                        destination: Rect(x: x, y: top + (height - side) / 2, width: side, height: side)))
            }
            out.append(
                .fill(
                    Rect(
                        x: separatorLeft, y: top + height - 1, width: size.width - ListStyle.textInset,
                        height: 1),
                    ListStyle.separator))
            let acts = row.action != nil
            if acts {
                out.append(
                    .text(
                        TextRun(
                            rtl ? "\u{2039}" : "\u{203A}", language: "en", size: ListStyle.chevronSize,
                            color: ListStyle.chevronColor,
                            rect: Rect(x: chevronX, y: top, width: ListStyle.chevronWidth, height: height))
                    ))
            }
            let hasSubtitle = row.subtitle != nil
            let left = acts ? chevronTextLeft : textLeft
            let width = acts ? textWidth - chevronRoom : textWidth
            // The title's lines as the layout reckoned them (up to three, wrapped at spaces), the subtitle below.
            let titleHeight = ListStyle.titleHeight(lines: Int(layout.lines[position]), lineHeight: layout.lineHeight)
            let grown = titleHeight - ListStyle.titleBoxHeight
            let titleBox = Rect(
                x: left, y: top + (hasSubtitle ? 12 : 0), width: width, height: hasSubtitle ? titleHeight : height)
            out.append(
                .text(
                    TextRun(
                        row.title.text(in: language, fallback: first), language: language,
                        size: ListStyle.titleSize, color: ListStyle.titleColor, rect: titleBox, align: .start,
                        wraps: true)))
            if let subtitle = row.subtitle {
                out.append(
                    .text(
                        TextRun(
                            subtitle.text(in: language, fallback: first), language: language,
                            size: ListStyle.subtitleSize, color: ListStyle.subtitleColor,
                            rect: Rect(x: left, y: top + 50 + grown, width: width, height: 28), align: .start)))
            }
        }
        if let sticky = layout.stickyHeader(top: listTop) {
            appendHeader(
                layout.sections[sticky.section], at: sticky.y - y0, left: textLeft, width: textWidth,
                language: language, to: &out)
        }
        if let strip = list.indexStrip(size: size, top: view.contentInset.top) {
            let (first, step) = list.indexSlots(in: strip)
            for (i, slot) in list.indexSlotsShown(in: strip).enumerated() {
                out.append(
                    .text(
                        TextRun(
                            slot.label, language: language, size: ListStyle.indexSize, color: ListStyle.indexColor,
                            rect: Rect(
                                x: strip.minX, y: first + Double(i) * step - step / 2, width: strip.width, height: step)
                        )))
            }
        }
        appendIndicators(view, origin: .zero, to: &out)
    }

    /// A list without rows: "Nothing here yet" in the visitor's language, in the middle of the space below the
    /// title bar, as UIKit's empty content configuration (`UIContentUnavailableConfiguration.empty()`).
    func appendEmptyState(language: String, to out: inout [DrawCommand]) {
        let (text, tag) = ListStyle.emptyText(language)
        let top = view.contentInset.top
        out.append(
            .text(
                TextRun(
                    text, language: tag, size: ListStyle.titleSize, color: ListStyle.subtitleColor,
                    rect: Rect(
                        x: ListStyle.margin, y: top, width: size.width - 2 * ListStyle.margin, height: size.height - top
                    ),
                    wraps: true)))
    }

    func appendHeader(
        _ s: ListLayout.Section, at top: Double, left: Double, width: Double, language: String,
        to out: inout [DrawCommand]
    ) {
        out.append(
            .fill(Rect(x: 0, y: top, width: size.width, height: ListStyle.headerHeight), ListStyle.headerBackground))
        out.append(
            .text(
                TextRun(
                    s.title ?? "", language: language, size: ListStyle.headerSize, color: ListStyle.titleColor,
                    rect: Rect(x: left, y: top, width: width, height: ListStyle.headerHeight), align: .start)))
    }
}

/// A hotspot a list's row showed (`show`): once the zoom to it has ended, its rectangle glows twice and fades,
/// so the visitor sees where the place is.
struct PlacePulse: Equatable, Sendable {
    public var hotspot: Hotspot
    /// When the glow begins (the zoom's end), in ms.
    public var start: Double

    public func isRunning(at ms: Double) -> Bool { ms < start + ListStyle.pulseMs }

    /// The glow over the hotspot where `scene` shows it now: two beats, strongest at a quarter and three
    /// quarters of its time.
    func commands(in scene: Scene, at ms: Double) -> [DrawCommand] {
        guard ms >= start, isRunning(at: ms), let frame = scene.frame(of: hotspot) else { return [] }
        let x = (ms - start) / ListStyle.pulseMs
        let beat = 0.5 - 0.5 * cos(4 * Double.pi * x)
        var color = ListStyle.pulse
        color.alpha *= beat
        return [.fill(frame, color)]
    }
}

extension Scene {
    /// Brings hotspot `h` into view with an animated zoom to a rectangle twice its size about it (so that it
    /// fills at most half the screen), then pulses it.
    func showPlace(_ h: Hotspot, at now: Double) {
        let r = h.rect
        view.zoom(
            to: Rect(x: r.midX - r.width, y: r.midY - r.height, width: 2 * r.width, height: 2 * r.height),
            animated: true)
        pulse = PlacePulse(hotspot: h, start: now + ScrollConstants.programmaticAnimationDuration * 1000)
    }
}

extension Scene {
    /// A list scene's line of the trace (docs/event-log-and-trace.md, extended): the header stuck at the top (its section
    /// and its top in scene points, pushed up by the next) and the highlighted row.
    func listTrace(_ list: ListState) -> String {
        let header =
            list.layout.stickyHeader(top: listTop).map { h in
                "{\"section\": \(jsonString(list.layout.sections[h.section].title ?? "")), "
                    + "\"y\": \(jsonNumber(h.y - view.contentOffset.y))}"
            } ?? "null"
        let highlighted = list.highlighted.map { jsonString($0) } ?? "null"
        return "{\"stickyHeader\": \(header), \"highlighted\": \(highlighted)}"
    }
}
