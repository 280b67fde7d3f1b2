import CSDL2
import CSDL2Image
import Foundation
import Kiosk
import ScrollEngine

/// `kiosk new DIR [--from FOLDER]` (docs/authoring.md): reads the folder (each file's kind, a picture's size from
/// its header, a CSV's columns), has `NewContent` plan the manifest, brings the files it names beside it (a hard
/// link where it can, else a copy), writes `DIR/kiosk.json` (never over one) and checks it as `--check` does.
/// Without `--from`, a small example is drawn into `DIR` first and made from.
public enum NewContentCommand {
    public static let usage = "usage: kiosk new DIR [--from FOLDER]"
    /// The screen a picture is measured against (twice its size and more: a zoom scene).
    static let screen = Size(width: 1920, height: 1080)

    /// Runs the command on its arguments (those after `new`); the exit status: 0 made and checked, 2 nothing
    /// made (a mistake on the command line, a manifest already there, a folder with nothing to show), 3 made
    /// but `--check` finds errors in it.
    public static func run(_ args: [String]) -> Int32 {
        var target: String?
        var from: String?
        var cursor = ArgumentCursor(args)
        while let a = cursor.next() {
            switch a {
            case "--from":
                guard let v = try? cursor.value(a) else { return fail("--from needs a folder (\(usage))") }
                from = v
            case "-h", "--help":
                print(usage)
                return 0
            case let other where other.hasPrefix("-"): return fail("unknown option \(other) (\(usage))")
            default:
                guard target == nil else { return fail("one folder to make, not two (\(usage))") }
                target = a
            }
        }
        guard let target, !target.isEmpty else { return fail(usage) }
        let manifest = target + "/kiosk.json"
        var st = stat()
        if lstat(manifest, &st) == 0 { return fail("\(manifest) exists: kiosk new never overwrites a manifest") }
        if let from, !isFolder(from) { return fail("--from \(from): not a folder") }
        IMG_Init(Int32(IMG_INIT_PNG.rawValue | IMG_INIT_JPG.rawValue))
        // The folder is looked at once (10 000 pictures are 10 000 headers read): a folder with nothing to show
        // makes nothing, not even `target`.
        let seen = from.map(look)
        if let from, seen?.contains(where: \.isShown) != true {
            return fail("\(from): no pictures (PNG, JPEG), films or CSV with a title column: nothing to make")
        }
        do {
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        } catch { return fail("\(target): cannot make the folder (\(reason(error)))") }
        if from == nil {
            if let why = ExampleContent.draw(into: target) { return fail("\(target): \(why)") }
        }
        let source = from ?? target
        let found = seen ?? look(source)
        let title = URL(fileURLWithPath: target).standardizedFileURL.lastPathComponent
        let plan = NewContent.plan(found, title: NewContent.pretty(title), screen: screen)
        if let why = bring(plan.files, from: source, to: target) { return fail(why) }
        guard writeExclusively(plan.manifest, to: manifest) else {
            return fail("\(manifest): cannot write it (\(String(cString: strerror(errno))))")
        }
        printLine("made \(manifest):")
        for line in plan.lines { printLine("  " + line) }
        let report = Runner.checkContent(manifest, screen: screen, measureWords: true)
        for p in ManifestError.logLines(report.problems) { log(p.isWarning ? .warning : .error, p.line) }
        guard report.errors.isEmpty else { return 3 }
        printLine("checked: ok. Show it, and edit it live: kiosk --edit --config \(manifest)")
        return 0
    }

