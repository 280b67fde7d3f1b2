import EventLog
import Foundation
import ScrollEngine

/// A screen that takes over from the scenes (the installer's tools): every finger goes to it, it draws the
/// frame, and it says when it is over (then the kiosk quits).
public protocol ToolScreen: AnyObject {
    /// A finger event, `x` and `y` raw (as SDL reports them), at `ms`.
    func handle(_ phase: EventLog.FingerPhase, touchId: Int64, fingerId: Int64, x: Double, y: Double, at ms: Double)
    /// The clock moved to `ms`: what happened since, for the trace.
    func step(to ms: Double) -> [TraceEvent]
    var isOver: Bool { get }
    /// When it next has something to do by itself (it gives up), for a sleeping loop.
    var deadline: Double { get }
    /// Whether the next frame would differ from the last.
    var needsFrame: Bool { get }
    func drawList(size: Size, at ms: Double) -> [DrawCommand]
}

/// `kiosk --calibrate`: the wizard on screen. The target is drawn where it is on the physical screen (whatever
/// `--rotate` says), large enough to find from a ladder: a ring with a crosshair, which pulses and turns green
/// while a finger is on it. Five dots at the bottom say how far the round is: taken, this one, still to come.
public final class CalibrationScreen: ToolScreen {
    public let wizard: CalibrationWizard
    let rotation: Rotation
    /// The kiosk's first language: the instruction's.
    let language: String
    /// The clock, and the seconds the last frame showed (a frame is drawn when they change).
    var now = 0.0
    var shownSeconds: Int?

    init(screen: Size, rotation: Rotation, language: String, at ms: Double) {
        wizard = CalibrationWizard(screen: screen, at: ms)
        self.rotation = rotation
        self.language = language
        now = ms
    }

    public func handle(
        _ phase: EventLog.FingerPhase, touchId: Int64, fingerId: Int64, x: Double, y: Double, at ms: Double
    ) {
        wizard.handle(phase, touchId: touchId, fingerId: fingerId, x: x, y: y, at: ms)
    }

    public var isOver: Bool { wizard.outcome != .running }
    /// When it gives up, or sooner when its countdown next changes.
    public var deadline: Double { ToolWords.nextTick(until: wizard.deadline, at: now) }
    public var needsFrame: Bool {
        wizard.isPressed || ToolWords.seconds(until: wizard.deadline, at: now) != shownSeconds
    }

    /// Trace events of the wizard's steps (docs/deploying.md): `calibrationTarget`, `calibrationRound`,
    /// `calibrationDone`.
    public func step(to ms: Double) -> [TraceEvent] {
        now = max(now, ms)
        wizard.step(to: ms)
        return wizard.takeEvents().map { event in
            switch event {
            case .target(let index, let raw):
                TraceEvent(.calibrationTarget(index: index, raw: raw))
            case .round(let round, let reason):
                TraceEvent(.calibrationRound(round: round, reason: reason))
            case .done(let m, let residual):
                TraceEvent(.calibrationDone(matrix: m.values, residual: residual))
            }
        }
    }

    /// The frame at `ms` on a scene of `size` (the physical screen turned by `--rotate`).
    public func drawList(size: Size, at ms: Double) -> [DrawCommand] {
        let unit = min(size.width, size.height)
        func place(_ p: Point) -> Point {
            let n = rotation.toScene(p)
            return Point(x: n.x * size.width, y: n.y * size.height)
        }
        let background = Color(red: 0.06, green: 0.06, blue: 0.08, alpha: 1)
        let white = Color(red: 1, green: 1, blue: 1, alpha: 1)
        let green = Color(red: 0.3, green: 0.85, blue: 0.4, alpha: 1)
        let grey = Color(red: 0.35, green: 0.35, blue: 0.4, alpha: 1)
        var list: [DrawCommand] = [.fill(Rect(origin: .zero, size: size), background)]
        let c = place(CalibrationWizard.targets[min(wizard.index, 4)])
        let pressed = wizard.isPressed
        // The ring breathes while the finger is down: held long enough is when it stops mattering.
        let pulse = pressed ? 1 + 0.15 * sin(ms / 80) : 1
        let r = unit * Self.ringRadius * pulse
        let colour = pressed ? green : white
        list.append(.dot(center: c, radius: r, colour))
        list.append(.dot(center: c, radius: r - max(3, unit * 0.006), background))
        let arm = unit * Self.crosshairLength
        let thick = max(2, unit * 0.004)
        list.append(.fill(Rect(x: c.x - arm, y: c.y - thick / 2, width: 2 * arm, height: thick), colour))
        list.append(.fill(Rect(x: c.x - thick / 2, y: c.y - arm, width: thick, height: 2 * arm), colour))
        list.append(.dot(center: c, radius: max(3, unit * 0.008), Color(red: 0.95, green: 0.3, blue: 0.25, alpha: 1)))
        // What to do, and the seconds left, between the top targets and the middle one.
        let seconds = ToolWords.seconds(until: wizard.deadline, at: ms)
        shownSeconds = seconds
        list += ToolWords.commands(
            .calibration(target: min(wizard.index, 4) + 1, of: 5), language: language, seconds: seconds, size: size,
            y: size.height * 0.32)
        // Progress: five dots near the bottom of the physical screen, centred.
        for i in 0..<5 {
            let p = place(Point(x: 0.5 + (Double(i) - 2) * 0.04, y: 0.96))
            let done = i < wizard.index
            list.append(.dot(center: p, radius: unit * 0.012, done ? green : i == wizard.index ? white : grey))
        }
        return list
    }

    /// The ring's radius and the crosshair's half length, as fractions of the screen's shorter side.
    static let ringRadius = 0.05
    static let crosshairLength = 0.09
}
