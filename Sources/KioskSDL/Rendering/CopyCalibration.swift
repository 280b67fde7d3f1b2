import CCopyRows
import CSDL2
import Foundation

/// How the software renderer's plain copies of a picture onto the screen are made (`RowCopy`): which is fastest
/// depends on the machine (a CPU whose memory bandwidth is the limit gains a third by stores that bypass the
/// cache; one whose is not loses to glibc's `memcpy`, which picks its method per CPU), so it is measured on the
/// machine the kiosk runs on, at start, not assumed.
enum CopyMethod: String, Sendable, CaseIterable {
    /// glibc's `memcpy`, row by row.
    case memcpy
    /// Rows stored past the cache (non-temporal stores) for a copy of `RowCopy.streamedBytes` or more.
    case streamed
    /// SDL's own blit (`SDL_BlitCopy`).
    case sdl
}

/// The measurement: each method copies a screen of pixels, from a source one pixel off the alignment (as a pan
/// by whole pixels is three times in four), in alternating rounds; each method's fastest copy counts (what
/// else ran meanwhile only slows a copy down). On a thread of its own, so the first frame does not wait; until
/// it ends the copies stream, as they did before it.
final class CopyCalibration: @unchecked Sendable {
    private let lock = NSLock()
    private var chosen: CopyMethod?
    /// Chosen by `choose` (the environment, a test): the measurement does not replace it.
    private var isForced = false

    /// The method measured fastest (`streamed` while the measurement runs).
    var method: CopyMethod {
        lock.lock()
        defer { lock.unlock() }
        return chosen ?? .streamed
    }

    /// The method, once measured (nil before).
    var measured: CopyMethod? {
        lock.lock()
        defer { lock.unlock() }
        return chosen
    }

    /// Rounds of the measurement: enough for each method's fastest to be its own, a few milliseconds in all.
    static let rounds = 5

    /// Uses `method` from now on, whatever a measurement finds.
    func choose(_ method: CopyMethod) {
        lock.lock()
        chosen = method
        isForced = true
        lock.unlock()
    }

    /// The environment variable that names the method instead of measuring it (`memcpy`, `streamed`, `sdl`).
    static let override = "KIOSK_COPY"

    /// Measures on a thread copies of `width` x `height` pixels of `format`, then logs the choice once; or takes
    /// the method `KIOSK_COPY` names.
    func start(
        width: Int, height: Int, format: UInt32, environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        if let named = environment[Self.override] {
            guard let method = CopyMethod(rawValue: named) else {
                log(.warning, "\(Self.override)=\(named) is not memcpy, streamed or sdl; measuring instead")
                return start(width: width, height: height, format: format, environment: [:])
            }
            choose(method)
            log(.info, "copy: a picture's rows onto the screen by \(method.rawValue) (\(Self.override))")
            return
        }
        let t = Thread { [self] in
            SignalListener.leaveSignalsToTheMainThread()
            let result = Self.measure(width: width, height: height, format: format, rounds: Self.rounds)
            lock.lock()
            if !isForced { chosen = Self.fastest(result) }
            lock.unlock()
            log(.info, Self.describe(result, width: width, height: height))
        }
        t.name = "kiosk-copy-calibration"
        t.start()
    }

    /// The method of `timings` that took least (`streamed` if none was measured).
    static func fastest(_ timings: [CopyMethod: Double]) -> CopyMethod {
        CopyMethod.allCases.filter { timings[$0] != nil }.min { timings[$0]! < timings[$1]! } ?? .streamed
    }

    static func describe(_ timings: [CopyMethod: Double], width: Int, height: Int) -> String {
        let each = CopyMethod.allCases.compactMap { m in
            timings[m].map { "\(m.rawValue) \(String(format: "%.2f", $0)) ms" }
        }
        return "copy: a picture's rows onto the screen by \(fastest(timings).rawValue), the fastest here of "
            + "\(each.joined(separator: ", ")) for a \(width)x\(height) screen"
    }

    /// Each method's fastest copy of a `width` x `height` screen (ms), over `rounds` alternating rounds.
    static func measure(width: Int, height: Int, format: UInt32, rounds: Int) -> [CopyMethod: Double] {
        let pitch = width * 4
        let bytes = pitch * height
        guard width > 0, height > 0,
            let source = SDL_CreateRGBSurfaceWithFormat(0, Int32(width + 1), Int32(height), 32, format),
            let screen = SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), 32, format)
        else { return [:] }
        defer {
            SDL_FreeSurface(source)
            SDL_FreeSurface(screen)
        }
        memset(source.pointee.pixels, 0x5A, Int(source.pointee.pitch) * height)
        SDL_SetSurfaceBlendMode(source, SDL_BLENDMODE_NONE)
        let from = source.pointee.pixels + 4
        let to = screen.pointee.pixels!
        var best: [CopyMethod: Double] = [:]
        for _ in 0..<rounds {
            for method in CopyMethod.allCases {
                let start = SDL_GetPerformanceCounter()
                switch method {
                case .memcpy, .streamed:
                    kiosk_copy_rows(
                        to, Int(screen.pointee.pitch), from, Int(source.pointee.pitch), pitch, height,
                        method == .streamed && bytes >= RowCopy.streamedBytes ? 1 : 0)
                case .sdl:
                    var src = SDL_Rect(x: 1, y: 0, w: Int32(width), h: Int32(height))
                    SDL_UpperBlit(source, &src, screen, nil)
                }
                let ms = Double(SDL_GetPerformanceCounter() - start) * 1000 / Double(SDL_GetPerformanceFrequency())
                best[method] = min(best[method] ?? .infinity, ms)
            }
        }
        return best
    }
}

/// The start's measurement of a `width` x `height` screen's copies, for the benchmark: the method the kiosk
/// would choose here, and each method's fastest copy (ms).
public func measureRowCopies(width: Int, height: Int) -> (choice: String, milliseconds: [String: Double]) {
    let timings = CopyCalibration.measure(
        width: width, height: height, format: SDL_PIXELFORMAT_XRGB8888.rawValue, rounds: CopyCalibration.rounds)
    return (
        CopyCalibration.fastest(timings).rawValue,
        Dictionary(uniqueKeysWithValues: timings.map { ($0.key.rawValue, $0.value) })
    )
}
