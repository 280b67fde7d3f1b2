import EventLog

/// What `kiosk --stats` prints (docs/operations.md): visits per day, the median and 90th-percentile duration,
/// scenes by time spent, hotspots by taps.
public struct VisitStatistics: Equatable, Sendable {
    public var visits = 0
    public var days: [String: Int] = [:]
    public var scenes: [String: Int] = [:]
    public var hotspots: [String: Int] = [:]
    public internal(set) var medianMs = 0
    public internal(set) var p90Ms = 0

    /// Every visit's duration, for the median and the 90th percentile (8 bytes a visit: a year of a busy
    /// kiosk's visits is read as a stream, not held).
    private var durations: [Int] = []

    public init(_ list: [Visit]) {
        for v in list { add(v) }
        finish()
    }

    /// None yet: `add` each, then `finish`.
    public init() {}

    /// One more visit counted.
    public mutating func add(_ v: Visit) {
        visits += 1
        days[v.day, default: 0] += 1
        for (k, ms) in v.scenes { scenes[k, default: 0] += ms }
        for (k, n) in v.hotspots { hotspots[k, default: 0] += n }
        durations.append(v.durationMs)
    }

    /// The durations' median and 90th percentile, from the visits added.
    public mutating func finish() {
        durations.sort()
        guard !durations.isEmpty else { return }
        let n = durations.count
        medianMs = n % 2 == 1 ? durations[n / 2] : (durations[n / 2 - 1] + durations[n / 2]) / 2
        // The nearest rank: the smallest duration that at least 90 % of the visits do not exceed.
        p90Ms = durations[max(0, Int((0.9 * Double(n)).rounded(.up)) - 1)]
    }

    /// `--json`: one object.
    public var json: String {
        return "{\"visits\": \(visits), \"days\": \(jsonObject(days)), \"scenes\": \(jsonObject(scenes)), "
            + "\"hotspots\": \(jsonObject(hotspots)), \"durationMs\": {\"median\": \(medianMs), \"p90\": \(p90Ms)}}"
    }

    /// For a person: a table.
    public var text: String {
        var lines = ["visits: \(visits)"]
        guard visits > 0 else { return lines[0] + "\n" }
        for (day, n) in days.sorted(by: { $0.key < $1.key }) { lines.append("  \(day)  \(n)") }
        lines.append("duration: median \(Self.duration(medianMs)), 90th percentile \(Self.duration(p90Ms))")
        let total = max(1, scenes.values.reduce(0, +))
        lines.append("scenes by time spent:")
        let width = (scenes.keys.map(\.count) + hotspots.keys.map(\.count)).max() ?? 0
        func pad(_ s: String) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
        for (scene, ms) in scenes.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            lines.append("  \(pad(scene))  \(Self.duration(ms))  \(ms * 100 / total) %")
        }
        lines.append("hotspots by taps:")
        if hotspots.isEmpty { lines.append("  (none)") }
        for (hotspot, n) in hotspots.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            lines.append("  \(pad(hotspot))  \(n)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `48.2 s`, `3 min 05 s`, `2 h 10 min`.
    static func duration(_ ms: Int) -> String {
        let s = Double(ms) / 1000
        if s < 60 { return "\((s * 10).rounded() / 10) s" }
        let whole = Int(s.rounded())
        if whole < 3600 { return "\(whole / 60) min \(whole % 60 < 10 ? "0" : "")\(whole % 60) s" }
        return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }
}
