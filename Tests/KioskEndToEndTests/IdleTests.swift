import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// An idle kiosk sleeps: it wakes only for its timers, input or a stop.
@Suite struct IdleTests {
    /// Context switches of every thread of a process (`/proc/PID/task/*/status`).
    static func switches(_ pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var total = 0
        for task in tasks {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") where line.contains("ctxt_switches") {
                total += Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? 0
            }
        }
        return total
    }

    /// A realtime kiosk showing the demo, no input: at most two wake-ups a second (it has no timer due in
    /// 3 s but the safety net's), and SIGTERM still ends its sleep at once and cleanly.
    @Test func anIdleRealtimeKioskWakesAtMostTwiceASecond() throws {
        let dir = Kiosk.folder()
        let socket = try NotifySocket(in: dir, abstract: false)
        let (p, _) = try Kiosk.launch(
            ["--headless", "400x240", "--realtime", "--config", try Kiosk.manifest(Kiosk.demo, in: dir)],
            environment: ["NOTIFY_SOCKET": socket.name])
        // Settled: the first frame was shown (READY=1; a debug build under load may take a while), then a moment.
        var waited = 0
        while !socket.received("READY=1") && waited < 500 {
            usleep(20_000)
            waited += 1
        }
        usleep(500_000)
        let before = Self.switches(p.processIdentifier)
        usleep(3_000_000)
        let after = Self.switches(p.processIdentifier)
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        let messages = socket.stop()
        #expect(p.terminationStatus == 0)
        #expect(messages.contains { $0.text.contains("READY=1") })
        #expect(after - before <= 6, "\(after - before) context switches in 3 s")
    }
}
