import Foundation
import Kiosk
import Testing

@testable import KioskSDL

/// The visits folder: appends that survive a torn line, and retention by age and by size.
@Suite struct VisitLogTests {
    let folder = NSTemporaryDirectory() + "kiosk-visits-\(UUID().uuidString)"

    func visit(_ day: String, _ ms: Int = 1000) -> Visit {
        Visit(start: day + "T10:00:00+00:00", durationMs: ms, scenes: ["map": ms], hotspots: [:], gestures: [:])
    }

    @Test func aTornLastLineIsEndedBeforeTheNextVisit() throws {
        let log = VisitLog(folder: folder)
        log.append(visit("2026-01-05"), today: "2026-01-05")
        let path = folder + "/2026-01-05.jsonl"
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"start": "2026-01-05T11:0"#.utf8))
        try handle.close()
        log.append(visit("2026-01-05", 2000), today: "2026-01-05")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(VisitLog.read(folder: folder, since: nil).map(\.durationMs) == [1000, 2000])
        #expect(VisitLog.read(folder: folder, since: "2026-01-06").isEmpty)
    }

    /// A full disk is said as such (a write that stops short is ENOSPC, not "Success"), and a day's file whose
    /// write failed keeps what it held.
    @Test func aFullDiskIsSaidAndLeavesNoTornLine() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/2026-01-05.jsonl", withDestinationPath: "/dev/full")
        let fd = open("/dev/full", O_WRONLY)
        defer { close(fd) }
        #expect(writeAll(fd, Array("a visit\n".utf8)) == ENOSPC)
        let log = VisitLog(folder: folder)
        log.append(visit("2026-01-05"), today: "2026-01-05")
        #expect(log.warned)
    }

    @Test func retentionByAgeAndSize() throws {
        let log = VisitLog(folder: folder, maximumBytes: 1000)
        for day in ["2024-11-01", "2025-01-01", "2025-06-01", "2025-12-01"] {
            log.append(visit(day), today: "2024-01-01")
        }
        #expect(VisitLog.files(in: folder).map(\.day) == ["2024-11-01", "2025-01-01", "2025-06-01", "2025-12-01"])
        // 2026-01-05 is 430 days after 2024-11-01 and 369 after 2025-01-01.
        log.prune(today: "2026-01-05")
        #expect(VisitLog.files(in: folder).map(\.day) == ["2025-01-01", "2025-06-01", "2025-12-01"])
        // Past the size (three files of some 155 bytes): the oldest go first, the newest always stays.
        let big = VisitLog(folder: folder, maximumBytes: 400)
        big.prune(today: "2026-01-05")
        #expect(VisitLog.files(in: folder).map(\.day) == ["2025-06-01", "2025-12-01"])
        // Files that are not days are the operator's: left alone.
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        big.prune(today: "2027-06-01")
        #expect(VisitLog.files(in: folder).isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder + "/notes.txt"))
    }
}
