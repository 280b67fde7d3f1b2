import EventLog
import Kiosk
import ScrollEngine
import Testing
import TouchInput

/// The real touchscreen recordings, replayed through the touch layer into each kind of scroll view.
@Suite struct RecordingTests {
    static let all = Recordings.names

    @Test func everyRecordingIsPresentAndParses() throws {
        #expect(Self.all.count == 13)
        for name in Self.all {
            let log = try Recordings.load(name)
            #expect(!log.records.isEmpty, "\(name)")
            #expect(log.warnings.isEmpty, "\(name)")
        }
    }

    @Test(arguments: Recordings.names, Rig.Kind.allCases)
    func replaysToRestInEverySceneKind(name: String, kind: Rig.Kind) throws {
        let log = try Recordings.load(name)
        let rig = Rig.make(kind, size: log.display)
        rig.replay(log.touches(in: log.display))
        for v in rig.allViews {
            #expect(!v.isTracking && !v.isDragging && !v.isZooming && !v.isDecelerating && !v.isZoomBouncing)
            #expect(v.isAtRest)
            #expect(v.contentOffset.isFinite && v.zoomScale.isFinite)
            #expect(v.clampedOffset(v.contentOffset) == v.contentOffset, "rests outside its limits")
            #expect(v.zoomScale >= v.minimumZoomScale - 1e-9 && v.zoomScale <= v.maximumZoomScale + 1e-9)
        }
        #expect(!rig.controller.isTouching)
        if kind == .carousel {
            let x = rig.view.contentOffset.x
            #expect(x == (x / rig.size.width).rounded() * rig.size.width, "carousel between pages")
        }
    }

    @Test func wacomDoubleTapZoomsIn() throws {
        let log = try Recordings.load("wacom-isdv4-double-tap-center")
        let rig = Rig.zoom(size: log.display)
        let fit = rig.view.zoomScale
        rig.replay(log.touches(in: log.display))
        #expect(rig.gestures.filter { if case .doubleTap = $0 { true } else { false } }.count == 1)
        #expect(!rig.gestures.contains { if case .tap = $0 { true } else { false } })
        expectClose(rig.view.zoomScale, rig.view.maximumZoomScale, 1e-9)
        #expect(rig.view.zoomScale > fit)
    }

    /// Splits a log's finger events into touch sequences (first down to last up).
    static func sequences(_ events: [InputEvent]) -> [[InputEvent]] {
        var out: [[InputEvent]] = []
        var current: [InputEvent] = []
        var down = Set<Int64>()
        for e in events {
            current.append(e)
            switch e.kind {
            case .down, .move: down.insert(e.finger)
            case .up, .cancel: down.remove(e.finger)
            }
            if down.isEmpty {
                out.append(current)
                current = []
            }
        }
        return out
    }

    @Test func anyTwoSuccessiveAtmelFastTapsAreADoubleTap() throws {
        let log = try Recordings.load("atmel-maxtouch-1finger-fast-taps")
        let taps = Self.sequences(log.touches(in: log.display))
        #expect(taps.count == 9)
        for k in 0..<(taps.count - 1) {
            let rig = Rig.zoom(size: log.display)
            let start = taps[k][0].timestamp
            let pair = (taps[k] + taps[k + 1]).map { e in
                var e = e
                e.timestamp -= start
                return e
            }
            rig.replay(pair)
            let doubles = rig.gestures.filter { if case .doubleTap = $0 { true } else { false } }
            #expect(doubles.count == 1, "taps \(k) and \(k + 1): \(rig.gestures)")
            #expect(rig.view.zoomScale > rig.view.minimumZoomScale, "taps \(k) and \(k + 1) did not zoom in")
        }
        // The whole run: taps pair up into four double taps, the zoom toggling in and out, and a last single tap.
        let rig = Rig.zoom(size: log.display)
        rig.replay(log.touches(in: log.display))
        let doubles = rig.gestures.filter { if case .doubleTap = $0 { true } else { false } }
        let singles = rig.gestures.filter { if case .tap = $0 { true } else { false } }
        #expect(doubles.count == 4)
        #expect(singles.count == 1)
        expectClose(rig.view.zoomScale, rig.view.minimumZoomScale, 1e-9)  // in, out, in, out
    }

