import CAllocCounter
import CSDL2
import EventLog
import Foundation
import Kiosk
import KioskSDL
import ScrollEngine
import TouchInput

// kiosk-bench: measures the engine (and, as they arrive, the touch layer and frames) side by side in one run.
//   swift run -c release kiosk-bench [--json]

guard allocationCounterWorks() else {
    print("kiosk-bench: the allocation counter does not see allocations; the figures would be wrong")
    exit(1)
}

let json = CommandLine.arguments.contains("--json")
// Frames drawn in this process are measured on one CPU; the kiosk processes it starts run free (a child
// inherits its parent's CPUs, and the real-time kiosk's decoding threads must not share the frame loop's core).
if CommandLine.arguments.contains("--transition-only") {
    _ = kiosk_pin_to_last_cpu()
    let folder = benchFolder()
    let r = transitionFrames(folder: folder)
    let a = attractFrames()
    print(
        "frameTransitionMs \(formatted(r.median)) frameTransitionWorstMs \(formatted(r.worst)) "
            + "frameAttractMs \(formatted(a.median)) frameAttractWorstMs \(formatted(a.worst)) "
            + "frameAttractWorstOneRunMs \(formatted(a.worstOneRun))")
    exit(0)
}
if CommandLine.arguments.contains("--cold-only") {
    print("frameColdWorstMs \(formatted(coldFrames(folder: benchFolder())))")
    exit(0)
}
if CommandLine.arguments.contains("--latency-only") {
    let t = touchToPresent(cache: benchFolder() + "/cache")
    print(
        "touchToPresentP50Ms \(formatted(t.p50)) touchToPresentP95Ms \(formatted(t.p95)) (\(t.recordings) recordings)")
    exit(0)
}
if CommandLine.arguments.contains("--reload-only") {
    let folder = NSTemporaryDirectory() + "/kiosk-bench"
    let r = reloadFigures(folder: folder, cache: folder + "/cache")
    print("reloadWorstFrameMs \(formatted(r.worstFrame)) reloadRssGrowth \(formatted(r.rssGrowth))")
    exit(0)
}
if CommandLine.arguments.contains("--edit-only") {
    let folder = benchFolder()
    print("editReloadMs \(formatted(editReload(folder: folder, cache: folder + "/cache")))")
    exit(0)
}
if CommandLine.arguments.contains("--report-only") {
    print("reportMs \(formatted(yearReport(folder: benchFolder())))")
    exit(0)
}
if CommandLine.arguments.contains("--settle-only") {
    let folder = benchFolder()
    _ = demoPyramid()
    print("settleToSharpMs \(formatted(settleToSharp(folder: folder, cache: folder + "/cache")))")
    exit(0)
}
if CommandLine.arguments.contains("--tour-only") {
    let folder = benchFolder()
    let copies = referenceCopies(seconds: 10)
    let t = realtimeTours(folder: folder, cache: folder + "/cache")
    print(
        "tourPeakRssMiB \(formatted(t.peak)) tourSettledRssMiB \(formatted(t.settled)) "
            + "tourWorstFrameMs \(formatted(t.worstFrame)) tourLateFrames \(Int(t.late)) "
            + "tourWorstFrameOneRunMs \(formatted(t.worstOneRun)) tourLateFramesOneRun \(Int(t.lateOneRun)) "
            + "copyFrameMs \(formatted(copies.median)) copyFrameWorstMs \(formatted(copies.worst))")
    exit(0)
}
_ = kiosk_pin_to_last_cpu()
if CommandLine.arguments.contains("--input-only") {
    _ = engineStep(rounds: 50)  // warm up
    _ = inputEvent(gestures: 20)
    let step = engineStep(rounds: 2000)
    let event = inputEvent(gestures: 2000)
    print("engineStepNs \(Int(step.perItemNs.rounded())) eventNs \(Int(event.perItemNs.rounded()))")
    exit(0)
}
if CommandLine.arguments.contains("--overhead-only") {
    // The deep-zoom tour alone: our work around SDL's (`overheadRatio`), to run the same binary several times.
    let zoom = measuredTour(manifest(for: demoPyramid(), in: benchFolder()))
    print(
        "frameZoomMs \(formatted(zoom.median)) frameSdlOnlyMs \(formatted(zoom.sdlOnly)) "
            + "overheadRatio \(formatted(zoom.median / max(zoom.sdlOnly, 1e-9)))")
    exit(0)
}
if CommandLine.arguments.contains("--list-only") {
    let listFolder = benchFolder()
    let flung = listFrames(rows: 10_000, folder: listFolder)
    let open = listOpenMs(rows: 10_000, folder: listFolder, rounds: 5)
    kiosk_unpin()
    let ratio =
        listPeakRss(rows: 10_000, folder: listFolder, cache: listFolder + "/cache")
        / listPeakRss(rows: 100, folder: listFolder, cache: listFolder + "/cache")
    print(
        "frameListMs \(formatted(flung.median)) frameListWorstMs \(formatted(flung.worst)) listOpenMs \(formatted(open))"
            + " listRssRatio \(formatted(ratio))")
    exit(0)
}
if CommandLine.arguments.contains("--access-only") {
    let accessFolder = benchFolder()
    let focus = focusFrames(rounds: 30)
    kiosk_unpin()
    let speech = speechFigures(folder: accessFolder, cache: accessFolder + "/cache")
    print(
        "keyToSpeechMs \(formatted(speech.keyToSpeech)) focusFrameMs \(formatted(focus.focus))"
            + " stillFrameMs \(formatted(focus.still)) focusFrameRatio \(formatted(focus.focus / max(focus.still, 1e-9)))"
            + " speechRssMiB \(formatted(speech.rss))")
    exit(0)
}
if CommandLine.arguments.contains("--video-only") {
    let videoFolder = benchFolder()
    kiosk_unpin()
    let seconds =
        CommandLine.arguments.firstIndex(of: "--video-seconds").flatMap {
            $0 + 1 < CommandLine.arguments.count ? Int(CommandLine.arguments[$0 + 1]) : nil
        } ?? 60
    guard let v = videoFigures(folder: videoFolder, seconds: seconds) else {
        print("kiosk-bench: no video figures: ffmpeg and ffplay are needed (Debian's ffmpeg)")
        exit(1)
    }
    print(
        "videoCpuRatio \(formatted(v.cpuRatio)) (kiosk \(formatted(v.kioskCPU)) s, ffplay \(formatted(v.ffplayCPU)) s)"
            + " videoLateFrames \(v.late) (of \(v.shown) shown) videoRssMiB \(formatted(v.rssMiB)) (\(seconds) s clip)"
            + " videoLoopGapRatio \(formatted(v.loopGapRatio))")
    exit(0)
}
if CommandLine.arguments.contains("--soak-only") {
    let soakFolder = benchFolder()
    kiosk_unpin()
    let week = soak(folder: soakFolder, cache: soakFolder + "/cache")
    print(
        "soakRssGrowth \(formatted(week.growth)) soakRssMiB \(week.rss.map(formatted)) soakFds \(week.fds)"
            + " soakThreads \(week.threads) soakStateKiB \(week.stateKiB) (\(Int(week.seconds)) s)")
    exit(0)
}
if CommandLine.arguments.contains("--fleet-only") {
    let fleetFolder = benchFolder()
    kiosk_unpin()
    let write = metricsWriteMs(folder: fleetFolder, rounds: 50)
    let picture = screenPictureMs(folder: fleetFolder, cache: fleetFolder + "/cache", rounds: 5)
    let worst = metricsWorstFrameMs(folder: fleetFolder, cache: fleetFolder + "/cache")
    let idle = idleProcess(
        folder: fleetFolder, cache: fleetFolder + "/cache", extra: ["--metrics", fleetFolder + "/idle.prom"])
    print(
        "metricsWriteMs \(formatted(write)) screenPictureMs \(formatted(picture)) metricsWorstFrameMs \(formatted(worst))"
            + " idleWakeupsPerSecond \(formatted(idle.wakeups))")
    exit(0)
}
let onlyPans = CommandLine.arguments.contains("--pan-only")
let eight = figureEight(seconds: 10)
// The map's pans without words (as Qt's peer draws it), and with 20 labels on it.
let wordsFolder = benchFolder()
let plainMap = mapManifest(labels: 0, in: wordsFolder)
// How the kiosk copies a picture's rows here, as it measured in the zoom-1 pan's first frames.
var rowCopies: (choice: String, milliseconds: [String: Double]) = ("none", [:])
let pans = mapFrames(zoom: 1, rotations: [.none, .quarter], gesture: eight, manifest: plainMap) { session in
    if rowCopies.milliseconds.isEmpty, let measured = session.rowCopies { rowCopies = measured }
}
let panZoomed = mapFrames(zoom: 0.53, rotations: [.none], gesture: eight, manifest: plainMap)[0]
let pinch = mapFrames(zoom: nil, rotations: [.none], gesture: pinching(seconds: 10), manifest: plainMap)[0]
let labelled = mapFrames(
    zoom: 1, rotations: [.none], gesture: eight, manifest: mapManifest(labels: 20, in: wordsFolder))[0]
