import EventLog
import Foundation
import Kiosk
import ScrollEngine
import TestSupport
import Testing

@testable import KioskSDL

/// An hour of virtual time of random gestures in every scene: memory (the process's and the tile cache's)
/// stays flat.
@Suite struct SoakTests {
    static func residentKiB() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }

    @Test func anHourOfRandomGesturesKeepsMemoryFlat() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-soak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("images"),
            withDestinationURL: repository.appendingPathComponent("Assets/images"))
        let manifest = folder.appendingPathComponent("kiosk.json").path
        try """
        {"kioskManifest": 1, "home": "map", "idleTimeoutSeconds": 90, "textureBudgetMiB": 16,
         "scenes": [
           {"id": "map", "type": "zoom", "image": "images/floorplan.png", "maxZoom": 2.0,
            "hotspots": [{"id": "cafe", "rect": [1200, 800, 700, 500], "goto": "menu"},
                         {"id": "a", "rect": [1900, 300, 1200, 1000], "goto": "gallery"}]},
           {"id": "gallery", "type": "carousel", "pages": ["images/gallery-sunset.jpg", "images/gallery-night.jpg"],
            "maxZoom": 3.0},
           {"id": "menu", "type": "scroll", "image": "images/menu-long.png"}
         ]}
        """.write(toFile: manifest, atomically: true, encoding: .utf8)
        let session = try HeadlessSession(manifestPath: manifest, width: 320, height: 200, synchronous: true)
        var rng = SplitMix(seed: 42)
        var t = 0.0
        var samples: [(minute: Int, rss: Int, textures: Int)] = []
        var frame = 0
        var nextGesture = 0.0
        while t < 3_600_000 {
            if t >= nextGesture {
                // A gesture: one or two fingers moving somewhere, 50 to 600 ms, then a pause of up to 20 s.
                let fingers = rng.int(3) == 0 ? 2 : 1
                let steps = 3 + rng.int(36)
                var p = (0..<fingers).map { _ in Point(x: rng.unit(), y: rng.unit()) }
                let d = (0..<fingers).map { _ in Point(x: rng.range(-0.02, 0.02), y: rng.range(-0.02, 0.02)) }
                for f in 0..<fingers {
                    session.app.handle(
                        .finger(.down, touchId: 1, fingerId: Int64(f), x: p[f].x, y: p[f].y, dx: 0, dy: 0, pressure: 1),
                        at: t)
                }
                for s in 0..<steps {
                    for f in 0..<fingers {
                        p[f] = p[f] + d[f]
                        session.app.handle(
                            .finger(
                                .motion, touchId: 1, fingerId: Int64(f), x: p[f].x, y: p[f].y, dx: 0, dy: 0, pressure: 1
                            ),
                            at: t + Double(s) * 16)
                    }
                }
                for f in 0..<fingers {
                    session.app.handle(
                        .finger(.up, touchId: 1, fingerId: Int64(f), x: p[f].x, y: p[f].y, dx: 0, dy: 0, pressure: 1),
                        at: t + Double(steps) * 16)
                }
                nextGesture = t + Double(steps) * 16 + rng.range(100, 20_000)
            }
            t += 1000.0 / 60
            // Every frame steps the kiosk; one in 20 is drawn (the drawing is what holds textures).
            if frame % 20 == 0 { session.frame(at: t) } else { session.app.step(to: t) }
            _ = session.app.traceLine(frame: frame)
            frame += 1
            if frame % 3600 == 0 {
                samples.append((frame / 3600, Self.residentKiB(), session.images.tiles.cache.bytes))
            }
        }
        #expect(samples.count == 60)
        let budget = 16 * 1_048_576
        #expect(samples.allSatisfy { $0.textures <= budget })
        #expect(session.peakTextureBytes <= budget)
        // After the first ten minutes (caches filled), the process does not grow.
        let settled = samples.dropFirst(10).map(\.rss)
        let growth = (settled.max() ?? 0) - (settled.first ?? 0)
        #expect(growth < 8 * 1024, "RSS grew \(growth) KiB over 50 minutes: \(samples.map(\.rss))")
    }
}
