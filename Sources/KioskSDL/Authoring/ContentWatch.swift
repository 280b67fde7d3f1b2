import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `kiosk --edit`'s watch on the content (docs/authoring.md): inotify on the folders of every file the last check
/// read or looked for (the manifest, its pictures, CSVs, films and caption files), on a thread of its own. A file
/// of those saved, replaced, deleted or made asks for a reload: `changed` runs once a burst of saves is over
/// (`SaveBurst`: 100 saves a second reload five times a second, never a hundred). Other files in those folders
/// (an editor's swap and backup files) are ignored.
final class ContentWatch: @unchecked Sendable {
    /// What a change does (on the watch's thread): posts the reload's SDL event.
    let changed: @Sendable () -> Void
    private let fd: Int32
    private let lock = NSLock()
    /// The watch on each folder and the names in it that are content (lock).
    private var watches: [Int32: (folder: String, names: Set<String>)] = [:]

    /// A watch, or nil (said once) where inotify cannot start.
    init?(changed: @escaping @Sendable () -> Void) {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else {
            log(.warning, "edit: no inotify (\(String(cString: strerror(errno)))): saved files are not reloaded")
            return nil
        }
        self.changed = changed
        let t = Thread { [self] in
            SignalListener.leaveSignalsToTheMainThread()
            run()
        }
        t.name = "kiosk-edit-watch"
        t.start()
    }

    /// Watches `files` (absolute paths) from now on, instead of those before; a change after this returns is
    /// seen. A folder that is not there (a picture named in a folder not made yet, a folder deleted) is waited
    /// for in the nearest one above it that is. `changedSince` (Unix seconds: when the check that named them
    /// began): one of them changed since then, in a folder not watched meanwhile (a folder copied in while the
    /// check read it half made), is a change now; its events came before its watch and were never seen.
    func watch(_ files: [String], changedSince: Double? = nil) {
        install(files)
        guard let since = changedSince else { return }
        let changed = self.changed
        // Looked at on a thread of its own: the frame loop reads no file.
        Thread {
            for f in files {
                var st = stat()
                guard stat(f, &st) == 0 else { continue }
                let ctime = Double(st.st_ctim.tv_sec) + Double(st.st_ctim.tv_nsec) / 1e9
                // (A time after now is a clock set back since: not a change, or each check would ask for another.)
                if ctime >= since && ctime <= Date().timeIntervalSince1970 {
                    changed()
                    return
                }
            }
        }.start()
    }

    private func install(_ files: [String]) {
        var wanted: [String: Set<String>] = [:]
        for f in files {
            let url = URL(fileURLWithPath: f).standardizedFileURL
            wanted[url.deletingLastPathComponent().path, default: []].insert(url.lastPathComponent)
        }
        var now: [Int32: (folder: String, names: Set<String>)] = [:]
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)
        while let (folder, names) = wanted.popFirst() {
            let wd = inotify_add_watch(fd, folder, mask)
            if wd >= 0 {
                now[wd, default: (folder, [])].names.formUnion(names)
                continue
            }
            let url = URL(fileURLWithPath: folder)
            let parent = url.deletingLastPathComponent().path
            if parent != folder { wanted[parent, default: []].insert(url.lastPathComponent) }
        }
        lock.lock()
        // A folder no longer wanted is let go (its IN_IGNORED then finds no watch, and is not a change).
        for wd in watches.keys where now[wd] == nil { inotify_rm_watch(fd, wd) }
        watches = now
        lock.unlock()
    }

    /// The thread: waits for inotify; a burst of saves, once over (`SaveBurst`), is `changed`.
    private func run() {
        var burst = SaveBurst()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let n = poll(&p, 1, burst.waitMs(at: monotonicMs()).map { Int32($0.rounded(.up)) } ?? -1)
            if n < 0 && errno != EINTR { return }
            if p.revents != 0 && readEvents(&buffer) { burst.saved(at: monotonicMs()) }
            if burst.isOver(at: monotonicMs()) { changed() }
        }
    }

    /// Reads what inotify has; true when one of the watched files changed (or a watched folder went away, or
    /// inotify lost count).
    private func readEvents(_ buffer: inout [UInt8]) -> Bool {
        var any = false
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return any }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                    let e = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (e.wd, e.mask, Int(e.len))
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let name = String(
                    decoding: buffer[nameStart..<min(n, nameStart + length)].prefix { $0 != 0 }, as: UTF8.self)
                lock.lock()
                if Self.isChange(mask: mask, name: name, watched: watches[wd]?.names) { any = true }
                if mask & UInt32(IN_IGNORED) != 0 { watches[wd] = nil }
                lock.unlock()
                offset = nameStart + length
            }
        }
    }

    /// Whether an inotify event is a change of the content: a file it names (`watched`, the names in the
    /// event's folder; nil: the folder is not watched), the watched folder itself gone (`IN_IGNORED`), or
    /// events lost (`IN_Q_OVERFLOW`).
    static func isChange(mask: UInt32, name: String, watched: Set<String>?) -> Bool {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { return true }
        guard let watched else { return false }
        return mask & UInt32(IN_IGNORED) != 0 || watched.contains(name)
    }

    private func monotonicMs() -> Double { Double(monotonicMicroseconds()) / 1000 }
}

