import ScrollEngine
import Testing

@Suite struct IndicatorTests {
    @Test func geometryFollowsTheOffset() throws {
        let b = Bench()  // 400 x 600 showing 3000 tall content
        let top = try #require(b.view.verticalIndicator)
        #expect(b.view.horizontalIndicator == nil)  // content fits horizontally
        #expect(top.frame.width == 2.5)
        #expect(top.frame.minX == 400 - 2.5 - 2.5)
        #expect(top.frame.minY == 2.5)
        expectClose(top.frame.height, (600 - 5) * 600 / 3000, 1e-9)
        b.view.contentOffset = Point(x: 0, y: 2400)
        let bottom = try #require(b.view.verticalIndicator)
        expectClose(bottom.frame.maxY, 600 - 2.5, 1e-9)
    }

    @Test func neverShorterThan36UnlessRubberBanding() throws {
        let b = Bench(content: Size(width: 400, height: 1_000_000))
        #expect(try #require(b.view.verticalIndicator).frame.height == 36)
        b.view.touchesBegan(at: 0)
        b.view.beginDragging(at: 0)
        b.view.drag(by: Point(x: 0, y: 200), at: 0.1)
        let banded = try #require(b.view.verticalIndicator)
        #expect(banded.frame.height < 36 && banded.frame.height >= 7.5)
        #expect(banded.frame.minY == 2.5)
    }

    @Test func shrinksWhileRubberBanding() throws {
        let b = Bench()
        let normal = try #require(b.view.verticalIndicator).frame.height
        b.view.touchesBegan(at: 0)
        b.view.beginDragging(at: 0)
        b.view.drag(by: Point(x: 0, y: 60), at: 0.1)
        let over = -b.view.contentOffset.y
        expectClose(try #require(b.view.verticalIndicator).frame.height, normal - over, 1e-9)
    }

    @Test func visibleWhileActiveThenFade() throws {
        let b = Bench()
        #expect(b.view.indicatorAlpha == 0)
        b.drag(Point(x: 0, y: -100), velocity: .zero)
        #expect(b.view.indicatorAlpha == 1)
        b.run(0.25)
        #expect(b.view.indicatorAlpha == 1)
        b.run(0.125)
        expectClose(b.view.indicatorAlpha, 0.5, 0.08)
        b.run(0.2)
        #expect(b.view.indicatorAlpha == 0)
        #expect(try #require(b.view.verticalIndicator).alpha == 0)
    }

    @Test func stayVisibleThroughADeceleration() {
        let b = Bench(content: Size(width: 400, height: 20000))
        b.drag(Point(x: 0, y: -200))
        while !b.view.isAtRest {
            #expect(b.view.indicatorAlpha == 1)
            b.run(Bench.frame)
        }
        b.run(0.25)
        #expect(b.view.indicatorAlpha == 1)
        b.run(0.3)
        #expect(b.view.indicatorAlpha == 0)
    }

    @Test func flashHoldsThenFades() {
        let b = Bench()
        b.view.flashScrollIndicators()
        #expect(b.view.indicatorAlpha == 1)
        b.run(0.7)
        #expect(b.view.indicatorAlpha == 1)
        b.run(0.3)
        #expect(b.view.indicatorAlpha == 0)
    }

    @Test func bothIndicatorsLeaveTheCornerFree() throws {
        let b = Bench(content: Size(width: 4000, height: 4000))
        b.view.contentOffset = Point(x: 3600, y: 3400)
        let h = try #require(b.view.horizontalIndicator)
        let v = try #require(b.view.verticalIndicator)
        #expect(h.frame.maxX <= v.frame.minX)
        #expect(v.frame.maxY <= h.frame.minY)
    }

    @Test func hiddenByOption() {
        let b = Bench { $0.showsVerticalScrollIndicator = false }
        #expect(b.view.verticalIndicator == nil)
    }

    @Test func stylesHaveDistinctColours() {
        #expect(IndicatorStyle.default.borderColor != nil)
        #expect(IndicatorStyle.black.fillColor.red == 0 && IndicatorStyle.white.fillColor.red == 1)
        #expect(IndicatorStyle.black.borderColor == nil && IndicatorStyle.white.borderColor == nil)
    }
}