if onlyPans {
    print(
        "framePan1xMs \(formatted(pans[0])) framePanZoomedMs \(formatted(panZoomed)) framePinchMs \(formatted(pinch))"
            + " rotationRatio \(formatted(pans[1] / pans[0])) frameLabelsMs \(formatted(labelled))"
            + " copyChoice \(rowCopies.choice) copyMemcpyMs \(formatted(rowCopies.milliseconds["memcpy"] ?? 0))"
            + " copyStreamedMs \(formatted(rowCopies.milliseconds["streamed"] ?? 0))")
    exit(0)
}
_ = engineStep(rounds: 50)  // warm up
_ = inputEvent(gestures: 20)
let step = engineStep(rounds: 2000)
let event = inputEvent(gestures: 2000)
let carousel = frames(
    scene: "gallery", gesture: swipes(from: Point(x: 0.8, y: 0.5), to: Point(x: 0.3, y: 0.5), ms: 300, times: 5),
    count: 400)
let map = frames(
    scene: "map", gesture: swipes(from: Point(x: 0.3, y: 0.6), to: Point(x: 0.7, y: 0.3), ms: 250, times: 5), count: 400
)
let menu = frames(
    scene: "menu", gesture: swipes(from: Point(x: 0.5, y: 0.9), to: Point(x: 0.5, y: 0.2), ms: 150, times: 5),
    count: 400)

