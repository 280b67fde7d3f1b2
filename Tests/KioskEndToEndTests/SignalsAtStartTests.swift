import Foundation
import Testing

/// A reload (`SIGHUP`) or a picture of the screen (`SIGUSR1`) asked while the kiosk starts must not end it: both
/// are ignored from the executable's `.preinit_array` on, before any library's constructor and long before the
/// frame loop's handlers exist. Tested without timing: a preloaded library raises both signals from its own
/// constructor, the earliest code a library runs in the kiosk's process.
@Suite struct SignalsAtStartTests {
    /// A C compiler: the system's, else the Swift toolchain's clang.
    static var compiler: String? {
        var dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        dirs += ["/usr/bin", "/opt/swift/usr/bin"]
        for dir in dirs {
            for name in ["cc", "clang"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
                return dir + "/" + name
            }
        }
        return nil
    }

    @Test func signalsRaisedBeforeAnyLibraryStartsAreIgnored() throws {
        let compiler = try #require(Self.compiler, "no C compiler to build the preloaded library")
        let dir = Kiosk.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("raise.c").path
        let library = dir.appendingPathComponent("raise.so").path
        try """
        #include <signal.h>
        __attribute__((constructor)) static void early(void) { raise(SIGHUP); raise(SIGUSR1); }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: compiler)
        cc.arguments = ["-shared", "-fPIC", "-o", library, source]
        try cc.run()
        cc.waitUntilExit()
        try #require(cc.terminationStatus == 0)

        // Spawned with no signal blocked and both at their default action, as systemd starts a service (a
        // `Process` started from a test's thread inherits that thread's blocked signals, which would hide a death).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var both = sigset_t()
        sigemptyset(&both)
        sigaddset(&both, SIGHUP)
        sigaddset(&both, SIGUSR1)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &both)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let arguments = [Kiosk.binary.path, "--version"]
        let environment = ProcessInfo.processInfo.environment.merging(["LD_PRELOAD": library]) { $1 }.map {
            "\($0.key)=\($0.value)"
        }
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        try #require(posix_spawn(&pid, Kiosk.binary.path, &actions, &attributes, &argv, &envp) == 0)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        #expect(signal == 0, "the kiosk ended by signal \(signal)")
        #expect(signal == 0 && (status >> 8) & 0xff == 0)
    }
}
