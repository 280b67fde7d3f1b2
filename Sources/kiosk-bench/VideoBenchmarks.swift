import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// The film's figures (docs/video.md): a 1920x1080 30 fps H.264 clip made with the `ffmpeg` command, played in
// real time by the kiosk (headless, software renderer) and by `ffplay` (FFmpeg's own SDL player: the same SDL,
// its dummy video driver and software renderer), one after the other, each run free of the bench's CPU pin.

/// Runs `ffmpeg` with `arguments`; whether it made what it was asked.
func ffmpeg(_ arguments: [String]) -> Bool {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    p.arguments = ["-v", "error", "-y"] + arguments
    p.standardError = FileHandle.nullDevice
    do { try p.run() } catch { return false }
    p.waitUntilExit()
    return p.terminationStatus == 0
}

/// The benchmark's film at `path`: `seconds` of FFmpeg's `testsrc2` at 1920x1080, 30 fps, H.264 (veryfast), 4:2:0.
func benchClip(_ path: String, seconds: Int) -> Bool {
    ffmpeg([
        "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30", "-t", "\(seconds)", "-c:v", "libx264", "-preset",
        "veryfast", "-pix_fmt", "yuv420p", path,
    ])
}

/// CPU seconds (user and system) of the children this process has waited for, so far.
func childrenCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

struct VideoFigures {
    var kioskCPU: Double
    var ffplayCPU: Double
    /// Frames decoded too late to be shown, and shown, by the kiosk's metrics.
    var late: Int
    var shown: Int
    /// Resident memory while it plays over the same kiosk showing the clip's first frame as a picture, in MiB.
    var rssMiB: Double
    /// Across ten loops of a one-second clip, the longest time between two frames shown over the clip's frame
    /// interval (1: no seam).
    var loopGapRatio: Double
    /// The kiosk's CPU seconds playing the clip over ffplay's.
    var cpuRatio: Double { kioskCPU / max(ffplayCPU, 1e-9) }
}

/// Plays a `seconds`-long clip in the kiosk and in ffplay; nil when ffmpeg or ffplay are missing.
func videoFigures(folder: String, seconds: Int) -> VideoFigures? {
    let clip = folder + "/film.mp4"
    let poster = folder + "/poster.png"
    guard benchClip(clip, seconds: seconds), ffmpeg(["-i", clip, "-frames:v", "1", poster]),
        FileManager.default.isExecutableFile(atPath: "/usr/bin/ffplay")
    else { return nil }
    let film = folder + "/film.json"
    let still = folder + "/still.json"
    try?
        #"{"kioskManifest": 1, "home": "film", "idleTimeoutSeconds": 0, "scenes": [{"id": "film", "type": "video", "video": "film.mp4", "loop": false}]}"#
        .write(toFile: film, atomically: true, encoding: .utf8)
    try?
        #"{"kioskManifest": 1, "home": "still", "idleTimeoutSeconds": 0, "scenes": [{"id": "still", "type": "zoom", "image": "poster.png"}]}"#
        .write(toFile: still, atomically: true, encoding: .utf8)
    let metrics = folder + "/film.prom"
    // The kiosk: started, the clip played to its end (and a second more), stopped.
    var before = childrenCPUSeconds()
    let kiosk = KioskProcess(
        ["--headless", "1920x1080", "--realtime", "--config", film, "--metrics", metrics], environment: [:],
        cache: folder + "/cache")
    kiosk.start()
    usleep(UInt32(seconds) * 1_000_000 / 2)
    let playing = residentKiB(kiosk.pid)
    usleep(UInt32(seconds) * 1_000_000 / 2 + 1_500_000)
    _ = kiosk.stop()
    let kioskCPU = childrenCPUSeconds() - before
    let prom = (try? String(contentsOfFile: metrics, encoding: .utf8)) ?? ""
    func counter(_ name: String) -> Int {
        prom.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) }
            ?? -1
    }
    // The same kiosk showing the clip's first frame as a picture.
    let posterRun = KioskProcess(
        ["--headless", "1920x1080", "--realtime", "--config", still], environment: [:], cache: folder + "/cache")
    posterRun.start()
    usleep(3_000_000)
    let resting = residentKiB(posterRun.pid)
    _ = posterRun.stop()
    // ffplay, to the clip's end.
    before = childrenCPUSeconds()
    let player = Process()
    player.executableURL = URL(fileURLWithPath: "/usr/bin/ffplay")
    player.arguments = ["-autoexit", "-loglevel", "error", "-an", clip]
    var env = ProcessInfo.processInfo.environment
    env["SDL_VIDEODRIVER"] = "dummy"
    env["SDL_RENDER_DRIVER"] = "software"
    player.environment = env
    player.standardError = FileHandle.nullDevice
    player.standardOutput = FileHandle.nullDevice
    guard (try? player.run()) != nil else { return nil }
    player.waitUntilExit()
    let ffplayCPU = childrenCPUSeconds() - before
    return VideoFigures(
        kioskCPU: kioskCPU, ffplayCPU: ffplayCPU,
        late: counter("kiosk_video_frames_dropped_total"), shown: counter("kiosk_video_frames_shown_total"),
        rssMiB: (playing - resting) / 1024, loopGapRatio: loopGapRatio(folder: folder))
}

/// Ten loops of the clip's first second in real time (the kiosk's trace says when each frame was shown): the
/// longest time from one frame shown to the next, over the frame interval (1/30 s); 0 when it cannot tell.
func loopGapRatio(folder: String) -> Double {
    let clip = folder + "/second.mp4"
    guard benchClip(clip, seconds: 1) else { return 0 }
    let config = folder + "/loop.json"
    try?
        #"{"kioskManifest": 1, "home": "film", "idleTimeoutSeconds": 0, "scenes": [{"id": "film", "type": "video", "video": "second.mp4"}]}"#
        .write(toFile: config, atomically: true, encoding: .utf8)
    let log = folder + "/loop.jsonl"
    try?
        (#"{"kioskEventLog": 1, "display": {"w": 1920, "h": 1080}, "source": "kiosk-bench"}"# + "\n"
        + #"{"timestamp": 10500, "type": "SDL_KEYUP", "key": "F24"}"# + "\n").write(
            toFile: log, atomically: true, encoding: .utf8)
    let trace = folder + "/loop.trace"
    let run = KioskProcess(
        ["--headless", "1920x1080", "--realtime", "--config", config, "--replay", log, "--trace", trace],
        environment: [:], cache: folder + "/cache")
    run.start()
    _ = run.wait()
    var last: (t: Double, frame: Int, loop: Int)?
    var loops = 0
    var longest = 0.0
    for line in ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n") {
        guard let data = line.data(using: .utf8),
            let o = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], let t = o["t"] as? Double,
            let v = o["video"] as? [String: Any], let frame = v["frame"] as? Int
        else { continue }
        if let l = last, frame != l.frame {
            if frame < l.frame { loops += 1 }
            longest = max(longest, t - l.t)
        }
        if last?.frame != frame { last = (t, frame, loops) }
    }
    return loops >= 9 ? longest / (1000.0 / 30) : 0
}
