import Foundation
import Testing

/// Runs the built `kiosk` binary headless and reads what it wrote.
struct Kiosk {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let assets = repository.appendingPathComponent("Assets")
    static let recordings = repository.appendingPathComponent("Tests/TouchInputTests/Fixtures/real")

    /// The binary beside the test bundle (SwiftPM builds it: this target depends on it).
    static var binary: URL {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [here, here.deletingLastPathComponent(), repository.appendingPathComponent(".build/debug")] {
            let candidate = dir.appendingPathComponent("kiosk")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return repository.appendingPathComponent(".build/debug/kiosk")
    }

    struct Result {
        var status: Int32
        var stderr: String
        var trace: [[String: Any]]
        var stdout = ""
    }

    /// The cache folder of the tests' kiosks (shared by one run, so a large image is cut once).
    static let testCache = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-tests-cache").path

    /// The demo's large images cut into the tests' cache once, before the first test's kiosk starts (else every
    /// kiosk started at once cuts them too).
    static let cacheWarmed: Void = {
        let dir = folder()
        for scene in ["map", "menu"] {
            let p = Process()
            p.executableURL = binary
            p.arguments = [
                "--headless", "64x64", "--config", (try? manifest(demo, in: dir)) ?? "", "--scene", scene,
                "--screenshot", "0:" + dir.appendingPathComponent("warm.png").path,
            ]
            p.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": testCache]) { $1 }
            p.standardError = FileHandle.nullDevice
            try? p.run()
            p.waitUntilExit()
        }
    }()

    /// A fresh folder for one test's files.
    static func folder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-e2e-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `kiosk` with `arguments` (a trace is added unless `trace` is false) and waits for it.
    static func run(_ arguments: [String], in dir: URL, environment: [String: String] = [:], trace: Bool = true) throws
        -> Result
    {
        let tracePath = dir.appendingPathComponent("trace-\(UUID().uuidString).jsonl").path
        let out = Pipe()
        let (p, err) = try launch(
            arguments + (trace ? ["--trace", tracePath] : []), environment: environment, output: out)
        let data = err.fileHandleForReading.readDataToEndOfFile()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        var lines: [[String: Any]] = []
        if trace, let text = try? String(contentsOfFile: tracePath, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                if let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] {
                    lines.append(obj)
                }
            }
        }
        return Result(
            status: p.terminationStatus, stderr: String(decoding: data, as: UTF8.self), trace: lines,
            stdout: String(decoding: output, as: UTF8.self))
    }

    /// Draws a demo pyramid of `size`² at `out` (a `.dzi` path) with the project's own generator.
    static func pyramid(size: Int, out: String) throws {
        let p = Process()
        p.executableURL = binary.deletingLastPathComponent().appendingPathComponent("kiosk-deepzoom-demo")
        p.arguments = ["--size", "\(size)", "--out", out]
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
    }

    /// Starts the binary with `arguments`, the test's environment plus `environment`; its standard error is
    /// the returned pipe, its standard output `output` (else nowhere).
    static func launch(
        _ arguments: [String], environment: [String: String], output: Pipe? = nil, in folder: URL? = nil
    ) throws -> (Process, Pipe) {
        _ = cacheWarmed
        let p = Process()
        p.executableURL = binary
        p.arguments = arguments
        if let folder { p.currentDirectoryURL = folder }
        var env = ProcessInfo.processInfo.environment
        // The tiles cut from large images go to a cache folder of the tests' own, not the user's.
        env["XDG_CACHE_HOME"] = testCache
        env["CACHE_DIRECTORY"] = nil
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let err = Pipe()
        p.standardError = err
        p.standardOutput = output ?? FileHandle.nullDevice
        try p.run()
        return (p, err)
    }

    /// Writes a manifest (JSON text) whose images are the demo's, into `dir`; returns its path.
    static func manifest(_ json: String, in dir: URL) throws -> String {
        let images = dir.appendingPathComponent("images")
        if !FileManager.default.fileExists(atPath: images.path) {
            try FileManager.default.createSymbolicLink(
                at: images, withDestinationURL: assets.appendingPathComponent("images"))
        }
        // The demo's film and its captions.
        let media = dir.appendingPathComponent("media")
        if !FileManager.default.fileExists(atPath: media.path) {
            try FileManager.default.createSymbolicLink(
                at: media, withDestinationURL: assets.appendingPathComponent("media"))
        }
        // The demo's directory, beside its manifest.
        let rows = dir.appendingPathComponent("directory.csv")
        if !FileManager.default.fileExists(atPath: rows.path) {
            try FileManager.default.createSymbolicLink(
                at: rows, withDestinationURL: assets.appendingPathComponent("directory.csv"))
        }
        let path = dir.appendingPathComponent("kiosk.json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The demo scenes at a small size, for quick runs.
    static let demo = """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 0,
         "scenes": [
           {"id": "map", "type": "zoom", "image": "images/floorplan.png", "maxZoom": 2.0, "doubleTapZoom": 1.0,
            "hotspots": [{"id": "cafe", "rect": [1200, 800, 700, 500], "goto": "menu"}]},
           {"id": "gallery", "type": "carousel", "pages": ["images/gallery-sunset.jpg", "images/gallery-mountains.jpg",
            "images/gallery-circles.jpg"], "pageControl": true, "maxZoom": 3.0},
           {"id": "menu", "type": "scroll", "image": "images/menu-long.png", "axis": "vertical"}
         ]}
        """
}

/// Event logs written by tests.
struct LogWriter {
    var lines: [String]
    init(width: Int = 800, height: Int = 480) {
        lines = [#"{"kioskEventLog": 1, "display": {"w": \#(width), "h": \#(height)}, "source": "test"}"#]
    }
    mutating func finger(_ t: Double, _ type: String, _ id: Int, _ x: Double, _ y: Double) {
        lines.append(
            #"{"timestamp": \#(t), "type": "SDL_FINGER\#(type)", "touchId": 1, "fingerId": \#(id), "x": \#(x), "y": \#(y), "dx": 0, "dy": 0, "pressure": 1}"#
        )
    }
    /// One finger from (x0, y0) to (x1, y1) (normalised), a sample every 8 ms, lifted at once.
    mutating func drag(
        from a: (Double, Double), to b: (Double, Double), at t0: Double = 0, steps: Int = 12, id: Int = 1
    ) {
        finger(t0, "DOWN", id, a.0, a.1)
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            finger(t0 + Double(i) * 8, "MOTION", id, a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f)
        }
        finger(t0 + Double(steps) * 8, "UP", id, b.0, b.1)
    }
    mutating func tap(_ x: Double, _ y: Double, at t: Double, id: Int = 1) {
        finger(t, "DOWN", id, x, y)
        finger(t + 60, "UP", id, x, y)
    }
    func write(_ dir: URL, _ name: String = "log.jsonl") throws -> String {
        let path = dir.appendingPathComponent(name).path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

extension Kiosk.Result {
    /// Event names (without didScroll, didZoom and didChangeAdjustedContentInset) in order, with their views.
    var events: [(view: String?, name: String, fields: [String: Any])] {
        trace.flatMap { line in
            (line["events"] as? [[String: Any]] ?? []).compactMap { e in
                let name = e["name"] as? String ?? ""
                if ["scrollViewDidScroll", "scrollViewDidZoom", "scrollViewDidChangeAdjustedContentInset"].contains(
                    name)
                {
                    return nil
                }
                return (e["view"] as? String, name, e)
            }
        }
    }

    var last: [String: Any] { trace.last ?? [:] }

    func view(_ id: String, at line: [String: Any]? = nil) -> [String: Any] {
        ((line ?? last)["views"] as? [String: Any])?[id] as? [String: Any] ?? [:]
    }

    func offset(_ id: String, at line: [String: Any]? = nil) -> (Double, Double) {
        let o = view(id, at: line)["contentOffset"] as? [Double] ?? [.nan, .nan]
        return (o[0], o[1])
    }

    func number(_ id: String, _ key: String, at line: [String: Any]? = nil) -> Double {
        view(id, at: line)[key] as? Double ?? .nan
    }
}
