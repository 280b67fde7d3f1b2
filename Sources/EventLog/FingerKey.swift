/// A finger as SDL names it: the touch device and the finger on it.
public struct FingerKey: Hashable, Sendable, Comparable {
    public var touchId: Int64
    public var fingerId: Int64
    public init(touchId: Int64, fingerId: Int64) {
        self.touchId = touchId
        self.fingerId = fingerId
    }

    /// The most fingers down at once, over every touch device: more than the largest panels report (60 touch
    /// points, 3M's C4667PW data sheet; ten is usual). A finger that comes down beyond it is not a hand's and is
    /// ignored until it lifts, so a device or a log that never lifts its fingers cannot grow the kiosk's memory
    /// or its gesture work without bound.
    public static let maximumDown = 64

    /// By device, then finger: the order in which fingers cancelled together are handed on.
    public static func < (a: FingerKey, b: FingerKey) -> Bool { (a.touchId, a.fingerId) < (b.touchId, b.fingerId) }
}
