import EventLog
import ScrollEngine
import TouchInput

/// SDL's fingers and mouse as the scene's input: a touch's normalized position through the calibration and the
/// rotation to scene points, a fresh id for every touch, and the mouse as one more finger.
struct InputMapper {
    var fingerIDs: [FingerKey: Int64] = [:]
    var nextFingerID: Int64 = 1
    var mouseDown = false
    /// Where the mouse pointer is, in scene points (the wheel zooms about it).
    var mousePosition: Point = .zero
    /// How many Ctrl keys are held (the wheel zooms while one is).
    var controlKeys = 0

    /// The mouse's finger id for the gesture controller (touches count up from 1, so it is never one of theirs).
    static let mouseFinger = Int64.min

    /// A finger event at `now`: its id (a fresh one for every new touch: ids of lifted fingers are never
    /// reused while others are down) and its point in the scene.
    mutating func finger(
        _ phase: EventLog.FingerPhase, _ key: FingerKey, x: Double, y: Double, calibration: Calibration,
        rotation: Rotation,
        sceneSize: Size, at now: Double
    ) -> InputEvent {
        let id = fingerIDs[key] ?? nextFingerID
        if fingerIDs[key] == nil {
            fingerIDs[key] = id
            nextFingerID += 1
        }
        let n = rotation.toScene(calibration.apply(Point(x: x, y: y)))
        let p = Point(x: n.x * sceneSize.width, y: n.y * sceneSize.height)
        let kind: InputEvent.Kind = phase == .down ? .down : phase == .motion ? .move : .up
        if phase == .up { fingerIDs[key] = nil }
        return InputEvent(kind, finger: id, at: p, time: now)
    }

    /// A Ctrl key went down or up.
    mutating func control(_ key: String, down: Bool) {
        if key.hasSuffix("Ctrl") { controlKeys = max(0, controlKeys + (down ? 1 : -1)) }
    }

    /// A window pixel as a scene point.
    static func scenePoint(pixel p: Point, physicalSize: Size, sceneSize: Size, rotation: Rotation) -> Point {
        guard physicalSize.width > 0, physicalSize.height > 0 else { return .zero }
        let n = rotation.toScene(Point(x: p.x / physicalSize.width, y: p.y / physicalSize.height))
        return Point(x: n.x * sceneSize.width, y: n.y * sceneSize.height)
    }
}
