import CSDL2
import CSDL2Image
import Foundation
import TestSupport
import Testing

/// Content on a share that stops answering (an NFS or SMB share, a dying SD card): a regular file whose reads
/// block after its first bytes. The pictures on it load on workers, so the kiosk keeps drawing, answers touches
/// and signals, feeds its watchdog, and ends when told; they stay "loading".
@Suite(
    .serialized,
    Installed.needs("/usr/bin/fusermount", from: "fuse3", for: "a share that stops answering, made with FUSE"),
    Installed.needsFile(
        "/usr/lib/python3/dist-packages/fusepy.py", from: "python3-fusepy",
        for: "a share that stops answering, made with FUSE"),
    .enabled(if: access("/dev/fuse", R_OK | W_OK) == 0, "/dev/fuse cannot be opened here (FUSE)"))
struct StalledShareTests {
    let dir = Kiosk.folder()

    /// A read-only view of a folder whose reads wait for ever once they reach past `limit` bytes of a file.
    static let server = """
        import os, sys, threading
        from fusepy import FUSE, Operations

        root, mount, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
        never = threading.Event()

        class Stalled(Operations):
            def getattr(self, path, fh=None):
                st = os.lstat(root + path)
                keys = ("st_mode", "st_size", "st_nlink", "st_uid", "st_gid", "st_atime", "st_mtime", "st_ctime")
                return {k: getattr(st, k) for k in keys}

            def readdir(self, path, fh):
                return [".", ".."] + os.listdir(root + path)

            def open(self, path, flags):
                return os.open(root + path, os.O_RDONLY)

            def read(self, path, size, offset, fh):
                if offset + size > limit:
                    never.wait()
                return os.pread(fh, size, offset)

            def release(self, path, fh):
                os.close(fh)

        FUSE(Stalled(), mount, foreground=True, ro=True, direct_io=True)
        """