// Deep zoom: the 16384² demo, and flat pyramids of 2048² and 32768² for the scaling ratio.
let folder = benchFolder()
let demoDZI = demoPyramid()
let firstFrameClock = ContinuousClock()
let firstStart = firstFrameClock.now
guard let first = try? HeadlessSession(manifestPath: manifest(for: demoDZI, in: folder), width: 1920, height: 1080)
else {
    print("kiosk-bench: cannot open the deep-zoom demo")
    exit(1)
}
first.frame(at: 0)
let (ffs, ffa) = (firstFrameClock.now - firstStart).components
let firstFrameMs = Double(ffs) * 1000 + Double(ffa) / 1e15
let zoom = measuredTour(manifest(for: demoDZI, in: folder))
generate(size: 2048, flat: true, out: folder + "/small/flat.dzi")
generate(size: 32768, flat: true, out: folder + "/large/flat.dzi")
let small = measuredTour(manifest(for: folder + "/small/flat.dzi", in: folder + "/small"))
let transition = transitionFrames(folder: folder)
let attracting = attractFrames()
let large = measuredTour(manifest(for: folder + "/large/flat.dzi", in: folder + "/large"))
kiosk_unpin()
let cache = folder + "/cache"
let panRss = panPeakRss(folder: folder, cache: cache)
let cold = coldStart(folder: folder, cache: cache)
// Idle with its metrics written (every 15 s, the default), as under the unit.
let quiet = idleProcess(folder: folder, cache: cache, extra: ["--metrics", folder + "/idle.prom"])
// 03:00, when the demo is closed: a blank screen.
let closed = idleProcess(folder: folder, cache: cache, extra: ["--clock", "2026-01-05T03:00:00"])
let copies = referenceCopies(seconds: 10)
let realtime = realtimeTours(folder: folder, cache: cache)
let reload = reloadFigures(folder: folder, cache: cache)
let check = checkDemo()
let report = yearReport(folder: benchFolder())
let edit = editReload(folder: benchFolder(), cache: benchFolder() + "/cache")
let switchMs = languageSwitchMs(rounds: 5)
let flung = listFrames(rows: 10_000, folder: folder)
let listOpen = listOpenMs(rows: 10_000, folder: folder, rounds: 5)
let listRss =
    listPeakRss(rows: 10_000, folder: folder, cache: cache) / listPeakRss(rows: 100, folder: folder, cache: cache)
