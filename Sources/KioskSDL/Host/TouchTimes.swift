import CSDL2
import CTouchTimes
import EventLog
import Glibc

/// When the kernel took each touch, for the touches SDL reads from evdev (kmsdrm).
///
/// SDL stamps a touch when it reads it, and the frame loop reads once a turn: the touches that waited out a busy
/// frame (a large picture's first cut, a film starting, a slow board) all came with the frame's time, so the
/// second tap of a double tap, taken 140 ms after the first's lift, looked 400 ms late and made two taps; a
/// tap held through such a frame looked like a press. The kernel stamps every event as the panel reports it:
/// each of SDL's touch devices (whose touch id is SDL's own descriptor of it) is opened once more (evdev
/// gives every reader all events), its events followed as SDL follows them (`CTouchTimes`), and each finger's
/// down, up and motion waits, by finger, for SDL's event of it.
final class TouchTimes {
    /// A finger's change as the kernel reported it.
    struct Change {
        var phase: Int32
        var ms: Double
        var x: Int32 = 0
        var y: Int32 = 0
    }

    /// One of SDL's touch devices, read once more.
    struct Device {
        let path: String
        let fd: Int32
        var state: kiosk_touch_state
        /// The kernel's times (ms on CLOCK_MONOTONIC) of each finger's changes not yet matched, in order, and where
        /// the finger was (the device's units).
        var waiting: [Int64: [Change]] = [:]
        var count = 0
    }

    /// By SDL's touch id.
    private(set) var devices: [Int64: Device] = [:]
    /// SDL's touch ids that are no input device of this process (not evdev's).
    private var foreign: Set<Int64> = []
    /// What opens a device's path (a test's pipe).
    let open: (String) -> (fd: Int32, state: kiosk_touch_state)?
    /// The path of SDL's touch id.
    let pathOf: (Int64) -> String?
    /// Now on the kernel's clock (CLOCK_MONOTONIC, ms).
    let kernelNow: () -> Double
    /// The times the kernel dropped a device's events for this reader (`SYN_DROPPED`: a frame outlasted its
    /// buffer; SDL's reader lost events then too), said in a line at most once a minute.
    private var drops = Tally()
    var dropped: Int { drops.count }
    /// The fingers whose lift SDL lost, and how many of them there were (said as the drops are).
    private var lifts = LiftWatch()
    private var lostLifts = Tally()

    /// The drops not said yet, when one line may say them at `t` (the first at once, then once a minute).
    func dropsToSay(at t: Double) -> Int? { drops.toSay(at: t) }

    /// The lost lifts not said yet, as `dropsToSay`.
    func lostLiftsToSay(at t: Double) -> Int? { lostLifts.toSay(at: t) }

    /// The fingers of `down` whose lift SDL lost (`LiftWatch`), looked at `t` after SDL read its devices.
    func liftsLost(down: Set<FingerKey>, at t: Double) -> [FingerKey] {
        let lost = lifts.lost(down: down, at: t, onPanel: fingersOnPanel(touchId:))
        lostLifts.add(lost.count)
        return lost
    }

    /// The time the last touch was given (touches are given in order), and the loop's turn it was given in.
    private var lastGiven = -Double.infinity
    private var lastTurn = -Double.infinity

    /// Changes kept per device before the oldest go (SDL did not report them: a motion it found unchanged or lost).
    /// More than one read can bring (the kernel keeps about a thousand events for a reader), so that a long frame's
    /// touches, read at once, are all there when SDL's come.
    static let keptPerDevice = 16384

    init(
        open: @escaping (String) -> (fd: Int32, state: kiosk_touch_state)? = TouchTimes.openDevice,
        pathOf: @escaping (Int64) -> String? = TouchTimes.path(ofDescriptor:),
        kernelNow: @escaping () -> Double = { Double(monotonicMicroseconds()) / 1000 }
    ) {
        self.open = open
        self.pathOf = pathOf
        self.kernelNow = kernelNow
    }

