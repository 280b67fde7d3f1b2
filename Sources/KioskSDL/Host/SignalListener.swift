import CEarlySignals
import CSDL2
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The operator's signals as SDL events, in every mode (the kiosk, a replay, `--calibrate`, `--touch-test`):
/// `SIGHUP` asks for a reload (docs/operations.md), `SIGUSR1` for a picture of the screen. What each mode does with
/// them is the frame loop's; none is dropped on the way. (`SIGTERM` and `SIGINT` are SDL's quit, which `IdleWait`
/// wakes for.)
final class SignalListener {
    /// The SDL event a `SIGHUP` from a process becomes, and the one a `SIGUSR1` becomes.
    let reloadEvent: UInt32
    let pictureEvent: UInt32
    /// The headphone jack's plugs, which come from outside the window too.
    let jack = HeadphoneJack()

    init() {
        let first = SDL_RegisterEvents(2)
        reloadEvent = first
        pictureEvent = first + 1
        listen()
    }

    static let reloadByte = UInt8(KIOSK_SIGNAL_RELOAD)
    static let hangupByte = UInt8(KIOSK_SIGNAL_HANGUP)
    static let pictureByte = UInt8(KIOSK_SIGNAL_PICTURE)

    /// The handlers only write a byte to a pipe (async-signal-safe, errno kept); a thread reads it and pushes
    /// an SDL event, which wakes the frame loop wherever it sleeps (SDL's wait or `poll`).
    private func listen() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            log(
                .warning,
                "signals: no pipe (\(String(cString: strerror(errno)))); SIGHUP and SIGUSR1 are ignored")
            return
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        // A SIGHUP from the kernel is not a reload: it is the terminal hanging up (systemd hangs tty1 up when a
        // unit starts on it). The kiosk runs on: a unit that wants tty1 stops it first (the tools' units are
        // ordered after it). The handlers are C (CEarlySignals): one written in Swift can allocate.
        guard kiosk_signals_install(fds[1]) == 0 else {
            log(.warning, "signals: no handlers (\(String(cString: strerror(errno)))); SIGHUP and SIGUSR1 are ignored")
            return
        }
        // A parent may have started us with them blocked (signal masks are inherited): they are ours to take.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGHUP)
        sigaddset(&set, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        let reader = fds[0]
        let (reload, shot) = (reloadEvent, pictureEvent)
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
                for (byte, type) in [(Self.reloadByte, reload), (Self.pictureByte, shot)]
                where buffer[0..<n].contains(byte) {
                    IdleWait.post(type)
                }
            }
        }
        t.name = "kiosk-signals"
        t.start()
    }

    /// The process's signals are delivered to the main thread, never to one of the kiosk's own: SIGTERM and
    /// SIGINT end the frame loop's sleep there.
    static func leaveSignalsToTheMainThread() {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGUSR1] { sigaddset(&set, sig) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}
