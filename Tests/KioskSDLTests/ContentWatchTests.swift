import Foundation
import Glibc
import Testing

@testable import KioskSDL

/// `kiosk --edit`'s watch: saves grouped into bursts on a virtual clock (100 saves a second are five reloads a
/// second, not a hundred); only the files the content names are changes (an editor's swap file is not); and on
/// real files, a picture deleted and put back, replaced by a folder, and one named in a folder made only later,
/// each ask for a reload.
@Suite struct ContentWatchTests {
    @Test func aHundredSavesASecondAreFiveReloads() {
        var burst = SaveBurst()
        #expect(burst.waitMs(at: 0) == nil)
        var reloads: [Double] = []
        var t = 0.0
        while t < 1000 {
            if t.truncatingRemainder(dividingBy: 10) == 0 { burst.saved(at: t) }
            if burst.isOver(at: t) { reloads.append(t) }
            t += 1
        }
        #expect(reloads == [200, 410, 620, 830])
        // The last burst (from 840 ms, its last save at 990 ms) ends 200 ms after its first save: five reloads.
        while t < 1200 {
            if burst.isOver(at: t) { reloads.append(t) }
            t += 1
        }
        #expect(reloads == [200, 410, 620, 830, 1040])
        #expect(burst.waitMs(at: 1100) == nil)
        // One save alone: the watch waits the quiet time, no longer.
        burst.saved(at: 2000)
        #expect(burst.waitMs(at: 2000) == 60)
        #expect(!burst.isOver(at: 2059) && burst.isOver(at: 2060))
    }

    @Test func onlyTheFilesTheContentNamesAreChanges() {
        let names: Set<String> = ["kiosk.json", "plan.png"]
        let write = UInt32(IN_CLOSE_WRITE)
        #expect(ContentWatch.isChange(mask: write, name: "kiosk.json", watched: names))
        #expect(ContentWatch.isChange(mask: UInt32(IN_MOVED_TO), name: "plan.png", watched: names))
        for other in [".kiosk.json.swp", "kiosk.json~", "4913", ".goutputstream-XYZ1", "notes.txt"] {
            #expect(!ContentWatch.isChange(mask: write, name: other, watched: names), "\(other)")
        }
        // The folder gone, or events lost: a change; a folder let go: not one.
        #expect(ContentWatch.isChange(mask: UInt32(IN_IGNORED), name: "", watched: names))
        #expect(ContentWatch.isChange(mask: UInt32(IN_Q_OVERFLOW), name: "", watched: nil))
        #expect(!ContentWatch.isChange(mask: UInt32(IN_IGNORED), name: "", watched: nil))
    }

    /// A watch on `files`, and a count of its changes that a test can wait on.
    final class Changes: @unchecked Sendable {
        let lock = NSLock()
        var count = 0
        let semaphore = DispatchSemaphore(value: 0)
        func add() {
            lock.lock()
            count += 1
            lock.unlock()
            semaphore.signal()
        }
        /// Waits for the next change (a guard of 5 s against a watch that never says one); true when it came.
        func next() -> Bool { semaphore.wait(timeout: .now() + 5) == .success }
    }

    @Test func deletedReplacedAndLaterFilesAreChanges() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let picture = dir + "/plan.png"
        try Data("a".utf8).write(to: URL(fileURLWithPath: picture))
        let changes = Changes()
        let watch = try #require(ContentWatch { changes.add() })
        watch.watch([dir + "/kiosk.json", picture, dir + "/later/photo.jpg"])
        // An editor's swap file first, then the picture deleted and put back: one burst at most, and the
        // watch reloads for the picture.
        try Data("swap".utf8).write(to: URL(fileURLWithPath: dir + "/.kiosk.json.swp"))
        try FileManager.default.removeItem(atPath: picture)
        #expect(changes.next())
        try Data("b".utf8).write(to: URL(fileURLWithPath: picture))
        #expect(changes.next())
        // Replaced by a folder.
        try FileManager.default.removeItem(atPath: picture)
        try FileManager.default.createDirectory(atPath: picture, withIntermediateDirectories: false)
        #expect(changes.next())
        // A picture in a folder that was not there: the folder made is a change; the reload's list then
        // watches it, and the picture saved in it is one.
        try FileManager.default.createDirectory(atPath: dir + "/later", withIntermediateDirectories: false)
        #expect(changes.next())
        watch.watch([dir + "/kiosk.json", picture, dir + "/later/photo.jpg"])
        try Data("c".utf8).write(to: URL(fileURLWithPath: dir + "/later/photo.jpg"))
        #expect(changes.next())
        withExtendedLifetime(watch) {}
    }
}
