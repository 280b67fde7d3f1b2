import EventLog
import ScrollEngine

/// One event of a frame: a delegate call of a view, or a kiosk event (`view` nil). Typed: the trace writes it
/// (`json`, docs/event-log-and-trace.md), and the visitor statistics and the service's status read the same value.
public struct TraceEvent: Equatable, Sendable {
    public var view: String?
    public var kind: Kind

    /// Every event of the trace, with its arguments.
    public enum Kind: Equatable, Sendable {
        /// A call of UIScrollViewDelegate's, as the scroll engine says it.
        case scrollView(ScrollViewEvent)
        // A scene's gestures.
        case pageDidChange(page: Int)
        case doubleTap(point: Point)
        case hotspotTapped(hotspot: String)
        // The kiosk's.
        case sceneDidChange(scene: String)
        case languageDidChange(language: String)
        case rowTapped(row: String)
        case sectionIndexJump(section: String)
        case sceneTransition(from: String, to: String, style: TransitionStyle)
        /// New content: nil when it replaced the old, else why it did not.
        case contentDidReload(error: String?)
        case idleReset
        case attractDidStart
        case attractStep(index: Int)
        case attractDidEnd
        case screenDidBlank(reason: Presence.BlankReason)
        case screenDidWake
        case stillThereShown
        case stillThereDismissed
        /// The schedule's entry (its JSON path; nil: none, the manifest's own) took effect (docs/operations.md).
        case scheduleDidApply(entry: String?, home: String, attract: String?)
        /// The wall clock jumped this many seconds (either way) against the kiosk's own clock.
        case clockDidJump(seconds: Double)
        /// The wall clock became synchronised: the opening hours and the schedule apply from now.
        case clockDidSynchronize
        // Keys and speech (docs/accessibility.md).
        /// The keys' focus moved to `element` (`chrome:home`, `hotspot:cafe`, `row:library`).
        case focusDidChange(element: String)
        /// The kiosk began to say `text` in `language`.
        case speechDidStart(text: String, language: String)
        /// What it said came to an end: all of it, or cut short by a key, a touch or the next thing to say.
        case speechDidEnd(reason: SpeechEnd)
        /// Audio mode, larger text or high contrast came on or went off.
        case accessibilityDidChange(audio: Bool, largeText: Bool, highContrast: Bool)
        // Video (docs/video.md).
        /// A video's first frame is shown, from `decoder`.
        case videoDidStart(video: String, decoder: String, width: Int, height: Int)
        /// A video's first frame follows its last.
        case videoDidLoop(video: String)
        /// A video that does not loop showed its last frame.
        case videoDidEnd(video: String)
        /// The visitor paused a video (its controls' play/pause) or played it on.
        case videoDidPause(video: String)
        case videoDidResume(video: String)
        /// A film's controls came up (a tap) or went away (their time up, or a tap beside them).
        case videoControlsDidChange(shown: Bool)
        /// A video cannot play (its poster, or the placeholder, stays).
        case videoDidFail(video: String, why: String)
        /// The caption on screen changed (nil: none).
        case captionDidChange(text: String?)
        // The installer's tools (docs/deploying.md).
        case calibrationTarget(index: Int, raw: Point)
        case calibrationRound(round: Int, reason: String)
        case calibrationDone(matrix: [Double], residual: Double)
        case touchTest(fingers: Int)
        /// A touch-down on a picture (`TouchGrid`): its key, where on it in image pixels, and its size. Counted,
        /// not traced (the taps that act are: `hotspotTapped`, `rowTapped`).
        case pictureTouched(picture: String, point: Point, image: Size)
    }

    /// Whether the trace writes it (a picture's touches are counted only).
    public var isTraced: Bool {
        if case .pictureTouched = kind { false } else { true }
    }

    public init(view: String? = nil, _ kind: Kind) {
        self.view = view
        self.kind = kind
    }

