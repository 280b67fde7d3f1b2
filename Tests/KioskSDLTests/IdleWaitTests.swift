import CSDL2
import Foundation
import Testing

@testable import KioskSDL

/// An idle kiosk sleeps in `poll(2)`: what ends the sleep, and that nothing left readable makes it spin.
/// In `SDLEventTests`' serialized suite: SDL's state is the process's.
extension SDLEventTests {
    /// A FIFO stands in for `/dev/input/event*` (these machines have neither devices nor uinput).
    @Test func aFIFOStandingInForADeviceEndsTheWaitAndIsDrained() throws {
        setenvDummy()
        #expect(SDL_Init(SDL_INIT_EVENTS) == 0)
        defer { SDL_Quit() }
        let fifo = NSTemporaryDirectory() + "kiosk-fifo-\(UUID().uuidString)"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let waiter = IdleWait(usesSDLWait: false, devices: { [fifo] })
        // Nothing arrives: the timer ends it.
        #expect(waiter.wait(milliseconds: 20) == .deadline)
        #expect(waiter.open[fifo] != nil)
        // Input that arrives while it sleeps ends a long sleep (not a poll tick later: there is no tick).
        let writer = open(fifo, O_WRONLY | O_NONBLOCK)
        #expect(writer >= 0)
        let fd = writer
        let thread = Thread {
            Thread.sleep(forTimeInterval: 0.05)
            var bytes = [UInt8](repeating: 7, count: 24)  // the size of one input_event
            _ = write(fd, &bytes, bytes.count)
        }
        thread.start()
        #expect(waiter.wait(milliseconds: 60_000) == .input)
        // What arrived was read: the next wait sleeps again instead of returning at once.
        #expect(waiter.wait(milliseconds: 20) == .deadline)
        // The writer leaves (a device unplugged): one wake-up, then the device is opened again and it sleeps.
        close(writer)
        #expect(waiter.wait(milliseconds: 20) == .input)
        #expect(waiter.wait(milliseconds: 20) == .deadline)
        #expect(waiter.open[fifo] != nil)
    }

    /// An event posted into SDL from another thread (a decoded tile) ends the sleep, and is in the queue then.
    /// A device plugged in (a node made in the devices' folder) ends the wait, and the next wait watches it: its
    /// first touch is not left for the next timer.
    @Test func aDevicePluggedInEndsTheWait() throws {
        setenvDummy()
        #expect(SDL_Init(SDL_INIT_EVENTS) == 0)
        defer { SDL_Quit() }
        let folder = NSTemporaryDirectory() + "kiosk-input-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let waiter = IdleWait(usesSDLWait: false, watching: folder) {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map { folder + "/" + $0 }
        }
        #expect(waiter.wait(milliseconds: 20) == .deadline)
        let device = folder + "/event7"
        #expect(mkfifo(device, 0o600) == 0)
        #expect(waiter.wait(milliseconds: 60_000) == .input)
        #expect(waiter.wait(milliseconds: 20) == .deadline)
        #expect(waiter.open[device] != nil)
    }

    @Test func anEventPushedFromAnotherThreadEndsTheWait() throws {
        setenvDummy()
        #expect(SDL_Init(SDL_INIT_EVENTS) == 0)
        defer { SDL_Quit() }
        let waiter = IdleWait(usesSDLWait: false, devices: { [] })
        waiter.wakeOnEvents()
        #expect(waiter.wait(milliseconds: 20) == .deadline)
        let type = SDL_RegisterEvents(1)
        let thread = Thread {
            Thread.sleep(forTimeInterval: 0.05)
            IdleWait.post(type)
        }
        thread.start()
        #expect(waiter.wait(milliseconds: 60_000) == .input)
        // The event is still in SDL's queue for the frame loop.
        var e = SDL_Event()
        #expect(SDL_PollEvent(&e) == 1 && e.type == type)
        #expect(waiter.wait(milliseconds: 20) == .deadline)
    }
}

extension SDLEventTests {
    /// The real clock reads fractions of a millisecond (SDL's high-resolution counter), never going back: a 30 fps
    /// film's frames are timed 33.3 ms apart, not 33 or 34 as SDL's whole-millisecond ticks had them (the loop gap
    /// of kiosk-bench, 1.08 with ticks).
    @Test func theRealClockReadsFractionsOfAMillisecond() {
        let clock = FrameClock(isVirtual: false, holdsItsPace: false)
        let reads = (0..<1000).map { _ in clock.realNow() }
        #expect(reads.contains { $0 != $0.rounded() })
        #expect(zip(reads, reads.dropFirst()).allSatisfy { $0 <= $1 })
    }
}
