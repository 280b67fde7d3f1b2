import Foundation

/// How the software renderer's plain copies of a picture onto the screen are made (`RowCopy`): which is fastest
/// depends on the machine (a CPU whose memory bandwidth is the limit gains a third by stores that bypass the
/// cache; one whose is not loses to glibc's `memcpy`, which picks its method per CPU), so it is measured on the
/// machine the kiosk runs on, not assumed.
enum CopyMethod: String, Sendable, CaseIterable {
    /// glibc's `memcpy`, row by row.
    case memcpy
    /// Rows stored past the cache (non-temporal stores) for a copy of `RowCopy.streamedBytes` or more.
    case streamed
    /// SDL's own blit (`SDL_BlitCopy`): only where `KIOSK_COPY` names it (it copies a row as `memcpy` does at
    /// best, and where the rows are not aligned with an 8-byte MMX loop, half as fast).
    case sdl

    /// The methods the kiosk measures.
    static let candidates: [CopyMethod] = [.memcpy, .streamed]
}

/// The measurement, made in the frames themselves: the first large batches of copies (`measuredBytes` or more:
/// a picture's screenful) take the candidates in turn, `run` batches in a row each, timed; the first of each run
/// is not counted (a method finds the cache as the other left it: `memcpy` after a streamed frame reads its
/// screen back from memory, which after its own frame it finds cached). Once each has had `trials`, the one with
/// the fastest batch (per byte: what else ran meanwhile only slows a copy down) makes every copy from then on,
/// and the choice is logged once. It costs no memory and no thread, and it times what the kiosk copies (its
/// tiles, its screen, its pans), not a stand-in. The pixels are the same whichever method makes them.
final class CopyCalibration {
    /// The method in use once measured or named (nil before).
    private(set) var measured: CopyMethod?
    /// Each candidate's fastest batch so far, in milliseconds per MiB, and how many were timed.
    private(set) var bestPerMiB: [CopyMethod: Double] = [:]
    private var timed: [CopyMethod: Int] = [:]
    private var turn = 0

    /// Batches of each candidate counted before the choice.
    static let trials = 6
    /// Batches a candidate makes in a row, the first of them not counted.
    static let run = 4
    /// From how many bytes a batch is timed: a fraction of a screen is too short to time.
    static let measuredBytes = 1 << 20

    /// The environment variable that names the method instead of measuring it (`memcpy`, `streamed`, `sdl`).
    static let override = "KIOSK_COPY"

    /// Takes the method `KIOSK_COPY` names, if it names one (logged); a name it does not know is logged and
    /// measured instead.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let named = environment[Self.override] else { return }
        guard let method = CopyMethod(rawValue: named) else {
            log(.warning, "\(Self.override)=\(named) is not memcpy, streamed or sdl; measuring instead")
            return
        }
        choose(method)
        log(.info, "copy: a picture's rows onto the screen by \(method.rawValue) (\(Self.override))")
    }

    /// Uses `method` from now on, whatever a measurement finds.
    func choose(_ method: CopyMethod) { measured = method }

    /// The method for a batch of `bytes`: the one chosen; else, for a batch large enough to time, the next
    /// candidate to try; else streamed (as before any measurement).
    func method(for bytes: Int) -> CopyMethod {
        if let measured { return measured }
        guard bytes >= Self.measuredBytes else { return .streamed }
        return CopyMethod.candidates[turn / Self.run % CopyMethod.candidates.count]
    }

    /// A batch of `bytes` made by `method` took `ms`: counted while measuring; the choice once every candidate
    /// has had its trials (returned, for the log).
    @discardableResult
    func record(_ method: CopyMethod, bytes: Int, ms: Double) -> CopyMethod? {
        guard measured == nil, bytes >= Self.measuredBytes, CopyMethod.candidates.contains(method) else { return nil }
        defer { turn += 1 }
        guard turn % Self.run != 0 else { return nil }
        let perMiB = ms * Double(1 << 20) / Double(bytes)
        bestPerMiB[method] = min(bestPerMiB[method] ?? .infinity, perMiB)
        timed[method, default: 0] += 1
        guard CopyMethod.candidates.allSatisfy({ timed[$0, default: 0] >= Self.trials }) else { return nil }
        let choice = Self.fastest(bestPerMiB)
        measured = choice
        log(.info, Self.describe(bestPerMiB))
        return choice
    }

    /// The method of `timings` that took least (`streamed` if none was measured).
    static func fastest(_ timings: [CopyMethod: Double]) -> CopyMethod {
        CopyMethod.allCases.filter { timings[$0] != nil }.min { timings[$0]! < timings[$1]! } ?? .streamed
    }

    /// The log line of a choice (`timings` per MiB): each candidate's fastest, per 1920x1080 screen.
    static func describe(_ timings: [CopyMethod: Double]) -> String {
        let screens = perScreen(timings)
        let each = CopyMethod.allCases.compactMap { m in
            screens[m].map { "\(m.rawValue) \(String(format: "%.2f", $0)) ms" }
        }
        return "copy: a picture's rows onto the screen by \(fastest(timings).rawValue), the fastest here of "
            + "\(each.joined(separator: ", ")) per 1920x1080 screen, measured in the first frames that copied one"
    }

    /// Timings per MiB as timings per 1920x1080 screen (8 MB of pixels).
    static func perScreen(_ perMiB: [CopyMethod: Double]) -> [CopyMethod: Double] {
        perMiB.mapValues { $0 * Double(1920 * 1080 * 4) / Double(1 << 20) }
    }
}
