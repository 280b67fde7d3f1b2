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
        for day in ["2024-11-01", "2025-01-01", "2025-06-01", "2026-01-04"] {
            log.append(visit(day), today: "2024-01-01")
        }
        #expect(VisitLog.files(in: folder).map(\.day) == ["2024-11-01", "2025-01-01", "2025-06-01", "2026-01-04"])
        // The newest day with visits, 2026-01-04, is 429 days after 2024-11-01 and 368 after 2025-01-01.
        log.prune(today: "2026-01-05")
        #expect(VisitLog.files(in: folder).map(\.day) == ["2025-01-01", "2025-06-01", "2026-01-04"])
        // Past the size (three files of some 155 bytes): the oldest go first, the newest always stays.
        let big = VisitLog(folder: folder, maximumBytes: 400)
        big.prune(today: "2026-01-05")
        #expect(VisitLog.files(in: folder).map(\.day) == ["2025-06-01", "2026-01-04"])
        // Files that are not days are the operator's: left alone.
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        // A clock set forward a year and a half removes nothing by itself...
        big.prune(today: "2027-06-01")
        #expect(VisitLog.files(in: folder).map(\.day) == ["2025-06-01", "2026-01-04"])
        // ...until that day has visits: then what is 400 days older than it goes, never the day itself.
        big.append(visit("2027-06-01"), today: "2027-06-01")
        #expect(VisitLog.files(in: folder).map(\.day) == ["2027-06-01"])
        #expect(FileManager.default.fileExists(atPath: folder + "/notes.txt"))
    }

    /// A large file dated far ahead (2999) is neither counted nor removed, and the real days stay.
    @Test func aDayAfterTodayTakesNoRealDay() throws {
        let log = VisitLog(folder: folder, maximumBytes: 1000)
        for day in ["2026-01-03", "2026-01-04"] { log.append(visit(day), today: day) }
        try Data(repeating: 0x7B, count: 5000).write(to: URL(fileURLWithPath: folder + "/2999-12-31.jsonl"))
        log.append(visit("2026-01-05"), today: "2026-01-05")
        log.prune(today: "2026-01-05")
        #expect(
            VisitLog.files(in: folder).map(\.day) == ["2026-01-03", "2026-01-04", "2026-01-05", "2999-12-31"])
        #expect(log.warnedFuture)
    }

}
