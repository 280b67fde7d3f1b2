import EventLog
import Foundation
import ScrollEngine
import TouchInput

/// The input side of the router: the installer's tools, then the gates, then the scene.
extension KioskApp {
    /// An installer's tool (docs/deploying.md) shown instead of the scenes: the calibration wizard, until it is
    /// done or gives up, or the touch test, until 30 s pass without a touch; then the app quits. Returns the
    /// tool's screen (the wizard's outcome is read from it).
    @discardableResult
    public func start(_ tool: InstallerTool) -> any ToolScreen {
        let screen: any ToolScreen =
            switch tool {
            case .calibration:
                // Raw touches: the calibration in effect is never applied while calibrating.
                CalibrationScreen(
                    screen: physicalSize, rotation: rotation, language: navigator.languages.first, at: now)
            case .touchTest:
                TouchTestScreen(
                    calibration: calibration, rotation: rotation, language: navigator.languages.first, at: now)
            }
        toolScreen = screen
        return screen
    }

    /// One input event, SDL-shaped (`EventLog.Event`), at `ms`. Mouse positions are pixels of the window.
    public func handle(_ event: EventLog.Event, at ms: Double) {
        advance(to: ms)
        if let toolScreen {
            if case .finger(let phase, let touchId, let fingerId, let x, let y, _, _, _) = event {
                toolScreen.handle(phase, touchId: touchId, fingerId: fingerId, x: x, y: y, at: now)
            } else if case .quit = event {
                quitRequested = true
            }
            return
        }
        if let lost = Self.fingersLost(by: event) {
            input.forget(touches.release(where: lost))
            for e in input.cancelFingers(where: lost, at: now) { scene.controller.handle(e) }
            return
        }
        if gate(event) {
            beginAudioIfAsked(event)
            return
        }
        switch event {
        case .finger(let phase, let touchId, let fingerId, let x, let y, _, _, _):
            guard
                let e = input.finger(
                    phase, FingerKey(touchId: touchId, fingerId: fingerId), x: x, y: y, calibration: calibration,
                    rotation: rotation, sceneSize: sceneSize, at: now)
            else { return }
            noteInput()
            if e.kind == .down {
                access.interrupt(sink: sink)
                if let touch = scene.pictureTouch(at: e.position) { sink.add(TraceEvent(touch)) }
            }
            if access.audio { return explore(e) }
            scene.controller.handle(e)
        case .mouseMotion(let x, let y, _, _, let state):
            input.mousePosition = scenePoint(pixel: Point(x: x, y: y))
            if input.mouseDown && state & 1 != 0 {
                noteInput()
                scene.controller.handle(
                    InputEvent(.move, finger: InputMapper.mouseFinger, at: input.mousePosition, time: now))
            }
        case .mouseButton(let down, let button, _, let x, let y):
            guard button == 1 else { return }
            noteInput()
            input.mousePosition = scenePoint(pixel: Point(x: x, y: y))
            guard down != input.mouseDown else { return }
            input.mouseDown = down
            if down { access.interrupt(sink: sink) }
            scene.controller.handle(
                InputEvent(down ? .down : .up, finger: InputMapper.mouseFinger, at: input.mousePosition, time: now))
        case .mouseWheel(_, _, let px, let py):
            noteInput()
            wheel(Point(x: px, y: py))
        case .key(let down, let key, let isRepeat):
            input.control(key, down: down)
            guard down else { return }
            noteInput()
            self.key(key, isRepeat: isRepeat)
        case .window(let name, let w, let h):
            if name == "SDL_WINDOWEVENT_SIZE_CHANGED", w > 0, h > 0 {
                resize(Size(width: Double(w), height: Double(h)))
            }
        case .headset(let plugged):
            // A plug wakes the screen at once and begins audio mode once it has settled (`stepScenes`).
            if plugged {
                noteInput()
                access.jack.plugged(at: now)
            } else {
                access.jack.pulled()
                access.stopAudio(sink: sink)
            }
        case .quit:
            quitRequested = true
        case .renderReset, .touchDeviceRemoved, .touchLiftLost:
            // The SDL layer's (its textures), and taken above.
            break
        }
    }

    /// The fingers down now, the scene's and a gate's (the SDL layer looks whether they are still on their panel
    /// and their device still there: a held touch never lifted would swallow every touch after it).
    public var fingersDown: Set<FingerKey> { Set(input.fingers.keys).union(touches.fingers) }

    /// The fingers a device gone (`KIOSK_TOUCH_DEVICE_REMOVED`) or a lift lost (`KIOSK_TOUCH_LIFT_LOST`) ends, as
    /// UIKit cancels the touches the system lost; nil for any other event.
    static func fingersLost(by event: EventLog.Event) -> ((FingerKey) -> Bool)? {
        switch event {
        case .touchDeviceRemoved(let touchId): return { $0.touchId == touchId }
        case .touchLiftLost(let touchId, let fingerId): return { $0 == FingerKey(touchId: touchId, fingerId: fingerId) }
        default: return nil
        }
    }

    /// The gates an input passes before the scene, in order: a touch already held, a blank screen (the input
    /// wakes it), the attract loop (the input ends it), a scene change running. True when one took it.
    func gate(_ event: EventLog.Event) -> Bool {
        if presence.isBlanked {
            if touches.take(event, for: .wake, orKey: true) {
                changeScreen(to: .scenes, byVisitor: true)
                noteInput()
                return true
            }
        } else if touches.swallows(event) {
            return true
        }
        if presence.isAskingStillThere, touches.take(event, for: .stillThere, orKey: true) {
            changeScreen(to: .scenes, byVisitor: true)
            noteInput()
            return true
        }
        if presence.attractLoop != nil, touches.take(event, for: .attractEnd, orKey: true) {
            noteInput()
            endAttract()
            return true
        }
        if navigator.isChanging(at: now), touches.take(event, for: .transition) { return true }
        return false
    }

    func scenePoint(pixel p: Point) -> Point {
        InputMapper.scenePoint(pixel: p, physicalSize: physicalSize, sceneSize: sceneSize, rotation: rotation)
    }

    /// Mouse wheel: scrolls (40 pt a step, the way a desktop scrolls); with Ctrl, zooms at the pointer.
    func wheel(_ steps: Point) {
        scene.wheel(steps, zoomAbout: input.controlKeys > 0 ? input.mousePosition : nil)
    }

    func resize(_ size: Size) {
        guard size != physicalSize else { return }
        physicalSize = size
        navigator.resize(sceneSize: wantedSceneSize)
    }

    func noteInput() { presence.noteInput(at: now) }
}

/// The installer's tools the kiosk shows instead of its scenes (`--calibrate`, `--touch-test`).
public enum InstallerTool: Sendable {
    case calibration
    case touchTest
}
