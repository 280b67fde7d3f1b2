import EventLog
import ScrollEngine
import TouchInput

/// SDL's fingers and mouse as the scene's input: a touch's normalized position through the calibration and the
/// rotation to scene points, a fresh id for every touch, and the mouse as one more finger.
struct InputMapper {
    /// Each finger down: its id for the gesture controller, and where it was last (scene points).
    var fingers: [FingerKey: (id: Int64, point: Point)] = [:]
    var nextFingerID: Int64 = 1
    var mouseDown = false
    /// Where the mouse pointer is, in scene points (the wheel zooms about it).
    var mousePosition: Point = .zero
    /// How many Ctrl keys are held (the wheel zooms while one is).
    var controlKeys = 0
    /// How many Shift keys are held (Shift+Tab goes back).
    var shiftKeys = 0
    /// Fingers cancelled while down (a lift lost, a device gone), oldest first, `FingerKey.maximumDown` at most:
    /// SDL may go on sending a finger whose lift it lost, and those motions are not a new touch. Nothing more of
    /// such a finger reaches the scene until its next down, as UIKit sends nothing more for a cancelled touch;
    /// its up only forgets it.
    var lost: [FingerKey] = []

    /// The mouse's finger id for the gesture controller (touches count up from 1, so it is never one of theirs).
    static let mouseFinger = Int64.min

    /// A finger event at `now`: its id (a fresh one for every new touch: ids of lifted fingers are never
    /// reused while others are down) and its point in the scene; nil for a finger beyond `FingerKey.maximumDown`.
    mutating func finger(
        _ phase: EventLog.FingerPhase, _ key: FingerKey, x: Double, y: Double, calibration: Calibration,
        rotation: Rotation,
        sceneSize: Size, at now: Double
    ) -> InputEvent? {
        if let i = lost.firstIndex(of: key) {
            if phase != .motion { lost.remove(at: i) }
            if phase != .down { return nil }
        }
        if fingers[key] == nil, phase != .up, fingers.count >= FingerKey.maximumDown { return nil }
        let n = rotation.toScene(calibration.apply(Point(x: x, y: y)))
        let p = Point(x: n.x * sceneSize.width, y: n.y * sceneSize.height)
        let id = fingers[key]?.id ?? nextFingerID
        if fingers[key] == nil { nextFingerID += 1 }
        fingers[key] = phase == .up ? nil : (id, p)
        let kind: InputEvent.Kind = phase == .down ? .down : phase == .motion ? .move : .up
        return InputEvent(kind, finger: id, at: p, time: now)
    }

    /// The fingers `lost` (a device gone, a lift lost): each still down, cancelled where it last was (as UIKit
    /// cancels the touches of a gesture the system took).
    mutating func cancelFingers(where lost: (FingerKey) -> Bool, at now: Double) -> [InputEvent] {
        let keys = fingers.keys.filter(lost).sorted()
        forget(keys)
        return keys.compactMap { key in
            guard let finger = fingers.removeValue(forKey: key) else { return nil }
            return InputEvent(.cancel, finger: finger.id, at: finger.point, time: now)
        }
    }

    /// Fingers whose further motions and lift are not the scene's (`lost`): cancelled here or let go by a gate.
    mutating func forget(_ keys: [FingerKey]) {
        lost.removeAll { keys.contains($0) }
        lost.append(contentsOf: keys)
        lost.removeFirst(max(0, lost.count - FingerKey.maximumDown))
    }

    /// A Ctrl or Shift key went down or up.
    mutating func control(_ key: String, down: Bool) {
        if key.hasSuffix("Ctrl") { controlKeys = max(0, controlKeys + (down ? 1 : -1)) }
        if key.hasSuffix("Shift") { shiftKeys = max(0, shiftKeys + (down ? 1 : -1)) }
    }

    /// A window pixel as a scene point.
    static func scenePoint(pixel p: Point, physicalSize: Size, sceneSize: Size, rotation: Rotation) -> Point {
        guard physicalSize.width > 0, physicalSize.height > 0 else { return .zero }
        let n = rotation.toScene(Point(x: p.x / physicalSize.width, y: p.y / physicalSize.height))
        return Point(x: n.x * sceneSize.width, y: n.y * sceneSize.height)
    }
}

extension EventLog {
    /// The log's finger events as the kiosk hands them to the gesture controller (`InputMapper`: a fresh id for
    /// every touch), on a scene of `size` points without calibration or rotation, with the replayer's rules: an
    /// up for a finger that is not down is dropped, and a finger still down when the log ends is lifted at its
    /// last timestamp. The tests of the touch layer replay recordings through this, the kiosk's own mapping.
    public func touches(in size: Size) -> [InputEvent] {
        var mapper = InputMapper()
        var out: [InputEvent] = []
        for r in records {
            guard case .finger(let phase, let touchId, let fingerId, let x, let y, _, _, _) = r.event else { continue }
            let key = FingerKey(touchId: touchId, fingerId: fingerId)
            if phase == .up && mapper.fingers[key] == nil { continue }
            if let event = mapper.finger(
                phase, key, x: x, y: y, calibration: Calibration(), rotation: .none, sceneSize: size,
                at: r.timestamp)
            {
                out.append(event)
            }
        }
        let end = records.last?.timestamp ?? 0
        for finger in mapper.fingers.values.sorted(by: { $0.id < $1.id }) {
            out.append(InputEvent(.up, finger: finger.id, at: finger.point, time: end))
        }
        return out
    }
}
