import EventLog
import ScrollEngine
import Testing

@testable import Kiosk
@testable import TouchInput

/// A touch device that goes away with fingers down (unplugged, the panel powered off): SDL sends no lift, and
/// the kiosk cancels them (`KIOSK_TOUCH_DEVICE_REMOVED`): no finger stays down, the idle rules go on, and the
/// device that comes back (a new touch id) is taken as any.
@Suite struct DeviceFaultTests {
    static func finger(_ phase: EventLog.FingerPhase, device: Int64, _ x: Double, _ y: Double) -> EventLog.Event {
        .finger(phase, touchId: device, fingerId: 7, x: x, y: y, dx: 0, dy: 0, pressure: 1)
    }

    @Test func aDeviceGoneWithAFingerDownCancelsIt() throws {
        let app = try AppRig.app(scene: "menu")
        app.handle(Self.finger(.down, device: 1, 0.5, 0.8), at: 100)
        for i in 1...10 {
            app.handle(Self.finger(.motion, device: 1, 0.5, 0.8 - Double(i) * 0.03), at: 100 + Double(i) * 16)
        }
        AppRig.run(app, from: 100, to: 300)
        #expect(app.scene.view.isTracking)
        #expect(app.frame.fingersDown == [FingerKey(touchId: 1, fingerId: 7)])
        app.handle(.touchDeviceRemoved(touchId: 1), at: 300)
        AppRig.run(app, from: 300, to: 1500)
        #expect(!app.scene.view.isTracking && !app.scene.view.isDragging)
        #expect(app.frame.fingersDown.isEmpty)
        #expect(app.isAtRest)
        // The device back, under a new id: a drag scrolls.
        let before = app.scene.view.contentOffset.y
        app.handle(Self.finger(.down, device: 2, 0.5, 0.8), at: 2000)
        for i in 1...10 {
            app.handle(Self.finger(.motion, device: 2, 0.5, 0.8 - Double(i) * 0.03), at: 2000 + Double(i) * 16)
        }
        app.handle(Self.finger(.up, device: 2, 0.5, 0.5), at: 2200)
        AppRig.run(app, from: 1500, to: 2300)
        #expect(app.scene.view.contentOffset.y > before + 50)
    }

    /// The touch that woke a blank screen is held by its gate until its lift: a device gone, or its lift lost
    /// (`KIOSK_TOUCH_LIFT_LOST`), lets it go, so the screen can blank again.
    @Test(arguments: [false, true]) func aHeldTouchIsLetGo(liftLost: Bool) throws {
        let app = try AppRig.app(extra: "\"blankAfterSeconds\": 1,", idleTimeout: 0)
        AppRig.run(app, from: 0, to: 1100)
        #expect(app.isBlanked)
        app.handle(Self.finger(.down, device: 1, 0.5, 0.5), at: 1200)
        AppRig.run(app, from: 1100, to: 3000)
        #expect(!app.isBlanked)
        // The SDL layer looks for the held finger too (else nothing would ever let it go, and every touch after
        // it would be swallowed).
        #expect(app.frame.fingersDown == [FingerKey(touchId: 1, fingerId: 7)])
        app.handle(liftLost ? .touchLiftLost(touchId: 1, fingerId: 7) : .touchDeviceRemoved(touchId: 1), at: 3000)
        #expect(app.frame.fingersDown.isEmpty)
        #expect(!app.touches.isHolding)
        // A motion SDL still sends under the let-go finger's id is not a new touch.
        app.handle(Self.finger(.motion, device: 1, 0.5, 0.4), at: 3010)
        #expect(app.frame.fingersDown.isEmpty)
        AppRig.run(app, from: 3000, to: 4100)
        #expect(app.isBlanked)
    }

