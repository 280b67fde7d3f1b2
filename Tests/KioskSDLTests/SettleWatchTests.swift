import Testing

@testable import KioskSDL

/// When the picture became complete after coming to rest.
@Suite struct SettleWatchTests {
    @Test func reportsOnceWhenThePictureCompletesAtRest() {
        var w = SettleWatch()
        #expect(w.observe(atRest: false, opening: false, complete: false, at: 0) == nil)
        #expect(w.observe(atRest: true, opening: false, complete: false, at: 100) == nil)
        #expect(w.observe(atRest: true, opening: false, complete: false, at: 200) == nil)
        #expect(w.observe(atRest: true, opening: false, complete: true, at: 350) == .init(ms: 250, afterOpening: true))
        #expect(w.observe(atRest: true, opening: false, complete: true, at: 400) == nil)
        // Moving again (a fling), then at rest and complete at once.
        #expect(w.observe(atRest: false, opening: false, complete: true, at: 500) == nil)
        #expect(w.observe(atRest: true, opening: false, complete: true, at: 600) == .init(ms: 0, afterOpening: false))
        // A transition (the idle reset going home), then at rest.
        #expect(w.observe(atRest: false, opening: true, complete: true, at: 700) == nil)
        #expect(w.observe(atRest: true, opening: false, complete: false, at: 1000) == nil)
        #expect(w.observe(atRest: true, opening: false, complete: true, at: 1100) == .init(ms: 100, afterOpening: true))
    }

    @Test func aPictureThatCompletesWhileMovingIsNotReported() {
        var w = SettleWatch()
        #expect(w.observe(atRest: true, opening: false, complete: false, at: 0) == nil)
        #expect(w.observe(atRest: false, opening: false, complete: true, at: 50) == nil)
        #expect(w.observe(atRest: false, opening: false, complete: true, at: 60) == nil)
    }
}
