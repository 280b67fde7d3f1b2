import Foundation
import Testing

@testable import KioskSDL

/// The tile cache folder stays bounded as content changes (`TileFile.prune`): what the manifest uses stays
/// however old; what it does not use goes after a month, and the oldest of it while it takes more than 1 GiB.
struct CachePruneTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prune-\(UUID().uuidString)").path

    /// A file of `size` bytes (sparse: it takes no disk) last touched `days` ago.
    func file(_ name: String, size: Int = 1000, days: Double) throws -> String {
        let path = folder + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, off_t(size)) == 0)
        let t = Date().timeIntervalSince1970 - days * 86_400
        var times = [timespec(tv_sec: Int(t), tv_nsec: 0), timespec(tv_sec: Int(t), tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        return path
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test func unusedFilesGoByAgeThenBySize() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // An image of the manifest (reached through a symlink: its real path names the file), cut long ago.
        let image = try file("picture.png", days: 0)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.png", withDestinationPath: image)
        let used = try file(TileFile.fileName(TileFile.key(image)), size: 700 << 20, days: 90)
        let old = try file("0000000000000001.tiles", days: 40)
        let recent = try file("0000000000000002.tiles", days: 1)
        let bigOlder = try file("0000000000000003.tiles", size: 600 << 20, days: 5)
        let bigNewer = try file("0000000000000004.tiles", size: 600 << 20, days: 2)
        let staleCut = try file("0000000000000005.tiles.77.tmp", days: 0.2)
        let freshCut = try file("0000000000000006.tiles.78.tmp", days: 0)
        TileFile.prune(folder, keeping: [folder + "/link.png"])
        #expect(exists(used), "what the manifest uses stays")
        #expect(!exists(old), "unused for a month")
        #expect(!exists(bigOlder), "the oldest unused while they take more than 1 GiB")
        #expect(exists(bigNewer) && exists(recent), "then within the budget")
        #expect(!exists(staleCut) && exists(freshCut), "a cut left by a crash goes after an hour")
    }
}
