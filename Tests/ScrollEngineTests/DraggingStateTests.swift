import ScrollEngine
import Testing

/// `isDragging` as UIKit's: true inside `scrollViewWillEndDragging` and `scrollViewDidEndDragging`, and on through
/// the deceleration a drag's lift starts, until `scrollViewDidEndDecelerating`; `isTracking` ends at the lift.
@Suite struct DraggingStateTests {
    /// What `isDragging` and `isTracking` were at each delegate call.
    final class Witness: ScrollViewDelegate {
        var seen: [(call: String, dragging: Bool, tracking: Bool)] = []
        func note(_ call: String, _ v: ScrollView) { seen.append((call, v.isDragging, v.isTracking)) }
        func scrollViewWillEndDragging(_ v: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point)
        { note("willEndDragging", v) }
        func scrollViewDidEndDragging(_ v: ScrollView, willDecelerate decelerate: Bool) { note("didEndDragging", v) }
        func scrollViewWillBeginDecelerating(_ v: ScrollView) { note("willBeginDecelerating", v) }
        func scrollViewDidScroll(_ v: ScrollView) { if v.isDecelerating { note("didScroll", v) } }
        func scrollViewDidEndDecelerating(_ v: ScrollView) { note("didEndDecelerating", v) }
    }

    @Test func aFlingIsStillTheDragUntilItStops() {
        let b = Bench()
        let witness = Witness()
        b.view.delegate = witness
        b.drag(Point(x: 0, y: -200))
        #expect(b.view.isDragging && !b.view.isTracking && b.view.isDecelerating)
        b.settle()
        let calls = witness.seen.map(\.call)
        #expect(calls.first == "willEndDragging" && calls.last == "didEndDecelerating", "\(calls)")
        #expect(witness.seen.dropLast().allSatisfy { $0.dragging }, "\(witness.seen)")
        #expect(witness.seen.allSatisfy { !$0.tracking })
        #expect(!b.view.isDragging)
    }

    @Test func aDragThatStopsBeforeTheLiftEndsAtIt() {
        let b = Bench()
        let witness = Witness()
        b.view.delegate = witness
        b.drag(Point(x: 0, y: -200), velocity: .zero)
        #expect(witness.seen.map(\.call) == ["willEndDragging", "didEndDragging"])
        #expect(witness.seen.allSatisfy { $0.dragging })
        #expect(!b.view.isDragging)
    }

    /// A touch on the fling stops it under the finger: not dragging until the finger drags again.
    @Test func aTouchOnTheFlingIsNotADragYet() {
        let b = Bench(content: Size(width: 400, height: 20000))
        b.drag(Point(x: 0, y: -200))
        b.run(0.2)
        #expect(b.view.isDragging)
        b.view.touchesBegan(at: b.t)
        #expect(!b.view.isDragging && b.view.isTracking)
        b.view.beginDragging(translation: Point(x: 0, y: -12), at: b.t)
        #expect(b.view.isDragging)
    }
}
