import CHeadphoneJack
import CSDL2
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The headphone jack, where the hardware reports one (a codec's input switch, `SW_HEADPHONE_INSERT`): a plug put in
/// or pulled out becomes an SDL event, which wakes the frame loop; the loop records it and hands it to the app
/// (`KIOSK_HEADSET`), which begins audio mode at a plug put in (docs/accessibility.md). A plug already in when
/// the kiosk starts is a headset left on its hook: nothing begins until it is put in again. Without a reported
/// jack, nothing (a key begins audio mode).
final class HeadphoneJack {
    /// The SDL events a plug put in and one pulled out become.
    let pluggedEvent: UInt32
    let unpluggedEvent: UInt32

    init(folder: String = "/dev/input") {
        let first = SDL_RegisterEvents(2)
        pluggedEvent = first
        unpluggedEvent = first + 1
        watch(folder)
    }

    /// What `e` says of the jack: a plug put in (true), pulled out (false), or nothing (another event).
    func plugged(_ e: SDL_Event) -> Bool? {
        e.type == pluggedEvent ? true : e.type == unpluggedEvent ? false : nil
    }

    static let maximumJacks = 8

    private func watch(_ folder: String) {
        var fds = [Int32](repeating: -1, count: Self.maximumJacks)
        let n = Int(kiosk_jacks_open(folder, &fds, Int32(Self.maximumJacks)))
        guard n > 0 else { return }
        let jacks = Array(fds.prefix(n))
        let states = jacks.map { kiosk_jack_state($0) }
        log(
            .info,
            "headphone jack: \(n) reported (\(states.map { $0 == 1 ? "a plug in" : $0 == 0 ? "empty" : "unknown" }.joined(separator: ", "))); "
                + "a headset plugged in begins audio mode")
        let (plugged, unplugged) = (pluggedEvent, unpluggedEvent)
        let t = Thread {
            SignalListener.leaveSignalsToTheMainThread()
            var polled = jacks.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            while !polled.isEmpty {
                if poll(&polled, nfds_t(polled.count), -1) < 0 {
                    if errno == EINTR { continue }
                    return
                }
                for i in polled.indices.reversed() where polled[i].revents != 0 {
                    switch kiosk_jack_read(polled[i].fd) {
                    case 1: IdleWait.post(plugged)
                    case 0: IdleWait.post(unplugged)
                    case -2:
                        log(.warning, "headphone jack: its device went away; it is no longer watched")
                        close(polled[i].fd)
                        polled.remove(at: i)
                    default: break
                    }
                }
            }
        }
        t.name = "kiosk-headphone-jack"
        t.start()
    }
}
