import CSDL2
import Foundation

/// The most this process ever had resident, in KiB (`VmHWM` of `/proc/self/status`), 0 where there is none.
func peakResidentKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// This process's resident memory in KiB (`/proc/self/statm`), 0 where there is none.
func residentKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// CLOCK_MONOTONIC in microseconds (systemd's `MONOTONIC_USEC=` with `RELOADING=1`).
func monotonicMicroseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
}

/// Milliseconds since `start`, a reading of `SDL_GetPerformanceCounter`.
func msSince(_ start: UInt64) -> Double {
    Double(SDL_GetPerformanceCounter() - start) * 1000 / Double(SDL_GetPerformanceFrequency())
}
