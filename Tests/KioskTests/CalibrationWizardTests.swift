import EventLog
import ScrollEngine
import Testing

@testable import Kiosk

/// The five-target calibration of docs/deploying.md, on the virtual clock.
struct CalibrationWizardTests {
    /// A panel mounted skewed, offset and a little rotated: what it reports (raw) for a point of the screen.
    static let panel = AffineMatrix(a: 0.05, b: -0.9, c: 0.95, d: 0.85, e: 0.1, f: 0.03)
    static let screen = Size(width: 1280, height: 800)

    /// The raw position the panel reports at screen point `p` (the panel's map is the inverse of the calibration).
    static func raw(_ p: Point) -> Point { panel.apply(p) }

    /// A tap of `ms` at raw `p` with finger `id`, from `t`; a slide moves it by `slide` in x.
    static func tap(
        _ w: CalibrationWizard, _ p: Point, at t: Double, ms: Double = 150, id: Int64 = 1, slide: Double = 0
    ) {
        w.handle(.down, touchId: 1, fingerId: id, x: p.x, y: p.y, at: t)
        for i in 1...4 {
            let k = Double(i) / 4
            // A little noise, as a real panel has: the median takes it out.
            w.handle(
                .motion, touchId: 1, fingerId: id, x: p.x + slide * k + (i == 2 ? 0.003 : 0), y: p.y, at: t + ms * k)
        }
        w.handle(.up, touchId: 1, fingerId: id, x: p.x + slide, y: p.y, at: t + ms)
    }

    @Test func theFitRecoversTheMatrix() throws {
        let truth = AffineMatrix(a: 1.1, b: 0.05, c: -0.04, d: -0.02, e: 0.95, f: 0.06)
        let raw = CalibrationWizard.targets.prefix(4).map { $0 }
        let fit = try #require(AffineMatrix.fit(raw: raw, screen: raw.map(truth.apply)))
        for (a, b) in zip(fit.values, truth.values) { #expect(abs(a - b) < 1e-9) }
        // Points on a line determine nothing.
        let line = [Point(x: 0.1, y: 0.1), Point(x: 0.3, y: 0.3), Point(x: 0.6, y: 0.6), Point(x: 0.9, y: 0.9)]
        #expect(AffineMatrix.fit(raw: line, screen: line) == nil)
    }

    @Test func fiveGoodTapsMakeTheCalibration() throws {
        let w = CalibrationWizard(screen: Self.screen)
        var t = 1000.0
        for (i, target) in CalibrationWizard.targets.enumerated() {
            #expect(w.index == i)
            Self.tap(w, Self.raw(target), at: t)
            t += 1000
        }
        guard case .done(let m, let residual) = w.outcome else {
            Issue.record("not done: \(w.outcome)")
            return
        }
        #expect(residual < 0.005)
        // The calibration undoes the panel: every target comes back where it is.
        for target in CalibrationWizard.targets {
            let back = m.apply(Self.raw(target))
            #expect(abs(back.x - target.x) < 0.005 && abs(back.y - target.y) < 0.005)
        }
        let events = w.takeEvents()
        #expect(events.count == 6)
        if case .target(let index, _) = events[0] { #expect(index == 1) } else { Issue.record("\(events[0])") }
        if case .done = events[5] {} else { Issue.record("\(events[5])") }
    }

    @Test func whatIsNotATapTakesNothing() {
        let w = CalibrationWizard(screen: Self.screen)
        let p = Self.raw(CalibrationWizard.targets[0])
        Self.tap(w, p, at: 0, ms: 50)  // a brush
        Self.tap(w, p, at: 1000, slide: 0.06)  // a slide
        // Two fingers: the second comes while the first is down.
        w.handle(.down, touchId: 1, fingerId: 1, x: p.x, y: p.y, at: 2000)
        w.handle(.down, touchId: 1, fingerId: 2, x: 0.5, y: 0.5, at: 2050)
        w.handle(.up, touchId: 1, fingerId: 1, x: p.x, y: p.y, at: 2200)
        w.handle(.up, touchId: 1, fingerId: 2, x: 0.5, y: 0.5, at: 2250)
        #expect(w.index == 0)
        #expect(w.takeEvents().isEmpty)
        Self.tap(w, p, at: 3000)
        #expect(w.index == 1)
    }

    @Test func aBadCheckStartsAgainAndThreeBadRoundsFail() {
        let w = CalibrationWizard(screen: Self.screen)
        var t = 0.0
        for round in 1...3 {
            #expect(w.round == round)
            for target in CalibrationWizard.targets.prefix(4) {
                Self.tap(w, Self.raw(target), at: t)
                t += 500
            }
            // The centre touched 10 % off.
            Self.tap(w, Self.raw(Point(x: 0.6, y: 0.55)), at: t)
            t += 500
        }
        guard case .failed(let why) = w.outcome else {
            Issue.record("\(w.outcome)")
            return
        }
        #expect(why.contains("3 rounds"))
        let rounds = w.takeEvents().compactMap { if case .round(let n, _) = $0 { n } else { nil } }
        #expect(rounds == [2, 3])
    }

    @Test func theSamePlaceTwiceStartsAgain() {
        let w = CalibrationWizard(screen: Self.screen)
        let corners = CalibrationWizard.targets.prefix(4).map(Self.raw)
        for (i, p) in [corners[0], corners[1], corners[1], corners[3]].enumerated() {
            Self.tap(w, p, at: Double(i) * 500)
        }
        #expect(w.round == 2 && w.index == 0)
        #expect(w.outcome == .running)
    }

    @Test func thirtySecondsWithoutATouchGiveUp() {
        let w = CalibrationWizard(screen: Self.screen, at: 0)
        Self.tap(w, Self.raw(CalibrationWizard.targets[0]), at: 1000)
        w.step(to: 31_000)
        #expect(w.outcome == .running)
        w.step(to: 31_150)
        if case .failed(let why) = w.outcome { #expect(why.contains("30 s")) } else { Issue.record("\(w.outcome)") }
    }
}
