import EventLog
import ScrollEngine

/// One event of a frame's trace line: a delegate call of a view, or a kiosk event (`view` nil).
public struct TraceEvent: Equatable, Sendable {
    public var view: String?
    public var name: String
    /// The event's arguments as JSON members (`"page": 2`), already encoded.
    public var arguments: String

    public init(view: String?, name: String, arguments: String = "") {
        self.view = view
        self.name = name
        self.arguments = arguments
    }

    public var json: String {
        var s = "{"
        if let view { s += "\"view\": \(jsonString(view)), " }
        s += "\"name\": \(jsonString(name))"
        if !arguments.isEmpty { s += ", " + arguments }
        return s + "}"
    }
}

/// Where the views' delegates put their events, in the order they happen.
public final class EventSink {
    public var events: [TraceEvent] = []
    public init() {}
    public func add(_ e: TraceEvent) { events.append(e) }
}

/// A scroll view's delegate that writes every call to the trace.
final class TraceDelegate: ScrollViewDelegate {
    let id: String
    let sink: EventSink
    var zoomingSize: Size?

    init(id: String, sink: EventSink, zoomingSize: Size?) {
        self.id = id
        self.sink = sink
        self.zoomingSize = zoomingSize
    }

    func add(_ name: String, _ arguments: String = "") {
        sink.add(TraceEvent(view: id, name: name, arguments: arguments))
    }

    func scrollViewDidScroll(_ scrollView: ScrollView) { add("scrollViewDidScroll") }
    func scrollViewWillBeginDragging(_ scrollView: ScrollView) { add("scrollViewWillBeginDragging") }
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point
    ) {
        add(
            "scrollViewWillEndDragging",
            "\"velocity\": \(jsonPoint(velocity)), \"targetContentOffset\": \(jsonPoint(targetContentOffset))")
    }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        add("scrollViewDidEndDragging", "\"willDecelerate\": \(decelerate)")
    }
    func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) { add("scrollViewWillBeginDecelerating") }
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView) { add("scrollViewDidEndDecelerating") }
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) { add("scrollViewDidEndScrollingAnimation") }
    func viewForZooming(in scrollView: ScrollView) -> Size? { zoomingSize }
    func scrollViewWillBeginZooming(_ scrollView: ScrollView) { add("scrollViewWillBeginZooming") }
    func scrollViewDidZoom(_ scrollView: ScrollView) { add("scrollViewDidZoom") }
    func scrollViewDidEndZooming(_ scrollView: ScrollView, atScale scale: Double) {
        add("scrollViewDidEndZooming", "\"scale\": \(jsonNumber(scale))")
    }
}

/// A number as the trace writes it: finite, shortest round-trip form, at most 4 decimals for readability.
public func jsonNumber(_ v: Double) -> String {
    guard v.isFinite else { return "0" }
    let r = (v * 10_000).rounded() / 10_000
    if r == r.rounded(), abs(r) < 1e15 { return "\(Int64(r)).0" }
    return "\(r)"
}

public func jsonPoint(_ p: Point) -> String { "[\(jsonNumber(p.x)), \(jsonNumber(p.y))]" }
