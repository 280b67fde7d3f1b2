import CSDL2
import CSDL2Image
import Foundation
import Testing

/// Pictures larger than a texture are read a band of rows at a time straight into their tile file: the kiosk
/// never holds one whole, `--check` reads them the same way, and one that breaks off in its middle is a
/// placeholder and one line, not grey rows.
@Suite struct LargePictureTests {
    let dir = Kiosk.folder()

    /// A `width` x `height` grey PNG, dark above its middle and light below, written by SDL_image (one byte a
    /// pixel in this process).
    func greyPNG(_ name: String, width: Int, height: Int) throws -> String {
        let s = try #require(
            SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), 8, SDL_PIXELFORMAT_INDEX8.rawValue))
        defer { SDL_FreeSurface(s) }
        var colors = (0..<256).map { SDL_Color(r: UInt8($0), g: UInt8($0), b: UInt8($0), a: 255) }
        SDL_SetPaletteColors(s.pointee.format.pointee.palette, &colors, 0, 256)
        for y in 0..<height {
            memset(s.pointee.pixels + y * Int(s.pointee.pitch), y < height / 2 ? 40 : 200, width)
        }
        let path = dir.appendingPathComponent(name).path
        #expect(IMG_SavePNG(s, path) == 0)
        return path
    }

    /// A `width` x `height` JPEG of bands of colour, written by SDL_image.
    func jpeg(_ name: String, width: Int, height: Int) throws -> String {
        let s = try #require(
            SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), 24, SDL_PIXELFORMAT_RGB24.rawValue))
        defer { SDL_FreeSurface(s) }
        for y in 0..<height {
            memset(s.pointee.pixels + y * Int(s.pointee.pitch), Int32(60 + (y / 500) * 20), width * 3)
        }
        let path = dir.appendingPathComponent(name).path
        #expect(IMG_SaveJPG(s, path, 90) == 0)
        return path
    }

    func manifest(_ image: String) throws -> String {
        let path = dir.appendingPathComponent("m-\(UUID().uuidString).json").path
        try #"{"kioskManifest": 1, "scenes": [{"id": "a", "type": "zoom", "image": "\#(image)", "minZoom": "fit"}]}"#
            .write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// The kiosk's own high-water mark of resident memory (its last `memory:` line), in MiB.
    static func peakMiB(_ stderr: String) -> Double? {
        guard let line = stderr.split(separator: "\n").last(where: { $0.contains("memory:") }),
            let range = line.range(of: "peak ")
        else { return nil }
        return Double(line[range.upperBound...].prefix { $0.isNumber }).map { $0 / 1024 }
    }

    /// A 3000x30000 picture (360 MB decoded whole) cut into its tile file holding a band of rows: the kiosk's
    /// peak stays a fraction of the picture, the screen shows it the right way up, and `--check` reads every row.
    /// A GPU's texture limit (`--max-texture`, as a Raspberry Pi 4's 2048): a 2400x1600 photograph, a whole
    /// texture on a renderer without one, is tiled under a cap of 1024 and shows the same picture, not a black
    /// one; the start line names the cap.
    @Test func aPictureOverTheTextureCapIsTiledNotBlack() throws {
        let config = try manifest(Kiosk.assets.appendingPathComponent("images/gallery-sunset.jpg").path)
        var pictures: [Picture] = []
        for cap in [[], ["--max-texture", "1024"]] {
            let shot = dir.appendingPathComponent("cap-\(cap.count).png").path
            let r = try Kiosk.run(
                ["--headless", "640x400", "--config", config, "--screenshot", "1000:\(shot)"] + cap, in: dir,
                trace: false)
            #expect(r.status == 0, "\(r.stderr)")
            if !cap.isEmpty { #expect(r.stderr.contains("max texture 1024 (--max-texture 1024;"), "\(r.stderr)") }
            pictures.append(try #require(Picture(path: shot)))
        }
        var far = 0
        for (a, b) in zip(pictures[0].pixels, pictures[1].pixels) {
            var d = 0
            for shift in [0, 8, 16] {
                let x = Int((a >> UInt32(shift)) & 0xFF)
                let y = Int((b >> UInt32(shift)) & 0xFF)
                d = max(d, abs(x - y))
            }
            if d > 24 { far += 1 }
        }
        #expect(far < pictures[0].pixels.count / 100, "\(far) pixels differ")
    }

    @Test func aTallPictureIsCutBandByBand() throws {
        let image = try greyPNG("tall.png", width: 3000, height: 30000)
        let config = try manifest(image)
        let cache = dir.appendingPathComponent("cache").path
        let shot = dir.appendingPathComponent("tall-shot.png").path
        let r = try Kiosk.run(
            ["--headless", "320x240", "--config", config, "--screenshot", "0:\(shot)"], in: dir,
            environment: ["XDG_CACHE_HOME": cache])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("cut into tiles"), "\(r.stderr)")
        let peak = try #require(Self.peakMiB(r.stderr), "\(r.stderr)")
        // Decoded whole it is 343 MiB (and SDL_image's copy and a converted one): a band is about 12 MiB.
        #expect(peak < 150, "peak \(peak) MiB")
        let picture = try #require(Picture(path: shot))
        // Fitted: 24 px wide, 240 tall, centred; dark above the middle, light below.
        #expect(abs(picture.brightness(x: 158, y: 40, w: 4, h: 40) - 40) < 3)
        #expect(abs(picture.brightness(x: 158, y: 160, w: 4, h: 40) - 200) < 3)
        let check = try Kiosk.run(["--check", "--config", config], in: dir, trace: false)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("3000x30000"), "\(check.stdout)")
    }

    /// A large PNG and a large JPEG whose data stops halfway (the end marker still in place: a copy that lost
    /// its middle): `--check` says so and exits 3; the start shows a placeholder with one line and runs on.
    @Test(arguments: ["png", "jpg"])
    func aLargePictureBrokenOffInItsMiddleIsAPlaceholder(_ kind: String) throws {
        let whole =
            try kind == "png"
            ? greyPNG("whole.png", width: 5000, height: 3000)
            : jpeg(
                "whole.jpg", width: 5000, height: 3000)
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        // What follows the half: a PNG's IEND chunk, a JPEG's end-of-image marker.
        let end: [UInt8] =
            kind == "png" ? [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82] : [0xFF, 0xD9]
        let broken = dir.appendingPathComponent("broken.\(kind)").path
        try (data.prefix(data.count / 2) + end).write(to: URL(fileURLWithPath: broken))
        let config = try manifest(broken)
        let check = try Kiosk.run(["--check", "--config", config], in: dir, trace: false)
        #expect(check.status == 3, "\(check.stderr)")
        #expect(check.stderr.contains("scenes[0].image: broken.\(kind): cannot decode ("), "\(check.stderr)")
        let r = try Kiosk.run(
            ["--headless", "320x240", "--config", config], in: dir,
            environment: ["XDG_CACHE_HOME": dir.appendingPathComponent("cache").path])
        #expect(r.status == 0, "\(r.stderr)")
        let said = r.stderr.split(separator: "\n").filter { $0.contains("cannot load the image") }
        #expect(said.count == 1, "\(r.stderr)")
        #expect(!r.stderr.contains("cut into tiles"), "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("cache/kiosk").path)
        #expect(files.isEmpty, "a torn cut is not left behind: \(files)")
    }
}

