import Foundation
import Kiosk

/// The visits (docs/operations.md, statistics): counted from the frames' events and written to their day's file as
/// they end. While the wall clock is not synchronised (or reads outside 2000-2200) a visit's date would be wrong
/// (1970, or the last shutdown's): it is held, and dated again from the kiosk's own clock once the wall clock is
/// right.
final class VisitBook {
    let file: VisitLog
    private var counter: VisitCounter?
    /// Visits that ended while the wall clock could not date them.
    private(set) var held: [Visit] = []
    /// A visit held for a wall clock outside its years was said (once).
    private var saidImplausible = false
    /// The touch-downs on pictures not yet added to their day's file (docs/authoring.md).
    private(set) var touches = TouchGrid()

    init(file: VisitLog) { self.file = file }

    /// Starts counting from `app` as it is now (its last touch, a restored state's, is no visit); old days' files
    /// are pruned.
    func start(_ app: KioskApp, wall: WallTime) {
        file.prune(today: Self.day(wall.unix(at: app.now)))
        counter = VisitCounter(app)
    }

    /// The frame's events to the counter (the app as the frame left it, `wall` the wall clock read this frame); a
    /// visit that ended is written and returned.
    func observe(_ app: KioskApp, events: [TraceEvent], wall: WallTime, at t: Double) -> Visit? {
        let clockChanged = events.contains {
            switch $0.kind {
            case .clockDidSynchronize, .clockDidJump: true
            default: false
            }
        }
        if clockChanged && wall.isSynchronized && Visit.plausibleWallSeconds.contains(wall.unix(at: app.now)) {
            for var visit in held {
                visit.startWall = wall.unix(at: visit.startMs)
                visit.start = LocalTime.iso(visit.startWall)
                file.append(visit, today: Self.day(wall.unix(at: app.now)))
            }
            held.removeAll()
        }
        for case .pictureTouched(let picture, let point, let image) in events.map(\.kind) {
            touches.add(picture, point: point, image: image)
        }
        guard let visit = counter?.observe(app, events: events, at: t) else { return nil }
        write(visit, wall: wall, now: app.now)
        writeTouches(wall: wall, now: app.now)
        return visit
    }

    /// The touches counted so far added to today's file, when the wall clock can date them (else they wait).
    func writeTouches(wall: WallTime, now: Double) {
        let unix = wall.unix(at: now)
        guard !touches.isEmpty, wall.isSynchronized, Visit.plausibleWallSeconds.contains(unix) else { return }
        if file.addTouches(touches, day: Self.day(unix)) { touches = TouchGrid() }
    }

    /// The visit open when the kiosk stops is written; visits still held are said.
    func finish(wall: WallTime, now: Double) {
        if let visit = counter?.finish() { write(visit, wall: wall, now: now) }
        writeTouches(wall: wall, now: now)
        if !touches.isEmpty {
            let n = touches.pictures.values.reduce(0) { $0 + $1.counts.reduce(0, +) }
            log(
                .warning,
                "\(n) touch(es) on the pictures not written: their day's file could not be written, or the wall clock never became synchronised"
            )
        }
        guard !held.isEmpty else { return }
        log(
            .warning,
            "\(held.count) visit(s) not written: the wall clock never became synchronised (or stayed outside 2000-2200), so their dates are unknown"
        )
    }

    private func write(_ visit: Visit, wall: WallTime, now: Double) {
        guard wall.isSynchronized else { return held.append(visit) }
        guard visit.isPlausiblyDated else {
            // A clock set to 1970 or to year 1 would file it where the pruning deletes it, or under no real day.
            if !saidImplausible {
                saidImplausible = true
                log(
                    .warning,
                    "a visit began under the wall clock \(visit.start), outside 2000-2200: it is held, and written "
                        + "once the clock is right")
            }
            return held.append(visit)
        }
        file.append(visit, today: Self.day(wall.unix(at: now)))
    }

    /// The local day at `unix` (`YYYY-MM-DD`).
    static func day(_ unix: Double) -> String { String(LocalTime.iso(unix).prefix(10)) }
}
