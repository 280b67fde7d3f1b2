import CSDL2
import Foundation

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

/// Where this process's resident memory is, and its peak (`/proc/self/status`, one read, and glibc's `mallinfo2`), in KiB: what the
/// memory line accounts for beside the kiosk's own textures and pictures.
struct ResidentParts {
    /// What is resident now, and the most that ever was (0 where the kernel does not say).
    var resident = 0
    var peak = 0
    /// Mapped from files: the binary, the shared libraries (SDL, Mesa, FreeType, ICU in Foundation), fonts.
    var files = 0
    /// Anonymous: the heap, the threads' stacks, what libraries map for themselves.
    var anonymous = 0
    /// Shared memory (an X server's or a compositor's buffers).
    var shared = 0
    /// The heap: in use by the program, free but kept by the allocator, and in blocks mapped on their own.
    var heapInUse = 0
    var heapFree = 0
    var heapMapped = 0

    static func now() -> ResidentParts {
        var parts = ResidentParts()
        if let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let fields = line.split { $0 == " " || $0 == "\t" }
                guard fields.count >= 2, let kib = Int(fields[1]) else { continue }
                switch fields[0] {
                case "VmRSS:": parts.resident = kib
                case "VmHWM:": parts.peak = kib
                case "RssFile:": parts.files = kib
                case "RssAnon:": parts.anonymous = kib
                case "RssShmem:": parts.shared = kib
                default: break
                }
            }
        }
        let heap = mallinfo2()
        parts.heapInUse = Int(heap.uordblks) / 1024
        parts.heapFree = Int(heap.fordblks) / 1024
        parts.heapMapped = Int(heap.hblkhd) / 1024
        return parts
    }

    /// `files F KiB, anonymous A KiB (heap H in use, K free, M mapped alone), shared S KiB`.
    var description: String {
        "files \(files) KiB, anonymous \(anonymous) KiB (heap \(heapInUse) in use, \(heapFree) free, "
            + "\(heapMapped) mapped alone), shared \(shared) KiB"
    }
}
