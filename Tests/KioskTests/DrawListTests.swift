import ScrollEngine
import TestSupport
import Testing

@testable import Kiosk

/// What the renderer is handed: turned rectangles, backgrounds only where no picture covers the screen, and
/// pictures it may keep at their scale.
@Suite struct DrawListTests {
    /// The renderer turns a rectangle of the scene onto the screen the way touches are turned back.
    @Test(arguments: Rotation.allCases) func turnedRectanglesAgreeWithTheTouchMapping(_ rotation: Rotation) {
        let physical = Size(width: 800, height: 480)
        let scene = rotation.sceneSize(physical)
        var rng = SplitMix(seed: 7)
        for _ in 0..<200 {
            let x = rng.range(0, scene.width)
            let y = rng.range(0, scene.height)
            // A tiny rectangle at a scene point, turned, then its physical centre mapped back as a touch.
            let r = rotation.rect(Rect(x: x, y: y, width: 0, height: 0), in: scene)
            let n = rotation.toScene(Point(x: r.minX / physical.width, y: r.minY / physical.height))
            #expect(abs(n.x * scene.width - x) < 1e-9 && abs(n.y * scene.height - y) < 1e-9)
            // And the turn back undoes it.
            let box = Rect(x: x, y: y, width: 13, height: 5)
            #expect(rotation.inverse.rect(rotation.rect(box, in: scene), in: physical).isClose(to: box))
        }
        let whole = rotation.rect(Rect(origin: .zero, size: scene), in: scene)
        #expect(whole == Rect(origin: .zero, size: physical))
    }

    static func app(_ scene: String) throws -> KioskApp {
        try AppRig.app(scene: scene)
    }

    /// Area of the screen the commands cover, counting overlaps (1 is every pixel once).
    static func coverage(_ list: [DrawCommand], screen: Size) -> Double {
        var covered = 0.0
        for c in list {
            switch c {
            case .background(let r), .placeholder(let r):
                covered += r.width * r.height
            case .picture(let p, _):
                let v = Rect(
                    x: max(p.frame.minX, p.clip.minX), y: max(p.frame.minY, p.clip.minY),
                    width: min(p.frame.maxX, p.clip.maxX) - max(p.frame.minX, p.clip.minX),
                    height: min(p.frame.maxY, p.clip.maxY) - max(p.frame.minY, p.clip.minY))
                covered += max(0, v.width) * max(0, v.height)
            default:
                break
            }
        }
        return covered / (screen.width * screen.height)
    }

    /// Nothing is cleared first, so every pixel must be covered once: by a picture or by the background.
    @Test func backgroundAndPicturesCoverTheScreenExactlyOnce() throws {
        let screen = Size(width: 800, height: 480)
        // The fitted map covers all; pulled past its edge (a rubber band) it leaves a margin.
        let map = try Self.app("map")
        #expect(abs(Self.coverage(map.drawList(), screen: screen) - 1) < 1e-9)
        map.scene.view.contentOffset = Point(x: -37.5, y: 12.25)
        let zoomedOut = map.drawList()
        #expect(zoomedOut.contains { if case .background = $0 { true } else { false } })
        #expect(abs(Self.coverage(zoomedOut, screen: screen) - 1) < 1e-9)
        // A carousel pulled past its first page: the strip beyond it is background.
        let gallery = try Self.app("gallery")
        gallery.scene.view.contentOffset = Point(x: -120, y: 0)
        let pulled = gallery.drawList()
        #expect(pulled.contains { if case .background(let r) = $0 { r.minX == 0 && r.width == 120 } else { false } })
        #expect(abs(Self.coverage(pulled, screen: screen) - 1) < 1e-9)
        // Backgrounds come before every picture.
        let firstPicture = pulled.firstIndex { if case .picture = $0 { true } else { false } } ?? 0
        #expect(!pulled[firstPicture...].contains { if case .background = $0 { true } else { false } })
    }

    /// A part of a picture drawn for keeping is the frame's own commands moved to the picture's origin.
    @Test func pictureCommandsAreTheFramesCommandsMoved() throws {
        let app = try Self.app("map")
        let view = app.scene.view
        view.setZoomScale(0.37, animated: false)
        view.contentOffset = Point(x: 123.25, y: 45.5)
        guard case .picture(let picture, let inner) = app.drawList()[0] else {
            Issue.record("no picture")
            return
        }
        let region = Rect(
            x: picture.clip.minX - picture.frame.minX, y: picture.clip.minY - picture.frame.minY,
            width: picture.clip.width, height: picture.clip.height)
        var query = TileQuery.everything
        let moved = app.scene.pictureCommands(picture, region: region, tiles: &query)
        #expect(moved.count == inner.count)
        for (a, b) in zip(moved, inner) {
            guard case .image(let ia, let sa, let da) = a, case .image(let ib, let sb, let db) = b else {
                Issue.record("not an image")
                continue
            }
            #expect(ia == ib && sa.isClose(to: sb))
            #expect(
                da.isClose(
                    to: Rect(
                        x: db.minX - picture.frame.minX, y: db.minY - picture.frame.minY,
                        width: db.width, height: db.height)))
        }
    }
}

extension Rect {
    func isClose(to r: Rect, _ tolerance: Double = 1e-9) -> Bool {
        abs(minX - r.minX) < tolerance && abs(minY - r.minY) < tolerance && abs(width - r.width) < tolerance
            && abs(height - r.height) < tolerance
    }
}
