import CSDL2
import EventLog
import ScrollEngine

/// The frame loop's clock, and with it how the loop goes from frame to frame. One loop runs on either.
///
/// Virtual (`--headless` without `--realtime`): frame n at n × 1000/60 ms, each one drawn (the one a replayed
/// quit arrives in too), as fast as the CPU allows, so a run replays the same frames every time. Real (a window,
/// a kiosk, `--headless --realtime`): SDL's high-resolution counter since the loop began; a frame is drawn when
/// something changed, the loop sleeps until input or its next timer, and a quit ends it at once.
struct FrameClock {
    let isVirtual: Bool
    /// The virtual clock's step (`--frame-ms`; a frame at 60 Hz unless a soak asks for longer ones).
    var virtualFrameMs = Runner.frameMs
    /// Headless in real time there is no vsync to pace the loop: it holds itself to 60 frames a second.
    let holdsItsPace: Bool
    /// SDL's high-resolution counter when the loop was made: the zero of its real clock (the saved state is
    /// restored on it).
    let startCounter = SDL_GetPerformanceCounter()
    static let countsPerMs = Double(SDL_GetPerformanceFrequency()) / 1000

    /// Milliseconds on the real clock since the loop began, to a fraction of one: a 30 fps film's frames are
    /// 33.3 ms apart, not 33 or 34 (SDL's ticks are whole milliseconds).
    func realNow() -> Double { Double(SDL_GetPerformanceCounter() - startCounter) / Self.countsPerMs }

    /// The time of frame `frame`, the next to draw.
    func time(ofFrame frame: Int) -> Double { isVirtual ? Double(frame) * virtualFrameMs : realNow() }

    /// Whether every frame is drawn (and none is slept through).
    var drawsEveryFrame: Bool { isVirtual }

    /// A frame that began at `t` was drawn: the loop holds its pace where nothing else does.
    func pace(frameAt t: Double) {
        if holdsItsPace { SDL_Delay(UInt32(max(0, Runner.frameMs - (realNow() - t)))) }
    }
}

/// The replayed events (`--replay`), handed out as the loop's clock reaches them. On the virtual clock the log's
/// zero is the clock's; on the real clock it is the return of the first present, as a visitor touches what the
/// screen shows: a log touching at 0 ms is not counted late by the start's first frame (`began(at:)`).
struct ReplayQueue {
    private let stream: ReplayStream?
    /// The loop's time of the log's zero; nil until the real clock's first present.
    private var zero: Double?
    /// The next record, read ahead of its time.
    private var pending: EventLog.Record?
    /// The recorded display's pixels to the window's (mouse events carry pixels; fingers are normalised).
    private let scale: (x: Double, y: Double)

    /// No replay.
    init() {
        stream = nil
        scale = (1, 1)
        zero = 0
    }

    init(_ stream: ReplayStream, window: Size, startsAtFirstPresent: Bool) {
        self.stream = stream
        zero = startsAtFirstPresent ? nil : 0
        scale = (window.width / stream.display.width, window.height / stream.display.height)
        pending = stream.next().map(scaled)
    }

    /// Whether every event has been handed out.
    var isDone: Bool { pending == nil }
    var isEmpty: Bool { stream == nil || stream?.recordCount == 0 }
    /// When the next event is due, on the loop's clock (nil before the log's zero: the first present wakes it).
    var nextTimestamp: Double? { zero.flatMap { z in pending.map { z + $0.timestamp } } }
    /// When the last event is due on the log's clock (0 for none).
    var lastTimestamp: Double { stream?.lastTimestamp ?? 0 }

    /// The first present returned at `t`: the log's zero, if it has none yet.
    mutating func began(at t: Double) {
        if zero == nil { zero = t }
    }

    /// The events due by `t`, each handed out once, stamped on the loop's clock.
    mutating func take(upTo t: Double) -> [EventLog.Record] {
        guard let zero else { return [] }
        var due: [EventLog.Record] = []
        while var r = pending, zero + r.timestamp <= t {
            r.timestamp += zero
            due.append(r)
            pending = stream?.next().map(scaled)
        }
        return due
    }

    private func scaled(_ record: EventLog.Record) -> EventLog.Record {
        var r = record
        let (sx, sy) = scale
        switch r.event {
        case .mouseMotion(let x, let y, let xr, let yr, let state):
            r.event = .mouseMotion(x: x * sx, y: y * sy, xrel: xr * sx, yrel: yr * sy, state: state)
        case .mouseButton(let d, let b, let c, let x, let y):
            r.event = .mouseButton(down: d, button: b, clicks: c, x: x * sx, y: y * sy)
        default:
            break
        }
        return r
    }
}

/// `--screenshot MS:PATH`: each taken once, on the first frame at or after its time.
struct ScreenshotPlan {
    private var shots: [(ms: Double, path: String, taken: Bool)]

    init(_ shots: [(ms: Double, path: String)]) { self.shots = shots.map { ($0.ms, $0.path, false) } }

    var allTaken: Bool { shots.allSatisfy(\.taken) }
    func isDue(at t: Double) -> Bool { shots.contains { !$0.taken && $0.ms <= t } }
    /// When the first one not taken yet is due.
    var nextDue: Double? { shots.first { !$0.taken }?.ms }
    /// The ones not taken.
    var untaken: [(ms: Double, path: String)] { shots.filter { !$0.taken }.map { ($0.ms, $0.path) } }

    /// Takes those due at `t` with `save`.
    mutating func takeDue<Failure: Error>(at t: Double, _ save: (String) throws(Failure) -> Void) throws(Failure) {
        for i in shots.indices where !shots[i].taken && shots[i].ms <= t {
            try save(shots[i].path)
            shots[i].taken = true
        }
    }
}

/// The screen holding still: when the last frame was drawn, whether the caches have let go of what it does not
/// show since, and when its picture became complete after coming to rest.
struct Stillness {
    /// How long the screen holds still before the caches let go of what it does not show.
    static let settleMs = 1000.0
    var watch = SettleWatch()
    private(set) var settled = false
    private(set) var lastFrameMs = 0.0

    /// A frame was drawn at `t`.
    mutating func drew(at t: Double) {
        lastFrameMs = t
        settled = false
    }

    /// When the caches are due to let go (nil: they have, or tiles are on their way and their arrival wakes the
    /// loop; it settles after them).
    func settleDue(tilesBusy: Bool) -> Double? { settled || tilesBusy ? nil : lastFrameMs + Self.settleMs }

    /// Whether they are due at `t`; when they are, they count as let go.
    mutating func settleIsDue(at t: Double, tilesBusy: Bool) -> Bool {
        guard let due = settleDue(tilesBusy: tilesBusy), t >= due else { return false }
        settled = true
        return true
    }
}
