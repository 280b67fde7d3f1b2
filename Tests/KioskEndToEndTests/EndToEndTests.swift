import Foundation
import Testing

/// The `kiosk` binary, headless, on replays: what the trace and the screenshots say.
@Suite struct EndToEndTests {
    let dir = Kiosk.folder()

    func demo() throws -> String { try Kiosk.manifest(Kiosk.demo, in: dir) }

    @Test func flingTravelAndEventOrder() throws {
        var log = LogWriter()
        log.drag(from: (0.5, 0.8), to: (0.5, 0.3))
        let r = try Kiosk.run(
            ["--headless", "800x480", "--config", try demo(), "--scene", "menu", "--replay", try log.write(dir)],
            in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.events.map(\.name) == [
                "scrollViewWillBeginDragging", "scrollViewWillEndDragging", "scrollViewDidEndDragging",
                "scrollViewWillBeginDecelerating", "scrollViewDidEndDecelerating",
            ])
        let end = try #require(r.events.first { $0.name == "scrollViewWillEndDragging" })
        let target = try #require(end.fields["targetContentOffset"] as? [Double])
        let velocity = try #require(end.fields["velocity"] as? [Double])
        #expect(velocity[1] > 1)  // points per millisecond, content moving down
        #expect(
            r.events.contains { $0.name == "scrollViewDidEndDragging" && $0.fields["willDecelerate"] as? Bool == true })
        #expect(abs(r.offset("menu").1 - target[1]) < 1e-3)
        // 240 pt of finger less the slop, then the deceleration's projection (0.4995 of the velocity).
        #expect(r.offset("menu").1 > 230 + 0.4995 * velocity[1] * 1000 * 0.8)
        #expect(r.view("menu")["isDecelerating"] as? Bool == false)
    }

    @Test func pinchZoomsIn() throws {
        var log = LogWriter()
        log.finger(0, "DOWN", 1, 0.4, 0.5)
        log.finger(8, "DOWN", 2, 0.6, 0.5)
        for i in 1...15 {
            let d = Double(i) * 0.01
            log.finger(8 + Double(i) * 16, "MOTION", 1, 0.4 - d, 0.5)
            log.finger(8 + Double(i) * 16, "MOTION", 2, 0.6 + d, 0.5)
        }
        log.finger(260, "UP", 1, 0.25, 0.5)
        log.finger(260, "UP", 2, 0.75, 0.5)
        let r = try Kiosk.run(
            ["--headless", "800x480", "--config", try demo(), "--replay", try log.write(dir)], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let names = r.events.map(\.name)
        #expect(names.contains("scrollViewWillBeginZooming") && names.contains("scrollViewDidEndZooming"))
        // Span 160 -> 400 pt: 2.5 times the fitted 0.16, less what the slop took.
        let scale = r.number("map", "zoomScale")
        #expect(scale > 0.16 * 2 && scale <= 0.4 + 1e-9)
    }

    @Test func doubleTapZoomsToTheDoubleTapScale() throws {
        var log = LogWriter()
        log.tap(0.5, 0.6, at: 0)
        log.tap(0.5, 0.6, at: 150)
        let r = try Kiosk.run(
            ["--headless", "800x480", "--config", try demo(), "--replay", try log.write(dir)], in: dir)
        #expect(r.status == 0)
        let tap = try #require(r.events.first { $0.name == "doubleTap" })
        #expect(tap.fields["point"] as? [Double] == [400, 288])
        #expect(r.number("map", "zoomScale") == 1)
        #expect(r.events.last?.name == "scrollViewDidEndScrollingAnimation")
    }

    @Test func carouselPagesOnASwipe() throws {
        var log = LogWriter()
        log.drag(from: (0.7, 0.5), to: (0.4, 0.5), steps: 10)
        let r = try Kiosk.run(
            ["--headless", "800x480", "--config", try demo(), "--scene", "gallery", "--replay", try log.write(dir)],
            in: dir)
        #expect(r.status == 0)
        let change = try #require(r.events.first { $0.name == "pageDidChange" })
        #expect(change.fields["page"] as? Int == 1)
        #expect(r.view("gallery")["page"] as? Int == 1)
        #expect(r.offset("gallery").0 == 800)
        #expect(r.view("gallery/page/1")["zoomScale"] != nil)
    }

    @Test func hotspotTapChangesTheScene() throws {
        var log = LogWriter()
        log.tap(264.0 / 800, 168.0 / 480, at: 0)  // the cafe: image (1550, 1050) at the fitted scale 0.16
        let r = try Kiosk.run(
            ["--headless", "800x480", "--config", try demo(), "--replay", try log.write(dir)], in: dir)
        #expect(r.status == 0)
        #expect(r.events.map(\.name) == ["hotspotTapped", "sceneTransition", "sceneDidChange"])
        #expect(r.events[0].fields["hotspot"] as? String == "cafe")
        #expect(r.events[1].fields["style"] as? String == "fade")
        #expect(r.events[2].fields["scene"] as? String == "menu")
        #expect(r.last["scene"] as? String == "menu")
    }

    @Test func homeButtonGoesHome() throws {
        var log = LogWriter()
        log.tap(56.0 / 800, 56.0 / 480, at: 0)
        let r = try Kiosk.run(
            ["--headless", "800x480", "--config", try demo(), "--scene", "menu", "--replay", try log.write(dir)],
            in: dir)
        #expect(r.last["scene"] as? String == "map")
    }

    @Test func rotationMapsTouchesWithThePicture() throws {
        // A portrait panel (480 x 800) turned a quarter: the scenes see 800 x 480, and a swipe up the panel is a
        // swipe to the left in the scene.
        var log = LogWriter(width: 480, height: 800)
        log.drag(from: (0.5, 0.7), to: (0.5, 0.4), steps: 10)
        let r = try Kiosk.run(
            [
                "--headless", "480x800", "--rotate", "90", "--config", try demo(), "--scene", "gallery", "--replay",
                try log.write(dir), "--screenshot", "2000:" + dir.appendingPathComponent("rot.png").path,
            ], in: dir)
        #expect(r.status == 0)
        #expect(r.view("gallery")["bounds"] as? [Double] == [800, 480])
        #expect(r.view("gallery")["page"] as? Int == 1)
        let shot = try #require(Picture(path: dir.appendingPathComponent("rot.png").path))
        #expect(shot.width == 480 && shot.height == 800)
    }

    @Test func recordRoundTrips() throws {
        var log = LogWriter()
        log.drag(from: (0.5, 0.8), to: (0.5, 0.3))
        log.tap(0.5, 0.5, at: 900)
        let first = dir.appendingPathComponent("first.jsonl").path
        let a = try Kiosk.run(
            [
                "--headless", "800x480", "--config", try demo(), "--scene", "menu", "--replay", try log.write(dir),
                "--record", first,
            ],
            in: dir)
        let b = try Kiosk.run(
            ["--headless", "800x480", "--config", try demo(), "--scene", "menu", "--replay", first], in: dir)
        #expect(a.status == 0 && b.status == 0)
        let recorded = try String(contentsOfFile: first, encoding: .utf8).split(separator: "\n")
        #expect(recorded.count == log.lines.count)
        #expect(a.trace.count == b.trace.count)
        #expect(a.offset("menu") == b.offset("menu"))
        #expect(a.events.map(\.name) == b.events.map(\.name))
    }

    @Test func screenshotsShowTheIndicatorThenItsFade() throws {
        var log = LogWriter()
        log.drag(from: (0.5, 0.8), to: (0.5, 0.3))
        let moving = dir.appendingPathComponent("moving.png").path
        let rested = dir.appendingPathComponent("rested.png").path
        let r = try Kiosk.run(
            [
                "--headless", "800x480", "--config", try demo(), "--scene", "menu", "--replay", try log.write(dir),
                "--screenshot", "300:\(moving)", "--screenshot", "9000:\(rested)",
            ], in: dir)
        #expect(r.status == 0)
        let a = try #require(Picture(path: moving))
        let b = try #require(Picture(path: rested))
        // The vertical indicator runs 2.5 pt from the right edge; the menu's margin there is plain paper.
        let column = { (p: Picture) in (0..<p.height).map { p.brightness(x: 795, y: $0, w: 2, h: 1) }.min() ?? 255 }
        #expect(column(a) < 200, "indicator visible while moving")
        #expect(column(b) > 235, "indicator faded once at rest")
    }

    @Test func pageDotsFollowThePage() throws {
        var log = LogWriter()
        log.drag(from: (0.7, 0.5), to: (0.4, 0.5), steps: 10)
        let shot = dir.appendingPathComponent("dots.png").path
        let r = try Kiosk.run(
            [
                "--headless", "800x480", "--config", try demo(), "--scene", "gallery", "--replay", try log.write(dir),
                "--screenshot", "3000:\(shot)",
            ], in: dir)
        #expect(r.status == 0)
        let p = try #require(Picture(path: shot))
        // Three dots 18 pt apart centred at the bottom; the second is the current one (white).
        let y = 480 - 36
        let xs = [400 - 18, 400, 400 + 18]
        let bright = xs.map { p.brightness(x: $0 - 1, y: y - 1, w: 3, h: 3) }
        #expect(bright[1] > 245)
        #expect(bright[0] < bright[1] - 40 && bright[2] < bright[1] - 40)
    }
}