    @Test func dellFiveFingerPinchInZoomsOutAndBouncesBackAtTheMinimum() throws {
        let log = try Recordings.load("dell-canvas-5finger-pinch-in")
        let rig = Rig.zoom(size: log.display)
        let fit = rig.view.zoomScale
        rig.replay(log.touches(in: log.display))
        let smallest = rig.zoomScales.min() ?? fit
        #expect(smallest < fit * 0.95, "the pinch-in should pull the scale below the minimum (rubber band)")
        #expect(smallest > fit * 0.5, "the zoom rubber band resists")
        #expect(rig.view.zoomScale == fit)
        // Five fingers converging also move their centroid: the gesture may start as a pan, then zoom.
        let names = rig.names()
        #expect(names.filter { $0 == "scrollViewWillBeginZooming" }.count == 1)
        #expect(names.filter { $0 == "scrollViewDidEndZooming" }.count == 1)
        #expect(rig.log.events.contains(.didEndZooming(scale: fit)))
    }

    @Test func dellPinchInZoomsOutFromAZoomedInView() throws {
        let log = try Recordings.load("dell-canvas-5finger-pinch-in")
        let rig = Rig.zoom(size: log.display)
        rig.view.setZoomScale(rig.view.maximumZoomScale, animated: false)
        let before = rig.view.zoomScale
        rig.replay(log.touches(in: log.display))
        #expect(rig.view.zoomScale < before * 0.8)
    }

    /// The first finger's travel along `axis` from its down to its last position before lifting.
    static func travel(_ events: [InputEvent], _ axis: Axis) -> (total: Double, lastMove: Double) {
        let first = events[0].finger
        let mine = events.filter { $0.finger == first }
        let last = mine.last { $0.kind == .move } ?? mine[0]
        return (mine.last!.position[axis] - mine[0].position[axis], last.timestamp)
    }

    /// How far the fingers' centroid travelled along `axis`, counting only moves (a finger landing or lifting
    /// shifts the centroid without moving anything), and the largest single step.
    static func centroidTravel(_ events: [InputEvent], _ axis: Axis) -> (travel: Double, largestStep: Double) {
        var down: [Int64: Point] = [:]
        var travel = 0.0
        var largest = 0.0
        for e in events {
            if e.kind == .move, down[e.finger] != nil {
                let before = PinchGeometry.focalPoint(Array(down.values))
                down[e.finger] = e.position
                let step = PinchGeometry.focalPoint(Array(down.values))[axis] - before[axis]
                travel += step
                largest = max(largest, abs(step))
            } else if e.kind == .down || e.kind == .move {
                down[e.finger] = e.position
            } else {
                down[e.finger] = nil
            }
        }
        return (travel, largest)
    }

    @Test(arguments: [
        ("atmel-maxtouch-4finger-drag-down", Axis.vertical), ("ep0430m09-2finger-scroll", .vertical),
        ("wacom-isdv4-1finger-scroll-vertical", .vertical), ("wacom-isdv4-2finger-swipe", .horizontal),
        ("wacom-isdv4-1finger-swipe-horizontal", .horizontal),
    ])
    func dragsScrollByTheDistanceTheFingersTravelled(name: String, axis: Axis) throws {
        let log = try Recordings.load(name)
        let events = log.touches(in: log.display)
        let (travel, largestStep) = Self.centroidTravel(events.filter { $0.kind != .up }, axis)
        let size = log.display
        let content =
            axis == .vertical
            ? Size(width: size.width, height: size.height * 20) : Size(width: size.width * 20, height: size.height)
        let v = ScrollView(bounds: size, contentSize: content)
        let start = Point(x: axis == .horizontal ? size.width * 10 : 0, y: axis == .vertical ? size.height * 10 : 0)
        v.contentOffset = start
        let rig = Rig(view: v, log: ScrollViewEventLog())
        // Everything but the lifts: the content must have followed the fingers, less the slop.
        rig.replay(events.filter { $0.kind != .up }, settle: false)
        let moved = start[axis] - rig.view.contentOffset[axis]
        #expect(abs(travel) > 50, "the recording should travel")
        #expect(moved * travel > 0, "content moves with the fingers")
        // The content follows the fingers a slop behind: it loses the slop (along the first direction) and no more.
        #expect(abs(moved) <= abs(travel) + 1e-6)
        #expect(abs(moved) >= abs(travel) - TouchConstants.multiFingerPanSlop - 1, "largest step \(largestStep)")
    }

