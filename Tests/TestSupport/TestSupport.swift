import Testing

/// `a` within `tolerance` of `b`, with both in the message when not.
public func expectClose(
    _ a: Double, _ b: Double, _ tolerance: Double, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        abs(a - b) <= tolerance, "\(a) is not within \(tolerance) of \(b). \(comment?.rawValue ?? "")",
        sourceLocation: sourceLocation)
}

/// A small deterministic generator (SplitMix64) for property and fuzz tests: a seed replays a failure.
public struct SplitMix: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    public mutating func range(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }
    public mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