/// A cut takes seconds (a minute on a slow board): a worker cuts while the frames keep coming, so the kiosk is
/// ready at once (no start waits on a cut, none asks systemd for more time) and its loop, not the cut, feeds the
/// watchdog. A headless run's end waits for its pictures.
@Suite struct LongCutTests {
    let dir = Kiosk.folder()

    @Test func aLongCutHoldsNoFrameAndTheLoopFeedsTheWatchdog() throws {
        let pictures = LargePictureTests()
        let first = try pictures.greyPNG("first.png", width: 3000, height: 30000)
        let second = try pictures.greyPNG("second.png", width: 3000, height: 20000)
        let json = #"""
            {"kioskManifest": 1, "scenes": [
              {"id": "a", "type": "zoom", "image": "\#(first)", "hotspots": [{"rect": [0, 0, 3000, 30000], "goto": "b"}]},
              {"id": "b", "type": "zoom", "image": "\#(second)"}]}
            """#
        let config = dir.appendingPathComponent("m.json").path
        try json.write(toFile: config, atomically: false, encoding: .utf8)
        var log = LogWriter(width: 400, height: 240)
        log.tap(0.5, 0.5, at: 200)
        let socket = try NotifySocket(in: dir, abstract: true)
        let r = try Kiosk.run(
            ["--headless", "400x240", "--realtime", "--config", config, "--replay", try log.write(dir)], in: dir,
            environment: [
                "NOTIFY_SOCKET": socket.name, "WATCHDOG_USEC": "1000000",
                "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path,
            ])
        let messages = socket.stop()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "cut into tiles").count == 3, "\(r.stderr)")
        #expect(r.trace.last?["scene"] as? String == "b", "the tap was answered")
        let texts = messages.map(\.text)
        #expect(texts.contains { $0.hasPrefix("READY=1") }, "\(texts)")
        #expect(!texts.contains { $0.hasPrefix("EXTEND_TIMEOUT_USEC") }, "no start waits on a cut: \(texts)")
        let pings = messages.filter { $0.text == "WATCHDOG=1" }.map(\.at)
        let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
        #expect(pings.count >= 2 && (gaps.max() ?? 0) < 900, "no gap reaches the watchdog's limit: \(gaps)")
    }
}