    /// The event's name in the trace.
    public var name: String {
        switch kind {
        case .scrollView(let call): call.name
        case .pageDidChange: "pageDidChange"
        case .doubleTap: "doubleTap"
        case .hotspotTapped: "hotspotTapped"
        case .sceneDidChange: "sceneDidChange"
        case .languageDidChange: "languageDidChange"
        case .rowTapped: "rowTapped"
        case .sectionIndexJump: "sectionIndexJump"
        case .sceneTransition: "sceneTransition"
        case .contentDidReload: "contentDidReload"
        case .idleReset: "idleReset"
        case .attractDidStart: "attractDidStart"
        case .attractStep: "attractStep"
        case .attractDidEnd: "attractDidEnd"
        case .screenDidBlank: "screenDidBlank"
        case .screenDidWake: "screenDidWake"
        case .stillThereShown: "stillThereShown"
        case .stillThereDismissed: "stillThereDismissed"
        case .scheduleDidApply: "scheduleDidApply"
        case .clockDidJump: "clockDidJump"
        case .clockDidSynchronize: "clockDidSynchronize"
        case .focusDidChange: "focusDidChange"
        case .speechDidStart: "speechDidStart"
        case .speechDidEnd: "speechDidEnd"
        case .accessibilityDidChange: "accessibilityDidChange"
        case .videoDidStart: "videoDidStart"
        case .videoDidLoop: "videoDidLoop"
        case .videoDidEnd: "videoDidEnd"
        case .videoDidPause: "videoDidPause"
        case .videoDidResume: "videoDidResume"
        case .videoControlsDidChange: "videoControlsDidChange"
        case .videoDidFail: "videoDidFail"
        case .captionDidChange: "captionDidChange"
        case .calibrationTarget: "calibrationTarget"
        case .calibrationRound: "calibrationRound"
        case .calibrationDone: "calibrationDone"
        case .touchTest: "touchTest"
        case .pictureTouched: "pictureTouched"
        }
    }

    /// The event's arguments as JSON members (`"page": 2`).
    public var arguments: String {
        switch kind {
        case .scrollView(.willEndDragging(let velocity, let target)):
            "\"velocity\": \(jsonPoint(velocity)), \"targetContentOffset\": \(jsonPoint(target))"
        case .scrollView(.didEndDragging(let decelerate)): "\"willDecelerate\": \(decelerate)"
        case .scrollView(.didEndZooming(let scale)): "\"scale\": \(jsonNumber(scale))"
        case .pageDidChange(let page): "\"page\": \(page)"
        case .doubleTap(let p): "\"point\": \(jsonPoint(p))"
        case .hotspotTapped(let id): "\"hotspot\": \(jsonString(id))"
        case .sceneDidChange(let id): "\"scene\": \(jsonString(id))"
        case .languageDidChange(let tag): "\"language\": \(jsonString(tag))"
        case .rowTapped(let id): "\"row\": \(jsonString(id))"
        case .sectionIndexJump(let section): "\"section\": \(jsonString(section))"
        case .sceneTransition(let from, let to, let style):
            "\"from\": \(jsonString(from)), \"to\": \(jsonString(to)), \"style\": \(jsonString(style.rawValue))"
        case .contentDidReload(nil): "\"ok\": true"
        case .contentDidReload(let error?): "\"ok\": false, \"error\": \(jsonString(error))"
        case .attractStep(let index): "\"index\": \(index)"
        case .screenDidBlank(let reason): "\"reason\": \(jsonString(reason.rawValue))"
        case .calibrationTarget(let index, let raw): "\"index\": \(index), \"raw\": \(jsonPoint(raw))"
        case .calibrationRound(let round, let reason): "\"round\": \(round), \"reason\": \(jsonString(reason))"
        case .calibrationDone(let matrix, let residual):
            "\"matrix\": [\(matrix.map(jsonNumber).joined(separator: ", "))], \"residual\": \(jsonNumber(residual))"
        case .touchTest(let fingers): "\"fingers\": \(fingers)"
        case .pictureTouched(let picture, let point, _):
            "\"picture\": \(jsonString(picture)), \"point\": \(jsonPoint(point))"
        case .scheduleDidApply(let entry, let home, let attract):
            "\"entry\": \(entry.map(jsonString) ?? "null"), \"home\": \(jsonString(home)), "
                + "\"attract\": \(attract.map(jsonString) ?? "null")"
        case .clockDidJump(let seconds): "\"seconds\": \(jsonNumber(seconds))"
        case .focusDidChange(let element): "\"element\": \(jsonString(element))"
        case .speechDidStart(let text, let language):
            "\"text\": \(jsonString(text)), \"language\": \(jsonString(language))"
        case .speechDidEnd(let reason): "\"reason\": \(jsonString(reason.rawValue))"
        case .accessibilityDidChange(let audio, let largeText, let highContrast):
            "\"audio\": \(audio), \"largeText\": \(largeText), \"highContrast\": \(highContrast)"
        case .videoDidStart(let video, let decoder, let width, let height):
            "\"video\": \(jsonString(video)), \"decoder\": \(jsonString(decoder)), \"width\": \(width), \"height\": \(height)"
        case .videoDidLoop(let video), .videoDidEnd(let video), .videoDidPause(let video), .videoDidResume(let video):
            "\"video\": \(jsonString(video))"
        case .videoDidFail(let video, let why): "\"video\": \(jsonString(video)), \"why\": \(jsonString(why))"
        case .captionDidChange(let text): "\"text\": \(text.map(jsonString) ?? "null")"
        case .videoControlsDidChange(let shown): "\"shown\": \(shown)"
        case .scrollView, .idleReset, .attractDidStart, .attractDidEnd, .screenDidWake, .stillThereShown,
            .stillThereDismissed, .clockDidSynchronize:
            ""
        }
    }

