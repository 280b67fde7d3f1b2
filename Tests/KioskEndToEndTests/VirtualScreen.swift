import Foundation
import TestSupport

/// An X server of one test's own: Xvfb with a 1024 x 768 screen, on a display number it finds free itself
/// (`-displayfd`, a bind that either gets the number or tries the next). `xvfb-run -a` chooses the number from
/// lock files before starting the server, and tests starting together race for one number.
final class VirtualScreen {
    static let xvfb = "/usr/bin/Xvfb"

    /// Why no X server can be started here, or nil.
    static let cannotRun = Installed.missing(xvfb, from: "xvfb", for: "no window to draw in")

    let server = Process()
    let number: Int
    /// `DISPLAY` for its clients, e.g. ":3".
    var display: String { ":\(number)" }

    struct NotStarted: Error, CustomStringConvertible { var description: String }

    init() throws {
        server.executableURL = URL(fileURLWithPath: Self.xvfb)
        server.arguments = ["-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"]
        let out = Pipe()
        server.standardOutput = out
        server.standardError = FileHandle.nullDevice
        try server.run()
        // Xvfb writes the number once it accepts connections; end of file means it did not start.
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(server.processIdentifier, SIGKILL)
            throw NotStarted(description: "Xvfb did not start (it wrote \(text.debugDescription))")
        }
        self.number = number
    }

    /// SIGKILL: the server inherits the test thread's blocked signals (a test runner's worker threads block
    /// SIGTERM), so a SIGTERM would never reach it. Its lock file and socket, left behind, are removed.
    deinit {
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
    }
}