    static func fail(_ message: String) -> Int32 {
        log(.error, "new: " + message)
        return 2
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// What `folder` holds, file by file (not its subfolders; hidden files not at all).
    static func look(_ folder: String) -> [NewContent.Found] {
        let entries = Self.names(in: folder).filter { !$0.name.hasPrefix(".") }
        return entries.sorted { $0.name < $1.name }.map { entry in
            let name = entry.name
            // A name that is not UTF-8 (copied from an old Windows or a camera's card) cannot be written into a
            // manifest, nor opened by the name read back: said as what it is, with what to do.
            guard entry.isText else {
                return .skipped(name: name, why: "its name is not UTF-8 text; rename it (convmv -f latin1 -t utf8)")
            }
            let path = folder + "/" + name
            if isFolder(path) { return .skipped(name: name, why: "a folder") }
            if let problem = RegularFile.problem(path) { return .skipped(name: name, why: problem) }
            switch URL(fileURLWithPath: name).pathExtension.lowercased() {
            case "png", "jpg", "jpeg", "webp":
                guard let (w, h) = headerSize(path), w > 0, h > 0 else {
                    return .skipped(name: name, why: "not a PNG, JPEG or WebP that can be read")
                }
                return .picture(name: name, width: w, height: h)
            case "mp4", "m4v", "mov", "mkv", "webm": return .video(name: name)
            case "vtt": return .captionTrack(name: name)
            case "csv": return csv(name, path)
            default: return .skipped(name: name, why: "not a picture, a film, captions or a CSV")
            }
        }
    }

    /// The names in `folder` as the file system has them: each as text (a name that is not UTF-8, with U+FFFD
    /// for its bad bytes) and whether it is (Foundation's listing made such a name into another, which then
    /// was "No such file or directory").
    static func names(in folder: String) -> [(name: String, isText: Bool)] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var out: [(String, Bool)] = []
        while let entry = readdir(dir) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if bytes == Array(".".utf8) || bytes == Array("..".utf8) { continue }
            let strict = String(validating: bytes, as: UTF8.self)
            out.append((strict ?? String(decoding: bytes, as: UTF8.self), strict != nil))
        }
        return out
    }

    /// A CSV: `captions.csv`, a directory (it has a `title` column), or left out saying why.
    static func csv(_ name: String, _ path: String) -> NewContent.Found {
        guard case .success(let bytes) = RegularFile.read(path, limit: RegularFile.textLimit) else {
            return .skipped(name: name, why: "cannot be read")
        }
        if name.lowercased() == "captions.csv" {
            switch NewContent.captions(bytes) {
            case .success(let c): return .captions(rows: c.rows, columns: c.columns)
            case .failure(let problem): return .skipped(name: name, why: problem.message)
            }
        }
        guard let header = NewContent.header(bytes) else {
            return .skipped(name: name, why: "not a CSV that can be read")
        }
        guard header.contains("title") else { return .skipped(name: name, why: "no title column: not a directory") }
        return .directory(name: name, columns: header)
    }

    /// Brings each of `files` from `source` into `target` (nothing when they are one folder): a copy, never a
    /// hard link (a curator editing the new kiosk's CSV or picture in place would change the original too): a
    /// clone of the file's blocks where the file system makes one (btrfs, XFS: no room taken until one is
    /// changed), else its bytes. A file already there that is another file is never replaced: nothing is
    /// brought, and why.
    static func bring(_ files: [String], from source: String, to target: String) -> String? {
        func identity(_ path: String) -> (dev_t, ino_t)? {
            var st = stat()
            return stat(path, &st) == 0 ? (st.st_dev, st.st_ino) : nil
        }
        guard identity(source).map({ s in identity(target).map { $0 == s } ?? false }) != true else { return nil }
        for name in files {
            if let there = identity(target + "/" + name), let here = identity(source + "/" + name), there != here {
                return "\(target)/\(name) exists and is another file: kiosk new never replaces one"
            }
        }
        for name in files where identity(target + "/" + name) == nil {
            let (from, to) = (source + "/" + name, target + "/" + name)
            if clone(from, to) { continue }
            do { try FileManager.default.copyItem(atPath: from, toPath: to) } catch {
                return "\(to): cannot copy it (\(reason(error)))"
            }
        }
        return nil
    }

    /// `to` made a clone of `from` (`FICLONE`, Linux's reflink), or nothing made and false.
    static func clone(_ from: String, _ to: String) -> Bool {
        let source = open(from, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { return false }
        defer { close(source) }
        let target = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard target >= 0 else { return false }
        // FICLONE: _IOW(0x94, 9, int), from <linux/fs.h>.
        let ficlone: UInt = 0x4004_9409
        let cloned = ioctl(target, ficlone, source) == 0
        close(target)
        if !cloned { unlink(to) }
        return cloned
    }

    /// Writes `text` to `path` only if nothing is there (`O_EXCL`: never over a manifest made meanwhile).
    static func writeExclusively(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count && fsync(fd) == 0
    }
}

/// Why a file operation of Foundation's failed, as the C library says it (`No space left on device`), not as
/// Foundation words it for a desktop ("The operation could not be completed. (NSCocoaErrorDomain error 512.)").
func reason(_ error: Error) -> String {
    let e = error as NSError
    if e.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(e.code))) }
    // On Linux the underlying error is kept as a Swift error, which `as? NSError` does not take out.
    if let underlying = e.userInfo[NSUnderlyingErrorKey].flatMap({ $0 as? any Error }).map({ $0 as NSError }),
        underlying.domain == NSPOSIXErrorDomain
    {
        return String(cString: strerror(Int32(underlying.code)))
    }
    return e.localizedDescription
}
