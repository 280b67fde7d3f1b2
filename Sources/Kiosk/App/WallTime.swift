/// The wall clock as the host read it, handed to the app as data with each frame (the app reads no clock): the
/// Unix time at the kiosk's time 0, so that the wall clock at kiosk time `ms` is `unix(at: ms)`, and whether it
/// can be trusted (docs/operations.md, an honest clock).
public struct WallTime: Equatable, Sendable {
    public var unixAtKioskZero: Double
    public var isSynchronized: Bool

    public init(unixAtKioskZero: Double, isSynchronized: Bool = true) {
        self.unixAtKioskZero = unixAtKioskZero
        self.isSynchronized = isSynchronized
    }

    /// The wall clock (Unix seconds) at `ms` on the kiosk's clock.
    public func unix(at ms: Double) -> Double { unixAtKioskZero + ms / 1000 }
}
