import EventLog
import Foundation
import ScrollEngine
@_exported import TestSupport
import Testing
import TouchInput

/// A scene for the touch layer: a scroll view (or a carousel of zoomable pages) with a gesture controller,
/// stepped frame by frame at 60 fps on a virtual clock, as the kiosk does. Events with timestamp T are handled
/// before the first frame whose time is >= T.
final class Rig {
    static let frameMs = 1000.0 / 60
    let size: Size
    let view: ScrollView
    let pages: [ScrollView]
    let controller: GestureController
    let log: ScrollViewEventLog
    let pageLogs: [ScrollViewEventLog]
    var gestures: [GestureEvent] = []
    var frame = 0
    var ms: Double { Double(frame) * Self.frameMs }
    /// Offsets and scales seen at every frame.
    var zoomScales: [Double] = []
    var offsets: [Point] = []

    enum Kind: String, CaseIterable {
        case scroll, zoom, carousel
    }

    init(view: ScrollView, log: ScrollViewEventLog, pages: [ScrollView] = [], pageLogs: [ScrollViewEventLog] = []) {
        self.view = view
        self.size = view.bounds
        self.log = log
        self.pages = pages
        self.pageLogs = pageLogs
        view.delegate = log
        for (p, l) in zip(pages, pageLogs) { p.delegate = l }
        controller = GestureController(scrollView: view)
        controller.pages = pages
    }

    /// A tall image scrolled vertically, starting at `offset`.
    static func scroll(size: Size = Size(width: 800, height: 480), height: Double = 4000, offset: Double = 1000) -> Rig
    {
        let v = ScrollView(bounds: size, contentSize: Size(width: size.width, height: height))
        v.contentOffset = Point(x: 0, y: offset)
        return Rig(view: v, log: ScrollViewEventLog())
    }

    /// A zoomable image opened at the scale that fits it, centred (a `zoom` scene).
    static func zoom(
        size: Size = Size(width: 800, height: 480), image: Size = Size(width: 4000, height: 3000), maxZoom: Double = 4
    )
        -> Rig
    {
        let v = ScrollView(bounds: size)
        let log = ScrollViewEventLog(zoomingSize: image)
        configureZoomable(v, image: image, maxZoom: maxZoom)
        let rig = Rig(view: v, log: log)
        v.setZoomScale(v.minimumZoomScale, animated: false)
        rig.log.events.removeAll()
        return rig
    }

    static func configureZoomable(_ v: ScrollView, image: Size, maxZoom: Double) {
        let fit = min(v.bounds.width / image.width, v.bounds.height / image.height)
        v.minimumZoomScale = fit
        v.maximumZoomScale = maxZoom * fit
        v.centersContent = true
        v.contentSize = image
    }

    /// Horizontal pages one screen wide, each a zoomable image (a `carousel` scene), on page `page`.
    static func carousel(size: Size = Size(width: 800, height: 480), count: Int = 4, page: Int = 1) -> Rig {
        let v = ScrollView(bounds: size, contentSize: Size(width: size.width * Double(count), height: size.height))
        v.isPagingEnabled = true
        v.contentOffset = Point(x: size.width * Double(page), y: 0)
        let image = Size(width: 1600, height: 1200)
        var pages: [ScrollView] = []
        var logs: [ScrollViewEventLog] = []
        for _ in 0..<count {
            let p = ScrollView(bounds: size)
            configureZoomable(p, image: image, maxZoom: 3)
            let l = ScrollViewEventLog(zoomingSize: image)
            pages.append(p)
            logs.append(l)
        }
        let rig = Rig(view: v, log: ScrollViewEventLog(), pages: pages, pageLogs: logs)
        for p in pages { p.setZoomScale(p.minimumZoomScale, animated: false) }
        for l in logs { l.events.removeAll() }
        return rig
    }

    static func make(_ kind: Kind, size: Size) -> Rig {
        switch kind {
        case .scroll: scroll(size: size)
        case .zoom: zoom(size: size)
        case .carousel: carousel(size: size)
        }
    }

    var allViews: [ScrollView] { [view] + pages }

    var isSettled: Bool {
        allViews.allSatisfy { $0.isAtRest } && controller.isIdle && controller.events.isEmpty
    }

    /// Runs one frame: events due by then, the controller's timers, every view.
    func runFrame(_ events: [InputEvent], _ next: inout Int) {
        while next < events.count && events[next].timestamp <= ms {
            controller.handle(events[next])
            next += 1
        }
        controller.step(to: ms)
        gestures += controller.events
        controller.events.removeAll(keepingCapacity: true)
        zoomScales.append((pages.isEmpty ? view : pages[view.currentPage ?? 0]).zoomScale)
        offsets.append(view.contentOffset)
        frame += 1
    }

    /// Replays `events` from the current frame (their timestamps are relative to it) and runs until everything
    /// is at rest, or 10 s after the last event.
    func replay(_ events: [InputEvent], settle: Bool = true) {
        let base = ms
        let shifted = events.map { e in
            var e = e
            e.timestamp += base
            return e
        }
        var next = 0
        let end = (shifted.last?.timestamp ?? base) + 10_000
        while next < shifted.count || (settle && !isSettled && ms <= end) {
            runFrame(shifted, &next)
        }
    }

    /// Runs frames until `ms` reaches `until` without input.
    func run(until: Double) {
        var none = 0
        while ms < until { runFrame([], &none) }
    }

    func names(_ l: ScrollViewEventLog? = nil) -> [String] {
        (l ?? log).events.filter { $0 != .didScroll && $0 != .didZoom }.map(\.name)
    }
}

/// The recordings made on real touchscreens (with their LICENSE and SOURCES.md).
enum Recordings {
    static var directory: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures/real")
    }

    static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(6)) }.sorted()
    }

    static func load(_ name: String) throws -> EventLog {
        let url = directory.appendingPathComponent(name + ".jsonl")
        let text = try String(contentsOf: url, encoding: .utf8)
        return try EventLog.parse(text, file: name + ".jsonl")
    }
}

/// Builders for synthetic gestures, in milliseconds.
struct Gesture {
    var events: [InputEvent] = []
    var t: Double = 0

    mutating func down(_ id: Int64, _ p: Point) { events.append(InputEvent(.down, finger: id, at: p, time: t)) }
    mutating func move(_ id: Int64, _ p: Point) { events.append(InputEvent(.move, finger: id, at: p, time: t)) }
    mutating func up(_ id: Int64, _ p: Point) { events.append(InputEvent(.up, finger: id, at: p, time: t)) }
    mutating func wait(_ ms: Double) { t += ms }

    /// A one-finger drag from `a` to `b` over `duration` ms, a sample every 8 ms, lifted at once.
    mutating func drag(
        _ id: Int64 = 1, from a: Point, to b: Point, duration: Double = 200, press: Bool = true, lift: Bool = true
    ) {
        if press { down(id, a) }
        let steps = max(1, Int(duration / 8))
        for i in 1...steps {
            wait(duration / Double(steps))
            move(id, a + (b - a) * (Double(i) / Double(steps)))
        }
        if lift { up(id, b) }
    }

    mutating func tap(_ p: Point, id: Int64 = 1, duration: Double = 60) {
        down(id, p)
        wait(duration)
        up(id, p)
    }
}