let textMiB = textTextureMiB()
let sharp = settleToSharp(folder: folder, cache: cache)
let metricsWrite = metricsWriteMs(folder: folder, rounds: 50)
let picture = screenPictureMs(folder: folder, cache: cache, rounds: 5)
let metricsWorst = metricsWorstFrameMs(folder: folder, cache: cache)
let speech = speechFigures(folder: folder, cache: cache)
_ = kiosk_pin_to_last_cpu()
let focus = focusFrames(rounds: 30)
kiosk_unpin()
let film = videoFigures(folder: benchFolder(), seconds: 60)
let latency = touchToPresent(cache: cache)
let coldFrame = coldFrames(folder: folder)
let budgetMiB = 128.0

let rows: [(key: String, value: String, unit: String, target: String)] = [
    ("engineStepNs", "\(Int(step.perItemNs.rounded()))", "ns", "<= 2000"),
    ("engineStepAllocations", "\(step.allocationsPerItem)", "per step", "0"),
    ("eventNs", "\(Int(event.perItemNs.rounded()))", "ns", "<= 2000"),
    ("eventAllocations", "\(event.allocationsPerItem)", "per event", "0"),
    ("frameMapMs", formatted(map.median), "ms median", "<= 8"),
    ("frameCarouselMs", formatted(carousel.median), "ms median", "<= 8"),
    ("frameMenuMs", formatted(menu.median), "ms median", "<= 8"),
    ("frameWorstMs", formatted(max(map.worst, carousel.worst, menu.worst)), "ms", ""),
    ("frameZoomMs", formatted(zoom.median), "ms median", "<= 8"),
    ("frameSdlOnlyMs", formatted(zoom.sdlOnly), "ms median", ""),
    ("overheadRatio", formatted(zoom.median / max(zoom.sdlOnly, 1e-9)), "", "<= 1.10"),
    ("overdraw", formatted(zoom.overdraw), "", "<= 1.25"),
    ("tourWorstFramePixels", formatted(zoom.worstPixels), "screens", "<= 2.5"),
    ("tourFramePixelsMedian", formatted(zoom.medianPixels), "screens", ""),
    ("scaleRatio", formatted(large.median / max(small.median, 1e-9)), "", "<= 1.25"),
    ("peakTextureMiB", formatted(zoom.peakMiB), "MiB", "<= 128"),
    ("firstFrameMs", formatted(firstFrameMs), "ms", "< 300"),
    ("idleCpuPercent", formatted(quiet.cpuPercent), "%", "<= 0.1"),
    ("idleFramesRendered", "\(quiet.frames)", "frames", "0"),
    ("idleWakeupsPerSecond", formatted(quiet.wakeups), "per s", "<= 2"),
    ("framePan1xMs", formatted(pans[0]), "ms median", "<= 1.5"),
    ("framePanZoomedMs", formatted(panZoomed), "ms median", "<= 2.0"),
    ("framePinchMs", formatted(pinch), "ms median", "<= 8"),
    ("rotationRatio", formatted(pans[1] / pans[0]), "", "<= 1.15"),
    ("frameLabelsMs", formatted(labelled), "ms median", "<= \(formatted(pans[0] * 1.15)) (1.15 framePan1xMs)"),
    ("languageSwitchMs", formatted(switchMs), "ms median", "<= 50"),
    ("textTextureMiB", formatted(textMiB), "MiB", ""),
    ("frameListMs", formatted(flung.median), "ms median", "<= 2"),
    ("frameListWorstMs", formatted(flung.worst), "ms", "<= 16.7"),
    ("listRssRatio", formatted(listRss), "", "<= 1.2"),
    ("listOpenMs", formatted(listOpen), "ms median", "<= 100"),
    ("panPeakRssMiB", formatted(panRss.warm), "MiB", "<= 95"),
    ("panPeakRssFirstRunMiB", formatted(panRss.first), "MiB", ""),
    ("coldStartMs", formatted(cold), "ms median", "<= 150"),
    ("tourPeakRssMiB", formatted(realtime.peak), "MiB", "<= \(Int(budgetMiB) + 48)"),
    ("tourSettledRssMiB", formatted(realtime.settled), "MiB", "<= 96"),
    ("tourWorstFrameMs", formatted(realtime.worstFrame), "ms", "<= 16.7"),
    ("tourLateFrames", "\(Int(realtime.late))", "frames", ""),
    ("tourWorstFrameOneRunMs", formatted(realtime.worstOneRun), "ms", ""),
    ("tourLateFramesOneRun", "\(Int(realtime.lateOneRun))", "frames", ""),
    ("copyFrameMs", formatted(copies.median), "ms median", ""),
    ("copyFrameWorstMs", formatted(copies.worst), "ms", ""),
    ("copyRatio", formatted(pans[0] / max(copies.median, 1e-9)), "", "<= 1.5 (framePan1xMs over copyFrameMs)"),
    (
        "copyChoice", "\"\(rowCopies.choice)\"", "",
        "the faster of the two below, as the kiosk measured in the zoom-1 pan's first frames"
    ),
    ("copyMemcpyMs", formatted(rowCopies.milliseconds["memcpy"] ?? 0), "ms per screen, fastest of 6", ""),
    ("copyStreamedMs", formatted(rowCopies.milliseconds["streamed"] ?? 0), "ms per screen, fastest of 6", ""),
    ("reloadWorstFrameMs", formatted(reload.worstFrame), "ms", "<= 16.7"),
    ("reloadRssGrowth", formatted(reload.rssGrowth), "", "<= 1.10"),
    ("checkDemoMs", formatted(check), "ms median", "< 2000"),
    ("reportMs", formatted(report), "ms", "<= 10000 (a year of 200 visits a day)"),
    ("editReloadMs", formatted(edit), "ms median", "<= 500 (a save to its first frame, kiosk --edit)"),
    ("frameTransitionMs", formatted(transition.median), "ms median", "<= 8"),
    ("frameTransitionWorstMs", formatted(transition.worst), "ms", ""),
    ("frameAttractMs", formatted(attracting.median), "ms median", "<= 8"),
    ("frameAttractWorstMs", formatted(attracting.worst), "ms", "<= 16.7"),
    ("frameAttractWorstOneRunMs", formatted(attracting.worstOneRun), "ms", ""),
    ("frameColdWorstMs", formatted(coldFrame), "ms", "<= 16.7 (the first time, real clock)"),
    ("closedCpuPercent", formatted(closed.cpuPercent), "%", "<= 0.1"),
    ("closedFramesRendered", "\(closed.frames)", "frames", "0"),
    ("closedWakeupsPerSecond", formatted(closed.wakeups), "per s", "<= 2"),
    ("settleToSharpMs", formatted(sharp), "ms", "<= 500"),
    ("metricsWriteMs", formatted(metricsWrite), "ms median", ""),
    ("screenPictureMs", formatted(picture), "ms median", ""),
    ("metricsWorstFrameMs", formatted(metricsWorst), "ms", "<= 16.7"),
    ("keyToSpeechMs", formatted(speech.keyToSpeech), "ms median", "<= 150"),
    ("focusFrameMs", formatted(focus.focus), "ms median", ""),
    ("focusFrameRatio", formatted(focus.focus / max(focus.still, 1e-9)), "", "<= 1.10 (over the still frame)"),
    ("speechRssMiB", formatted(speech.rss), "MiB", "<= 16"),
    ("videoCpuRatio", film.map { formatted($0.cpuRatio) } ?? "null", "", "<= 1.0 (over ffplay, 60 s of 1080p30)"),
    ("videoLateFrames", film.map { "\($0.late)" } ?? "null", "frames", "0"),
    ("videoLoopGapRatio", film.map { formatted($0.loopGapRatio) } ?? "null", "", "<= 1.0"),
    ("touchToPresentP50Ms", formatted(latency.p50), "ms", "median of the real recordings' p50"),
    (
        "touchToPresentP95Ms", formatted(latency.p95), "ms",
        "<= 16.7 (the worst recording's p95, \(latency.recordings) recordings)"
    ),
    ("videoRssMiB", film.map { formatted($0.rssMiB) } ?? "null", "MiB", "<= 64 (over the poster)"),
]
if json {
    print("{" + rows.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}")
} else {
    func cell(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(1, width - s.count)) }
    print(cell("measure", 24) + cell("value", 12) + cell("unit", 12) + "target")
    for r in rows { print(cell(r.key, 24) + cell(r.value, 12) + cell(r.unit, 12) + r.target) }
    print("(\(step.count) engine steps; \(event.count) input events of drags and pinches;")
    print(" 400 frames of each demo scene at 1920x1080 on SDL's software renderer while a finger swipes;")
    print(" the deep-zoom tour: every level in and out with pans, after a warming pass; idle: 5 s with no input;")
    print(" reload: flings on the map while SIGHUP loads the 16384² demo and four 4000-px pages, then 20 reloads)")
}
