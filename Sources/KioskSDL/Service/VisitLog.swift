import EventLog
import Foundation
import Kiosk

#if canImport(Glibc)
    import Glibc
#endif

/// The visits folder, `$STATE_DIRECTORY/visits` (docs/operations.md): one file a day, `YYYY-MM-DD.jsonl`, a line a
/// visit, each appended whole and fsynced. Files older than 400 days go, and the folder never grows past
/// 100 MB (the oldest go first). A folder that cannot be written is one warning, and the kiosk runs on.
final class VisitLog {
    let folder: String
    var warned = false
    /// How long a day's file is kept.
    static let keepDays = 400
    /// The most the folder holds (100 MB; a test makes it smaller).
    let maximumBytes: Int

    init(folder: String, maximumBytes: Int = 100 * 1024 * 1024) {
        self.folder = folder
        self.maximumBytes = maximumBytes
    }

    /// `$STATE_DIRECTORY/visits`, or nil when there is no state folder (nothing is counted).
    convenience init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let state = stateFolder(environment) else { return nil }
        self.init(folder: state + "/visits")
    }

    /// Appends `visit` to its day's file. A torn last line (a crash mid-write) is ended first, so the new line
    /// stands on its own.
    func append(_ visit: Visit, today: String) {
        let path = folder + "/" + visit.day + ".jsonl"
        let isNew = !FileManager.default.fileExists(atPath: path)
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil
        else { return warnOnce() }
        let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return warnOnce() }
        defer { close(fd) }
        var line = visit.line + "\n"
        var last: UInt8 = 0
        let size = lseek(fd, 0, SEEK_END)
        if size > 0, pread(fd, &last, 1, size - 1) == 1, last != UInt8(ascii: "\n") { line = "\n" + line }
        if let failure = writeAll(fd, Array(line.utf8)) ?? (fsync(fd) == 0 ? nil : errno) {
            // Nothing torn is left behind: the file goes back to what it held.
            if size >= 0 { _ = ftruncate(fd, size) }
            return warnOnce(failure)
        }
        if isNew { prune(today: today) }
    }

    /// Adds `touches` to day `day`'s grid file (`YYYY-MM-DD.touches.json`), written whole or not at all. A file
    /// there that is not a grid (edited, another version's) is left as it is, said once; false when nothing was
    /// written.
    func addTouches(_ touches: TouchGrid, day: String) -> Bool {
        let path = folder + "/" + day + Self.touchesSuffix
        var grid = TouchGrid()
        switch RegularFile.read(path, limit: RegularFile.textLimit) {
        case .success(let bytes):
            guard let old = TouchGrid.parse(String(decoding: bytes, as: UTF8.self)) else {
                if !warnedTouches {
                    warnedTouches = true
                    log(.warning, "\(path): not a grid of touches; left as it is, and today's touches not added to it")
                }
                return false
            }
            grid = old
        case .failure(let p) where p.isMissing: break
        case .failure(let p):
            // A FIFO, a folder, a file that does not answer: today's touches are kept, and said.
            if !warnedTouches {
                warnedTouches = true
                log(
                    .warning,
                    "\(path): \(p.message); left as it is, and today's touches kept until it can be written")
            }
            return false
        }
        grid.merge(touches)
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
            writeAtomically(Data(grid.json.utf8), to: path)
        else {
            warnOnce()
            return false
        }
        return true
    }

    /// The ending of a day's touches file.
    static let touchesSuffix = ".touches.json"
    var warnedTouches = false

    func warnOnce(_ code: Int32 = errno) {
        guard !warned else { return }
        warned = true
        log(.warning, "\(folder): cannot write the visits (\(String(cString: strerror(code)))); not counting them")
    }

    /// The day files, oldest first: (day, path, bytes).
    static func files(in folder: String) -> [(day: String, path: String, bytes: Int)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") && LocalTime.parse(String($0.dropLast(6))) != nil }.sorted()
            .map { name in
                let path = folder + "/" + name
                let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                return (String(name.dropLast(6)), path, bytes)
            }
    }

    /// Deletes the days older than `keepDays`, then the oldest until the folder is within `maximumBytes`; each
    /// deletion said. Only what is really old goes: age is counted from the newest day that has visits, not from
    /// the clock alone (a clock set forward a year deletes nothing until visits of that year are written), today's
    /// file is never deleted, and a file dated after today (a clock that was wrong once, a file copied in) is left
    /// as it is, said once, and not counted.
    func prune(today: String) {
        guard let now = LocalTime.parse(today) else { return }
        let all = Self.files(in: folder)
        let future = all.filter { $0.day > today }
        if !future.isEmpty && !warnedFuture {
            warnedFuture = true
            log(
                .warning,
                "\(folder): \(future.map { "\($0.day).jsonl" }.joined(separator: ", ")) dated after today (\(today)); "
                    + "left as they are, not counted and never removed by the kiosk")
        }
        var files = all.filter { $0.day <= today }
        let reference = min(now, files.last.flatMap { LocalTime.parse($0.day) } ?? now)
        func isOld(_ day: String) -> Bool {
            LocalTime.parse(day).map { reference - $0 > Double(Self.keepDays) * 86_400 } ?? false
        }
        while let first = files.first, first.day != today {
            let old = isOld(first.day)
            guard old || files.map(\.bytes).reduce(0, +) > maximumBytes else { break }
            if unlink(first.path) == 0 {
                let why = old ? "older than \(Self.keepDays) days" : "the visits are over \(maximumBytes >> 20) MiB"
                log(.info, "\(first.path): removed (\(why))")
            }
            files.removeFirst()
        }
        // A day's touches go with its visits.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names.sorted() where name.hasSuffix(Self.touchesSuffix) {
            let day = String(name.dropLast(Self.touchesSuffix.count))
            guard day < today, isOld(day), unlink(folder + "/" + name) == 0 else { continue }
            log(.info, "\(folder)/\(name): removed (older than \(Self.keepDays) days)")
        }
    }
    var warnedFuture = false

    /// Every visit in `folder` from `since` (a day) on; a line that is not a visit (torn by a crash, or
    /// corrupt, or with values no visit has: `Visit.problem`) is skipped with a warning naming its file and line.
    static func read(folder: String, since: String?) -> [Visit] {
        var visits: [Visit] = []
        read(folder: folder, since: since) { visits.append($0) }
        return visits
    }

    /// Each good visit in `folder`'s day files from `since` on, handed to `each` as it is read: a file a line at a
    /// time (`LineReader`), so a year of visits (or a 110 MB file of one day) is never held whole. A line that is
    /// not a visit, or not a plausible one, is skipped with its file and line.
    static func read(folder: String, since: String?, each: (Visit) -> Void) {
        for file in files(in: folder) where since.map({ file.day >= $0 }) ?? true {
            let fd = RegularFile.problem(file.path) == nil ? open(file.path, O_RDONLY | O_CLOEXEC) : -1
            guard fd >= 0 else {
                log(.warning, "\(file.path): cannot read it; skipped")
                continue
            }
            defer { close(fd) }
            var lines = LineReader(fd: fd)
            var number = 0
            reading: while true {
                number += 1
                switch lines.next() {
                case .success(nil):
                    break reading
                case .failure(let p):
                    log(.warning, "\(file.path):\(number): \(p.message); the rest of it skipped")
                    break reading
                case .success(let line?) where line.isEmpty:
                    continue
                case .success(let line?):
                    let json = line.withUnsafeBufferPointer { try? JSONValue.parse(bytes: $0).get() }
                    guard let v = json.flatMap(Visit.init(json:)) else {
                        log(.warning, "\(file.path):\(number): not a visit (a torn or corrupt line); skipped")
                        continue
                    }
                    if let why = v.problem {
                        log(.warning, "\(file.path):\(number): \(why); skipped")
                        continue
                    }
                    each(v)
                }
            }
        }
    }
}

