import Foundation
import Testing

/// The renderer was reshaped for speed (kept pictures, whole-pixel copies, textures turned at load, no clear):
/// the pictures must not change. Each replay of `Fixtures/look` is drawn again in every rotation and compared
/// with what the renderer drew before (`Fixtures/look/references`, made by `make-references.sh`).
@Suite struct LookTests {
    static let folder = Kiosk.repository.appendingPathComponent("Tests/KioskEndToEndTests/Fixtures/look")

    struct Shot: CustomTestStringConvertible, Sendable {
        var log: String
        var scene: String
        var times: [Int]
        var rotation: Int
        var testDescription: String { "\(log) in \(scene), rotated \(rotation)" }
        func name(_ t: Int) -> String { "\(log.replacingOccurrences(of: ".jsonl", with: ""))-r\(rotation)-\(t).png" }
    }

    /// `shots.txt`: a log, its scene and the times of its screenshots, per line.
    static let shots: [Shot] = {
        let text = (try? String(contentsOf: folder.appendingPathComponent("shots.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").flatMap { line -> [Shot] in
            let words = line.split(separator: " ").map(String.init)
            guard words.count >= 3 else { return [] }
            return [0, 90, 180, 270].map {
                Shot(log: words[0], scene: words[1], times: words[2...].compactMap { Int($0) }, rotation: $0)
            }
        }
    }()

    /// The mean difference per channel (0-255) of two pictures averaged over 4 x 4 blocks: a shift by part of a
    /// pixel or a different filter barely counts, a wrong picture counts fully.
    static func difference(_ a: Picture, _ b: Picture) -> Double {
        guard a.width == b.width, a.height == b.height else { return .infinity }
        var total = 0.0
        var blocks = 0
        for by in stride(from: 0, to: a.height - 3, by: 4) {
            for bx in stride(from: 0, to: a.width - 3, by: 4) {
                var sa = (0, 0, 0)
                var sb = (0, 0, 0)
                for y in by..<(by + 4) {
                    for x in bx..<(bx + 4) {
                        let (r1, g1, b1) = a.rgb(x, y)
                        let (r2, g2, b2) = b.rgb(x, y)
                        sa = (sa.0 + r1, sa.1 + g1, sa.2 + b1)
                        sb = (sb.0 + r2, sb.1 + g2, sb.2 + b2)
                    }
                }
                total += Double(abs(sa.0 - sb.0) + abs(sa.1 - sb.1) + abs(sa.2 - sb.2)) / 48
                blocks += 1
            }
        }
        return total / Double(max(1, blocks))
    }

    /// Observed: at most 2.5 (sub-pixel placement, and nearest-pixel filtering while a pinch moves).
    static let tolerance = 3.5

    @Test(arguments: shots) func theRendererDrawsWhatItDrewBefore(_ shot: Shot) throws {
        let dir = Kiosk.folder()
        var arguments = [
            "--headless", "400x240", "--rotate", "\(shot.rotation)", "--config",
            Self.folder.appendingPathComponent("kiosk.json").path, "--scene", shot.scene, "--replay",
            Self.folder.appendingPathComponent(shot.log).path,
        ]
        for t in shot.times { arguments += ["--screenshot", "\(t):" + dir.appendingPathComponent(shot.name(t)).path] }
        let result = try Kiosk.run(arguments, in: dir, trace: false)
        #expect(result.status == 0, "\(result.stderr)")
        for t in shot.times {
            let reference = Self.folder.appendingPathComponent("references/" + shot.name(t)).path
            guard let now = Picture(path: dir.appendingPathComponent(shot.name(t)).path),
                let before = Picture(path: reference)
            else {
                Issue.record("\(shot.name(t)): missing")
                continue
            }
            let d = Self.difference(now, before)
            #expect(d <= Self.tolerance, "\(shot.name(t)) differs by \(d)")
        }
    }

    /// The comparison sees a real change: two moments of the same replay differ far beyond the tolerance.
    @Test func theComparisonSeesADifferentPicture() throws {
        let references = Self.folder.appendingPathComponent("references")
        for (a, b) in [("map-pan-r0-900", "map-pan-r0-1500"), ("map-pinch-r0-1500", "map-pinch-r90-1500")] {
            let pa = try #require(Picture(path: references.appendingPathComponent(a + ".png").path))
            let pb = try #require(Picture(path: references.appendingPathComponent(b + ".png").path))
            let d = Self.difference(pa, pb)
            #expect(d > 5 * Self.tolerance, "\(a) and \(b) differ by \(d)")
        }
    }
}
