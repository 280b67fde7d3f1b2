import ScrollEngine
import Testing

@testable import Kiosk

/// `TouchGrid`: cells, merging a day's file, and its text read back.
@Suite struct TouchGridUnitTests {
    static let plan = Size(width: 4800, height: 3000)

    @Test func cellsMergingAndTheFileReadBack() throws {
        var grid = TouchGrid()
        grid.add("map", point: Point(x: 0, y: 0), image: Self.plan)
        grid.add("map", point: Point(x: 4799.9, y: 2999.9), image: Self.plan)
        grid.add("map", point: Point(x: 4800, y: 10), image: Self.plan)  // past the right edge: not on it
        grid.add("map", point: Point(x: -1, y: 10), image: Self.plan)
        let counts = try #require(grid.pictures["map"]?.counts)
        #expect(counts[0] == 1 && counts[35 * 64 + 63] == 1 && counts.reduce(0, +) == 2)
        let read = try #require(TouchGrid.parse(grid.json))
        #expect(read == grid)
        var day = read
        day.merge(grid)
        #expect(day.pictures["map"]?.counts[0] == 2)
        // A picture replaced by one of another size starts again; the old size's counts are kept aside, not lost
        // (a new floor plan's first touch replaced the day's 2 304 counts).
        day.merge(
            {
                var other = TouchGrid()
                other.add("map", point: Point(x: 5, y: 5), image: Size(width: 100, height: 100))
                return other
            }())
        #expect(day.pictures["map"]?.image == Size(width: 100, height: 100))
        #expect(day.pictures["map"]?.counts.reduce(0, +) == 1)
        #expect(day.pictures["map 4800x3000"]?.counts.reduce(0, +) == 4)
        // And so in memory, when the picture changes size between two touches of a day (a reload).
        var today = TouchGrid()
        today.add("map", point: Point(x: 0, y: 0), image: Self.plan)
        today.add("map", point: Point(x: 0, y: 0), image: Size(width: 100, height: 100))
        today.add("map", point: Point(x: 0, y: 0), image: Self.plan)
        #expect(today.pictures["map"]?.counts.reduce(0, +) == 1)
        #expect(today.pictures["map 4800x3000"]?.counts.reduce(0, +) == 1)
        #expect(today.pictures["map 100x100"]?.counts.reduce(0, +) == 1)
        // Merged into a file that kept the same aside: added.
        day.merge(today)
        #expect(day.pictures["map 4800x3000"]?.counts.reduce(0, +) == 5)
        for broken in ["", "{", #"{"map": {"grid": [32, 18], "image": [1, 1], "counts": []}}"#, "[]"] {
            #expect(TouchGrid.parse(broken) == nil, "\(broken)")
        }
    }
}
