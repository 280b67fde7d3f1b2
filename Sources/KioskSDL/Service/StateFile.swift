import Foundation
import Kiosk

#if canImport(Glibc)
    import Glibc
#endif

/// The kiosk's state in `$STATE_DIRECTORY/state.json` (systemd's `StateDirectory=`), written atomically: a
/// temporary file, fsync, rename, fsync of the folder. A state file is never left half-written.
final class StateFile {
    let path: String
    let directory: String
    var warned = false
    /// Saved every this often (real time) while the kiosk runs, and on exit: 5 s, or `$KIOSK_STATE_INTERVAL_MS`
    /// (for tests).
    let intervalMs: Double

    init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let dir = stateFolder(environment) else { return nil }
        directory = dir
        path = directory + "/state.json"
        intervalMs = environment["KIOSK_STATE_INTERVAL_MS"].flatMap(Double.init).map { max(100, $0) } ?? 5000
    }

    /// The saved state, or nil (a missing file is normal; a corrupt one is a warning, never a failure).
    func load() -> KioskState? {
        let data: [UInt8]
        switch RegularFile.read(path, limit: RegularFile.textLimit) {
        case .success(let d): data = d
        case .failure(let p) where p.isMissing: return nil
        case .failure(let p):
            log(.warning, "\(path): cannot read the saved state (\(p.message)); starting at home")
            return nil
        }
        guard let state = KioskState.decode(Data(data)) else {
            log(.warning, "\(path): the saved state is corrupt; starting at home")
            return nil
        }
        return state
    }

    /// Writes the state atomically; a failure is one warning (the first), and the kiosk runs on.
    func save(_ state: KioskState) {
        guard !writeAtomically(state.encoded(), to: path) else { return }
        if !warned {
            warned = true
            log(.warning, "\(path): cannot save the state (\(String(cString: strerror(errno)))); running on without it")
        }
    }
}

/// systemd's `$STATE_DIRECTORY` (`StateDirectory=`), or nil. It may list several folders, separated by colons:
/// the first is ours.
func stateFolder(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    guard let dirs = environment["STATE_DIRECTORY"], let dir = dirs.split(separator: ":").first, !dir.isEmpty else {
        return nil
    }
    return String(dir)
}

/// Writes `data` to `path` so that the file is the old one or the new one, never half of either: a temporary
/// file beside it, every byte written and checked, fsync, rename, fsync of the folder; a write that fails (a full
/// disk) never replaces the good file. `mode`, when given, whatever the umask (the metrics and the screen's
/// picture are the group's to read). A path that is there and is not a regular file (a FIFO, a device, a folder)
/// is never replaced. False (errno set) when it could not.
func writeAtomically(_ data: Data, to path: String, mode: mode_t? = nil) -> Bool {
    if notRegularFile(path) != nil {
        errno = EEXIST
        return false
    }
    let temporary = path + ".tmp"
    let ok = { () -> Bool in
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return false }
        var closed = false
        defer { if !closed { close(fd) } }
        if let code = writeAll(fd, [UInt8](data)) {
            errno = code
            return false
        }
        if let mode, fchmod(fd, mode) != 0 { return false }
        guard fsync(fd) == 0 else { return false }
        closed = true
        return close(fd) == 0
    }()
    guard ok, rename(temporary, path) == 0 else {
        let saved = errno
        unlink(temporary)
        errno = saved
        return false
    }
    let dirFD = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if dirFD >= 0 {
        fsync(dirFD)
        close(dirFD)
    }
    return true
}

/// What `path` is when it is there and is not a regular file ("a FIFO", "a character device", "a folder", ...);
/// nil when it is a regular file or not there (a symbolic link is looked through: a link to a file is a file).
func notRegularFile(_ path: String) -> String? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    switch st.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFIFO: return "a FIFO"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFDIR: return "a folder"
    case S_IFSOCK: return "a socket"
    default: return "not a regular file"
    }
}
