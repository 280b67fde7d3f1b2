import ScrollEngine
import Testing

@testable import Kiosk

@Suite struct DeepZoomTests {
    static let vips = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Image xmlns="http://schemas.microsoft.com/deepzoom/2008"
          Format="jpeg"
          Overlap="1"
          TileSize="254"
          >
          <Size
            Height="3000"
            Width="4800"
          />
        </Image>
        """

    @Test func parsesWhatVipsWrites() throws {
        let d = try DeepZoomImage.parse(Self.vips)
        #expect(d == DeepZoomImage(width: 4800, height: 3000, tileSize: 254, overlap: 1, format: "jpeg"))
        #expect(d.maxLevel == 13)  // 2^13 = 8192 >= 4800
        #expect(d.size(level: 13) == (4800, 3000))
        #expect(d.size(level: 12) == (2400, 1500))
        #expect(d.size(level: 0) == (1, 1))
        #expect(d.tiles(level: 13) == (19, 12))
        #expect(
            DeepZoomImage.tilePath(name: "map", level: 13, column: 2, row: 3, format: "jpeg") == "map_files/13/2_3.jpeg"
        )
    }

    @Test func storedRectsIncludeTheOverlap() throws {
        let d = try DeepZoomImage.parse(Self.vips)
        #expect(d.storedRect(level: 13, column: 0, row: 0) == (0, 0, 255, 255))
        #expect(d.storedRect(level: 13, column: 1, row: 0) == (253, 0, 256, 255))
        #expect(
            d.storedRect(level: 13, column: 18, row: 11) == (
                18 * 254 - 1, 11 * 254 - 1, 4800 - 18 * 254 + 1, 3000 - 11 * 254 + 1
            ))
        // The core of an inner tile maps to its stored pixels shifted by the overlap.
        let core = TileSelection.coreRect(level: 13, column: 1, row: 1, in: d)
        #expect(core == Rect(x: 254, y: 254, width: 254, height: 254))
        #expect(
            TileSelection.sourceRect(core, level: 13, column: 1, row: 1, in: d)
                == Rect(x: 1, y: 1, width: 254, height: 254))
        // At a lower level a core stands for twice the image pixels.
        let c12 = TileSelection.coreRect(level: 12, column: 1, row: 0, in: d)
        #expect(c12 == Rect(x: 508, y: 0, width: 508, height: 508))
    }

    @Test(arguments: [
        "", "<Image Format=\"jpeg\" Overlap=\"1\"><Size Width=\"5\" Height=\"5\"/></Image>",
        "<Image TileSize=\"0\" Overlap=\"1\" Format=\"jpeg\"><Size Width=\"5\" Height=\"5\"/></Image>",
        "<Image TileSize=\"256\" Overlap=\"1\" Format=\"tiff\"><Size Width=\"5\" Height=\"5\"/></Image>",
        "<Image TileSize=\"256\" Overlap=\"1\" Format=\"png\"><Size Width=\"-5\" Height=\"5\"/></Image>",
        "<Image TileSize=\"256\" Overlap=\"300\" Format=\"png\"><Size Width=\"5\" Height=\"5\"/></Image>",
        "<Image TileSize=\"256\" Overlap=\"1\" Format=\"png\"></Image>",
    ])
    func malformedDescriptors(xml: String) {
        #expect(throws: DeepZoomError.self) { try DeepZoomImage.parse(xml) }
    }

    @Test func levelMatchesTheZoom() throws {
        let d = DeepZoomImage(width: 16384, height: 16384, tileSize: 256, overlap: 1, format: "jpeg")
        #expect(d.maxLevel == 14)
        #expect(TileSelection.level(for: 1, in: d) == 14)
        #expect(TileSelection.level(for: 2, in: d) == 14)
        #expect(TileSelection.level(for: 0.5, in: d) == 13)
        #expect(TileSelection.level(for: 0.51, in: d) == 14)
        #expect(TileSelection.level(for: 0.26, in: d) == 13)
        #expect(TileSelection.level(for: 0.25, in: d) == 12)
        #expect(TileSelection.level(for: 1.0 / 16384, in: d) == 0)
        #expect(TileSelection.level(for: 1e-9, in: d) == 0)
    }

    @Test func visibleTilesOnly() throws {
        let d = DeepZoomImage(width: 16384, height: 16384, tileSize: 256, overlap: 1, format: "jpeg")
        let tiles = TileSelection.tiles(level: 14, visible: Rect(x: 300, y: 10, width: 500, height: 250), in: d)
        #expect(tiles.map(\.column) == [1, 2, 3, 1, 2, 3])
        #expect(tiles.map(\.row) == [0, 0, 0, 1, 1, 1])
        #expect(TileSelection.tiles(level: 14, visible: Rect(x: 20000, y: 0, width: 10, height: 10), in: d).isEmpty)
        #expect(TileSelection.tiles(level: 0, visible: Rect(x: 0, y: 0, width: 16384, height: 16384), in: d).count == 1)
    }

    @Test func planFallsBackToTheBestLoadedLowerLevelWithoutHoles() throws {
        let d = DeepZoomImage(width: 4096, height: 4096, tileSize: 256, overlap: 1, format: "jpeg")
        let visible = Rect(x: 1000, y: 1000, width: 800, height: 500)
        // Only level 10's tiles are loaded (and level 0): the wanted level 12 falls back to them.
        let plan = TileSelection.plan(image: 0, pyramid: d, visible: visible, scale: 1) {
            $0.level == 10 || $0.level == 0
        }
        #expect(plan.level == 12)
        #expect(plan.draws.allSatisfy { $0.tile.level == 10 })
        #expect(!plan.missing.isEmpty && plan.missing.allSatisfy { $0.level == 12 })
        // The draws cover the visible rectangle exactly once.
        let area = plan.draws.reduce(0.0) { $0 + $1.imageRect.width * $1.imageRect.height }
        #expect(abs(area - visible.width * visible.height) < 1e-6)
        // Missing tiles come nearest the centre first.
        let first = TileSelection.coreRect(level: 12, column: plan.missing[0].column, row: plan.missing[0].row, in: d)
        #expect(first.contains(Point(x: visible.midX, y: visible.midY)))
        // Everything loaded: only level 12.
        let sharp = TileSelection.plan(image: 0, pyramid: d, visible: visible, scale: 1) { _ in true }
        #expect(sharp.missing.isEmpty && sharp.draws.allSatisfy { $0.tile.level == 12 })
        // Nothing but level 0: still no hole.
        let blurry = TileSelection.plan(image: 0, pyramid: d, visible: visible, scale: 1) { $0.level == 0 }
        let covered = blurry.draws.reduce(0.0) { $0 + $1.imageRect.width * $1.imageRect.height }
        #expect(abs(covered - visible.width * visible.height) < 1e-6)
    }

    static func key(_ i: Int) -> TileKey { TileKey(image: 0, level: 5, column: i, row: 0) }

    /// A cache of `budget` bytes holding a pinned tile of 50 bytes, then `tiles` of 100 (`key(0)`…), one a frame.
    static func cache(budget: Int, tiles: Int) -> TileCache<Int> {
        var cache = TileCache<Int>(budget: budget)
        cache.insert(TileKey(image: 0, level: 0, column: 0, row: 0), -1, bytes: 50, pinned: true)
        for i in 0..<tiles {
            cache.insert(key(i), i, bytes: 100)
            cache.nextFrame()
        }
        return cache
    }

    @Test func cacheEvictsLeastRecentlyUsedWithinItsBudget() {
        var cache = Self.cache(budget: 300, tiles: 2)
        let key = Self.key
        _ = cache.use(key(0))  // 0 is now newer than 1
        cache.nextFrame()
        let evicted = cache.insert(key(2), 2, bytes: 100)
        #expect(evicted == [1])
        #expect(cache.bytes == 250 && cache.bytes <= cache.budget)
        #expect(cache.contains(key(0)) && !cache.contains(key(1)) && cache.contains(key(2)))
        // Pinned tiles stay whatever happens.
        for i in 3..<20 {
            cache.insert(key(i), i, bytes: 100)
            cache.nextFrame()
        }
        #expect(cache.contains(TileKey(image: 0, level: 0, column: 0, row: 0)))
        #expect(cache.bytes <= 300)
        #expect(cache.peakBytes <= 300)  // room is made before a tile goes in
    }

    /// New content with a lower budget: the least recently used tiles go at once, pinned ones stay; a higher
    /// budget takes more.
    @Test func aNewBudgetEvictsDownToIt() {
        var cache = Self.cache(budget: 500, tiles: 4)
        let key = Self.key
        #expect(cache.setBudget(260) == [0, 1])
        #expect(cache.bytes == 250 && cache.budget == 260)
        #expect(cache.setBudget(0) == [2, 3])
        #expect(cache.bytes == 50)
        #expect(cache.setBudget(1000).isEmpty)
        cache.insert(key(9), 9, bytes: 900)
        #expect(cache.bytes == 950)
    }
}
