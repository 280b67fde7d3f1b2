import Foundation
import Testing

@testable import KioskSDL

/// Slow work on a thread of its own (`WorkerResult`): its result asked for without waiting, waited for up to a
/// limit, and let go when nobody takes it. The work here blocks until the test lets it go, so nothing depends on
/// how fast the machine is.
@Suite struct WorkerResultTests {
    /// A gate the work waits at until the test opens it.
    final class Gate: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        func open() { semaphore.signal() }
        func pass() { semaphore.wait() }
    }

    /// What was handed to a disposer, or woken.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ s: String) { lock.withLock { items.append(s) } }
        var all: [String] { lock.withLock { items } }
    }

    @Test func aResultArrivesAsDataAndWakesTheCaller() {
        let gate = Gate()
        let woken = DispatchSemaphore(value: 0)
        let job: @Sendable () -> Int = {
            gate.pass()
            return 42
        }
        let work = WorkerResult(name: "test", then: { woken.signal() }, job)
        #expect(work.result == nil, "the frame does not wait")
        gate.open()
        woken.wait()
        #expect(work.result == 42)
        #expect(work.wait(seconds: 0) == 42)
    }

    @Test func aWorkerThatDoesNotAnswerIsGivenUpAtItsLimit() {
        let gate = Gate()
        let work = WorkerResult(name: "test") {
            gate.pass()
            return 1
        }
        #expect(work.wait(seconds: 0.05) == nil)
        gate.open()
        #expect(work.wait(seconds: 60) == 1)
    }

    @Test func aResultNobodyTakesIsLetGoWhenItArrives() {
        let gate = Gate()
        let seen = Seen()
        let finished = DispatchSemaphore(value: 0)
        let job: @Sendable () -> String = {
            gate.pass()
            return "late"
        }
        let work = WorkerResult(name: "test", then: { finished.signal() }, job)
        work.abandon { seen.add($0) }
        #expect(seen.all.isEmpty)
        gate.open()
        finished.wait()
        #expect(seen.all == ["late"])
        // One already here is let go at once.
        let done = WorkerResult(done: "done")
        done.abandon { seen.add($0) }
        #expect(seen.all == ["late", "done"])
    }
}
