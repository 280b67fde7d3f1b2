import Testing

@testable import Kiosk

/// From a finger to the panel (`TouchLatency`): each finger event is measured to the first present after it.
@Suite struct TouchLatencyTests {
    @Test func eachEventIsMeasuredToTheFirstPresentAfterIt() {
        var l = TouchLatency()
        #expect(l.summary == nil)
        l.touched(at: 100)
        l.touched(at: 104)
        l.presented(at: 110)
        // Measured once: a later present does not count them again.
        l.presented(at: 127)
        l.touched(at: 130)
        l.presented(at: 143)
        #expect(l.count == 3)
        #expect(l.sumMs == 10 + 6 + 13)
        #expect(l.quantileMs(0.5) == 10)
        #expect(l.quantileMs(0.95) == 13)
        #expect(l.summary == "touch to present: p50 10.0 ms, p95 13.0 ms over 3 finger events")
    }

    @Test func theQuantilesAreOverTheLatestWindow() {
        var l = TouchLatency()
        // A slow start, then a long run of quick frames: the window forgets the start, the count does not.
        for i in 0..<100 {
            l.touched(at: Double(i) * 100)
            l.presented(at: Double(i) * 100 + 50)
        }
        for i in 0..<TouchLatency.window {
            l.touched(at: 20_000 + Double(i) * 20)
            l.presented(at: 20_000 + Double(i) * 20 + 5)
        }
        #expect(l.quantileMs(0.95) == 5)
        #expect(l.count == 100 + TouchLatency.window)
    }

    @Test func aFloodWaitingForOneFrameStaysBounded() {
        var l = TouchLatency()
        for i in 0..<10_000 { l.touched(at: Double(i) / 100) }
        l.presented(at: 200)
        #expect(l.count == TouchLatency.waitingLimit)
    }

    @Test func theMetricsCarryItAsASummary() {
        var now = Metrics.Now(
            version: "1", content: "c", upSeconds: 1, placeholders: 0, residentBytes: 0, textureBytes: 0,
            clockSynchronized: true)
        let metrics = Metrics(scene: "map")
        #expect(!metrics.exposition(now).contains("kiosk_touch_to_present_seconds"))
        var l = TouchLatency()
        l.touched(at: 0)
        l.presented(at: 12)
        now.touchToPresent = l
        let text = metrics.exposition(now)
        #expect(text.contains("# TYPE kiosk_touch_to_present_seconds summary\n"))
        #expect(text.contains("kiosk_touch_to_present_seconds{quantile=\"0.95\"} 0.012\n"), "\(text)")
        #expect(text.contains("kiosk_touch_to_present_seconds_count 1\n"))
    }
}
