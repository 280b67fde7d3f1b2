import CSDL2
import Foundation
import Kiosk
import ScrollEngine

#if canImport(Glibc)
    import Glibc
#endif

/// `systemctl reload kiosk` (docs/operations.md): SIGHUP loads and checks the manifest and everything it names on a
/// thread of its own while the frame loop runs on; the frame loop then swaps the new content in at a frame
/// boundary, or keeps the old and says why. One load at a time: signals that arrive during a load ask for one
/// more load after it (the files may have changed again), however many there were.
final class ContentReload: @unchecked Sendable {
    /// The manifest to read again.
    let path: String
    /// The screen (physical pixels) whose first level of each Deep Zoom image is checked.
    let screen: Size
    /// How the new content's pictures are described for its catalog (the image store's rules).
    let facts: ImageFacts
    /// The SDL event a finished load pushes.
    let doneEvent: UInt32
    let lock = NSLock()
    /// `kiosk --edit`: what each check found of a file is kept while the file stays the same.
    private var memo: InspectionMemo?
    /// The touchscreen's calibration file, read again by each load (nil: none).
    let calibrationFile: String?
    /// What the last load found (set on the loading thread, taken on the frame loop's).
    private var finished: LoadedContent?
    /// Main thread only.
    private(set) var isLoading = false
    private var again = false
    /// When the running load began (SDL's ticks), and whether its slowness was said.
    private var loadStartTicks: UInt64 = 0
    private var warnedSlow = false
    /// A load this long is not normal: a thousand images check in a few seconds.
    static let slowLoadSeconds = 30.0

    init(path: String, screen: Size, facts: ImageFacts, calibrationFile: String?) {
        self.path = path
        self.calibrationFile = calibrationFile
        self.screen = screen
        self.facts = facts
        doneEvent = SDL_RegisterEvents(1)
    }

    /// A SIGHUP arrived: a load starts now, or after the one running. True when one started.
    @discardableResult
    func request() -> Bool {
        if isLoading {
            again = true
            // A load that does not end (a file on a share that stopped answering) is said, once, not waited on
            // in silence.
            let seconds = Double(SDL_GetTicks64() - loadStartTicks) / 1000
            if seconds >= Self.slowLoadSeconds && !warnedSlow {
                warnedSlow = true
                log(
                    .warning,
                    "reload: the load that began \(Int(seconds)) s ago has not finished (a file that does not answer?); "
                        + "this reload starts after it")
            }
            return false
        }
        isLoading = true
        loadStartTicks = SDL_GetTicks64()
        warnedSlow = false
        log(.info, "reload: checking \(path)")
        let (path, screen, facts, done, memo) = (self.path, self.screen, self.facts, doneEvent, self.memo)
        let calibrationFile = self.calibrationFile
        let t = Thread { [self] in
            SignalListener.leaveSignalsToTheMainThread()
            // The load yields to the frame loop, as the tile decoders do.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, TileWorkers.niceness)
            let seen = FilesSeen()
            let began = Date().timeIntervalSince1970
            let report = Runner.checkContent(path, screen: screen, seen: seen, memo: memo)
            let images = report.manifest.map(facts.catalog) ?? ImageCatalog()
            // What the swap needs of the disk is read here too: the frame that swaps reads no file.
            let loaded = LoadedContent(
                report: report, images: images, files: seen.files, began: began,
                calibration: report.manifest.map {
                    CalibrationFile.effective(file: calibrationFile, manifest: $0.calibration)
                } ?? Calibration(),
                fonts: FontFingerprint(report.manifest?.fonts ?? [:]))
            lock.lock()
            finished = loaded
            lock.unlock()
            IdleWait.post(done)
        }
        t.name = "kiosk-reload"
        t.start()
        return true
    }

    /// The finished load, once (nil while loading or when none ran). A load asked for meanwhile starts when the
    /// caller has dealt with this one (`next`).
    func take() -> LoadedContent? {
        lock.lock()
        defer { lock.unlock() }
        guard let report = finished else { return nil }
        finished = nil
        isLoading = false
        return report
    }

    /// `kiosk --edit` keeps what each check found of a file (`memo`), filled from the start on a thread of its
    /// own: the first save checks only what changed.
    func keepInspections() {
        let memo = InspectionMemo()
        self.memo = memo
        let (path, screen) = (self.path, self.screen)
        let t = Thread {
            SignalListener.leaveSignalsToTheMainThread()
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, TileWorkers.niceness)
            _ = Runner.checkContent(path, screen: screen, memo: memo)
        }
        t.name = "kiosk-edit-check"
        t.start()
    }

    /// Starts the load that signals asked for during the last one, if any; true when one started.
    func next() -> Bool {
        guard again else { return false }
        again = false
        return request()
    }
}

/// What a reload's load found: the check's report, its pictures' catalog (not numbered yet), the files the check
/// read or looked for and when it began, the calibration in effect, and its fonts on the disk.
struct LoadedContent: @unchecked Sendable {
    let report: ContentReport
    let images: ImageCatalog
    let files: [String]
    /// When the check began (Unix seconds): a file changed after it may have been read half written.
    let began: Double
    let calibration: Calibration
    let fonts: FontFingerprint
}