    /// A `width` x `height` PNG of seeded noise (it does not compress: its reads reach past the stall).
    func noisePNG(_ path: String, width: Int, height: Int) throws {
        let s = try #require(
            SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), 24, SDL_PIXELFORMAT_RGB24.rawValue))
        defer { SDL_FreeSurface(s) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for y in 0..<height {
            let row = (s.pointee.pixels + y * Int(s.pointee.pitch)).assumingMemoryBound(to: UInt8.self)
            for x in 0..<(width * 3) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                row[x] = UInt8(truncatingIfNeeded: state >> 56)
            }
        }
        #expect(IMG_SavePNG(s, path) == 0)
    }

    /// Mounts `source` at `mount`, stalling past `limit` bytes; the server's process (killed to end the stall).
    func mount(_ source: URL, at mount: URL, limit: Int) throws -> Process {
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        let script = dir.appendingPathComponent("stalled.py")
        try Self.server.write(to: script, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [script.path, source.path, mount.path, String(limit)]
        p.standardError = FileHandle.nullDevice
        try p.run()
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: mount.appendingPathComponent("small.png").path) {
            usleep(50_000)
        }
        return p
    }

    @Test func theKioskKeepsGoingWhileItsPicturesStall() throws {
        // Past their headers' first 64 KiB, nothing answers: the pictures wait on their workers.
        let stderr = try runOnAStalledShare(limit: 128 * 1024, taps: [300, 1500], reach: "c")
        #expect(!stderr.contains("did not answer"), "\(stderr)")
    }

    /// A share that stops answering inside the pictures' headers (after 16 bytes): the start reads each for at most
    /// `RegularFile.answerSeconds`, says so once a picture, and goes on with placeholders.
    @Test func theStartGoesOnWhenTheHeadersStall() throws {
        // The start waited for each header at most its limit; a tap after it goes to the second scene, whose
        // picture (the catalog could not read it) is a placeholder, said once. (Its hotspot has no picture to be on.)
        let stderr = try runOnAStalledShare(limit: 16, taps: [14_000], reach: "b")
        let said = stderr.split(separator: "\n").filter { $0.contains("did not answer") }
        #expect(said.count == 1 && said.first?.contains("large.png") == true, "\(stderr)")
        #expect(said.allSatisfy { $0.hasPrefix("<4>") && $0.hasSuffix("showing a placeholder") }, "\(said)")
    }

    /// The kiosk on three scenes, a good picture's and two on a share that stalls past `limit` bytes, a tap at each
    /// of `taps` (ms) going to the next; it must reach scene `reach`, hear SIGTERM, feed its watchdog, and end once
    /// the share goes away. What it wrote to standard error.
    func runOnAStalledShare(limit: Int, taps: [Double], reach: String) throws -> String {
        let source = dir.appendingPathComponent("share")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        // One drawn from a pyramid (cut into tiles), one decoded whole, each about a megabyte or more.
        try noisePNG(source.appendingPathComponent("large.png").path, width: 4400, height: 300)
        try noisePNG(source.appendingPathComponent("small.png").path, width: 600, height: 600)
        let good = dir.appendingPathComponent("good.png").path
        try noisePNG(good, width: 64, height: 64)
        let share = dir.appendingPathComponent("mnt")
        let server = try mount(source, at: share, limit: limit)
        defer {
            server.terminate()
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
            _ = try? Process.run(URL(fileURLWithPath: "/usr/bin/fusermount"), arguments: ["-u", "-z", share.path])
        }
        let json = #"""
            {"kioskManifest": 1, "scenes": [
              {"id": "a", "type": "zoom", "image": "\#(good)", "hotspots": [{"rect": [0, 0, 64, 64], "goto": "b"}]},
              {"id": "b", "type": "zoom", "image": "\#(share.path)/large.png",
               "hotspots": [{"rect": [0, 0, 4400, 300], "goto": "c"}]},
              {"id": "c", "type": "zoom", "image": "\#(share.path)/small.png"}]}
            """#
        let config = dir.appendingPathComponent("m.json").path
        try json.write(toFile: config, atomically: false, encoding: .utf8)
        var log = LogWriter(width: 400, height: 240)
        for t in taps { log.tap(0.5, 0.5, at: t) }
        let trace = dir.appendingPathComponent("trace.jsonl").path
        let socket = try NotifySocket(in: dir, abstract: true)
        let (p, err) = try Kiosk.launch(
            [
                "--headless", "400x240", "--realtime", "--config", config, "--replay", try log.write(dir), "--trace",
                trace,
            ],
            environment: [
                "NOTIFY_SOCKET": socket.name, "WATCHDOG_USEC": "1000000",
                "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path,
            ])
        // Both taps answered: the last scene shows while both pictures still wait for their bytes.
        var reached = false
        for _ in 0..<400 where !reached {
            usleep(100_000)
            reached = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").contains("\"scene\": \"\(reach)\"")
        }
        #expect(reached, "the kiosk reached scene \(reach) while its pictures stalled")
        kill(p.processIdentifier, SIGTERM)
        var stopping = false
        for _ in 0..<100 where !stopping {
            usleep(50_000)
            socket.lock.lock()
            stopping = socket.messages.contains { $0.text == "STOPPING=1" }
            socket.lock.unlock()
        }
        #expect(stopping, "SIGTERM was heard")
        // Its workers wait on the share until it answers (here: goes away); then the process ends.
        server.terminate()
        kill(server.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let messages = socket.stop()
        #expect(p.terminationStatus == 0, "\(stderr)")
        let texts = messages.map(\.text)
        #expect(texts.contains { $0.hasPrefix("READY=1") }, "\(texts)")
        let pings = messages.filter { $0.text == "WATCHDOG=1" }.map(\.at)
        let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
        #expect(pings.count >= 2 && (gaps.max() ?? 0) < 900, "the loop fed the watchdog throughout: \(gaps)")
        return stderr
    }
}
