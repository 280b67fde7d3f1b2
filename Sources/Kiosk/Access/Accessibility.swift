import ScrollEngine

/// Something the kiosk says (docs/accessibility.md, speech): its words and their language.
public struct Utterance: Equatable, Sendable {
    public var text: String
    public var language: String

    public init(text: String, language: String) {
        self.text = text
        self.language = language
    }
}

/// Why speech ended (`speechDidEnd`).
public enum SpeechEnd: String, Sendable {
    case finished
    case interrupted
}

/// A visitor's accessibility for one visit (docs/accessibility.md): whether audio mode is on, which element the
/// keys focus, what is being said and was said last, and the speech volume. The idle reset ends all of it. Its
/// changes are said as trace events into `sink`, each in one place.
struct Accessibility {
    /// Audio mode: the keys move a focus and everything focused is spoken (started by the first navigation key).
    private(set) var audio = false
    var largeText = false
    var highContrast = false
    /// The accessibility panel is open.
    var isPanelOpen = false
    /// The element the keys are on (its id), nil before the first navigation key.
    private(set) var focused: String?
    /// Where the focus was last placed: a new scene, language or choice of languages moves it
    /// (`KioskApp.placeFocus`).
    var context: Context?
    /// What is being said (started, not yet finished or interrupted).
    private(set) var speaking: Utterance?
    /// What was said last (`F3` says it again).
    private(set) var lastSpoken: Utterance?
    /// What the frame will start saying (a frame says at most one thing: the last asked for).
    private var pending: Utterance?
    /// Fingers in audio mode: explore by touch.
    var explorer = TouchExplorer()
    /// The headset jack: a plug waiting to settle.
    var jack = HeadsetJack()
    /// The speech volume in steps of `volumeStepDB` from the default (`volumeSteps` either way).
    private(set) var volumeStep = 0

    /// EN 301 549 5.1.3.11-13 and 8.2.1: steps of 6 dB over at least 18 dB (here 24: two steps up, two down).
    static let volumeStepDB = 6.0
    static let volumeSteps = -2...2

    /// The speech volume relative to the default, in dB.
    var volumeDB: Double { Double(volumeStep) * Self.volumeStepDB }

    /// Audio mode begins: true when it was off.
    mutating func startAudio(sink: EventSink) -> Bool {
        guard !audio else { return false }
        audio = true
        changed(sink: sink)
        return true
    }

    /// Audio mode ends (the panel's speech switch): speech stops, the focus is let go.
    mutating func stopAudio(sink: EventSink) {
        guard audio else { return }
        silence(sink: sink)
        audio = false
        changed(sink: sink)
    }

    /// What is said and asked to be said stops, the focus and the fingers exploring are let go.
    private mutating func silence(sink: EventSink) {
        interrupt(sink: sink)
        pending = nil
        ahead = []
        focused = nil
        context = nil
        explorer = TouchExplorer()
    }

    /// `accessibilityDidChange`, with every setting as it now is.
    func changed(sink: EventSink) {
        sink.add(TraceEvent(.accessibilityDidChange(audio: audio, largeText: largeText, highContrast: highContrast)))
    }

    /// What the accessibility panel shows.
    var menuState: AccessibilityMenu.State {
        AccessibilityMenu.State(isOpen: isPanelOpen, largerText: largeText, highContrast: highContrast, speech: audio)
    }

    /// What the focus was placed in.
    struct Context: Equatable {
        var scene: String
        var language: String
        /// The menu open (its options are all the keys reach): `language`, `accessibility` or nil.
        var menu: String?
    }

    /// The focus is on `id`, placed in `context` (`focusDidChange` when it moved).
    mutating func focus(_ id: String, in context: Context, sink: EventSink) {
        self.context = context
        guard id != focused else { return }
        focused = id
        sink.add(TraceEvent(.focusDidChange(element: id)))
    }

    /// `utterance` is to be said at the end of the frame (replacing anything asked for before it in the frame).
    mutating func say(_ utterance: Utterance) {
        guard !utterance.text.isEmpty else { return }
        var u = utterance
        if u.text.count > maximumSpokenCharacters { u.text = String(u.text.prefix(maximumSpokenCharacters)) }
        pending = u
    }

    /// A key or a touch: what is being said stops at once (EN 301 549 5.1.3.5).
    mutating func interrupt(sink: EventSink) {
        guard speaking != nil else { return }
        speaking = nil
        sink.add(TraceEvent(.speechDidEnd(reason: .interrupted)))
    }

    /// The host's speech came to the end of what it was saying.
    mutating func finished(sink: EventSink) {
        guard speaking != nil else { return }
        speaking = nil
        sink.add(TraceEvent(.speechDidEnd(reason: .finished)))
    }

    /// The end of a frame: what it asked to say begins (what was being said is cut short).
    mutating func startPending(sink: EventSink) {
        guard let u = pending else { return }
        pending = nil
        interrupt(sink: sink)
        speaking = u
        lastSpoken = u
        sink.add(TraceEvent(.speechDidStart(text: u.text, language: u.language)))
    }

    mutating func stepVolume(_ direction: Int) {
        volumeStep = min(Self.volumeSteps.upperBound, max(Self.volumeSteps.lowerBound, volumeStep + direction))
    }

    /// The idle reset: audio mode, the focus, speech and the volume go back to how a new visitor finds them.
    mutating func reset(sink: EventSink) {
        silence(sink: sink)
        lastSpoken = nil
        volumeStep = 0
        isPanelOpen = false
        if audio || largeText || highContrast {
            audio = false
            largeText = false
            highContrast = false
            changed(sink: sink)
        }
    }

    /// What the next and the previous key would say (the focused element's neighbours in `elements`): the host
    /// synthesises it ahead, so that the key that moves the focus is heard at once.
    private(set) var ahead: [Utterance] = []

    mutating func lookAhead(in elements: [AccessibilityElement]) {
        ahead = [1, -1].compactMap { neighbour(by: $0, in: elements) }.filter { $0.id != focused }
            .map { Utterance(text: $0.spoken, language: $0.language) }
    }

    /// The element `by` places from the focused one in `elements` (wrapping at either end: the focus is never
    /// trapped); the first when none is focused.
    func neighbour(by step: Int, in elements: [AccessibilityElement]) -> AccessibilityElement? {
        guard !elements.isEmpty else { return nil }
        guard let focused, let i = elements.firstIndex(where: { $0.id == focused }) else {
            return step >= 0 ? elements.first : elements.last
        }
        return elements[((i + step) % elements.count + elements.count) % elements.count]
    }
}