    public var json: String {
        var s = "{"
        if let view { s += "\"view\": \(jsonString(view)), " }
        s += "\"name\": \(jsonString(name))"
        let arguments = arguments
        if !arguments.isEmpty { s += ", " + arguments }
        return s + "}"
    }
}

/// Where the views' delegates put their events, in the order they happen. What the kiosk does without a
/// visitor's doing it (opening a scene at its opening state, placing a restored or reloaded one) is done
/// `quietly`: its views' events are never emitted, rather than taken back after.
final class EventSink {
    public private(set) var events: [TraceEvent] = []
    private var quiet = 0
    public init() {}
    public func add(_ e: TraceEvent) { if quiet == 0 { events.append(e) } }

    /// `body`'s events are not emitted.
    func quietly<T>(_ body: () -> T) -> T {
        quiet += 1
        defer { quiet -= 1 }
        return body()
    }

    /// The events, taken: the sink is empty after.
    public func take() -> [TraceEvent] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }
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

    func add(_ kind: TraceEvent.Kind) { sink.add(TraceEvent(view: id, kind)) }

    func scrollViewDidScroll(_ scrollView: ScrollView) { add(.scrollView(.didScroll)) }
    func scrollViewWillBeginDragging(_ scrollView: ScrollView) { add(.scrollView(.willBeginDragging)) }
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point
    ) {
        add(.scrollView(.willEndDragging(velocity: velocity, targetContentOffset: targetContentOffset)))
    }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        add(.scrollView(.didEndDragging(willDecelerate: decelerate)))
    }
    func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) { add(.scrollView(.willBeginDecelerating)) }
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView) { add(.scrollView(.didEndDecelerating)) }
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) { add(.scrollView(.didEndScrollingAnimation)) }
    func viewForZooming(in scrollView: ScrollView) -> Size? { zoomingSize }
    func scrollViewWillBeginZooming(_ scrollView: ScrollView) { add(.scrollView(.willBeginZooming)) }
    func scrollViewDidZoom(_ scrollView: ScrollView) { add(.scrollView(.didZoom)) }
    func scrollViewDidEndZooming(_ scrollView: ScrollView, atScale scale: Double) {
        add(.scrollView(.didEndZooming(scale: scale)))
    }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        add(.scrollView(.shouldScrollToTop))
        return true
    }
    func scrollViewDidScrollToTop(_ scrollView: ScrollView) { add(.scrollView(.didScrollToTop)) }
    func scrollViewDidChangeAdjustedContentInset(_ scrollView: ScrollView) {
        add(.scrollView(.didChangeAdjustedContentInset))
    }
}

/// A number as the trace writes it: finite, shortest round-trip form, at most 4 decimals for readability.
public func jsonNumber(_ v: Double) -> String {
    guard v.isFinite else { return "0" }
    let r = (v * 10_000).rounded() / 10_000
    if r == r.rounded(), abs(r) < 1e15 { return "\(Int64(r)).0" }
    return "\(r)"
}

func jsonPoint(_ p: Point) -> String { "[\(jsonNumber(p.x)), \(jsonNumber(p.y))]" }
