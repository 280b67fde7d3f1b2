import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// The measures that run the `kiosk` binary itself, as a service manager would: its peak memory, its start, its
// sleep, and a real-time deep-zoom tour.

/// The `kiosk` binary built beside this one.
nonisolated var kioskBinary: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("kiosk").path
}

/// A kiosk process with its standard error collected.
final class KioskProcess: @unchecked Sendable {
    let process = Process()
    let errors = Pipe()
    let reader: Thread

    init(_ arguments: [String], environment: [String: String], cache: String) {
        process.executableURL = URL(fileURLWithPath: kioskBinary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["XDG_CACHE_HOME"] = cache
        env["CACHE_DIRECTORY"] = nil
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let handle = errors.fileHandleForReading
        let box = Box()
        reader = Thread {
            let data = handle.readDataToEndOfFile()
            box.lock.lock()
            box.data = data
            box.lock.unlock()
        }
        self.box = box
    }

    final class Box: @unchecked Sendable {
        let lock = NSLock()
        var data = Data()
    }
    let box: Box

    func start() {
        do { try process.run() } catch {
            print("kiosk-bench: cannot run \(kioskBinary) (build it: swift build -c release): \(error)")
            exit(1)
        }
        reader.start()
    }

    var pid: Int32 { process.processIdentifier }

    /// Waits for the end; returns what it wrote to standard error.
    func wait() -> String {
        process.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        box.lock.lock()
        defer { box.lock.unlock() }
        return String(decoding: box.data, as: UTF8.self)
    }

    func stop() -> String {
        kill(pid, SIGTERM)
        return wait()
    }
}

/// The number after `key` in the last line that has it (`"peak "` in `memory: … peak 72992 KiB`).
func number(after key: String, in text: String) -> Double? {
    for line in text.split(separator: "\n").reversed() {
        guard let r = line.range(of: key, options: .backwards) else { continue }
        return Double(line[r.upperBound...].prefix { $0.isNumber || $0 == "." })
    }
    return nil
}

/// An AF_UNIX datagram socket standing in for systemd's `$NOTIFY_SOCKET`.
final class NotifyListener {
    let path: String
    let fd: Int32

    init(_ path: String) {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        _ = withUnsafePointer(to: &address) { a in
            a.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
    }

    /// Waits up to `seconds` for a message containing `text`.
    func wait(for text: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0, String(decoding: buffer[0..<n], as: UTF8.self).contains(text) { return true }
        }
        return false
    }

    deinit {
        close(fd)
        unlink(path)
    }
}

/// Context switches and CPU nanoseconds of each thread of a process, by thread id.
func processUsage(_ pid: Int32) -> [String: (switches: Int, cpuNs: Double)] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    var usage: [String: (switches: Int, cpuNs: Double)] = [:]
    for task in tasks {
        let base = "/proc/\(pid)/task/\(task)/"
        let status = (try? String(contentsOfFile: base + "status", encoding: .utf8)) ?? ""
        var switches = 0
        for line in status.split(separator: "\n") where line.contains("ctxt_switches") {
            switches += Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? 0
        }
        let sched = (try? String(contentsOfFile: base + "schedstat", encoding: .utf8)) ?? ""
        usage[task] = (switches, Double(sched.split(separator: " ").first ?? "") ?? 0)
    }
    return usage
}

/// What the threads did between two readings: a thread there at the end counts from its first reading (or from
/// its start); one that ended in between (a worker thread let go) took its last counts with it.
func usageBetween(_ before: [String: (switches: Int, cpuNs: Double)], _ after: [String: (switches: Int, cpuNs: Double)])
    -> (switches: Int, cpuNs: Double)
{
    var total = (switches: 0, cpuNs: 0.0)
    for (task, a) in after {
        let b = before[task] ?? (0, 0)
        total.switches += a.switches - b.switches
        total.cpuNs += a.cpuNs - b.cpuNs
    }
    return total
}

