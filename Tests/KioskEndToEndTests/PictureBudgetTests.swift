import CSDL2
import CSDL2Image
import Foundation
import Testing

/// A gallery of many pages holds no more than its share of the texture budget: the pages drawn least recently
/// are let go and decoded again when a visitor comes back to them, showing what they showed.
@Suite struct PictureBudgetTests {
    let dir = Kiosk.folder()
    static let pages = 16

    /// Page `i`: a JPEG of 800x480 of its own colour (a 1.5 MB texture).
    func page(_ i: Int) throws -> String {
        let s = try #require(SDL_CreateRGBSurfaceWithFormat(0, 800, 480, 24, SDL_PIXELFORMAT_RGB24.rawValue))
        defer { SDL_FreeSurface(s) }
        let color = Self.color(i)
        _ = SDL_FillRect(s, nil, SDL_MapRGB(s.pointee.format, UInt8(color.0), UInt8(color.1), UInt8(color.2)))
        let path = dir.appendingPathComponent("page-\(i).jpg").path
        #expect(IMG_SaveJPG(s, path, 95) == 0)
        return path
    }

    static func color(_ i: Int) -> (Int, Int, Int) { (20 + i * 14, 200 - i * 11, (i * 53) % 256) }

    @Test func aLongGalleryKeepsToItsBudgetAndShowsEveryPageAgain() throws {
        let paths = try (0..<Self.pages).map(page)
        let pages = paths.map { "\"\($0)\"" }.joined(separator: ", ")
        // 12 MiB: the pictures' share is 6 MiB, four pages of the sixteen (24 MiB).
        let manifest = try Kiosk.manifest(
            #"{"kioskManifest": 1, "idleTimeoutSeconds": 0, "textureBudgetMiB": 12, "scenes": [{"id": "gallery", "type": "carousel", "pages": [\#(pages)]}]}"#,
            in: dir)
        var log = LogWriter()
        var t = 200.0
        for _ in 1..<Self.pages {
            log.drag(from: (0.8, 0.5), to: (0.3, 0.5), at: t, steps: 10)
            t += 800
        }
        let far = t
        for _ in 1..<Self.pages {
            log.drag(from: (0.3, 0.5), to: (0.8, 0.5), at: t, steps: 10)
            t += 800
        }
        let first = dir.appendingPathComponent("first.png").path
        let last = dir.appendingPathComponent("last.png").path
        let again = dir.appendingPathComponent("again.png").path
        let r = try Kiosk.run(
            [
                "--headless", "800x480", "--config", manifest, "--replay", try log.write(dir),
                "--screenshot", "100:\(first)", "--screenshot", "\(far - 50):\(last)",
                "--screenshot", "\(t + 700):\(again)",
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.view("gallery")["page"] as? Int == 0, "back on the first page")
        let changes = r.events.filter { $0.name == "pageDidChange" }.compactMap { $0.fields["page"] as? Int }
        #expect(changes == Array(1..<Self.pages) + Array((0..<Self.pages - 1).reversed()))
        // Every page shown in its colour: the last, and the first, decoded again after it was let go.
        for (path, i) in [(first, 0), (last, Self.pages - 1), (again, 0)] {
            let p = try #require(Picture(path: path))
            #expect(close(p.rgb(400, 240), Self.color(i), 8), "page \(i) in \(path): \(p.rgb(400, 240))")
        }
        // The pictures' whole textures at the end, from the memory line: within their 6 MiB.
        let line = try #require(r.stderr.split(separator: "\n").last { $0.contains("memory: ") })
        let held = try #require(
            line.firstMatch(of: /; pictures (\d+) KiB/).flatMap { Int($0.1) }, "\(line)")
        #expect(held <= 6 * 1024, "\(line)")
        #expect(held >= 2 * 1500, "the pages beside the one shown stay: \(line)")
    }
}
