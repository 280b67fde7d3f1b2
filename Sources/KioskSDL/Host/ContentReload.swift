import CSDL2
import Foundation
import Kiosk
import ScrollEngine

#if canImport(Glibc)
    import Glibc
#endif

/// Where the SIGHUP handler writes: the read end is watched by a thread that turns each wake into an SDL event.
nonisolated(unsafe) var hangupWriteFD: Int32 = -1

/// `systemctl reload kiosk` (docs/operations.md): SIGHUP loads and checks the manifest and everything it names on a
/// thread of its own while the frame loop runs on; the frame loop then swaps the new content in at a frame
/// boundary, or keeps the old and says why. One load at a time: signals that arrive during a load ask for one
/// more load after it (the files may have changed again), however many there were.
final class ContentReload: @unchecked Sendable {
    /// The manifest to read again.
    let path: String
    /// The screen (physical pixels) whose first level of each Deep Zoom image is checked.
    let screen: Size
    /// The SDL event a SIGHUP becomes, the one a finished load pushes, and the one a SIGUSR1 becomes (a picture
    /// of the screen, docs/operations.md: the same pipe carries it).
    let requestEvent: UInt32
    let doneEvent: UInt32
    let pictureEvent: UInt32
    let lock = NSLock()
    /// What the last load found (set on the loading thread, taken on the frame loop's).
    private var finished: ContentReport?
    /// Main thread only.
    private(set) var isLoading = false
    private var again = false
    /// When the running load began (SDL's ticks), and whether its slowness was said.
    private var loadStartTicks: UInt64 = 0
    private var warnedSlow = false
    /// A load this long is not normal: a thousand images check in a few seconds.
    static let slowLoadSeconds = 30.0

    init(path: String, screen: Size) {
        self.path = path
        self.screen = screen
        let first = SDL_RegisterEvents(3)
        requestEvent = first
        doneEvent = first + 1
        pictureEvent = first + 2
        listenForHangup()
    }

    /// The handler only writes a byte to a pipe (async-signal-safe, errno kept); a thread reads it and pushes
    /// an SDL event, which wakes the frame loop wherever it sleeps (SDL's wait or `poll`).
    func listenForHangup() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            log(.warning, "reload: no pipe for SIGHUP (\(String(cString: strerror(errno)))); reload is off")
            return
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        hangupWriteFD = fds[1]
        // A SIGHUP from the kernel is not a reload: it is the terminal hanging up (systemd hangs tty1 up when a
        // unit starts on it). The kiosk runs on: a unit that wants tty1 stops it first (the tools' units are
        // ordered after it).
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { _, info, _ in
            let saved = errno
            let code: Int32 = info.map { $0.pointee.si_code } ?? 0
            var byte = code == Int32(SI_KERNEL) ? ContentReload.hangupByte : ContentReload.reloadByte
            _ = write(hangupWriteFD, &byte, 1)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART | SA_SIGINFO
        sigaction(SIGHUP, &action, nil)
        var picture = sigaction()
        picture.__sigaction_handler.sa_handler = { _ in
            let saved = errno
            var byte = ContentReload.pictureByte
            _ = write(hangupWriteFD, &byte, 1)
            errno = saved
        }
        sigemptyset(&picture.sa_mask)
        picture.sa_flags = SA_RESTART
        sigaction(SIGUSR1, &picture, nil)
        // A parent may have started us with them blocked (signal masks are inherited): they are ours to take.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGHUP)
        sigaddset(&set, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        let reader = fds[0]
        let (event, pictureEvent) = (requestEvent, self.pictureEvent)
        let t = Thread {
            Self.leaveSignalsToTheMainThread()
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let n = read(reader, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                if buffer[0..<n].contains(Self.hangupByte) {
                    log(.info, "the terminal hung up (a SIGHUP from the kernel, not a reload): running on")
                }
                // Many signals at once are one picture and one reload.
                for (byte, type) in [(Self.reloadByte, event), (Self.pictureByte, pictureEvent)]
                where buffer[0..<n].contains(byte) {
                    IdleWait.post(type)
                }
            }
        }
        t.name = "kiosk-sighup"
        t.start()
    }

    static let reloadByte: UInt8 = 1
    static let hangupByte: UInt8 = 2
    static let pictureByte: UInt8 = 3

    /// SIGTERM and SIGINT end the frame loop's sleep: they are delivered to the main thread, not this one.
    static func leaveSignalsToTheMainThread() {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGUSR1] { sigaddset(&set, sig) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// A SIGHUP arrived: a load starts now, or after the one running. True when one started.
    @discardableResult
    func request() -> Bool {
        if isLoading {
            again = true
            // A load that does not end (a file on a share that stopped answering) is said, once, not waited on
            // in silence.
            let seconds = Double(SDL_GetTicks64() - loadStartTicks) / 1000
            if seconds >= Self.slowLoadSeconds && !warnedSlow {
                warnedSlow = true
                log(
                    .warning,
                    "reload: the load that began \(Int(seconds)) s ago has not finished (a file that does not answer?); "
                        + "this reload starts after it")
            }
            return false
        }
        isLoading = true
        loadStartTicks = SDL_GetTicks64()
        warnedSlow = false
        log(.info, "reload: checking \(path)")
        let (path, screen, done) = (self.path, self.screen, doneEvent)
        let t = Thread { [self] in
            Self.leaveSignalsToTheMainThread()
            // The load yields to the frame loop, as the tile decoders do.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, TileWorkers.niceness)
            let report = Runner.checkContent(path, screen: screen)
            lock.lock()
            finished = report
            lock.unlock()
            IdleWait.post(done)
        }
        t.name = "kiosk-reload"
        t.start()
        return true
    }

    /// The finished load's report, once (nil while loading or when none ran). A load asked for meanwhile
    /// starts when the caller has dealt with this one (`next`).
    func take() -> ContentReport? {
        lock.lock()
        defer { lock.unlock() }
        guard let report = finished else { return nil }
        finished = nil
        isLoading = false
        return report
    }

    /// Starts the load that signals asked for during the last one, if any; true when one started.
    func next() -> Bool {
        guard again else { return false }
        again = false
        return request()
    }
}