    static func openDevice(_ path: String) -> (fd: Int32, state: kiosk_touch_state)? {
        var state = kiosk_touch_state()
        let fd = kiosk_touch_times_open(path, &state)
        return fd >= 0 ? (fd, state) : nil
    }

    /// SDL's evdev reader names a touch device by its descriptor: the device file it has open.
    static func path(ofDescriptor id: Int64) -> String? {
        guard id >= 0, id < Int64(Int32.max) else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        let n = readlink("/proc/self/fd/\(id)", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let path = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.hasPrefix("/dev/input/event") ? path : nil
    }

    /// SDL's touch ids at the last refresh.
    private var known: [Int64] = []

    /// Opens SDL's touch devices it does not read yet (or no longer: gone and back), and lets go of those SDL
    /// no longer has.
    func refresh(touchIds: [Int64]) {
        if touchIds != known {
            known = touchIds
            foreign = []
        }
        for (id, device) in devices where !touchIds.contains(id) {
            close(device.fd)
            devices[id] = nil
        }
        for id in touchIds where devices[id] == nil && !foreign.contains(id) {
            guard let path = pathOf(id), let (fd, state) = open(path) else {
                foreign.insert(id)
                continue
            }
            devices[id] = Device(path: path, fd: fd, state: state)
        }
    }

    /// The fingers (SDL's ids) the kernel has on SDL's device `touchId` now, as its slots keep them; nil when it
    /// cannot say (a single-touch screen, a device not read).
    func fingersOnPanel(touchId: Int64) -> Set<Int64>? {
        guard let device = devices[touchId] else { return nil }
        var ids = [Int32](repeating: -1, count: Int(KIOSK_TOUCH_SLOTS))
        let n = kiosk_touch_times_fingers(device.fd, Int32(device.state.slots), &ids, Int32(ids.count))
        guard n > 0 else { return nil }
        return Set(ids.prefix(Int(n)).filter { $0 >= 0 }.map { Int64($0) })
    }

    /// SDL's touch devices now.
    static func sdlTouchIds() -> [Int64] {
        (0..<max(0, SDL_GetNumTouchDevices())).map { Int64(SDL_GetTouchDevice($0)) }
    }

    /// What a read brings, kept for every read (it runs once a turn while fingers move).
    private var records = [kiosk_touch_time](repeating: kiosk_touch_time(), count: 1024)

    /// Reads what every device holds; a device gone is let go (opened again if SDL still has it).
    func read() {
        // A full buffer leaves the rest in the kernel: read again until less came.
        let full = records.count - Int(KIOSK_TOUCH_READ_ROOM)
        for id in Array(devices.keys) {
            guard var device = devices[id] else { continue }
            let drops = device.state.drops
            defer { self.drops.add(Int(device.state.drops - drops)) }
            var n: Int32 = 0
            repeat {
                n = records.withUnsafeMutableBufferPointer {
                    kiosk_touch_times_read(device.fd, &device.state, $0.baseAddress, Int32($0.count))
                }
                for r in records.prefix(Int(max(0, n))) {
                    device.waiting[r.finger, default: []].append(Change(phase: r.phase, ms: r.ms, x: r.x, y: r.y))
                }
                device.count += Int(max(0, n))
            } while n > full
            guard n >= 0 else {
                close(device.fd)
                devices[id] = nil
                continue
            }
            if device.count > Self.keptPerDevice { device = Self.trimmed(device) }
            devices[id] = device
        }
    }

    /// `device` with its oldest changes gone, down to half of what is kept.
    static func trimmed(_ device: Device) -> Device {
        var d = device
        let all = d.waiting.values.flatMap { $0.map(\.ms) }.sorted()
        guard all.count > keptPerDevice / 2 else { return d }
        let cut = all[all.count - keptPerDevice / 2]
        d.waiting = d.waiting.compactMapValues { list in
            let kept = list.filter { $0.ms >= cut }
            return kept.isEmpty ? nil : kept
        }
        d.count = d.waiting.values.reduce(0) { $0 + $1.count }
        return d
    }

    /// The kernel's time (ms on CLOCK_MONOTONIC) of SDL's finger event `phase` of `finger` on `touchId` (a motion:
    /// to `at`, SDL's position), the devices read again if it has not come yet; nil when it is not known.
    func kernelMs(touchId: Int64, finger: Int64, phase: Int32, at: (x: Float, y: Float)? = nil) -> Double? {
        if let ms = take(touchId: touchId, finger: finger, phase: phase, at: at) { return ms }
        read()
        return take(touchId: touchId, finger: finger, phase: phase, at: at)
    }

    /// A motion SDL normalised to `at` (its 0 to 1 across the axis's range) is the kernel's `change`: within a
    /// unit and a half of the device (SDL's rounding, and ranges taken as `max - min` or one more).
    static func same(_ change: Change, _ at: (x: Float, y: Float), _ state: kiosk_touch_state) -> Bool {
        let rx = Double(state.max_x - state.min_x)
        let ry = Double(state.max_y - state.min_y)
        guard rx > 0, ry > 0 else { return true }
        return abs(Double(at.x) * rx - Double(change.x - state.min_x)) <= 1.5
            && abs(Double(at.y) * ry - Double(change.y - state.min_y)) <= 1.5
    }

    private func take(touchId: Int64, finger: Int64, phase: Int32, at: (x: Float, y: Float)?) -> Double? {
        // A motion is matched by where it went: SDL and this reader each lose events when a frame outlasts the
        // kernel's buffer (`SYN_DROPPED`), not the same ones, and SDL drops a motion it finds unchanged.
        guard var device = devices[touchId], let list = device.waiting[finger],
            let i = list.firstIndex(where: { change in
                change.phase == phase
                    && (phase != KIOSK_TOUCH_MOTION || at.map { Self.same(change, $0, device.state) } ?? true)
            })
        else { return nil }
        // Changes before it that SDL did not report go with it.
        let rest = list[(i + 1)...]
        device.waiting[finger] = rest.isEmpty ? nil : Array(rest)
        device.count -= i + 1
        devices[touchId] = device
        return list[i].ms
    }

    /// The kiosk's time of SDL's finger event `e` of `type`: the kernel's, on the kiosk's clock (`kioskNow` is now
    /// on it), within the loop's turn (not before `floor`, the time the app last stepped to, nor the last touch
    /// given, nor after `t`, the frame's); `t` when the kernel's is not known.
    func time(of e: SDL_TouchFingerEvent, type: UInt32, kioskNow: Double, floor: Double, t: Double) -> Double {
        let phase =
            type == SDL_FINGERDOWN.rawValue
            ? KIOSK_TOUCH_DOWN : type == SDL_FINGERUP.rawValue ? KIOSK_TOUCH_UP : KIOSK_TOUCH_MOTION
        let kernel = kernelMs(
            touchId: Int64(e.touchId), finger: Int64(e.fingerId), phase: Int32(phase), at: (e.x, e.y))
        // Not known (lost from this reader's events): with the touch before it in this turn, not at the turn's end.
        let unknown = lastTurn == t ? min(t, max(floor, lastGiven)) : t
        let given = Self.kioskTime(
            kernelMs: kernel, kernelNow: kernelNow(), kioskNow: kioskNow, floor: max(floor, lastGiven), t: t,
            unknown: unknown)
        lastGiven = given
        lastTurn = t
        return given
    }

    /// The kernel's time `kernelMs` (nil: not known, then `unknown`, or `t`) on the kiosk's clock, `kernelNow` and
    /// `kioskNow` being the same moment on each, kept within `floor...t`.
    static func kioskTime(
        kernelMs: Double?, kernelNow: Double, kioskNow: Double, floor: Double, t: Double, unknown: Double? = nil
    ) -> Double {
        guard let kernelMs else { return unknown ?? t }
        return min(t, max(floor, kioskNow - (kernelNow - kernelMs)))
    }

    deinit {
        for d in devices.values { close(d.fd) }
    }
}
