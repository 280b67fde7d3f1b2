import EventLog
import ScrollEngine
import Testing

@testable import Kiosk

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
        #expect(app.touchDevicesWithFingersDown == [1])
        app.handle(.touchDeviceRemoved(touchId: 1), at: 300)
        AppRig.run(app, from: 300, to: 1500)
        #expect(!app.scene.view.isTracking && !app.scene.view.isDragging)
        #expect(app.touchDevicesWithFingersDown.isEmpty)
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

    /// The touch that woke a blank screen is held by its gate until its lift: a device gone lets it go, so the
    /// screen can blank again.
    @Test func aHeldTouchIsLetGo() throws {
        let app = try AppRig.app(extra: "\"blankAfterSeconds\": 1,", idleTimeout: 0)
        AppRig.run(app, from: 0, to: 1100)
        #expect(app.isBlanked)
        app.handle(Self.finger(.down, device: 1, 0.5, 0.5), at: 1200)
        AppRig.run(app, from: 1100, to: 3000)
        #expect(!app.isBlanked)
        app.handle(.touchDeviceRemoved(touchId: 1), at: 3000)
        AppRig.run(app, from: 3000, to: 4100)
        #expect(app.isBlanked)
    }
}