    /// A device (or a log) that puts fingers down and never lifts them: past `FingerKey.maximumDown` (more than
    /// any panel reports) a new finger is ignored, so the kiosk's fingers and the gate's held touch stay as small
    /// as a hand, and the fingers it took still work.
    @Test func fingersNeverLiftedAreBoundedByTheHand() throws {
        func down(_ id: Int64, at t: Double, _ app: KioskApp) {
            app.handle(.finger(.down, touchId: 1, fingerId: id, x: 0.5, y: 0.5, dx: 0, dy: 0, pressure: 1), at: t)
        }
        let app = try AppRig.app(scene: "menu")
        for i in 0..<1000 { down(Int64(i), at: 100 + Double(i) * 0.01, app) }
        #expect(app.input.fingers.count == FingerKey.maximumDown)
        #expect(app.scene.controller.fingers.count == FingerKey.maximumDown)
        // One taken finger lifted makes room for one more, and no more.
        app.handle(.finger(.up, touchId: 1, fingerId: 0, x: 0.5, y: 0.5, dx: 0, dy: 0, pressure: 1), at: 200)
        down(5000, at: 201, app)
        down(5001, at: 202, app)
        #expect(app.input.fingers.count == FingerKey.maximumDown)
        #expect(app.input.fingers[FingerKey(touchId: 1, fingerId: 5000)] != nil)

        // The same while a gate holds the touch that woke a blank screen.
        let blank = try AppRig.app(extra: "\"blankAfterSeconds\": 1,", idleTimeout: 0)
        AppRig.run(blank, from: 0, to: 1100)
        #expect(blank.isBlanked)
        for i in 0..<1000 { down(Int64(i), at: 1200 + Double(i) * 0.01, blank) }
        #expect(!blank.isBlanked)
        #expect(blank.touches.held.count == FingerKey.maximumDown)

        // And in a log replayed by the touch tests.
        var records = (0..<1000).map {
            EventLog.Record(
                timestamp: Double($0),
                event: .finger(.down, touchId: 1, fingerId: Int64($0), x: 0.5, y: 0.5, dx: 0, dy: 0, pressure: 1))
        }
        records.append(.init(timestamp: 2000, event: .quit))
        let touches = EventLog(display: Size(width: 100, height: 100), records: records).touches(
            in: Size(width: 100, height: 100))
        #expect(touches.filter { $0.kind == .down }.count == FingerKey.maximumDown)
        #expect(touches.filter { $0.kind == .up }.count == FingerKey.maximumDown)
    }

    /// Two fingers down, one of whose lift SDL lost (`KIOSK_TOUCH_LIFT_LOST`): that finger alone is cancelled,
    /// and the other's lift ends the touch: the kiosk comes to rest.
    @Test func aLiftLostCancelsItsFingerOnly() throws {
        let app = try AppRig.app(scene: "menu")
        func finger(_ phase: EventLog.FingerPhase, _ id: Int64, _ x: Double, _ y: Double, at t: Double) {
            app.handle(.finger(phase, touchId: 3, fingerId: id, x: x, y: y, dx: 0, dy: 0, pressure: 1), at: t)
        }
        finger(.down, 1, 0.4, 0.5, at: 100)
        finger(.down, 2, 0.6, 0.5, at: 101)
        for i in 1...10 {
            let d = Double(i) * 0.01
            finger(.motion, 1, 0.4 - d, 0.5, at: 100 + Double(i) * 16)
            finger(.motion, 2, 0.6 + d, 0.5, at: 101 + Double(i) * 16)
        }
        AppRig.run(app, from: 100, to: 300)
        #expect(app.frame.fingersDown.count == 2)
        #expect(app.scene.view.isTracking)
        app.handle(.touchLiftLost(touchId: 3, fingerId: 1), at: 300)
        #expect(app.frame.fingersDown == [FingerKey(touchId: 3, fingerId: 2)])
        finger(.up, 2, 0.7, 0.5, at: 320)
        AppRig.run(app, from: 300, to: 2000)
        #expect(app.frame.fingersDown.isEmpty)
        #expect(!app.scene.view.isTracking && !app.scene.view.isZooming)
        #expect(app.isAtRest)
    }

    /// SDL may go on sending a finger whose lift it lost (its slot taken again in the kernel's overflow): once
    /// cancelled, those motions start no new touch (they restarted one, cancelled again a quarter second later,
    /// over and over), and the finger's next down is a touch as any.
    @Test func aCancelledFingersLaterMotionsAreNotATouch() throws {
        let app = try AppRig.app(scene: "menu", idleTimeout: 0)
        func drag(_ from: Double, at t: Double, down: Bool, up: Bool) {
            if down { app.handle(Self.finger(.down, device: 1, 0.5, from), at: t) }
            for i in 1...10 {
                app.handle(Self.finger(.motion, device: 1, 0.5, from - Double(i) * 0.03), at: t + Double(i) * 16)
            }
            if up { app.handle(Self.finger(.up, device: 1, 0.5, from - 0.3), at: t + 176) }
        }
        drag(0.8, at: 100, down: true, up: false)
        AppRig.run(app, from: 100, to: 300)
        app.handle(.touchLiftLost(touchId: 1, fingerId: 7), at: 300)
        AppRig.run(app, from: 300, to: 1500)
        #expect(app.isAtRest)
        let rested = app.scene.view.contentOffset.y
        drag(0.8, at: 1500, down: false, up: true)
        AppRig.run(app, from: 1500, to: 2500)
        #expect(app.frame.fingersDown.isEmpty)
        #expect(app.scene.view.contentOffset.y == rested)
        #expect(app.isAtRest)
        drag(0.8, at: 2500, down: true, up: true)
        AppRig.run(app, from: 2500, to: 2800)
        #expect(app.scene.view.contentOffset.y > rested + 50)
    }
}
