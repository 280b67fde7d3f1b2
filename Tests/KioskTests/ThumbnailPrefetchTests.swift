import Foundation
import ScrollEngine
import Testing

@testable import Kiosk

/// A list asks for its thumbnails a screen ahead of the rows shown, in the direction it moves, and where a fling
/// or an animation comes to rest (UITableView's `prefetchDataSource`): they are decoded before their rows
/// arrive instead of popping in. 100 rows of 88 points without sections, each with its own thumbnail, under a
/// 64-point title bar on an 800x480 screen.
@Suite struct ThumbnailPrefetchTests {
    static func app() throws -> KioskApp {
        let rows = (0..<100).map { #"{"id": "r\#($0)", "title": "Row \#($0)", "thumbnail": "t\#($0).jpg"}"# }
        let text = """
            {"kioskManifest": 1, "home": "d", "idleTimeoutSeconds": 0,
             "scenes": [{"id": "d", "type": "list", "title": "D", "rows": [\(rows.joined(separator: ", "))]}]}
            """
        let m = try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        return KioskApp(manifest: m, physicalSize: ListTests.size) { _ in
            ImageInfo(size: Size(width: 100, height: 100), loaded: true)
        }
    }

    /// The rows whose thumbnails `paths` are, by number.
    static func rows(_ paths: [String]) -> [Int] {
        paths.compactMap { path in path.split(separator: "/").last.flatMap { Int($0.dropFirst().dropLast(4)) } }
    }

    static func drawn(_ app: KioskApp) -> [Int] {
        rows(app.drawList().compactMap { if case .thumbnail(let path, _) = $0 { path } else { nil } })
    }

    @Test func theScreenAheadInTheDirectionOfTheScroll() throws {
        let app = try Self.app()
        let scene = app.scene
        // Still at the top: the next screen down, none of it drawn yet.
        var ahead = Self.rows(app.frame.upcomingThumbnails)
        #expect(!ahead.isEmpty && Set(ahead).isDisjoint(with: Self.drawn(app)), "\(ahead)")
        #expect(ahead.min()! > Self.drawn(app).max()!, "\(ahead)")
        #expect(ahead.max()! < 14, "a screen, not the list: \(ahead)")
        // Halfway down, scrolling back up by an animation to row 10: the screen above, and where it stops.
        scene.view.setContentOffset(Point(x: 0, y: 4000), animated: false)
        let shown = Self.drawn(app)
        scene.view.setContentOffset(Point(x: 0, y: 880 - 64), animated: true)
        ahead = Self.rows(app.frame.upcomingThumbnails)
        #expect(ahead.contains { $0 < shown.min()! && $0 > 30 }, "the screen above: \(ahead)")
        #expect(ahead.contains(10) && ahead.contains(14), "where it stops: \(ahead)")
        #expect(!ahead.contains { $0 > shown.max()! }, "nothing below: \(ahead)")
    }
}
