/// A finger as SDL names it: the touch device and the finger on it.
public struct FingerKey: Hashable, Sendable {
    public var touchId: Int64
    public var fingerId: Int64
    public init(touchId: Int64, fingerId: Int64) {
        self.touchId = touchId
        self.fingerId = fingerId
    }
}
