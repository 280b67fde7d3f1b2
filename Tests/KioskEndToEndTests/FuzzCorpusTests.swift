import Foundation
import Testing

/// Malformed manifests, images, event logs and state files, as an operator's mistakes and a fuzzer make them:
/// each is checked (`--check`), started and replayed headless, and ends with the contract's status (0, 3 or 4)
/// and its one line, within a time limit, never by a signal.
@Suite struct FuzzCorpusTests {
    /// A case: a manifest (its `images/` are the demo's), an optional log, what the start must end with and a
    /// part of its one `<3>` line.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var manifest: String
        var log: String? = nil
        var status: Int32
        var message: String = ""
        /// `--check` says the same (nil: the check passes, the problem is found at load or replay only).
        var checkStatus: Int32? = nil
        /// A picture a placeholder covers: the start goes on (status 0) with its `<3>` line.
        var placeholder = false
        var testDescription: String { name }
    }

    /// The folder every case shares: a folder, a FIFO, a dangling link, a broken pyramid and a lying JPEG.
    static let files: URL = {
        let dir = Kiosk.folder()
        let fm = FileManager.default
        try? fm.createDirectory(at: dir.appendingPathComponent("adir.png"), withIntermediateDirectories: true)
        mkfifo(dir.appendingPathComponent("fifo.png").path, 0o644)
        try? fm.createSymbolicLink(atPath: dir.appendingPathComponent("dangling.png").path, withDestinationPath: "/no")
        try? #"<Image TileSize="1" Overlap="0" Format="jpeg"><Size Width="2000" Height="2000"/></Image>"#.write(
            to: dir.appendingPathComponent("tiny-tiles.dzi"), atomically: true, encoding: .utf8)
        // A JPEG whose frame header claims 20000x20000 pixels, in 176 bytes.
        var jpeg: [UInt8] = [
            0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8, 0x4E, 0x20, 0x4E, 0x20, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
        ]
        jpeg += [UInt8](repeating: 0, count: 176 - jpeg.count - 2) + [0xFF, 0xD9]
        _ = fm.createFile(atPath: dir.appendingPathComponent("claims-20000.jpg").path, contents: Data(jpeg))
        _ = try? Kiosk.manifest("{}", in: dir)  // links images/
        return dir
    }()

    static func zoom(_ extra: String, image: String = "images/floorplan.png") -> String {
        #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "\#(image)"\#(extra)}]}"#
    }
    static func carousel(_ extra: String, page: String = "images/gallery-sunset.jpg") -> String {
        #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "carousel", "pages": ["images/gallery-mountains.jpg", "\#(page)"]\#(extra)}]}"#
    }
    /// The bad image in a scene that is not shown first.
    static func second(_ image: String) -> String {
        #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "images/floorplan.png", "hotspots": [{"rect": [0, 0, 9, 9], "goto": "b"}]}, {"id": "b", "type": "scroll", "image": "\#(image)"}]}"#
    }

    /// A double tap, then a pan across the screen.
    static let doubleTapAndPan: String = {
        var log = LogWriter(width: 320, height: 240)
        log.tap(0.4, 0.4, at: 0)
        log.tap(0.4, 0.4, at: 150)
        log.drag(from: (0.2, 0.2), to: (0.9, 0.8), at: 1500)
        return log.lines.joined(separator: "\n") + "\n"
    }()

    static func line(_ json: String) -> String { LogWriter(width: 320, height: 240).lines[0] + "\n" + json + "\n" }

    static let images: [Case] = ["adir.png", "fifo.png", "/dev/zero", "dangling.png", "", "nul\\u0000.png"].flatMap {
        (image: String) -> [Case] in
        let why = ["folder", "FIFO", "device", "file not found", "empty path", "NUL"][
            ["adir.png", "fifo.png", "/dev/zero", "dangling.png", ""].firstIndex(of: image) ?? 5]
        // A file that is not there or not a picture is a placeholder, and the start goes on; a path that names no
        // file at all is the manifest's mistake, and stops it.
        let named = ["adir.png", "fifo.png", "/dev/zero", "dangling.png"].contains(image)
        let status: Int32 = named ? 0 : 3
        let check: Int32? = named ? 3 : nil
        return [
            Case(
                name: "zoom image \(image)", manifest: zoom("", image: image), status: status, message: why,
                checkStatus: check, placeholder: named),
            Case(
                name: "carousel page \(image)", manifest: carousel("", page: image), status: status, message: why,
                checkStatus: check, placeholder: named),
            Case(
                name: "second scene's image \(image)", manifest: second(image), status: status, message: why,
                checkStatus: check, placeholder: named),
        ]
    }

    static let numbers: [Case] = [
        Case(
            name: "textureBudgetMiB 1e13",
            manifest: zoom("").replacingOccurrences(
                of: #""kioskManifest": 1,"#, with: #""kioskManifest": 1, "textureBudgetMiB": 1e13,"#),
            status: 3, message: "textureBudgetMiB: must be between 8 and 65536"),
        Case(
            name: "min = max = 1e20", manifest: zoom(#", "minZoom": 1e20, "maxZoom": 1e20"#), status: 3,
            message: "minZoom: must be between"),
        Case(
            name: "carousel maxZoom 1e308", manifest: carousel(#", "maxZoom": 1e308"#), status: 3,
            message: "maxZoom: must be between"),
        Case(name: "zoom maxZoom 1e308", manifest: zoom(#", "maxZoom": 1e308"#), status: 3, message: "maxZoom"),
        Case(
            name: "a number beyond a double", manifest: zoom(#", "maxZoom": 1e400"#), status: 3,
            message: "not valid JSON"),
        Case(
            name: "hotspot page 1e300", manifest: carousel(#", "hotspots": [{"rect": [0, 0, 9, 9], "page": 1e300}]"#),
            status: 3, message: "hotspots[0].page"),
        Case(
            name: "hotspot rect 1e300", manifest: zoom(#", "hotspots": [{"rect": [1e300, 0, 9, 9]}]"#), status: 3,
            message: "hotspots[0].rect"),
        Case(
            name: "idleTimeoutSeconds 1e300",
            manifest: zoom("").replacingOccurrences(
                of: #""kioskManifest": 1,"#, with: #""kioskManifest": 1, "idleTimeoutSeconds": 1e300,"#),
            status: 3, message: "idleTimeoutSeconds: must be between"),
        Case(
            name: "duplicate key",
            manifest: zoom("").replacingOccurrences(
                of: #""kioskManifest": 1,"#,
                with: #""kioskManifest": 1, "idleTimeoutSeconds": 60, "idleTimeoutSeconds": "soon","#),
            status: 3, message: "idleTimeoutSeconds: given twice"),
        Case(
            name: "nested 100000 deep", manifest: String(repeating: "[", count: 100_000), status: 3,
            message: "not valid JSON"),
        // The extremes that are allowed: a double tap and a pan at them stay finite.
        Case(
            name: "min = max = 1000", manifest: zoom(#", "minZoom": 1000, "maxZoom": 1000"#), log: doubleTapAndPan,
            status: 0),
        Case(
            name: "zoom 0.0001 to 1000", manifest: zoom(#", "minZoom": 0.0001, "maxZoom": 1000"#),
            log: doubleTapAndPan, status: 0),
        Case(name: "carousel maxZoom 1000", manifest: carousel(#", "maxZoom": 1000"#), log: doubleTapAndPan, status: 0),
    ]

    static let pictures: [Case] = [
        Case(
            name: "a header that claims 20000x20000 in 176 bytes", manifest: zoom("", image: "claims-20000.jpg"),
            status: 0, message: "claims 20000x20000", checkStatus: 3),
        Case(
            name: "a Deep Zoom image of one-pixel tiles", manifest: zoom("", image: "tiny-tiles.dzi"), status: 0,
            message: "TileSize=\"1\" is outside", checkStatus: 3),
    ]

    static let logs: [Case] =
        [
            Case(
                name: "CRLF line ends", manifest: zoom(""),
                log: doubleTapAndPan.replacingOccurrences(of: "\n", with: "\r\n"),
                status: 0),
            Case(
                name: "timestamp 1e12", manifest: zoom(""), log: line(#"{"timestamp": 1e12, "type": "SDL_QUIT"}"#),
                status: 4, message: ":2: timestamp: 1000000000000 is outside 0 to 604800000 ms"),
            Case(
                name: "timestamp 1e300", manifest: zoom(""), log: line(#"{"timestamp": 1e300, "type": "SDL_QUIT"}"#),
                status: 4, message: ":2: timestamp:"),
            Case(
                name: "a negative timestamp", manifest: zoom(""), log: line(#"{"timestamp": -5, "type": "SDL_QUIT"}"#),
                status: 4, message: ":2: timestamp: -5"),
        ]
        + [2_147_483_648, 2_147_483_647, 0, -1].map { (size: Int) in
            Case(
                name: "window size \(size)", manifest: zoom(""),
                log: line(
                    #"{"timestamp": 5, "type": "SDL_WINDOWEVENT", "event": "SDL_WINDOWEVENT_SIZE_CHANGED", "data1": \#(size), "data2": 100}"#
                ),
                status: 4, message: ":2: data1: \(size) is not a window size")
        }
        + ["x", "y", "dx", "dy", "pressure", "touchId", "fingerId"].map { (field: String) in
            var fields = [
                "x": "0.5", "y": "0.5", "dx": "0", "dy": "0", "pressure": "1", "touchId": "1", "fingerId": "1",
            ]
            fields[field] = "1e300"
            let body = fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
            return Case(
                name: "finger \(field) 1e300", manifest: zoom(""),
                log: line(#"{"timestamp": 5, "type": "SDL_FINGERDOWN", \#(body)}"#), status: 4, message: ":2: \(field):"
            )
        } + [
            Case(
                name: "a finger a billion screens away", manifest: zoom(""),
                log: line(
                    #"{"timestamp": 5, "type": "SDL_FINGERDOWN", "touchId": 1, "fingerId": 1, "x": 1e9, "y": -1e9}"#),
                status: 0),
            Case(
                name: "a wheel of a billion steps", manifest: zoom(""),
                log: line(#"{"timestamp": 5, "type": "SDL_MOUSEWHEEL", "x": 1000000000, "y": -1000000000}"#), status: 0),
            Case(
                name: "5000 fingers never lifted", manifest: zoom(""),
                log: LogWriter(width: 320, height: 240).lines[0] + "\n"
                    + (0..<5000).map {
                        #"{"timestamp": \#($0), "type": "SDL_FINGERDOWN", "touchId": 1, "fingerId": \#($0), "x": 0.5, "y": 0.5}"#
                    }.joined(separator: "\n") + "\n",
                status: 0),
            Case(
                name: "a field given twice", manifest: zoom(""),
                log: line(#"{"timestamp": 5, "type": "SDL_QUIT", "type": "SDL_QUIT"}"#), status: 4,
                message: ":2: not valid JSON (type is given twice)"),
        ]

    /// Long enough to find a hang (a FIFO, a run that never ends), far longer than any case takes.
    static let timeLimit = 60.0

    @Test(arguments: images + numbers + pictures + logs)
    func endsAsTheContractSays(_ c: Case) throws {
        let dir = Self.files
        let manifest = dir.appendingPathComponent("m-\(UUID().uuidString).json").path
        try c.manifest.write(toFile: manifest, atomically: false, encoding: .utf8)
        let check = try Self.run(["--check", "--config", manifest])
        let checkStatus = c.checkStatus ?? (c.log == nil || c.status == 3 ? c.status : 0)
        Self.expectEnds(check, checkStatus, checkStatus == 0 ? "" : c.message, "--check")
        var start = ["--headless", "320x240", "--config", manifest]
        if let log = c.log {
            let path = dir.appendingPathComponent("l-\(UUID().uuidString).jsonl").path
            try log.write(toFile: path, atomically: false, encoding: .utf8)
            start += ["--replay", path]
        } else {
            start += ["--screenshot", "0:" + dir.appendingPathComponent("s-\(UUID().uuidString).png").path]
        }
        let r = try Self.run(start)
        Self.expectEnds(r, c.status, c.message, "start", placeholder: c.placeholder)
    }

    struct Outcome {
        var status: Int32
        var signalled: Bool
        var timedOut: Bool
        var stderr: String
    }

    static func expectEnds(_ r: Outcome, _ status: Int32, _ message: String, _ what: String, placeholder: Bool = false)
    {
        #expect(!r.timedOut, "\(what): still running after \(timeLimit) s")
        #expect(!r.signalled, "\(what): killed by signal \(r.status): \(r.stderr.suffix(2000))")
        #expect(r.status == status, "\(what): \(r.stderr.suffix(2000))")
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("<3>") }
        // One line for one mistake (two, and their count, for a case that makes two).
        #expect(
            status == 0 && !placeholder ? errors.isEmpty : (1...3).contains(errors.count),
            "\(what): \(r.stderr.suffix(2000))")
        if !message.isEmpty { #expect(r.stderr.contains(message), "\(what): \(r.stderr.suffix(2000))") }
        // Nothing floods the journal: a handful of lines, none long.
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count < 30, "\(what): \(lines.count) lines")
        #expect(lines.allSatisfy { $0.utf8.count < 2200 })
    }

    /// Runs the kiosk, killing it after `timeLimit` seconds.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        let (p, err) = try Kiosk.launch(arguments, environment: environment)
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        if !p.isRunning { done.signal() }
        let collected = Collected()
        let reader = Thread {
            collected.data = err.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        reader.start()
        var timedOut = false
        if done.wait(timeout: .now() + timeLimit) == .timedOut || done.wait(timeout: .now() + timeLimit) == .timedOut {
            timedOut = true
            p.terminate()
            kill(p.processIdentifier, SIGKILL)
        }
        p.waitUntilExit()
        while reader.isExecuting { usleep(1000) }
        return Outcome(
            status: p.terminationStatus, signalled: p.terminationReason == .uncaughtSignal, timedOut: timedOut,
            stderr: String(decoding: collected.data, as: UTF8.self))
    }

    final class Collected: @unchecked Sendable { var data = Data() }

    /// A 20 MB scene id is cut in the one line that names it.
    @Test func aHugeValueIsCutInItsLine() throws {
        let id = String(repeating: "x", count: 20_000_000)
        let json =
            #"{"kioskManifest": 1, "scenes": [{"id": "\#(id)", "type": "zoom", "image": "images/floorplan.png"}, {"id": "\#(id)", "type": "zoom", "image": "images/floorplan.png"}]}"#
        let manifest = Self.files.appendingPathComponent("huge-\(UUID().uuidString).json").path
        try json.write(toFile: manifest, atomically: false, encoding: .utf8)
        let r = try Self.run(["--check", "--config", manifest])
        #expect(r.status == 3 && !r.signalled)
        #expect(
            r.stderr.contains("is used by another scene") || r.stderr.contains("more bytes)"), "\(r.stderr.prefix(300))"
        )
        #expect(r.stderr.utf8.count < 20_000, "\(r.stderr.utf8.count) bytes")
    }

    /// A saved state for content that changed: said as such, at warning level.
    @Test(arguments: [
        (
            #"{"kioskState": 1, "scene": "gone", "views": {}, "lastInput": 9e9}"#,
            #"<4>kiosk: STATE: the saved scene "gone" is not in the manifest"#
        ),
        (
            #"{"kioskState": 1, "scene": "a", "views": {"a": {"contentOffset": [1e308, 5], "zoomScale": 1e9}}, "lastInput": 9e9}"#,
            "<4>kiosk: STATE: a.zoomScale 1000000000.0 is outside its limits"
        ),
        (
            #"{"kioskState": 1, "scene": "a", "views": {"a": {"contentOffset": [1e308, 5], "zoomScale": 1}}, "lastInput": 9e9}"#,
            "<4>kiosk: STATE: a.contentOffset [1e+308, 5.0] is outside its limits"
        ),
    ])
    func aStateThatNoLongerFits(state: String, message: String) throws {
        let folder = Kiosk.folder()
        let path = folder.appendingPathComponent("state.json").path
        try state.write(toFile: path, atomically: false, encoding: .utf8)
        let manifest = Self.files.appendingPathComponent("st-\(UUID().uuidString).json").path
        try Self.zoom(#", "maxZoom": 2"#).write(toFile: manifest, atomically: false, encoding: .utf8)
        let r = try Self.run(
            [
                "--headless", "320x240", "--config", manifest, "--screenshot",
                "0:" + folder.appendingPathComponent("s.png").path,
            ],
            environment: ["STATE_DIRECTORY": folder.path])
        #expect(r.status == 0 && !r.signalled, "\(r.stderr)")
        #expect(r.stderr.contains(message.replacingOccurrences(of: "STATE", with: path)), "\(r.stderr)")
        #expect(!r.stderr.contains("the idle timeout has passed"))
    }
}