extension Runner {
    /// `kiosk --stats`: the visits in `--state DIR` or `$STATE_DIRECTORY`, from `--since` on.
    public static func stats(_ options: Options, defaultManifest: String? = nil) -> Int32 {
        guard let state = options.state ?? stateFolder() else {
            log(.error, "--stats: which state folder? pass --state DIR (or set STATE_DIRECTORY)")
            return 2
        }
        let folder = state + "/visits"
        if !FileManager.default.fileExists(atPath: folder) {
            log(.warning, "\(folder): no visits recorded yet")
        }
        guard let dir = options.report else {
            // Statistics alone: the visits streamed, counted as they come (a year of a busy kiosk's held whole took
            // 790 MB).
            var statistics = VisitStatistics()
            VisitLog.read(folder: folder, since: options.since) { statistics.add($0) }
            statistics.finish()
            print(options.json ? statistics.json : statistics.text, terminator: options.json ? "\n" : "")
            return 0
        }
        // The pictures the touches were on, from the manifest the kiosk shows (a broken one: grey fields).
        let manifest = manifestPath(options, defaultManifest: defaultManifest).flatMap { try? loadManifest($0) }
        let visits = VisitLog.read(folder: folder, since: options.since)
        return Report.write(visits, folder: folder, since: options.since, manifest: manifest, into: dir)
    }
}
