import EventLog
import Kiosk
import ScrollEngine
import Testing

/// Scene transitions at their edges: a touch exactly at a transition's start or end, the idle reset during one.
@Suite struct TransitionTests {
    static func app(_ transition: String = "fade") throws -> KioskApp {
        try KioskAppTests.app(extra: "\"transition\": \"\(transition)\",")
    }

    static func drag(_ app: KioskApp, id: Int64, at t: Double) {
        app.handle(.finger(.down, touchId: 1, fingerId: id, x: 0.5, y: 0.8, dx: 0, dy: 0, pressure: 1), at: t)
        for i in 1...8 {
            let y = 0.8 - Double(i) * 0.05
            app.handle(
                .finger(.motion, touchId: 1, fingerId: id, x: 0.5, y: y, dx: 0, dy: 0, pressure: 1),
                at: t + Double(i) * 10)
        }
        app.handle(.finger(.up, touchId: 1, fingerId: id, x: 0.5, y: 0.4, dx: 0, dy: 0, pressure: 1), at: t + 90)
    }

    /// The cafe tapped (the transition starts at the lift, 180 ms); a drag that begins at that same moment is
    /// ignored, one that begins exactly when it ends (480 ms) scrolls.
    @Test func aTouchExactlyAtTheStartIsIgnoredAndAtTheEndIsNot() throws {
        let app = try Self.app()
        VisitTests.tap(app, 0.05, 0.1, at: 100)
        app.step(to: 180)
        let t = try #require(app.transition)
        #expect(t.start == 180 && t.to == "menu")
        Self.drag(app, id: 2, at: 180)
        KioskAppTests.run(app, from: 270, to: 480)
        #expect(app.scene.view.contentOffset.y == 0)
        app.step(to: 480)
        #expect(app.transition == nil)
        app.sink.events.removeAll()
        Self.drag(app, id: 3, at: 480)
        #expect(app.sink.events.contains { $0.name == "scrollViewWillBeginDragging" })
        KioskAppTests.run(app, from: 570, to: 1500)
        #expect(app.scene.view.contentOffset.y > 0)
    }

    /// The idle reset while a transition runs (a 3 s transition, a 2 s idle timeout): it starts its own from
    /// the scene on screen and ends at home, at rest, with nothing left over.
    @Test func theIdleResetDuringATransition() throws {
        let app = try KioskAppTests.app(extra: "\"transition\": \"zoom\", \"transitionMs\": 3000,")
        VisitTests.tap(app, 0.05, 0.1, at: 100)
        app.step(to: 180)
        #expect(app.transition?.style == .zoom && app.transition?.to == "menu")
        KioskAppTests.run(app, from: 180, to: 2190)
        // The idle reset at 2180, a third of the way into the zoom: back home, shrinking into the cafe.
        let back = try #require(app.transition)
        #expect(back.to == "map" && back.from == "menu" && back.style == .zoom && back.shrinks)
        #expect(app.outgoing?.config.id == "menu")
        KioskAppTests.run(app, from: 2190, to: 5300)
        #expect(app.scene.config.id == "map")
        #expect(app.transition == nil && app.outgoing == nil)
        #expect(app.isAtRest)
        let names = KioskAppTests.names(app)
        #expect(names.filter { $0 == "sceneTransition" }.count == 2, "\(names)")
        #expect(names.contains("idleReset"))
    }
}
