import Foundation
import TestSupport
import Testing

/// Images and logs that are broken in every way: each ends as the contracts say, naming the file, no crash.
@Suite struct FaultMatrixTests {
    let dir = Kiosk.folder()

    static func png(width: UInt32, height: UInt32) -> Data {
        var d = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        for v in [width, height] {
            d.append(contentsOf: [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)])
        }
        d.append(contentsOf: [8, 6, 0, 0, 0, 0, 0, 0, 0])
        return d
    }

    @Test(arguments: ["missing", "truncated", "zero-byte", "huge-header", "not-an-image"])
    func brokenImages(kind: String) throws {
        let file = dir.appendingPathComponent("\(kind).png")
        switch kind {
        case "truncated":
            let real = try Data(contentsOf: Kiosk.assets.appendingPathComponent("images/menu-long.png"))
            try real.prefix(5000).write(to: file)
        case "zero-byte": try Data().write(to: file)
        case "huge-header": try Self.png(width: 200_000, height: 200_000).write(to: file)
        case "not-an-image": try Data("<html>this is a web page</html>".utf8).write(to: file)
        default: break
        }
        let json = """
            {"kioskManifest": 1, "home": "g", "scenes": [
              {"id": "g", "type": "carousel", "pages": ["images/gallery-sunset.jpg", "\(kind).png"]}]}
            """
        let manifest = try Kiosk.manifest(json, in: dir)
        if kind == "missing" {
            // A missing file is a manifest error, naming the file and the field; the start goes on with a
            // placeholder for it (--check fails).
            try? FileManager.default.removeItem(at: file)
            let r = try Kiosk.run(["--headless", "320x200", "--config", manifest], in: dir, trace: false)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("<3>kiosk: \(manifest): scenes[0].pages[1]: file not found: "), "\(r.stderr)")
            #expect(r.stderr.contains("starting with 1 picture or film shown as a placeholder"), "\(r.stderr)")
            return
        }
        var log = LogWriter()
        log.drag(from: (0.8, 0.5), to: (0.2, 0.5), steps: 10)
        let r = try Kiosk.run(["--headless", "320x200", "--config", manifest, "--replay", try log.write(dir)], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains(file.path) }
        #expect(lines.count == 1, "one line naming the file: \(r.stderr)")
        #expect(lines.first?.hasPrefix("<4>kiosk: ") == true)
        #expect(r.view("g")["page"] as? Int == 1)
    }

    @Test func tenThousandRandomFingerEvents() throws {
        var log = LogWriter()
        var rng = SplitMix(seed: 10_000)
        var t = 0.0
        var down: Set<Int> = []
        for _ in 0..<10_000 {
            t += [0.0, 0, 4, 8, 16, 40][Int.random(in: 0..<6, using: &rng)]
            let id = Int.random(in: 0..<10, using: &rng)
            let x = Double.random(in: -0.2...1.2, using: &rng)
            let y = Double.random(in: -0.2...1.2, using: &rng)
            let type: String
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1: type = "DOWN"
            case 2, 3: type = "UP"
            default: type = down.contains(id) ? "MOTION" : "DOWN"
            }
            if type == "UP" { down.remove(id) } else { down.insert(id) }
            log.finger(t, type, id, x, y)
        }
        for scene in ["map", "gallery", "menu"] {
            let r = try Kiosk.run(
                [
                    "--headless", "320x200", "--config", try Kiosk.manifest(Kiosk.demo, in: dir), "--scene", scene,
                    "--replay",
                    try log.write(dir),
                ], in: dir)
            #expect(r.status == 0, "\(scene): \(r.stderr)")
            for (_, v) in r.last["views"] as? [String: [String: Any]] ?? [:] {
                #expect(v["isTracking"] as? Bool == false)
            }
        }
    }
}