    @Test(arguments: ["atmel-maxtouch-1finger-drag-up-down", "ep0430m09-1finger-drag-up-down"])
    func upDownDragsFollowTheFingerBothWays(name: String) throws {
        let log = try Recordings.load(name)
        let events = log.touches(in: log.display)
        let rig = Rig.scroll(size: log.display, height: log.display.height * 20, offset: log.display.height * 5)
        let startOffset = rig.view.contentOffset.y
        rig.replay(events.filter { $0.kind != .up }, settle: false)
        let travel = events.last { $0.kind == .move }!.position.y - events[0].position.y
        let moved = startOffset - rig.view.contentOffset.y
        expectClose(moved, travel, TouchConstants.panSlop + 2)
        // The offset went both ways during the replay.
        let ys = rig.offsets.map(\.y)
        #expect((ys.max()! - ys.min()!) > abs(moved) + 20)
    }

    @Test func dragPastTheTopIsRubberBanded() throws {
        let log = try Recordings.load("atmel-maxtouch-4finger-drag-down")
        let events = log.touches(in: log.display)
        let rig = Rig.scroll(size: log.display, offset: 0)
        rig.replay(events.filter { $0.kind != .up }, settle: false)
        let (travel, _) = Self.travel(events, .vertical)
        let shown = -rig.view.contentOffset.y
        #expect(travel > 50)
        #expect(shown > 0 && shown < travel - TouchConstants.panSlop)
        expectClose(shown, RubberBand.offset(overscroll: travel, dimension: log.display.height), 0.35 * travel)
        rig.replay(events.filter { $0.kind == .up })
        #expect(rig.view.contentOffset.y == 0)
    }

    @Test func twoFingerPressNeitherScrollsNorZooms() throws {
        let log = try Recordings.load("atmel-maxtouch-2finger-press-release")
        for kind in Rig.Kind.allCases {
            let rig = Rig.make(kind, size: log.display)
            let offset = rig.view.contentOffset
            let scale = (rig.pages.first ?? rig.view).zoomScale
            rig.replay(log.touches(in: log.display))
            #expect(rig.view.contentOffset == offset, "\(kind)")
            #expect((rig.pages.first ?? rig.view).zoomScale == scale, "\(kind)")
            #expect(!rig.names().contains("scrollViewWillBeginDragging"), "\(kind)")
            #expect(!rig.names().contains("scrollViewWillBeginZooming"), "\(kind)")
            #expect(!rig.gestures.contains { if case .doubleTap = $0 { true } else { false } })
        }
    }

    @Test func wacomTwoFingerTapIsNotATap() throws {
        let log = try Recordings.load("wacom-isdv4-2finger-tap")
        let rig = Rig.zoom(size: log.display)
        rig.replay(log.touches(in: log.display))
        #expect(rig.gestures.isEmpty)
        #expect(rig.view.zoomScale == rig.view.minimumZoomScale)
    }

    @Test func horizontalSwipePagesTheCarousel() throws {
        let log = try Recordings.load("wacom-isdv4-1finger-swipe-horizontal")
        let events = log.touches(in: log.display)
        let rig = Rig.carousel(size: log.display, count: 4, page: 1)
        let travel = Self.travel(events, .horizontal).total
        rig.replay(events)
        let expected = travel < 0 ? 2 : 0
        #expect(rig.view.currentPage == expected, "travel \(travel)")
    }
}
