import ScrollEngine
import TouchInput

extension EventLog {
    /// The log's finger events as the touch layer's input, on a scene of `size` points (a finger at normalised
    /// (x, y) is at (x·w, y·h)), with SDL's finger rules: an up for a finger that is not down is dropped, and
    /// a finger still down when the log ends is lifted at the last timestamp. Finger ids are (touchId, fingerId).
    public func touches(in size: Size) -> [InputEvent] {
        var out: [InputEvent] = []
        var down: [Int64: Point] = [:]
        var ids: [FingerKey: Int64] = [:]
        func id(_ key: FingerKey) -> Int64 {
            if let existing = ids[key] { return existing }
            let new = Int64(ids.count + 1)
            ids[key] = new
            return new
        }
        for r in records {
            guard case .finger(let phase, let touchId, let fingerId, let x, let y, _, _, _) = r.event else { continue }
            let finger = id(FingerKey(touchId: touchId, fingerId: fingerId))
            let p = Point(x: x * size.width, y: y * size.height)
            switch phase {
            case .down:
                down[finger] = p
                out.append(InputEvent(.down, finger: finger, at: p, time: r.timestamp))
            case .motion:
                down[finger] = p
                out.append(InputEvent(.move, finger: finger, at: p, time: r.timestamp))
            case .up:
                guard down.removeValue(forKey: finger) != nil else { continue }
                out.append(InputEvent(.up, finger: finger, at: p, time: r.timestamp))
            }
        }
        let end = records.last?.timestamp ?? 0
        for (finger, p) in down.sorted(by: { $0.key < $1.key }) {
            out.append(InputEvent(.up, finger: finger, at: p, time: end))
        }
        return out
    }
}

/// A finger as SDL names it: the touch device and the finger on it.
public struct FingerKey: Hashable, Sendable {
    public var touchId: Int64
    public var fingerId: Int64
    public init(touchId: Int64, fingerId: Int64) {
        self.touchId = touchId
        self.fingerId = fingerId
    }
}
