import CClock
import CSDL2
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where the signal handlers write (the running waiter's pipe), and SDL's handlers they pass the signal on to.
nonisolated(unsafe) var signalWakeFD: Int32 = -1
/// Where `IdleWait.post` writes once its event is queued (the running waiter's pipe).
nonisolated(unsafe) var eventWakeFD: Int32 = -1
nonisolated(unsafe) var previousTermHandler: (@convention(c) (Int32) -> Void)?
nonisolated(unsafe) var previousIntHandler: (@convention(c) (Int32) -> Void)?

/// How an idle kiosk sleeps: until input arrives, another thread wakes it (a decoded tile, an event pushed into
/// SDL, SIGTERM), or its next timer is due; it does not wake in between.
///
/// On window systems SDL's own wait blocks on the display connection. Elsewhere SDL 2.26 cannot block: its
/// `SDL_WaitEventTimeout` polls every millisecond under kmsdrm and dummy. There the kiosk waits in `poll(2)` on
/// the input devices SDL reads (`/dev/input/event*`, each opened a second time: evdev gives every reader its
/// own copy of the events, so reading ours takes nothing from SDL) and on a pipe that wakes it, then lets SDL
/// pump.
final class IdleWait {
    enum Reason: Equatable {
        /// Something arrived: input on a device, an event in SDL's queue, or a wake-up.
        case input
        case deadline
        /// A signal (SIGTERM, SIGINT) interrupted the wait.
        case interrupted
    }

    /// Waits in SDL (a window system) rather than in `poll(2)`.
    let usesSDLWait: Bool
    /// The device paths to watch, asked again before each wait (devices come and go).
    let devices: () -> [String]
    var open: [String: Int32] = [:]
    /// The wake-up pipe: whatever writes a byte to `wakeFD` ends the wait.
    let pipeFDs: (read: Int32, write: Int32)
    var wakeFD: Int32 { pipeFDs.write }

    /// An inotify watch on the devices' folder (-1: none): a device plugged in ends the wait, so the loop lets SDL
    /// take it and the next wait watches it too (else its first touch waited for the next timer, up to
    /// `FrameLoop.maximumSleepMs`).
    let folderWatch: Int32

    /// The kernel's times of SDL's touches, where SDL reads evdev itself (kmsdrm): its devices are this
    /// waiter's, read a third time.
    let touchTimes: TouchTimes?

    init(
        usesSDLWait: Bool, watching folder: String? = nil, touchTimes: TouchTimes? = nil,
        devices: @escaping () -> [String]
    ) {
        self.usesSDLWait = usesSDLWait
        self.devices = devices
        self.touchTimes = touchTimes
        var watch: Int32 = -1
        if let folder {
            watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            if watch >= 0, inotify_add_watch(watch, folder, UInt32(IN_CREATE | IN_ATTRIB | IN_DELETE)) < 0 {
                close(watch)
                watch = -1
            }
        }
        folderWatch = watch
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            fds = [-1, -1]
        }
        pipeFDs = (fds[0], fds[1])
    }

    /// The waiter for the running video driver: SDL's wait on x11 and wayland, `poll(2)` on the input devices
    /// elsewhere. `$KIOSK_INPUT_DEVICES` (paths separated by colons) replaces `/dev/input/event*`: tests stand a
    /// FIFO in for a device.
    static func forCurrentDriver(environment: [String: String] = ProcessInfo.processInfo.environment) -> IdleWait {
        // SDL 2.26 says "KMSDRM": a kiosk compared as "kmsdrm" waited on no input device, and an idle screen took
        // a touch only at its next timer (up to `maximumSleepMs`).
        let driver = (SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "").lowercased()
        if let list = environment["KIOSK_INPUT_DEVICES"] {
            let paths = list.split(separator: ":").map(String.init)
            return IdleWait(usesSDLWait: false, devices: { paths })
        }
        if driver == "x11" || driver == "wayland" { return IdleWait(usesSDLWait: true, devices: { [] }) }
        guard driver == "kmsdrm" else { return IdleWait(usesSDLWait: false, devices: { [] }) }
        return IdleWait(usesSDLWait: false, watching: "/dev/input", touchTimes: TouchTimes()) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/input")) ?? []
            return names.filter { $0.hasPrefix("event") }.sorted().map { "/dev/input/" + $0 }
        }
    }

    /// Makes every way another party has of waking the kiosk end this waiter's waits: an event pushed into
    /// SDL from any thread (a decoded tile, a test's quit) and SIGTERM or SIGINT (whose handler, SDL's, only
    /// sets a flag that the next pump reads; a signal that lands between the pump and `poll` would otherwise
    /// wait for the timer).
    func wakeOnEventsAndSignals() {
        wakeOnEvents()
        wakeOnSignals()
    }

    /// An event posted into SDL's queue from any thread (`post`) ends the wait.
    func wakeOnEvents() {
        guard !usesSDLWait, pipeFDs.write >= 0 else { return }
        eventWakeFD = pipeFDs.write
    }

    /// Pushes an event of `type` into SDL's queue (any thread) and then wakes the waiter: the event is there when
    /// it wakes. (SDL calls an event watch before it queues the event: a waiter woken from one could find the
    /// queue still empty and sleep again, the event unseen until its next timer.) With SDL's own wait
    /// (`usesSDLWait`), the push alone wakes it.
    static func post(_ type: UInt32) {
        var e = SDL_Event()
        e.type = type
        SDL_PushEvent(&e)
        if eventWakeFD >= 0 { wake(eventWakeFD) }
    }

    /// SIGTERM and SIGINT end the wait (then SDL's handler, called after ours, makes them a quit).
    func wakeOnSignals() {
        guard !usesSDLWait, pipeFDs.write >= 0 else { return }
        signalWakeFD = pipeFDs.write
        for sig in [SIGTERM, SIGINT] {
            var old = sigaction()
            sigaction(sig, nil, &old)
            guard let sdl = old.__sigaction_handler.sa_handler, unsafeBitCast(sdl, to: Int.self) > 1 else { continue }
            if sig == SIGTERM { previousTermHandler = sdl } else { previousIntHandler = sdl }
            var new = old
            new.__sigaction_handler.sa_handler = { s in
                IdleWait.wake(signalWakeFD)
                let previous = s == SIGTERM ? previousTermHandler : previousIntHandler
                previous?(s)
            }
            sigaction(sig, &new, nil)
        }
    }

    /// Ends a wait now (any thread; async-signal-safe).
    static func wake(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }

    /// Sleeps up to `milliseconds` (to the microsecond in `ppoll(2)`: a film frame due at 33.3 ms is not shown at
    /// 34; rounded up to whole milliseconds in SDL's wait). Events stay in SDL's queue for the caller.
    @discardableResult
    func wait(milliseconds: Double) -> Reason {
        drain(pipeFDs.read)
        let ms = min(Double(Int32.max), max(0, milliseconds))
        if usesSDLWait { return SDL_WaitEventTimeout(nil, Int32(ms.rounded(.up))) == 1 ? .input : .deadline }
        SDL_PumpEvents()
        if SDL_HasEvents(SDL_FIRSTEVENT.rawValue, SDL_LASTEVENT.rawValue) == SDL_TRUE { return .input }
        refreshDevices()
        var fds = [pollfd(fd: pipeFDs.read, events: Int16(POLLIN), revents: 0)]
        let paths = open.keys.sorted()
        for path in paths { fds.append(pollfd(fd: open[path] ?? -1, events: Int16(POLLIN), revents: 0)) }
        fds.append(pollfd(fd: folderWatch, events: Int16(POLLIN), revents: 0))
        let n = kiosk_poll_micros(&fds, UInt(fds.count), Int64((ms * 1000).rounded(.up)))
        if n < 0 { return errno == EINTR ? .interrupted : .deadline }
        if n == 0 { return .deadline }
        drain(pipeFDs.read)
        if folderWatch >= 0 { drain(folderWatch) }
        for (i, path) in paths.enumerated() {
            let revents = Int32(fds[i + 1].revents)
            if revents & Int32(POLLIN) != 0 { drain(fds[i + 1].fd) }
            // A device unplugged, or a FIFO whose writer left: closed, opened again before the next wait.
            if revents & Int32(POLLHUP | POLLERR | POLLNVAL) != 0 {
                close(fds[i + 1].fd)
                open[path] = nil
            }
        }
        return .input
    }

    /// Opens the devices that appeared and forgets those that left.
    func refreshDevices() {
        let wanted = Set(devices())
        for (path, fd) in open where !wanted.contains(path) {
            close(fd)
            open[path] = nil
        }
        for path in wanted where open[path] == nil {
            let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 { open[path] = fd }
        }
    }

    /// Reads whatever `fd` holds, so it does not stay readable.
    func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(fd, &buffer, buffer.count) > 0 {}
    }

    deinit {
        for fd in open.values { close(fd) }
        if folderWatch >= 0 { close(folderWatch) }
        // No later post writes into whatever file takes this number next.
        if eventWakeFD == pipeFDs.write { eventWakeFD = -1 }
        close(pipeFDs.read)
        close(pipeFDs.write)
    }
}
