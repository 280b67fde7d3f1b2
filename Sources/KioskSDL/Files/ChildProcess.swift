import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program the kiosk runs (espeak-ng), bounded: it starts with every signal unblocked and at its default (the
/// kiosk's threads block SIGTERM, SIGHUP, SIGINT and SIGALRM, and a child started from one inherited that, so the
/// kiosk's terminate did nothing), in a process group of its own (what it starts in turn ends with it), its
/// standard output kept up to `outputLimit` bytes and its errors up to `errorLimit`, and killed when it goes past
/// either or past `timeoutSeconds`. Called off the frame thread: it waits for the child.
enum ChildProcess {
    struct Outcome {
        var output: [UInt8] = []
        var errors: [UInt8] = []
        /// Its exit status, when it exited.
        var status: Int32?
        /// The signal that ended it, when one did.
        var signal: Int32?
        var timedOut = false
        /// It wrote more than `outputLimit` to its standard output.
        var overflowed = false
    }

    /// How many times a start refused with `ETXTBSY` is tried again.
    static let busyRetries = 5

    /// Why a program could not be run.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func run(
        _ program: String, _ arguments: [String], input: [UInt8] = [], outputLimit: Int, errorLimit: Int = 4096,
        timeoutSeconds: Double
    ) -> Result<Outcome, Failure> {
        var pipes = [[Int32]](repeating: [-1, -1], count: 3)
        for i in 0..<3 {
            // Through a pointer: Swift 6.0 with Debian 13's glibc does not pass `&pipes[i]` to pipe(2).
            guard pipes[i].withUnsafeMutableBufferPointer({ pipe($0.baseAddress!) }) == 0 else {
                let why = String(cString: strerror(errno))
                for p in pipes.flatMap({ $0 }) where p >= 0 { close(p) }
                return .failure(Failure(description: "cannot make a pipe (\(why))"))
            }
            // Not to be inherited by another program the kiosk starts meanwhile (dup2 clears it for the child's).
            for fd in pipes[i] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        // The child's ends: standard input reads pipe 0, standard output and errors write pipes 1 and 2.
        let childEnds = [pipes[0][0], pipes[1][1], pipes[2][1]]
        let ours = [pipes[0][1], pipes[1][0], pipes[2][0]]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, end) in childEnds.enumerated() { posix_spawn_file_actions_adddup2(&actions, end, Int32(fd)) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        var spawned = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        // A program just written can be held open for a moment by another thread's child between its fork and its
        // exec: tried again a few times (as Go's os/exec does).
        for _ in 0..<Self.busyRetries where spawned == ETXTBSY {
            usleep(2_000)
            spawned = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        }
        for end in childEnds { close(end) }
        guard spawned == 0 else {
            for fd in ours { close(fd) }
            return .failure(Failure(description: "cannot run \(program) (\(String(cString: strerror(spawned))))"))
        }
        var outcome = Outcome()
        exchange(
            with: pid, input: input, ours: ours, limits: (outputLimit, errorLimit), timeoutSeconds: timeoutSeconds,
            outcome: &outcome)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // The group goes too: anything the program left behind.
        kill(-pid, SIGKILL)
        if status & 0x7F == 0 {
            outcome.status = (status >> 8) & 0xFF
        } else {
            outcome.signal = status & 0x7F
        }
        return .success(outcome)
    }

    /// `body` (a write to a child's pipe) with SIGPIPE blocked in this thread, and one it raised taken: a child
    /// that exits without reading its input is an `EPIPE`, not the end of the process (the kiosk ignores SIGPIPE;
    /// a tool or a test that runs this need not).
    static func withoutSIGPIPE<T>(_ body: () -> T) -> T {
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipe, &before)
        defer {
            var none = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&pipe, nil, &none) > 0 {}
            pthread_sigmask(SIG_SETMASK, &before, nil)
        }
        return body()
    }

    /// Writes `input` to the child and reads what it says until it closes both outputs; kills its group at the
    /// deadline or once its output goes past its limit (errors past theirs are read and let go: a chatty program
    /// is not stopped for it).
    private static func exchange(
        with pid: pid_t, input: [UInt8], ours: [Int32], limits: (output: Int, errors: Int), timeoutSeconds: Double,
        outcome: inout Outcome
    ) {
        let (writeEnd, outputEnd, errorEnd) = (ours[0], ours[1], ours[2])
        var written = 0
        var open: Set<Int32> = [outputEnd, errorEnd]
        if input.isEmpty { close(writeEnd) } else { _ = fcntl(writeEnd, F_SETFL, O_NONBLOCK) }
        var writing = !input.isEmpty
        let deadline = ProcessInfo.processInfo.systemUptime + timeoutSeconds
        var buffer = [UInt8](repeating: 0, count: 65536)
        defer {
            if writing { close(writeEnd) }
            for fd in open { close(fd) }
        }
        while !open.isEmpty {
            let left = deadline - ProcessInfo.processInfo.systemUptime
            guard left > 0 else {
                outcome.timedOut = true
                kill(-pid, SIGKILL)
                return
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if writing { fds.append(pollfd(fd: writeEnd, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(left * 1000, 1000).rounded(.up)))
            guard ready >= 0 || errno == EINTR else { return }
            for f in fds where f.revents != 0 {
                if f.fd == writeEnd {
                    let n = withoutSIGPIPE {
                        input.withUnsafeBytes { write(writeEnd, $0.baseAddress! + written, input.count - written) }
                    }
                    if n > 0 { written += n }
                    if n < 0 && errno != EAGAIN || written == input.count {
                        close(writeEnd)
                        writing = false
                    }
                    continue
                }
                let n = read(f.fd, &buffer, buffer.count)
                guard n > 0 else {
                    if n == 0 || errno != EINTR && errno != EAGAIN {
                        close(f.fd)
                        open.remove(f.fd)
                    }
                    continue
                }
                if f.fd == errorEnd {
                    outcome.errors += buffer[0..<min(n, max(0, limits.errors - outcome.errors.count))]
                    continue
                }
                outcome.output += buffer[0..<min(n, limits.output + 1 - outcome.output.count)]
                if outcome.output.count > limits.output {
                    outcome.output.removeLast()
                    outcome.overflowed = true
                    kill(-pid, SIGKILL)
                    return
                }
            }
        }
    }
}
