import CSDL2
import EventLog
import Kiosk
import ScrollEngine

/// What a run writes as it goes (docs/event-log-and-trace.md): the trace, a line a frame, and the recording, a
/// line an input; and what it says aloud (docs/accessibility.md), in real time only (a replay on the virtual
/// clock says in its trace what it would say). In real time every line reaches its file within a second, and at once after a frame with
/// events, an input, or before a sleep: a `kill -9` loses at most the last second. Virtual runs are replays:
/// written in large pieces, complete at exit.
final class FrameOutputs {
    private var trace: OutputFile?
    private var record: OutputFile?
    /// A line written since the last flush matters now (a frame with events, an input).
    private var linesMatter = false
    private let isVirtual: Bool
    /// What the frames ask to say, played (nil on the virtual clock).
    let speech: SpeechPlayer?
    /// The sound device speech and films play through (nil on the virtual clock: it runs in real time).
    let sound: SoundDevice?

    /// Whether there is a trace to write (a frame's line is made only then).
    var traces: Bool { trace != nil }

    /// The files `--trace` and `--record` name; the recording's first line says the window's size.
    init(options: Options, window: Size, isVirtual: Bool, voices: [String: String]) throws(KioskError) {
        self.isVirtual = isVirtual
        let sound = isVirtual ? nil : SoundDevice()
        self.sound = sound
        speech = sound.map { SpeechPlayer(voices: voices, mixer: $0.mixer) }
        if let path = options.trace { trace = try OutputFile(path) }
        if let path = options.record {
            record = try OutputFile(path)
            let w = Int(window.width)
            let h = Int(window.height)
            record?.write(
                "{\"kioskEventLog\": 1, \"display\": {\"w\": \(w), \"h\": \(h)}, \"source\": \"kiosk --record\"}\n")
        }
    }

    /// When the last key or touch came that no frame has answered yet (SDL ticks): what that frame says is timed
    /// from it.
    private var inputAt: UInt64?

    /// An input as the app gets it, at `t` on the kiosk's clock (`realMs` on the real one).
    func recorded(_ event: EventLog.Event, at t: Double, realMs: Double) {
        record?.write(EventLog.line(.init(timestamp: max(0, t), event: event)) + "\n", at: realMs)
        linesMatter = true
        switch event {
        case .key(down: true, _, _), .finger(.down, _, _, _, _, _, _, _): inputAt = inputAt ?? SDL_GetTicks64()
        default: break
        }
    }

    /// The frame's trace line, and whether it had events.
    func traced(_ line: String, hasEvents: Bool, realMs: Double) {
        trace?.write(line + "\n", at: realMs)
        if hasEvents { linesMatter = true }
    }

    /// A drawn frame's events and the volume it left: what they ask to say is said, and what the next key would
    /// say (`ahead`) is synthesised before it is asked for.
    func spoke(_ events: [TraceEvent], volumeDB: Double, ahead: [Utterance]) {
        speech?.observe(events, volumeDB: volumeDB, inputAt: inputAt)
        speech?.prepare(ahead)
        inputAt = nil
    }

    /// The run's speech, for its last lines: how many things a key or a touch had said, and how long from it to
    /// the first sound (median and longest), or nil when nothing was.
    var speechSummary: String? {
        guard let times = speech?.inputToSound, !times.isEmpty else { return nil }
        let sorted = times.sorted()
        return
            "speech: \(times.count) said for a key or a touch, from it to the first sound \(Int(sorted[sorted.count / 2])) ms (median), \(Int(sorted.last!)) ms at most"
    }

    /// Whether what was said last has come to its end since the last call.
    var speechFinished: Bool { speech?.takeFinished() ?? false }

    /// Flushes what is due at `realMs` (`urgent`: what was written since the last flush, now).
    func flush(now urgent: Bool, realMs: Double) {
        let urgent = urgent || linesMatter
        linesMatter = false
        guard !isVirtual else { return }
        trace?.flush(ifDueAt: realMs, now: urgent)
        record?.flush(ifDueAt: realMs, now: urgent)
    }

    func close() {
        trace?.close()
        record?.close()
    }
}
