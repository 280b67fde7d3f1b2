import CSDL2
import CSDL2Image
import Foundation
import Kiosk

/// Decodes tiles on a few threads. The render thread says which tiles it wants (replacing what it wanted
/// before: a queued tile no longer wanted is never decoded) and takes the decoded ones each frame; a tile that
/// was decoding when it stopped being wanted is freed, never uploaded. At most `maximumDone` decoded tiles wait
/// to be taken: the workers do not run ahead of the uploads.
final class TileWorkers: @unchecked Sendable {
    let condition = NSCondition()
    var wanted: [(TileKey, any TileSource)] = []
    /// Every tile of the latest request, queued or decoding.
    var stillWanted: Set<TileKey> = []
    var inFlight: Set<TileKey> = []
    var done: [(TileKey, SurfaceBox)] = []
    var stopping = false
    var threads: [Thread] = []
    /// Turns a decoded surface into what a texture is made from (format, turn), on the worker's thread.
    let prepare: @Sendable (UnsafeMutablePointer<SDL_Surface>) -> UnsafeMutablePointer<SDL_Surface>?
    /// Decoded tiles dropped because nothing wanted them any more (for tests and the log).
    private(set) var cancelled = 0
    static let maximumDone = 8
    /// The workers' nice value (the frame loop runs at 0).
    static let niceness: Int32 = 10
    /// Workers at most, whatever the board: what they hold (a tile each, and `maximumDone`) stays small.
    static let maximumCount = 3

    /// How many workers for `cores` CPUs: one core is the frame loop's own. A worker on its core takes it
    /// from the frame loop for a millisecond or more at a time, nice value or not (on the 2-core machine here,
    /// two workers cost 12 to 23 frames of two tours a millisecond or more of preemption each, one worker 0 to 1,
    /// and the last tile after each double tap came no later: the uploads set the pace, not the decoding).
    static func count(cores: Int) -> Int { max(1, min(maximumCount, cores - 1)) }

    /// The CPUs this process may run on: its affinity (as `taskset` or systemd's `CPUAffinity=` set it), which
    /// `ProcessInfo.activeProcessorCount` does not read here; the kernel lists it in `/proc/self/status`.
    static func availableCores() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else {
            return ProcessInfo.processInfo.activeProcessorCount
        }
        // A hexadecimal mask in comma-separated groups of 32 CPUs.
        let mask = line.dropFirst("Cpus_allowed:".count).compactMap(\.hexDigitValue)
        return max(1, mask.reduce(0) { $0 + $1.nonzeroBitCount })
    }

    init(
        count: Int,
        prepare: @escaping @Sendable (UnsafeMutablePointer<SDL_Surface>) -> UnsafeMutablePointer<SDL_Surface>?
    ) {
        self.prepare = prepare
        for i in 0..<count {
            let t = Thread { [unowned self] in
                // Signals are the main thread's: there they end its sleep.
                var stops = sigset_t()
                sigemptyset(&stops)
                sigaddset(&stops, SIGTERM)
                sigaddset(&stops, SIGINT)
                pthread_sigmask(SIG_BLOCK, &stops, nil)
                // Decoding yields to the frame loop: on a two-core board it must not take the loop's core.
                // (Linux sets a thread's own nice value with `who` 0.)
                setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness)
                self.work()
            }
            t.name = "kiosk-tiles-\(i)"
            t.start()
            threads.append(t)
        }
    }

    /// Called on the worker's thread after each tile it decoded (the frame loop wakes); set with `notify`.
    private var onDone: (@Sendable () -> Void)?

    func notify(_ f: @escaping @Sendable () -> Void) {
        condition.lock()
        onDone = f
        condition.unlock()
    }

    /// The tiles wanted now, most wanted first; those already decoding are not asked twice.
    func want(_ list: [(TileKey, any TileSource)]) {
        condition.lock()
        stillWanted = Set(list.map(\.0))
        wanted = list.filter { !inFlight.contains($0.0) }
        // What waits to be taken and is no longer wanted goes now.
        done = done.filter { key, box in
            if stillWanted.contains(key) { return true }
            if let s = box.surface { SDL_FreeSurface(s) }
            cancelled += 1
            return false
        }
        condition.broadcast()
        condition.unlock()
    }

    /// Takes up to `limit` decoded tiles, oldest first.
    func takeDone(limit: Int = .max) -> [(TileKey, SurfaceBox)] {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        let taken = Array(done.prefix(limit))
        done.removeFirst(taken.count)
        return taken
    }

    /// Whether decoded tiles wait to be taken (uploaded by a frame): nothing else wakes the loop for them.
    var hasDone: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !done.isEmpty
    }

    /// Whether anything is queued, decoding or waiting to be taken.
    var isBusy: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !wanted.isEmpty || !inFlight.isEmpty || !done.isEmpty
    }

    func work() {
        while true {
            condition.lock()
            while (wanted.isEmpty || done.count >= Self.maximumDone) && !stopping { condition.wait() }
            if stopping {
                condition.unlock()
                return
            }
            let (key, source) = wanted.removeFirst()
            inFlight.insert(key)
            condition.unlock()
            var surface = source.surface(level: key.level, column: key.column, row: key.row)
            if let decoded = surface {
                surface = prepare(decoded)
                SDL_FreeSurface(decoded)
            }
            condition.lock()
            inFlight.remove(key)
            var notify: (@Sendable () -> Void)?
            if stillWanted.contains(key) || surface == nil {
                done.append((key, SurfaceBox(surface: surface)))
                notify = onDone
            } else {
                if let surface { SDL_FreeSurface(surface) }
                cancelled += 1
            }
            condition.unlock()
            notify?()
        }
    }

    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        // The workers finish their tile and leave; what they decoded is freed.
        while threads.contains(where: { !$0.isFinished }) { usleep(1000) }
        for (_, box) in takeDone() { if let s = box.surface { SDL_FreeSurface(s) } }
    }
}
