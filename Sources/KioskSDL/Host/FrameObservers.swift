import Foundation
import Kiosk

/// A frame once it is on the screen, as what observes frames reads it: data, the same for every observer.
struct ShownFrame {
    /// What the step left (`KioskApp.step`).
    let frame: KioskFrame
    /// Its typed events, its videos' among them (`KioskApp.endFrame`).
    let events: [TraceEvent]
    /// Its trace line (nil when nothing is traced).
    let traceLine: String?
    /// The wall clock its step was read with, and the kiosk's clock when it was shown.
    let wall: WallTime
    let kioskNow: Double
    /// Its time on the kiosk's clock, how long it took to draw and present, and whether that was over a frame.
    let t: Double
    let ms: Double
    let late: Bool
    /// The last frame of the old content: checked new content is swapped in after it.
    let swapsContent: Bool
}

/// One observer of the frames shown (docs/architecture.md): the loop hands each frame to every item of one list,
/// in its order, and knows nothing of what any of them does with it.
protocol FrameObserver: AnyObject {
    func frameShown(_ shown: ShownFrame)
}

/// The trace, a line a frame (docs/event-log-and-trace.md).
final class TraceObserver: FrameObserver {
    let outputs: FrameOutputs
    let realNow: () -> Double
    init(_ outputs: FrameOutputs, realNow: @escaping () -> Double) {
        self.outputs = outputs
        self.realNow = realNow
    }
    func frameShown(_ shown: ShownFrame) {
        if let line = shown.traceLine { outputs.traced(line, hasEvents: !shown.events.isEmpty, realMs: realNow()) }
    }
}

/// What the frame asks to say, said, and what the next key would say made ready (docs/accessibility.md).
final class SpeechObserver: FrameObserver {
    let outputs: FrameOutputs
    init(_ outputs: FrameOutputs) { self.outputs = outputs }
    func frameShown(_ shown: ShownFrame) {
        outputs.spoke(shown.events, volumeDB: shown.frame.speechVolumeDB, ahead: shown.frame.upcomingSpeech)
    }
}

/// The visits, counted from the frames' events; one that ended is counted in the metrics too.
final class VisitsObserver: FrameObserver {
    let service: ServiceDuties
    let app: KioskApp
    init(_ service: ServiceDuties, app: KioskApp) {
        self.service = service
        self.app = app
    }
    func frameShown(_ shown: ShownFrame) {
        guard let visits = service.visits,
            let visit = visits.observe(app, events: shown.events, wall: shown.wall, at: shown.t)
        else { return }
        service.metrics?.visitEnded(visit)
    }
}

/// The health for node_exporter (docs/operations.md), counted from the frames' events and times.
final class MetricsObserver: FrameObserver {
    let service: ServiceDuties
    init(_ service: ServiceDuties) { self.service = service }
    func frameShown(_ shown: ShownFrame) {
        service.metrics?.frameShown(
            shown.events, wallSeconds: shown.wall.unix(at: shown.kioskNow), late: shown.late, ms: shown.ms)
    }
}

/// systemd's `READY=1` and `STATUS=` after the first frame and after a reload's outcome; a reload that ended
/// lets the next one asked for begin (`reloadDidEnd`).
final class StatusObserver: FrameObserver {
    let service: ServiceDuties
    let reloadDidEnd: () -> Void
    init(_ service: ServiceDuties, reloadDidEnd: @escaping () -> Void) {
        self.service = service
        self.reloadDidEnd = reloadDidEnd
    }
    func frameShown(_ shown: ShownFrame) {
        for update in service.status.afterFrame(shown.events, scene: shown.frame.scene.config.id) {
            service.notifier?.send(update.message)
            if update.endsReload { reloadDidEnd() }
        }
    }
}

/// What the frames' events say of the wall clock, to the journal.
final class ClockLog: FrameObserver {
    func frameShown(_ shown: ShownFrame) {
        for e in shown.events {
            switch e.kind {
            case .clockDidSynchronize:
                log(.info, "the wall clock is synchronised: the opening hours and the schedule apply from now")
            case .clockDidJump(let seconds):
                log(
                    .info,
                    "the wall clock jumped \(jsonNumber(seconds)) s: the opening hours and the schedule are read again")
            default: break
            }
        }
    }
}

/// SIGHUP's reload: checked new content swapped in after the frame that kept the old content's last picture.
/// Last in the list, so every other observer has seen the frame of the old content.
final class ReloadObserver: FrameObserver {
    let swap: () -> Void
    init(swap: @escaping () -> Void) { self.swap = swap }
    func frameShown(_ shown: ShownFrame) {
        if shown.swapsContent { swap() }
    }
}