/// Saves as the watch groups them: a burst ends when the saves pause for `quietMs`, or `longestMs` after its
/// first save whatever follows (the contract's half a second from a save to its frame, less the load).
struct SaveBurst {
    static let quietMs = 60.0
    static let longestMs = 200.0
    private var first: Double?
    private var last = 0.0

    /// A watched file changed at `ms`.
    mutating func saved(at ms: Double) {
        first = first ?? ms
        last = ms
    }

    /// Whether the burst is over at `ms` (then the next save begins another); once true, false until then.
    mutating func isOver(at ms: Double) -> Bool {
        guard let first, ms - last >= Self.quietMs || ms - first >= Self.longestMs else { return false }
        self.first = nil
        return true
    }

    /// How long the watch may wait at `ms` before the burst could be over (nil: no burst, wait for a save).
    func waitMs(at ms: Double) -> Double? {
        guard let first else { return nil }
        return max(0, min(last + Self.quietMs, first + Self.longestMs) - ms)
    }
}

/// The files a check read or looked for, as it notes them (from any thread).
final class FilesSeen: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: [String] = []
    private var known: Set<String> = []

    func note(_ path: String) {
        guard !path.utf8.contains(0) else { return }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        lock.lock()
        if known.insert(absolute).inserted { paths.append(absolute) }
        lock.unlock()
    }

    var files: [String] {
        lock.lock()
        defer { lock.unlock() }
        return paths
    }
}

/// What a check found of each file, kept while the file stays the same (its device, inode, size and times):
/// `kiosk --edit` checks everything again at each save, and decodes again only the pictures and films that changed.
final class InspectionMemo: @unchecked Sendable {
    private struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int
        var modifiedNs: Int
        var changed: Int
        var changedNs: Int
    }
    private let lock = NSLock()
    private var kept: [String: (Identity, Any)] = [:]

    /// `inspect(path)`'s answer, from the last check when the file has not changed since.
    func report<T>(_ path: String, _ inspect: (String) -> T) -> T {
        var st = stat()
        guard stat(path, &st) == 0 else { return inspect(path) }
        let id = Identity(
            device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size), modified: st.st_mtim.tv_sec,
            modifiedNs: st.st_mtim.tv_nsec, changed: st.st_ctim.tv_sec, changedNs: st.st_ctim.tv_nsec)
        lock.lock()
        let old = kept[path]
        lock.unlock()
        if let (was, answer) = old, was == id, let answer = answer as? T { return answer }
        let answer = inspect(path)
        lock.lock()
        kept[path] = (id, answer)
        lock.unlock()
        return answer
    }
}
