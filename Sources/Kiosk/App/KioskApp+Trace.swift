import EventLog
import ScrollEngine

/// The trace (docs/event-log-and-trace.md, version 1): one line a frame, the scene's views and the events since the last.
extension KioskApp {
    /// The events since the last frame, in the order they happened: the trace writes them, and the visitor
    /// statistics and the service's status read the same values.
    var frameEvents: [TraceEvent] { sink.events }

    /// Ends a frame: its events are let go (else they would pile up for as long as it runs).
    func dropFrameEvents() {
        _ = sink.take()
        hasShownAFrame = true
    }

    /// The frame's trace line (docs/event-log-and-trace.md, version 1) with `events`, the frame's.
    func traceLine(frame: Int, events: [TraceEvent]) -> String {
        var s = "{\"frame\": \(frame), \"t\": \(jsonNumber(now)), \"scene\": \(jsonString(scene.config.id)), "
        // A kiosk that offers languages says the visitor's on every line (docs/manifest.md).
        if !manifest.languages.isEmpty { s += "\"language\": \(jsonString(language)), " }
        s += "\"focus\": \(access.focused.map(jsonString) ?? "null"), "
        s += "\"views\": {"
        s += scene.tracedViews.map { "\(jsonString($0.id)): \(Self.json($0.view))" }.joined(separator: ", ")
        s += "}"
        if let list = scene.list { s += ", \"list\": " + scene.listTrace(list) }
        if let shown = film.shown {
            s += ", \"video\": {\"pts\": \(jsonNumber(shown.pts)), \"frame\": \(shown.frame)}"
        }
        if let t = transition {
            let progress = min(1, max(0, (now - t.start) / t.duration))
            s +=
                ", \"transition\": {\"from\": \(jsonString(t.from)), \"to\": \(jsonString(t.to)), "
                + "\"style\": \(jsonString(t.style.rawValue)), \"progress\": \(jsonNumber(progress))}"
        }
        s += ", \"events\": ["
        s += events.filter(\.isTraced).map(\.json).joined(separator: ", ")
        return s + "]}"
    }

    static func json(_ v: ScrollView) -> String {
        let i = v.contentInset
        let a = v.adjustedContentInset
        let page = v.currentPage.map(String.init) ?? "null"
        return "{\"contentOffset\": \(jsonPoint(v.contentOffset)), \"zoomScale\": \(jsonNumber(v.zoomScale)), "
            + "\"contentSize\": [\(jsonNumber(v.contentSize.width)), \(jsonNumber(v.contentSize.height))], "
            + "\"bounds\": [\(jsonNumber(v.bounds.width)), \(jsonNumber(v.bounds.height))], "
            + "\"contentInset\": [\(jsonNumber(i.top)), \(jsonNumber(i.left)), \(jsonNumber(i.bottom)), \(jsonNumber(i.right))], "
            + "\"adjustedContentInset\": [\(jsonNumber(a.top)), \(jsonNumber(a.left)), \(jsonNumber(a.bottom)), \(jsonNumber(a.right))], "
            + "\"page\": \(page), \"isTracking\": \(v.isTracking), \"isDragging\": \(v.isDragging), "
            + "\"isDecelerating\": \(v.isDecelerating), \"isZooming\": \(v.isZooming), \"isZoomBouncing\": \(v.isZoomBouncing), "
            + "\"indicators\": {\"horizontal\": \(jsonNumber(v.horizontalIndicator?.alpha ?? 0)), "
            + "\"vertical\": \(jsonNumber(v.verticalIndicator?.alpha ?? 0))}}"
    }
}
