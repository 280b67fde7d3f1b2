import EventLog
import ScrollEngine

/// What the kiosk is after a step, as its host reads it (`KioskApp.step(to:)`, `KioskApp.frame`): the time, the
/// scene shown and the change running, whether the next frame would differ, whether it is at rest, blank or
/// done, when its timers next have something to do, the touch devices holding a finger down, and the pictures
/// it will show soon (decoded ahead, in the order they are wanted). A data record, one stored property per fact
/// the host reads, so more than 15 of them.
public struct KioskFrame {
    /// Milliseconds since the first frame.
    public var now: Double
    public var scene: Scene
    /// The scene change running, and the scene it leaves (drawn at its start by the renderer).
    public var transition: SceneTransition?
    public var outgoing: Scene?
    /// The screen in scene points (the physical screen rotated, in points of `displayScale` pixels).
    public var sceneSize: Size
    /// The rotated screen in pixels: the box the draw lists are in.
    public var drawSize: Size { sceneSize * displayScale }
    /// Whether the next frame would differ from this one: something moves or an indicator is fading.
    public var needsFrame: Bool
    /// Nothing moves, no finger is down, no gesture timer runs, no transition.
    public var isAtRest: Bool
    /// The screen is blank (`blankAfterSeconds`, or outside the opening hours).
    public var isBlanked: Bool
    public var quitRequested: Bool
    /// When the kiosk's own timers next have something to do (blanking, the idle reset, the hours), on its
    /// clock; said for a frame that needs no next one (a moving kiosk draws the next frame anyway).
    public var nextDeadline: Double?
    /// The fingers down, the scene's and a gate's (the host looks whether they are still on their panel, and
    /// their devices still there).
    public var fingersDown: Set<FingerKey>
    /// The pictures coming next: the attract loop's, a carousel's pages a swipe away.
    public var upcomingPictures: [String]
    /// A list's thumbnails a screen ahead in the direction it scrolls, and where a fling comes to rest, asked for
    /// before their rows are on screen (UITableView's `prefetchDataSource`).
    public var upcomingThumbnails: [String] = []
    /// The wall clock the kiosk was last stepped with (nil: never given one), so the host that read it once for
    /// the step hands the same reading to what it does with the frame (the visits, the metrics).
    public var wall: WallTime?
    /// The step left events for the frame (a focus moved, something to say): the host draws it, so that they
    /// reach the trace, speech and the rest, even when nothing moves.
    public var hasEvents = false
    /// The speech volume the visitor chose, in dB from the default (docs/accessibility.md).
    public var speechVolumeDB = 0.0
    /// Pixels per point (`TraitCollection.displayScale`): the draw lists are in pixels of the rotated screen.
    public var displayScale = 1.0
    /// In audio mode, what the next and the previous key would say: synthesised ahead by the host.
    public var upcomingSpeech: [Utterance] = []
}

extension KioskApp {
    /// The kiosk as it is now.
    public var frame: KioskFrame {
        let needsFrame = self.needsFrame
        return KioskFrame(
            now: now, scene: scene, transition: transition, outgoing: outgoing, sceneSize: sceneSize,
            needsFrame: needsFrame, isAtRest: isAtRest, isBlanked: isBlanked, quitRequested: quitRequested,
            nextDeadline: needsFrame ? nil : nextDeadline, fingersDown: fingersDown,
            upcomingPictures: upcomingImagePaths + scene.nearbyImagePaths,
            upcomingThumbnails: scene.upcomingThumbnails, wall: wallTime, hasEvents: !sink.events.isEmpty,
            speechVolumeDB: access.volumeDB, displayScale: traits.displayScale,
            upcomingSpeech: access.audio ? access.ahead : [])
    }

    /// Ends a frame that was drawn: what the host's film did in it (`video`: its events, and the frame it showed,
    /// its time and number in the clip, for the frame line) joins its events; its events, in the order they
    /// happened (the trace writes them, the visits, the metrics and the service's status read the same values),
    /// and its trace line when `tracing` is the frame's number. The events are let go.
    public func endFrame(
        tracing number: Int?, video: (events: [TraceEvent.Kind], shown: (pts: Double, frame: Int)?) = ([], nil)
    ) -> (events: [TraceEvent], traceLine: String?) {
        videoDid(video.events, shown: video.shown)
        let events = frameEvents
        let line = number.map { traceLine(frame: $0, events: events) }
        dropFrameEvents()
        film.shown = nil
        return (events, line)
    }
}