/// Resident memory of a process now, in KiB.
func residentKiB(_ pid: Int32) -> Double {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// Event-log lines.
struct LogLines {
    var lines: [String]
    init(width: Int, height: Int) {
        lines = [#"{"kioskEventLog": 1, "display": {"w": \#(width), "h": \#(height)}, "source": "kiosk-bench"}"#]
    }
    mutating func finger(_ t: Double, _ phase: String, _ id: Int, _ x: Double, _ y: Double) {
        let ts = String(format: "%.3f", t)
        let xs = String(format: "%.6f", x)
        let ys = String(format: "%.6f", y)
        lines.append(
            #"{"timestamp": \#(ts), "type": "SDL_FINGER\#(phase)", "touchId": 1, "fingerId": \#(id), "x": \#(xs), "y": \#(ys), "dx": 0, "dy": 0, "pressure": 1}"#
        )
    }
    mutating func doubleTap(_ t: Double, _ x: Double, _ y: Double) {
        finger(t, "DOWN", 1, x, y)
        finger(t + 60, "UP", 1, x, y)
        finger(t + 150, "DOWN", 1, x, y)
        finger(t + 210, "UP", 1, x, y)
    }
    func write(_ path: String) {
        try? (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}

/// The map zoomed to 1 by a double tap, then panned by a finger tracing a figure eight for 10 s.
func panLog(_ path: String) {
    var log = LogLines(width: 1920, height: 1080)
    log.doubleTap(100, 0.5, 0.5)
    for (t, e) in figureEight(seconds: 10) {
        guard case .finger(let phase, _, _, let x, let y, _, _, _) = e else { continue }
        log.finger(1000 + t, phase == .down ? "DOWN" : "MOTION", 1, x, y)
    }
    log.finger(11_300, "UP", 1, 0.5, 0.5)
    log.write(path)
}

/// Peak resident memory (MiB) of the kiosk replaying the zoom-1 pan of the map at 1920x1080, its tiles already
/// cut (a first run cuts them: also returned).
func panPeakRss(folder: String, cache: String) -> (warm: Double, first: Double) {
    let log = folder + "/pan.jsonl"
    panLog(log)
    var peaks: [Double] = []
    for _ in 0..<2 {
        let run = KioskProcess(
            ["--headless", "1920x1080", "--config", demoManifest, "--scene", "map", "--replay", log],
            environment: [:], cache: cache)
        run.start()
        peaks.append((number(after: "peak ", in: run.wait()) ?? 0) / 1024)
    }
    return (peaks[1], peaks[0])
}

/// From starting the kiosk to READY=1 (its first frame shown), the map at 1920x1080 in real time: the median of
/// five starts.
func coldStart(folder: String, cache: String) -> Double {
    var times: [Double] = []
    for i in 0..<5 {
        let listener = NotifyListener(folder + "/notify-\(i).sock")
        let run = KioskProcess(
            ["--headless", "1920x1080", "--realtime", "--config", demoManifest, "--scene", "map"],
            environment: ["NOTIFY_SOCKET": listener.path], cache: cache)
        let start = Date()
        run.start()
        let ready = listener.wait(for: "READY=1", seconds: 10)
        times.append(ready ? Date().timeIntervalSince(start) * 1000 : .infinity)
        _ = run.stop()
    }
    return median(times)
}

/// An idle real-time kiosk (800x480, the map, no input), from 1 s after its first frame, for 10 s: wake-ups
/// (context switches of all its threads) a second, CPU percent, and frames drawn. `extra` arguments: e.g. a
/// `--clock` outside the demo's opening hours (the screen blank).
func idleProcess(folder: String, cache: String, extra: [String] = []) -> (
    wakeups: Double, cpuPercent: Double, frames: Int
) {
    let listener = NotifyListener(folder + "/notify-idle.sock")
    let trace = folder + "/idle-trace.jsonl"
    let run = KioskProcess(
        ["--headless", "800x480", "--realtime", "--config", demoManifest, "--trace", trace] + extra,
        environment: ["NOTIFY_SOCKET": listener.path], cache: cache)
    run.start()
    _ = listener.wait(for: "READY=1", seconds: 10)
    usleep(1_000_000)
    let before = processUsage(run.pid)
    usleep(10_000_000)
    let used = usageBetween(before, processUsage(run.pid))
    _ = run.stop()
    let lines = (try? String(contentsOfFile: trace, encoding: .utf8))?.split(separator: "\n") ?? []
    let frames = lines.filter { line in
        guard let r = line.range(of: "\"t\": "), let t = Double(line[r.upperBound...].prefix { $0 != "," }) else {
            return false
        }
        return t >= 1000
    }.count
    return (Double(used.switches) / 10, used.cpuNs / 1e9 / 10 * 100, frames)
}

/// The tour below run twice. Memory: the greater of the two runs. The longest frame: the lesser of the two runs'
/// (a frame this shared machine stalls is seldom stalled in both runs; a frame that is really slow is slow in
/// both), with that run's late frames, beside the first run's own.
func realtimeTours(folder: String, cache: String) -> (
    peak: Double, settled: Double, worstFrame: Double, late: Double, worstOneRun: Double, lateOneRun: Double
) {
    let runs = (0..<2).map { _ in realtimeTour(folder: folder, cache: cache) }
    let better = runs.min { $0.worstFrame < $1.worstFrame }!
    return (
        runs.map(\.peak).max()!, runs.map(\.settled).max()!, better.worstFrame, better.late, runs[0].worstFrame,
        runs[0].late
    )
}

/// What this machine does to plain memory work, measured beside the tours: one 1920x1080 frame's pixels (8 MB)
/// copied with `memcpy` 60 times a second for `seconds`; the median copy and the longest (ms). The copy is the
/// same every time, so its longest over its median is how much the machine alone stretches a frame's memory work.
func referenceCopies(seconds: Double) -> (median: Double, worst: Double) {
    let bytes = 1920 * 1080 * 4
    let from = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    let to = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    defer {
        from.deallocate()
        to.deallocate()
    }
    memset(from, 1, bytes)
    memset(to, 2, bytes)
    var times: [Double] = []
    var seen = 0
    let clock = ContinuousClock()
    for i in 0..<Int(seconds * 60) {
        from.storeBytes(of: UInt8(truncatingIfNeeded: i), toByteOffset: i * 4099 % bytes, as: UInt8.self)
        let start = clock.now
        memcpy(to, from, bytes)
        let (s, a) = (clock.now - start).components
        // A byte of each copy is read, so no copy can be left out.
        seen &+= Int(to.load(fromByteOffset: i * 4099 % bytes, as: UInt8.self))
        times.append(Double(s) * 1000 + Double(a) / 1e15)
        usleep(useconds_t(max(0, 1000 / 60 - times.last!) * 1000))
    }
    precondition(seen >= 0)
    return (median(times), times.max() ?? 0)
}

/// The real-time deep-zoom tour: the 16384² demo at 1920x1080, a double tap into five places (to
/// full resolution), 4 s there, a double tap back out, 4 s; then 3 s at the fitted view. Peak resident memory,
/// resident memory 3 s after the tour, the longest frame (MiB, MiB, ms), and how many frames were late (over a
/// 60 Hz frame's time).
func realtimeTour(folder: String, cache: String) -> (peak: Double, settled: Double, worstFrame: Double, late: Double) {
    let path = folder + "/tour.jsonl"
    var log = LogLines(width: 1920, height: 1080)
    let places = [(0.3, 0.35), (0.7, 0.3), (0.55, 0.7), (0.25, 0.75), (0.62, 0.5)]
    var t = 500.0
    for (x, y) in places {
        log.doubleTap(t, x, y)
        t += 4000
        log.doubleTap(t, 0.5, 0.5)
        t += 4000
    }
    let end = t
    // A tap well after the tour keeps the kiosk running while its memory is read.
    log.finger(end + 4000, "DOWN", 1, 0.9, 0.9)
    log.finger(end + 4060, "UP", 1, 0.9, 0.9)
    log.write(path)
    let listener = NotifyListener(folder + "/notify-tour.sock")
    let run = KioskProcess(
        ["--headless", "1920x1080", "--realtime", "--config", demoManifest, "--scene", "archive", "--replay", path],
        environment: ["NOTIFY_SOCKET": listener.path], cache: cache)
    run.start()
    _ = listener.wait(for: "READY=1", seconds: 10)
    let ready = Date()
    usleep(useconds_t((end + 3000) * 1000 - Date().timeIntervalSince(ready) * 1e6))
    let settled = residentKiB(run.pid) / 1024
    let errors = run.wait()
    return (
        (number(after: "peak ", in: errors) ?? 0) / 1024, settled, number(after: "longest in ", in: errors) ?? 0,
        number(after: " ms, ", in: errors) ?? 0
    )
}

/// `settleToSharpMs`: the longest any of the demo's scenes takes, from coming to rest after the start to its
/// picture complete (`pictureDidSettle`), in a real window under Xvfb on the opengl renderer, untouched. -1
/// where there is no `xvfb-run`, or a scene never says so (in 20 s).
func settleToSharp(folder: String, cache: String) -> Double {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xvfb-run") else { return -1 }
    var worst = 0.0
    for scene in ["map", "archive", "gallery", "menu"] {
        let log = folder + "/settle-\(scene).log"
        let script = """
            "$0" --windowed 1280x800 --config "$1" --scene "$2" 2>"$3" &
            pid=$!
            i=0
            while ! grep -q pictureDidSettle "$3" && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done
            kill $pid; wait $pid
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/xvfb-run")
        p.arguments = ["-a", "-s", "-screen 0 1280x800x24", "sh", "-c", script, kioskBinary, demoManifest, scene, log]
        var env = ProcessInfo.processInfo.environment
        env["XDG_CACHE_HOME"] = cache
        env["SDL_VIDEODRIVER"] = "x11"
        env["SDL_RENDER_DRIVER"] = "opengl"
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard let ms = number(after: "complete ", in: text) else { return -1 }
        worst = max(worst, ms)
    }
    return worst
}
