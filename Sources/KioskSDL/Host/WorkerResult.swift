import Foundation

/// Slow work done on a thread of its own, its result handed over as data: asked for without waiting (`result`,
/// as a frame asks each turn), or waited for up to a time limit (`wait(seconds:)`, as `--check` waits). The worker
/// leaves the process's signals to the main thread, as every thread of the kiosk's does, and calls `then` once
/// the result is stored (a wake-up of the frame loop). A result nobody will take is handed to `abandon`'s
/// disposer, now or when it arrives, so what it holds (a film's decoder) is let go.
final class WorkerResult<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?
    private var dispose: (@Sendable (Value) -> Void)?
    /// When the work began, on the monotonic clock.
    private let began = ProcessInfo.processInfo.systemUptime

    init(name: String, then: (@Sendable () -> Void)? = nil, _ work: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            SignalListener.leaveSignalsToTheMainThread()
            let v = work()
            condition.lock()
            value = v
            let disposer = dispose
            condition.broadcast()
            condition.unlock()
            disposer?(v)
            then?()
        }
        thread.name = name
        thread.start()
    }

    /// Work already done, by the caller (on the virtual clock, which waits for everything).
    init(done: Value) { value = done }

    /// The result, nil while the worker works.
    var result: Value? {
        condition.lock()
        defer { condition.unlock() }
        return value
    }

    /// The result, waited for at most `seconds`; nil when the worker has not finished by then (it is left to end
    /// on its own).
    func wait(seconds: Double) -> Value? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while value == nil {
            guard condition.wait(until: deadline) else { return nil }
        }
        return value
    }

    /// How long it has been working, in seconds.
    var secondsRunning: Double { ProcessInfo.processInfo.systemUptime - began }

    /// Nobody will take the result: `disposer` gets it, now if it is here, else when the worker has it.
    func abandon(_ disposer: @escaping @Sendable (Value) -> Void) {
        condition.lock()
        let done = value
        if done == nil { dispose = disposer }
        condition.unlock()
        if let done { disposer(done) }
    }
}
