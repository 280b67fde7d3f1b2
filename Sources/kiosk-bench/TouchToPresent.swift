import Foundation

/// The real touchscreens' recordings (the tests' fixtures), replayed by the release kiosk on the real clock over
/// the demo, each at its own panel's size: each run's exit line says its touch-to-present p50 and p95 (from each
/// finger event's log time to the return of the first present after the kiosk read it). The figures: the median
/// of the runs' p50 and the worst run's p95.
func touchToPresent(cache: String) -> (p50: Double, p95: Double, recordings: Int) {
    let folder = "Tests/TouchInputTests/Fixtures/real"
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".jsonl") }
    var p50s: [Double] = []
    var p95s: [Double] = []
    for name in names.sorted() {
        let path = folder + "/" + name
        guard let head = (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").first,
            let w = number(after: "\"w\": ", in: String(head)), let h = number(after: "\"h\": ", in: String(head))
        else { continue }
        let run = KioskProcess(
            ["--headless", "\(Int(w))x\(Int(h))", "--realtime", "--config", demoManifest, "--replay", path],
            environment: [:], cache: cache)
        run.start()
        let text = run.wait()
        guard let p50 = number(after: "touch to present: p50 ", in: text),
            let p95 = number(after: ", p95 ", in: text)
        else { continue }
        p50s.append(p50)
        p95s.append(p95)
    }
    return (median(p50s), p95s.max() ?? 0, p50s.count)
}
