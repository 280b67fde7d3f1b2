import EventLog
import Foundation
import ScrollEngine

/// `kiosk --touch-test` (docs/deploying.md): every finger drawn where the kiosk maps it (the calibration in effect,
/// then `--rotate`), as a ring with a trail of its last half second and its id; a crosshair at the last position;
/// the number of fingers down and a frame counter at the top. It ends after 30 s without a touch.
final class TouchTestScreen: ToolScreen {
    struct Finger {
        var id: Int
        var trail: [(t: Double, p: Point)]
    }

    let calibration: Calibration
    let rotation: Rotation
    var fingers: [[Int64]: Finger] = [:]
    var nextID = 1
    var last: Point?
    var lastTouch: Double
    public private(set) var frames = 0
    /// `touchTest` trace events not yet taken: the number of fingers down, each time it changes.
    var counts: [Int] = []

    /// The trail's length (docs/deploying.md) and how long it waits for a touch before it ends.
    static let trailMs = 500.0
    static let idleTimeoutMs = 30_000.0

    /// The kiosk's first language (the instruction's), the clock, and the seconds the last frame showed.
    let language: String
    var now: Double
    var shownSeconds: Int?

    init(calibration: Calibration, rotation: Rotation, language: String, at ms: Double) {
        self.calibration = calibration
        self.rotation = rotation
        self.language = language
        lastTouch = ms
        now = ms
    }

    var fingersDown: Int { fingers.count }
    /// When it ends, or sooner when its countdown next changes.
    public var deadline: Double { ToolWords.nextTick(until: lastTouch + Self.idleTimeoutMs, at: now) }
    public private(set) var isOver = false
    /// A trail fades for half a second after the last move; the frame counter counts frames drawn; the countdown
    /// changes every second.
    public var needsFrame: Bool {
        !fingers.isEmpty || ToolWords.seconds(until: lastTouch + Self.idleTimeoutMs, at: now) != shownSeconds
    }

    public func handle(
        _ phase: EventLog.FingerPhase, touchId: Int64, fingerId: Int64, x: Double, y: Double, at ms: Double
    ) {
        lastTouch = ms
        let key = [touchId, fingerId]
        let p = rotation.toScene(calibration.apply(Point(x: x, y: y)))
        switch phase {
        case .down:
            fingers[key] = Finger(id: nextID, trail: [(ms, p)])
            nextID += 1
            counts.append(fingers.count)
        case .motion:
            fingers[key]?.trail.append((ms, p))
        case .up:
            if fingers.removeValue(forKey: key) != nil { counts.append(fingers.count) }
        }
        last = p
    }

    /// `touchTest` events (the fingers down, each time it changes); over after 30 s without a touch.
    public func step(to ms: Double) -> [TraceEvent] {
        now = max(now, ms)
        if ms - lastTouch >= Self.idleTimeoutMs { isOver = true }
        defer { counts.removeAll() }
        return counts.map { TraceEvent(.touchTest(fingers: $0)) }
    }

    /// The frame at `ms` on a scene of `size`.
    public func drawList(size: Size, at ms: Double) -> [DrawCommand] {
        frames += 1
        let unit = min(size.width, size.height)
        let background = Color(red: 0.06, green: 0.06, blue: 0.08, alpha: 1)
        let white = Color(red: 1, green: 1, blue: 1, alpha: 1)
        let accent = Color(red: 1, green: 0.75, blue: 0.2, alpha: 1)
        var list: [DrawCommand] = [.fill(Rect(origin: .zero, size: size), background)]
        if let last {
            let c = Point(x: last.x * size.width, y: last.y * size.height)
            let thin = max(1, unit * 0.002)
            let grey = Color(red: 0.5, green: 0.5, blue: 0.55, alpha: 1)
            list.append(.fill(Rect(x: 0, y: c.y - thin / 2, width: size.width, height: thin), grey))
            list.append(.fill(Rect(x: c.x - thin / 2, y: 0, width: thin, height: size.height), grey))
        }
        let radius = unit * 0.06
        for finger in fingers.values.sorted(by: { $0.id < $1.id }) {
            for (t, p) in finger.trail where ms - t <= Self.trailMs {
                let fade = max(0.1, 1 - (ms - t) / Self.trailMs)
                list.append(
                    .dot(
                        center: Point(x: p.x * size.width, y: p.y * size.height), radius: unit * 0.01,
                        Color(red: 1, green: 0.75, blue: 0.2, alpha: fade)))
            }
            guard let p = finger.trail.last?.p else { continue }
            let c = Point(x: p.x * size.width, y: p.y * size.height)
            list.append(.dot(center: c, radius: radius, accent))
            list.append(.dot(center: c, radius: radius - max(3, unit * 0.008), background))
            list += SegmentDigits.draw(
                finger.id, at: Point(x: c.x + radius, y: c.y - radius * 1.6), height: unit * 0.05, white)
        }
        // What to do and the seconds left, near the bottom.
        let seconds = ToolWords.seconds(until: lastTouch + Self.idleTimeoutMs, at: ms)
        shownSeconds = seconds
        list += ToolWords.commands(.touchTest, language: language, seconds: seconds, size: size, y: size.height - 52)
        // At the top: fingers down (large), and the frame counter (small, grey).
        list += SegmentDigits.draw(
            fingers.count, at: Point(x: unit * 0.04, y: unit * 0.04), height: unit * 0.08, accent)
        list += SegmentDigits.draw(
            frames, at: Point(x: unit * 0.16, y: unit * 0.04), height: unit * 0.035,
            Color(red: 0.5, green: 0.5, blue: 0.55, alpha: 1))
        // Trails fade: drop what is past them.
        for key in fingers.keys { fingers[key]?.trail.removeAll { ms - $0.t > Self.trailMs } }
        return list
    }
}

/// Digits drawn as seven segments (there is no text library): enough for ids and counts.
enum SegmentDigits {
    /// Which of the segments a b c d e f g each digit lights (a top, then clockwise, g the middle).
    static let segments: [[Bool]] = [
        "1111110", "0110000", "1101101", "1111001", "0110011", "1011011", "1011111", "1110000", "1111111", "1111011",
    ].map { $0.map { $0 == "1" } }

    /// The commands for `number` with its top-left corner at `origin`, `height` tall.
    static func draw(_ number: Int, at origin: Point, height: Double, _ color: Color) -> [DrawCommand] {
        let w = height * 0.55
        let t = max(1, height * 0.12)
        var list: [DrawCommand] = []
        for (i, ch) in String(max(0, number)).enumerated() {
            guard let d = ch.wholeNumberValue else { continue }
            let x = origin.x + Double(i) * (w + t * 1.5)
            let y = origin.y
            let h = height / 2
            let rects = [
                Rect(x: x, y: y, width: w, height: t), Rect(x: x + w - t, y: y, width: t, height: h),
                Rect(x: x + w - t, y: y + h, width: t, height: h), Rect(x: x, y: y + height - t, width: w, height: t),
                Rect(x: x, y: y + h, width: t, height: h), Rect(x: x, y: y, width: t, height: h),
                Rect(x: x, y: y + h - t / 2, width: w, height: t),
            ]
            for (on, r) in zip(segments[d], rects) where on { list.append(.fill(r, color)) }
        }
        return list
    }
}
