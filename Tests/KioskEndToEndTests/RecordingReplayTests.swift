import Foundation
import Testing

/// Every real touchscreen recording, replayed by the binary in every scene type: no error, and everything rests.
@Suite struct RecordingReplayTests {
    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: Kiosk.recordings.path)) ?? []
        return files.filter { $0.hasSuffix(".jsonl") }.sorted()
    }()

    @Test(arguments: names, ["map", "gallery", "menu"])
    func replays(name: String, scene: String) throws {
        let dir = Kiosk.folder()
        let manifest = try Kiosk.manifest(Kiosk.demo, in: dir)
        let log = Kiosk.recordings.appendingPathComponent(name).path
        let r = try Kiosk.run(
            ["--headless", "400x240", "--config", manifest, "--scene", scene, "--replay", log], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let views = r.last["views"] as? [String: [String: Any]] ?? [:]
        #expect(!views.isEmpty)
        for (id, v) in views {
            for flag in ["isTracking", "isDragging", "isDecelerating", "isZooming", "isZoomBouncing"] {
                #expect(v[flag] as? Bool == false, "\(name) in \(scene): \(id).\(flag)")
            }
        }
    }

    @Test func thereAreThirteen() { #expect(Self.names.count == 13) }
}
