import Foundation
import Testing

@testable import KioskSDL

/// The programs the kiosk runs (espeak-ng) start clean and stay bounded (`ChildProcess`): every signal unblocked
/// whatever the calling thread blocks, output capped, a hang ended at its limit. The stand-ins here are shell
/// scripts; nothing waits on the clock but the one hang, which is the point. One at a time: a script written while
/// another test's child starts can be held open by it (`Text file busy`).
@Suite(.serialized) struct ChildProcessTests {
    let dir: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-child-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// An executable script in the test's folder.
    func script(_ name: String, _ body: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// Runs `body` with SIGTERM, SIGHUP, SIGINT and SIGALRM blocked in this thread, as every thread of the kiosk
    /// but the main one has them.
    func withSignalsBlocked<T>(_ body: () throws -> T) rethrows -> T {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for s in [SIGTERM, SIGHUP, SIGINT, SIGALRM] { sigaddset(&blocked, s) }
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        return try body()
    }

    @Test func aSynthesiserStartsWithNoSignalBlocked() throws {
        // The stand-in says what its process blocks, as a complaint, and fails.
        // Read by the shell itself: a grep would read its parent's state mid-fork, when it blocks every signal.
        let espeak = try script(
            "espeak", "while read k v; do case $k in SigBlk:) echo \"$k $v\" >&2;; esac; done < /proc/$$/status; exit 1"
        )
        let said = withSignalsBlocked { EspeakSynthesizer(program: espeak).samples(for: "Hello", voice: "en") }
        guard case .failure(.failed(let why)) = said else {
            Issue.record("\(said)")
            return
        }
        #expect(why.hasSuffix("0000000000000000"), "\(why)")
    }

    @Test func aSynthesiserThatWritesWithoutEndIsStoppedAtItsLimit() throws {
        let espeak = try script("espeak", "exec cat /dev/zero")
        let said = EspeakSynthesizer(program: espeak).samples(for: "Hello", voice: "en")
        guard case .failure(.failed(let why)) = said else {
            Issue.record("\(said)")
            return
        }
        #expect(why.contains("wrote more than 64 MB"), "\(why)")
    }

    @Test func aChildThatHangsAndIgnoresSIGTERMIsEndedWithItsGroup() throws {
        let hang = try script("hang", "trap '' TERM HUP INT; sleep 30 & wait")
        let ran = try ChildProcess.run(hang, [], outputLimit: 1024, timeoutSeconds: 0.3).get()
        #expect(ran.timedOut)
        #expect(ran.signal == SIGKILL)
    }

    @Test func inputGoesInAndBothOutputsComeBack() throws {
        let echo = try script("echo", "cat; echo oops >&2; exit 3")
        let ran = try ChildProcess.run(echo, [], input: Array("words".utf8), outputLimit: 1024, timeoutSeconds: 10)
            .get()
        #expect(String(decoding: ran.output, as: UTF8.self) == "words")
        #expect(String(decoding: ran.errors, as: UTF8.self) == "oops\n")
        #expect(ran.status == 3 && !ran.timedOut && !ran.overflowed)
    }

    /// A child that exits without reading what it is given: the write is an EPIPE, and this process (which, unlike
    /// the kiosk, does not ignore SIGPIPE) lives on.
    @Test func aChildThatReadsNothingEndsNoProcessButItself() throws {
        let quits = try script("quits", "exit 0")
        let ran = try ChildProcess.run(
            quits, [], input: [UInt8](repeating: 65, count: 1 << 20), outputLimit: 1024, timeoutSeconds: 10
        ).get()
        #expect(ran.status == 0)
    }

    @Test func aProgramThatIsNotThereIsAReason() {
        guard case .failure(let why) = ChildProcess.run("/nonexistent/espeak", [], outputLimit: 1, timeoutSeconds: 1)
        else {
            Issue.record("it ran")
            return
        }
        #expect(why.description.contains("/nonexistent/espeak"), "\(why)")
    }
}
