import CSDL2
import CTouchTimes
import EventLog
import Foundation
import Glibc
import ScrollEngine
import Testing

@testable import Kiosk
@testable import KioskSDL

/// The kernel's times of the touches (`TouchTimes`): the evdev events of a real panel's recording, read through a
/// pipe as from a device, and a double tap whose second tap waited out a busy frame.
@Suite struct TouchTimesTests {
    /// The Atmel maXTouch's nine fast taps (evemu's recording, 800x480, ten slots).
    static let atmel = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(
            "TouchInputTests/Fixtures/real/evemu/Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events")

    /// A recording's events: (ms, type, code, value).
    static func events(_ url: URL) throws -> [(ms: Double, type: UInt16, code: UInt16, value: Int32)] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count >= 5, f[0] == "E:", let s = Double(f[1]), let type = UInt16(f[2], radix: 16),
                let code = UInt16(f[3], radix: 16), let value = Int32(f[4].prefix { $0 != "\t" })
            else { return nil }
            return (s * 1000, type, code, value)
        }
    }

    /// The bytes of `struct input_event` (x86-64 and arm64: a 64-bit timeval, type, code, value) at `base` + ms.
    static func bytes(_ events: [(ms: Double, type: UInt16, code: UInt16, value: Int32)], base: Double) -> [UInt8] {
        var out: [UInt8] = []
        for e in events {
            let us = Int64(((base + e.ms) * 1000).rounded())
            withUnsafeBytes(of: us / 1_000_000) { out += $0 }
            withUnsafeBytes(of: us % 1_000_000) { out += $0 }
            withUnsafeBytes(of: e.type) { out += $0 }
            withUnsafeBytes(of: e.code) { out += $0 }
            withUnsafeBytes(of: e.value) { out += $0 }
        }
        return out
    }

    /// A pipe standing in for SDL's touch device 7 (the Atmel's ranges, 800x480), and its reader; the kernel's
    /// clock is `kernelNow`.
    static func piped(kernelNow: @escaping () -> Double = { 0 }) -> (times: TouchTimes, write: Int32) {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        let times = TouchTimes(
            open: { _ in
                var state = kiosk_touch_state()
                kiosk_touch_times_start(&state, 10)
                (state.max_x, state.max_y) = (799, 479)
                return (fds[0], state)
            }, pathOf: { $0 == 7 ? "/dev/input/event7" : nil }, kernelNow: kernelNow)
        times.refresh(touchIds: [7, 8])
        return (times, fds[1])
    }

    @Test func theKernelsTimeOfEachOfSDLsFingersIsRead() throws {
        let recorded = try Self.events(Self.atmel)
        let (times, write) = Self.piped()
        defer { close(write) }
        #expect(times.devices.keys.sorted() == [7])  // 8 is no input device of this process
        let bytes = Self.bytes(recorded, base: 5000)
        #expect(bytes.withUnsafeBytes { Glibc.write(write, $0.baseAddress, $0.count) } == bytes.count)
        // SDL's fingers are the kernel's tracking ids: 3 to 11, a tap each. Their downs and lifts in the recording:
        let touches = recorded.filter { $0.type == 1 && $0.code == 0x14a }.map { 5000 + $0.ms }
        #expect(touches.count == 18)
        for (k, finger) in (3...11).enumerated() {
            let down = try #require(times.kernelMs(touchId: 7, finger: Int64(finger), phase: Int32(KIOSK_TOUCH_DOWN)))
            let up = try #require(times.kernelMs(touchId: 7, finger: Int64(finger), phase: Int32(KIOSK_TOUCH_UP)))
            #expect(abs(down - touches[2 * k]) < 0.001, "finger \(finger) down")
            #expect(abs(up - touches[2 * k + 1]) < 0.001, "finger \(finger) up")
        }
        // Each is taken once; what the kernel never said is not known.
        #expect(times.kernelMs(touchId: 7, finger: 3, phase: Int32(KIOSK_TOUCH_DOWN)) == nil)
        #expect(times.kernelMs(touchId: 8, finger: 3, phase: Int32(KIOSK_TOUCH_DOWN)) == nil)
    }

    /// The Atmel's four fingers dragged down (32 frames in 570 ms).
    static let drag = atmel.deletingLastPathComponent().appendingPathComponent(
        "Atmel-maXTouch-Touchscreen.4-finger-drag-down.events")

    /// The changes SDL makes of `events` (as this reader follows them), at `base` + ms.
    static func changes(_ events: [(ms: Double, type: UInt16, code: UInt16, value: Int32)], base: Double)
        -> [kiosk_touch_time]
    {
        let bytes = Self.bytes(events, base: base)
        var state = kiosk_touch_state()
        kiosk_touch_times_start(&state, 10)
        var out = [kiosk_touch_time](repeating: kiosk_touch_time(), count: 4096)
        let n = bytes.withUnsafeBytes { b in
            out.withUnsafeMutableBufferPointer {
                kiosk_touch_times_take(b.baseAddress, Int32(events.count), &state, $0.baseAddress, 4096)
            }
        }
        return Array(out.prefix(Int(n)))
    }

    /// What `times` says of each of SDL's `changes` (the kernel's ms, nil when not known), asked in order.
    static func asked(_ times: TouchTimes, _ changes: [kiosk_touch_time]) -> [Double?] {
        changes.map { c in
            times.kernelMs(
                touchId: 7, finger: c.finger, phase: Int32(c.phase),
                at: (Float(Double(c.x) / 799), Float(Double(c.y) / 479)))
        }
    }

    /// A frame that outlasts the kernel's buffer loses events, for SDL and for this reader, not the same ones. SDL
    /// lost the middle of the drag (this reader did not): each motion after it is still the kernel's own time,
    /// found by where the finger went (taken by order, each was the first one SDL lost, up to 190 ms early).
    @Test func motionsAfterEventsSDLLostKeepTheirTimes() throws {
        let recorded = try Self.events(Self.drag)
        let all = Self.changes(recorded, base: 5000)
        #expect(all.count > 90)
        let (times, write) = Self.piped()
        defer { close(write) }
        let bytes = Self.bytes(recorded, base: 5000)
        #expect(bytes.withUnsafeBytes { Glibc.write(write, $0.baseAddress, $0.count) } == bytes.count)
        let (lo, hi) = (all[all.count / 3].ms, all[2 * all.count / 3].ms)
        let sdl = all.filter { $0.ms < lo || $0.ms >= hi }
        let got = Self.asked(times, sdl)
        for (c, ms) in zip(sdl, got) {
            #expect(ms == c.ms, "finger \(c.finger) phase \(c.phase) at \(c.ms - 5000) ms")
        }
    }

    /// This reader lost the middle of the drag (`SYN_DROPPED`), SDL did not: what it lost is not known (nil, not
    /// another change's time), and every change after it is the kernel's own time again.
    @Test func changesThisReaderLostAreNotKnown() throws {
        let recorded = try Self.events(Self.drag)
        let all = Self.changes(recorded, base: 5000)
        let (lo, hi) = (all[all.count / 3].ms - 5000, all[2 * all.count / 3].ms - 5000)
        let dropped: (ms: Double, type: UInt16, code: UInt16, value: Int32) = (lo, 0, 3, 0)
        let kept = recorded.filter { $0.ms < lo } + [dropped] + recorded.filter { $0.ms >= hi }
        let (times, write) = Self.piped()
        defer { close(write) }
        let bytes = Self.bytes(kept, base: 5000)
        #expect(bytes.withUnsafeBytes { Glibc.write(write, $0.baseAddress, $0.count) } == bytes.count)
        let got = Self.asked(times, all)
        var known = 0
        for (c, ms) in zip(all, got) {
            if c.ms - 5000 >= lo && c.ms - 5000 < hi {
                #expect(ms == nil, "lost: finger \(c.finger) phase \(c.phase) at \(c.ms - 5000) ms")
            } else if let ms {
                #expect(ms == c.ms, "finger \(c.finger) phase \(c.phase) at \(c.ms - 5000) ms")
                known += 1
            }
        }
        // After the loss a finger's place is known again at its next change on each axis (a drag down moves
        // across rarely): about half of what came after.
        #expect(known >= all.count / 3)
        // The loss is said, at once, then at most once a minute.
        #expect(times.dropped == 1)
        #expect(times.dropsToSay(at: 10_000) == 1)
        #expect(times.dropsToSay(at: 10_001) == nil)
        let again = Self.bytes([dropped, (lo + 1, 0, 0, 0)], base: 6000)
        _ = again.withUnsafeBytes { Glibc.write(write, $0.baseAddress, $0.count) }
        times.read()
        #expect(times.dropped == 2)
        #expect(times.dropsToSay(at: 69_999) == nil)
        #expect(times.dropsToSay(at: 70_000) == 1)
    }

    /// A touch whose time is not known goes with the touch before it in the loop's turn, not at the turn's end
    /// (which would hold every later touch of the turn there too); the first of a turn, at the turn's time.
    @Test func aTouchNotKnownGoesWithTheOneBeforeIt() throws {
        let recorded = try Self.events(Self.atmel)
        let (times, write) = Self.piped { 1000 }
        defer { close(write) }
        let bytes = Self.bytes(recorded.filter { $0.ms < 200 }, base: 900)
        _ = bytes.withUnsafeBytes { Glibc.write(write, $0.baseAddress, $0.count) }
        // The kernel's clock and the kiosk's agree (1000 now); the turn's time is 1000.
        let down = Self.finger(SDL_FINGERDOWN, 3, x: 340, y: 242)
        let first = times.time(of: down, type: down.type, kioskNow: 1000, floor: 0, t: 1000)
        #expect(first > 900 && first < 1000)
        let unknown = Self.finger(SDL_FINGERDOWN, 99, x: 10, y: 10)
        #expect(times.time(of: unknown, type: unknown.type, kioskNow: 1000, floor: 0, t: 1000) == first)
        // The next turn's first touch not known: at the turn's time.
        #expect(times.time(of: unknown, type: unknown.type, kioskNow: 1100, floor: 0, t: 1100) == 1100)
    }

    /// SDL's event of a finger of the Atmel (touch id 7), normalised as SDL normalises it.
    static func finger(_ type: SDL_EventType, _ id: Int64, x: Double, y: Double) -> SDL_TouchFingerEvent {
        var f = SDL_TouchFingerEvent()
        f.type = type.rawValue
        f.touchId = 7
        f.fingerId = id
        f.x = Float(x / 799)
        f.y = Float(y / 479)
        f.pressure = 1
        return f
    }

    /// The first two taps of the recording, the second waiting out a frame that took 400 ms: SDL hands it over
    /// 250 ms after its lift. Given at the frame's time its down looks 385 ms after the first tap's lift (past
    /// the double tap's 300) and makes a second tap; given at the kernel's, 138 ms after, a double tap.
    @Test func aDoubleTapWaitingOutABusyFrameIsADoubleTap() throws {
        let recorded = try Self.events(Self.atmel)
        func run(kernelTimes: Bool) throws -> [String] {
            let app = try Self.app()
            // The kernel's clock is the kiosk's plus 5000 ms; the recording begins at 1000 on the kiosk's.
            let clock = Box()
            let (times, write) = Self.piped { clock.t + 5000 }
            defer { close(write) }
            let bytes = Self.bytes(recorded.filter { $0.ms < 400 }, base: 6000)
            _ = bytes.withUnsafeBytes { Glibc.write(write, $0.baseAddress, $0.count) }
            let taps: [(frame: Double, SDL_TouchFingerEvent)] = [
                (1000, Self.finger(SDL_FINGERDOWN, 3, x: 340, y: 242)),
                (1100, Self.finger(SDL_FINGERUP, 3, x: 340, y: 242)),
                // The frame from 1100 to 1566 was busy: the second tap's down (1234) and lift (1317) wait for it.
                (1566, Self.finger(SDL_FINGERDOWN, 4, x: 354, y: 228)),
                (1566, Self.finger(SDL_FINGERUP, 4, x: 354, y: 228)),
            ]
            var t = 1000.0
            var next = 0
            while t < 2500 {
                clock.t = t
                while next < taps.count && taps[next].frame <= t {
                    let f = taps[next].1
                    let at =
                        kernelTimes
                        ? times.time(of: f, type: f.type, kioskNow: t, floor: app.now, t: t) : t
                    app.handle(
                        .finger(
                            f.type == SDL_FINGERDOWN.rawValue ? .down : .up, touchId: 7, fingerId: f.fingerId,
                            x: Double(f.x), y: Double(f.y), dx: 0, dy: 0, pressure: 1), at: at)
                    next += 1
                }
                app.step(to: t)
                t += t >= 1100 && t < 1566 ? 466 : 1000.0 / 60
            }
            return app.sink.events.map(\.name).filter { $0 == "doubleTap" || $0 == "hotspotTapped" }
        }
        #expect(try run(kernelTimes: true) == ["doubleTap"])
        // At the frames' times, the bug: no double tap.
        #expect(try !run(kernelTimes: false).contains("doubleTap"))
    }

    @Test func changesSDLNeverReportedGoOldestFirst() {
        var device = TouchTimes.Device(path: "/dev/input/event7", fd: -1, state: kiosk_touch_state())
        let n = TouchTimes.keptPerDevice + 88
        for i in 0..<n {
            device.waiting[Int64(i % 3), default: []].append(.init(phase: Int32(KIOSK_TOUCH_MOTION), ms: Double(i)))
        }
        device.count = n
        let kept = TouchTimes.trimmed(device)
        #expect(kept.count == TouchTimes.keptPerDevice / 2)
        #expect(
            kept.waiting.values.flatMap { $0.map(\.ms) }.sorted()
                == (n - TouchTimes.keptPerDevice / 2..<n).map(Double.init))
    }

    @Test func aKernelsTimeIsKeptWithinTheLoopsTurn() {
        // 30 ms before now on the kernel's clock is 70 on the kiosk's (now 100).
        #expect(TouchTimes.kioskTime(kernelMs: 970, kernelNow: 1000, kioskNow: 100, floor: 0, t: 100) == 70)
        // Not before the app's last step, nor after the frame's time; the frame's time when not known.
        #expect(TouchTimes.kioskTime(kernelMs: 970, kernelNow: 1000, kioskNow: 100, floor: 80, t: 100) == 80)
        #expect(TouchTimes.kioskTime(kernelMs: 1010, kernelNow: 1000, kioskNow: 100, floor: 0, t: 100) == 100)
        #expect(TouchTimes.kioskTime(kernelMs: nil, kernelNow: 1000, kioskNow: 100, floor: 0, t: 95) == 95)
    }

    final class Box: @unchecked Sendable { var t = 0.0 }

    /// An 800x480 map whose only hotspot is far from the taps.
    static func app() throws -> KioskApp {
        let text = """
            {"kioskManifest": 1, "home": "map", "scenes": [
              {"id": "map", "type": "zoom", "image": "map.png", "maxZoom": 2.0, "doubleTapZoom": 1.0,
               "hotspots": [{"id": "far", "rect": [3500, 2000, 400, 300]}]}]}
            """
        let m = try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        return KioskApp(manifest: m, physicalSize: Size(width: 800, height: 480), rotation: .none, startScene: nil) {
            _ in ImageInfo(size: Size(width: 4000, height: 2400), loaded: true)
        }
    }
}
