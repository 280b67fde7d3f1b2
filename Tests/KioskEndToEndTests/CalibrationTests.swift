import Foundation
import Kiosk
import ScrollEngine
import Testing

/// `kiosk --calibrate` end to end (docs/deploying.md): replayed taps on the five targets through a skewed panel.
@Suite struct CalibrationTests {
    let dir = Kiosk.folder()

    /// A panel mounted a quarter turn off, mirrored and offset: the raw position it reports at a physical point.
    static let panel = AffineMatrix(a: 0.03, b: -0.88, c: 0.94, d: 0.9, e: 0.02, f: 0.04)

    /// A log tapping each physical point for 200 ms, a second apart, through `panel`.
    static func taps(_ points: [Point]) -> LogWriter {
        var log = LogWriter()
        for (i, p) in points.enumerated() {
            let raw = panel.apply(p)
            let t = 500 + Double(i) * 1000
            log.finger(t, "DOWN", 1, raw.x, raw.y)
            log.finger(t + 100, "MOTION", 1, raw.x + 0.002, raw.y)
            log.finger(t + 200, "UP", 1, raw.x, raw.y)
        }
        return log
    }

    func calibrate(_ log: LogWriter, rotate: Int = 0, file: URL) throws -> Kiosk.Result {
        try Kiosk.run(
            [
                "--headless", "640x400", "--rotate", "\(rotate)", "--config", try Kiosk.manifest(Kiosk.demo, in: dir),
                "--calibrate", "--calibration", file.path, "--replay", try log.write(dir, "calibrate.jsonl"),
            ], in: dir)
    }

    @Test(arguments: [0, 90]) func fiveTapsWriteTheCalibration(rotate: Int) throws {
        let file = dir.appendingPathComponent("calibration-\(rotate).json")
        let r = try calibrate(Self.taps(CalibrationWizard.targets), rotate: rotate, file: file)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("<6>kiosk: calibration: written to \(file.path): matrix ["), "\(r.stderr)")
        let names = r.events.map(\.name)
        #expect(names.filter { $0 == "calibrationTarget" }.count == 5)
        #expect(names.last == "calibrationDone")
        // The file undoes the panel: read back as the kiosk reads it, each raw target maps onto its target.
        let data = try Data(contentsOf: file)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["kioskCalibration"] as? Int == 1)
        #expect(object["created"] is String && object["residual"] is Double)
        let m = try #require(AffineMatrix((object["matrix"] as? [Double]) ?? []))
        for target in CalibrationWizard.targets {
            let back = m.apply(Self.panel.apply(target))
            #expect(abs(back.x - target.x) < 0.01 && abs(back.y - target.y) < 0.01, "\(target) → \(back)")
        }
        #expect(!FileManager.default.fileExists(atPath: file.path + ".tmp"))
    }

    /// After calibrating a rotated kiosk, a tap lands where the finger is: the kiosk with that file and the
    /// same `--rotate` maps a touch of the panel at a physical point to that point.
    @Test func afterCalibratingARotatedKioskATapLandsUnderTheFinger() throws {
        let file = dir.appendingPathComponent("calibration.json")
        #expect(try calibrate(Self.taps(CalibrationWizard.targets), rotate: 90, file: file).status == 0)
        // The home button sits in the scene's top-left corner; turned a quarter clockwise that is the physical
        // top right. A tap on it through the panel goes home.
        var log = LogWriter()
        let scene = Size(width: 400, height: 640)
        let centre = Point(x: HomeButtonStyle.margin + HomeButtonStyle.size / 2, y: HomeButtonStyle.size / 2)
        let physical = Rotation.quarter.inverse.toScene(
            Point(x: centre.x / scene.width, y: centre.y / scene.height))
        let raw = Self.panel.apply(physical)
        log.tap(raw.x, raw.y, at: 500)
        let r = try Kiosk.run(
            [
                "--headless", "640x400", "--rotate", "90", "--config", try Kiosk.manifest(Kiosk.demo, in: dir),
                "--scene", "menu", "--calibration", file.path, "--replay", try log.write(dir),
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.trace.last?["scene"] as? String == "map", "the tap went home")
        // Without the calibration the same touch lands elsewhere and stays in the menu.
        let plain = try Kiosk.run(
            [
                "--headless", "640x400", "--rotate", "90", "--config", try Kiosk.manifest(Kiosk.demo, in: dir),
                "--scene", "menu", "--calibration", dir.appendingPathComponent("none.json").path, "--replay",
                try log.write(dir),
            ], in: dir)
        #expect(plain.trace.last?["scene"] as? String == "menu")
    }

    @Test func aLogThatEndsEarlyWritesNothing() throws {
        let file = dir.appendingPathComponent("calibration.json")
        let r = try calibrate(Self.taps(Array(CalibrationWizard.targets.prefix(3))), file: file)
        #expect(r.status == 1)
        #expect(r.stderr.contains("nothing written"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func threeBadChecksWriteNothing() throws {
        let file = dir.appendingPathComponent("calibration.json")
        let round = Array(CalibrationWizard.targets.prefix(4)) + [Point(x: 0.7, y: 0.6)]
        let r = try calibrate(Self.taps(round + round + round), file: file)
        #expect(r.status == 1)
        #expect(r.stderr.contains("3 rounds"), "\(r.stderr)")
        #expect(r.events.filter { $0.name == "calibrationRound" }.count == 2)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}

/// `kiosk --touch-test` (docs/deploying.md): every finger where the kiosk maps it, and the count in the trace.
@Suite struct TouchTestTests {
    let dir = Kiosk.folder()

    @Test func twoFingersAreShownAndCounted() throws {
        var log = LogWriter()
        log.finger(500, "DOWN", 7, 0.3, 0.5)
        log.finger(600, "DOWN", 9, 0.6, 0.4)
        for i in 1...19 {
            log.finger(600 + Double(i) * 16, "MOTION", 9, 0.6, 0.4 + Double(i) * 0.01)
        }
        log.finger(1000, "UP", 7, 0.3, 0.5)
        log.finger(1200, "UP", 9, 0.6, 0.59)
        let shot = dir.appendingPathComponent("touch-test.png").path
        let r = try Kiosk.run(
            [
                "--headless", "1280x800", "--config", try Kiosk.manifest(Kiosk.demo, in: dir), "--touch-test",
                "--replay", try log.write(dir), "--screenshot", "900:\(shot)",
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let counts = r.events.filter { $0.name == "touchTest" }.compactMap { $0.fields["fingers"] as? Int }
        #expect(counts == [1, 2, 1, 0])
        // Finger 9's ring where it is at 900 ms (0.6, 0.58): amber on its edge, the background at its centre.
        let picture = try #require(Picture(path: shot))
        let (cx, cy) = (Int(0.6 * 1280), Int(0.58 * 800))
        let ring = picture.rgb(cx + 45, cy)
        #expect(ring.0 > 200 && ring.1 > 140 && ring.2 < 100, "\(ring)")
        let centre = picture.rgb(cx, cy + 20)
        #expect(centre.0 < 60, "\(centre)")
    }
}
