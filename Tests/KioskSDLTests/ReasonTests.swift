import Foundation
import Testing

@testable import KioskSDL

/// Foundation's file errors reach a curator as the C library says them: "Not a directory", not "The operation
/// could not be completed. (NSCocoaErrorDomain error 512.)".
@Test func aFileErrorIsSaidAsTheSystemSaysIt() throws {
    let file = NSTemporaryDirectory() + "kiosk-reason-\(UUID().uuidString)"
    #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
    defer { unlink(file) }
    do {
        try FileManager.default.createDirectory(atPath: file + "/museum", withIntermediateDirectories: true)
        Issue.record("a folder was made inside a file")
    } catch {
        #expect(reason(error) == String(cString: strerror(ENOTDIR)), "\(reason(error))")
        #expect(!reason(error).contains("NSCocoaErrorDomain"))
    }
    do {
        try FileManager.default.copyItem(atPath: file + "-none", toPath: file + "-copy")
        Issue.record("a missing file was copied")
    } catch {
        #expect(reason(error) == String(cString: strerror(ENOENT)), "\(reason(error))")
    }
}
