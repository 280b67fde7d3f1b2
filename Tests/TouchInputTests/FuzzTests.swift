import ScrollEngine
import Testing
import TouchInput

/// Thousands of random finger streams (seeded, so a failure replays): whatever the fingers do, the state stays
/// finite, nothing is left tracking, and every view comes to rest within its limits.
@Suite struct FuzzTests {
    static func stream(seed: UInt64, size: Size) -> [InputEvent] {
        var rng = SplitMix(seed: seed)
        var events: [InputEvent] = []
        var t = 0.0
        var down: [Int64: Point] = [:]
        for _ in 0..<(50 + rng.int(300)) {
            // Timestamps repeat often (clumps) and jump sometimes.
            if rng.unit() < 0.6 { t += [0, 0, 8, 16, 40, 120, 400][rng.int(7)] }
            let finger = Int64(rng.int(11))
            let p =
                rng.unit() < 0.1
                ? Point(x: rng.range(-300, size.width + 300), y: rng.range(-300, size.height + 300))
                : (down[finger] ?? Point(x: rng.range(0, size.width), y: rng.range(0, size.height)))
                    + Point(x: rng.range(-40, 40), y: rng.range(-40, 40))
            let kind: InputEvent.Kind = [.down, .move, .move, .move, .move, .up, .cancel][rng.int(7)]
            events.append(InputEvent(kind, finger: finger, at: p, time: t))
            switch kind {
            case .down, .move: down[finger] = p
            case .up, .cancel: down[finger] = nil
            }
        }
        // As the replayer does: a finger still down when the stream ends is lifted at the last timestamp.
        for (finger, p) in down.sorted(by: { $0.key < $1.key }) {
            events.append(InputEvent(.up, finger: finger, at: p, time: t))
        }
        return events
    }

    @Test(arguments: Rig.Kind.allCases)
    func randomFingerStreams(kind: Rig.Kind) {
        let size = Size(width: 800, height: 480)
        for seed in UInt64(1)...700 {
            let rig = Rig.make(kind, size: size)
            rig.controller.hitTest = { p in p.x < 100 ? "corner" : nil }
            rig.replay(Self.stream(seed: seed &* 7919 &+ UInt64(kind.rawValue.count), size: size))
            let ok = rig.allViews.allSatisfy { v in
                v.isAtRest && v.contentOffset.isFinite && v.zoomScale.isFinite && !v.isTracking
                    && v.clampedOffset(v.contentOffset) == v.contentOffset
                    && v.zoomScale >= v.minimumZoomScale - 1e-9 && v.zoomScale <= v.maximumZoomScale + 1e-9
            }
            #expect(ok, "seed \(seed) in \(kind)")
            #expect(rig.controller.isIdle, "seed \(seed) in \(kind)")
            if !ok { break }
        }
    }
}
