/// The time from a finger to the panel (docs/operations.md): for each finger event, from its time (the kernel's,
/// on the kiosk's clock; a replayed one's, the log's) to the return of the first present after the kiosk read it,
/// the frame that first can show it. Pure: the caller says both times.
public struct TouchLatency: Sendable, Equatable {
    /// Finger events read since the last present: their times, ms.
    private var waiting: [Double] = []
    /// The latest samples, ms (a ring of at most `window`): the quantiles are over them.
    private var recent: [Double] = []
    private var next = 0
    /// Every sample since the start: how many, and their sum in ms.
    public private(set) var count = 0
    public private(set) var sumMs = 0.0

    /// The quantiles are over this many of the latest finger events (at 60 Hz of motion, about 17 s of touching).
    public static let window = 1024
    /// A frame that shows many events at once (a flood of motion while a frame was long) counts each; beyond this
    /// many waiting, the oldest are dropped, so memory stays bounded whatever arrives.
    static let waitingLimit = 256

    public init() {}

    /// A finger event the kiosk read, with its time.
    public mutating func touched(at ms: Double) {
        if waiting.count >= Self.waitingLimit { waiting.removeFirst() }
        waiting.append(ms)
    }

    /// A present returned at `ms`: each finger event read before it is measured.
    public mutating func presented(at ms: Double) {
        for touched in waiting {
            let sample = max(0, ms - touched)
            count += 1
            sumMs += sample
            if recent.count < Self.window {
                recent.append(sample)
            } else {
                recent[next] = sample
            }
            next = (next + 1) % Self.window
        }
        waiting.removeAll(keepingCapacity: true)
    }

    /// The `q` quantile (0...1) of the latest samples in ms, by nearest rank; nil before any.
    public func quantileMs(_ q: Double) -> Double? {
        guard !recent.isEmpty else { return nil }
        let sorted = recent.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    /// One line for the log: `touch to present: p50 8.1 ms, p95 14.3 ms over 532 finger events`; nil before any.
    public var summary: String? {
        guard let p50 = quantileMs(0.5), let p95 = quantileMs(0.95) else { return nil }
        func ms(_ v: Double) -> String { String(Double((v * 10).rounded()) / 10) }
        return "touch to present: p50 \(ms(p50)) ms, p95 \(ms(p95)) ms over \(count) finger events"
    }
}
