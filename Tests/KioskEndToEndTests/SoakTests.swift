import Foundation
import TestSupport
import Testing

/// An hour of virtual time of random gestures (taps on hotspots and the home button included) replayed by the
/// binary: its memory, process and tile cache, stays flat. The kiosk logs its memory every ten minutes.
@Suite struct SoakTests {
    @Test func anHourOfRandomGesturesKeepsMemoryFlat() throws {
        let dir = Kiosk.folder()
        let config = try Kiosk.manifest(
            Kiosk.demo.replacingOccurrences(
                of: "\"idleTimeoutSeconds\": 0", with: "\"idleTimeoutSeconds\": 90, \"textureBudgetMiB\": 16"), in: dir)
        var log = LogWriter(width: 320, height: 200)
        var rng = SplitMix(seed: 7)
        var t = 0.0
        while t < 3_600_000 {
            let fingers = rng.int(3) == 0 ? 2 : 1
            let steps = 1 + rng.int(40)
            var p = (0..<fingers).map { _ in (rng.unit(), rng.unit()) }
            let d = (0..<fingers).map { _ in (rng.range(-0.02, 0.02), rng.range(-0.02, 0.02)) }
            for f in 0..<fingers { log.finger(t, "DOWN", f, p[f].0, p[f].1) }
            for s in 0..<steps {
                for f in 0..<fingers {
                    p[f] = (p[f].0 + d[f].0, p[f].1 + d[f].1)
                    log.finger(t + Double(s) * 16, "MOTION", f, p[f].0, p[f].1)
                }
            }
            for f in 0..<fingers { log.finger(t + Double(steps) * 16, "UP", f, p[f].0, p[f].1) }
            t += Double(steps) * 16 + rng.range(100, 20_000)
        }
        let r = try Kiosk.run(
            ["--headless", "320x200", "--config", config, "--replay", try log.write(dir)], in: dir, trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        // "<6>kiosk: memory: resident N KiB, textures M KiB, … (heap H in use, F free, …)", every ten minutes of
        // virtual time.
        let samples = r.stderr.split(separator: "\n").compactMap { line -> (rss: Int, textures: Int, free: Int)? in
            guard line.contains("memory: resident"),
                let free = line.firstMatch(of: /in use, (\d+) free/).flatMap({ Int($0.1) })
            else { return nil }
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            return numbers.count >= 3 ? (numbers[1], numbers[2], free) : nil
        }
        #expect(samples.count >= 6, "\(r.stderr)")
        #expect(samples.allSatisfy { $0.textures <= 16 * 1024 })
        // After the first twenty minutes (caches filled), the process does not grow. At this budget the
        // gallery's pictures (15 MB each, beyond the 8 MiB it leaves pictures) are decoded again at each visit,
        // and the allocator keeps some of what their decoding freed for the next (its `free`, bounded): what
        // grows without that is a leak.
        let settled = samples.dropFirst(2).map { $0.rss - $0.free }
        let growth = (settled.max() ?? 0) - (settled.first ?? 0)
        #expect(
            growth < 8 * 1024, "resident memory grew \(growth) KiB: \(samples.map { ($0.rss, $0.free) })")
        #expect(samples.allSatisfy { $0.free < 32 * 1024 }, "the allocator's free: \(samples.map(\.free))")
    }

    /// The memory line accounts for what is resident: the files mapped (libraries, fonts), the anonymous memory
    /// (the heap: in use, kept free, mapped alone), and within the heap the kiosk's own textures (tiles, kept
    /// pictures, whole pictures, words); what the heap holds beyond them is a few tens of MiB (Swift's objects,
    /// FreeType, HarfBuzz, decoders' buffers), not hundreds.
    @Test func theMemoryLineAccountsForWhatIsResident() throws {
        let dir = Kiosk.folder()
        var log = LogWriter(width: 1280, height: 720)
        log.drag(from: (0.8, 0.5), to: (0.2, 0.5), at: 500)
        let r = try Kiosk.run(
            [
                "--headless", "1280x720", "--config", try Kiosk.manifest(Kiosk.demo, in: dir), "--replay",
                try log.write(dir),
            ],
            in: dir, trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stderr.split(separator: "\n").last { $0.contains("memory: resident") })
        /// The number after `name` (`resident 1234 KiB`), or before it (`83070 in use`).
        func kib(_ name: String) -> Int? {
            guard let range = line.range(of: name + " ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        func kib(before name: String) -> Int? {
            guard let range = line.range(of: " " + name) else { return nil }
            return Int(String(line[..<range.lowerBound].reversed().prefix { $0.isNumber }.reversed()))
        }
        let resident = try #require(kib("resident"), "\(line)")
        let files = try #require(kib("files"), "\(line)")
        let anonymous = try #require(kib("anonymous"), "\(line)")
        let shared = try #require(kib("shared"), "\(line)")
        // The kernel's three parts are the whole (read a moment apart).
        #expect(abs(files + anonymous + shared - resident) < resident / 50, "\(line)")
        let heap = try #require(kib(before: "in use"), "\(line)") + (try #require(kib(before: "free,"), "\(line)"))
        let mapped = try #require(kib(before: "mapped alone"), "\(line)")
        let own =
            try #require(kib("textures"), "\(line)") + (try #require(kib("kept pictures"), "\(line)"))
            + (try #require(kib("; pictures"), "\(line)")) + (try #require(kib("words"), "\(line)"))
        #expect(own > 1024, "\(line)")
        #expect(heap + mapped <= anonymous + 4096, "the heap is within the anonymous memory: \(line)")
        #expect(own <= heap + mapped, "\(line)")
        #expect(heap + mapped - own < 64 * 1024, "the heap beyond the textures: \(line)")
    }
}
