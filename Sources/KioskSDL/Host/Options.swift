import Foundation
import Kiosk

/// The command line of docs/event-log-and-trace.md: a data record, one stored property per option (`--config`,
/// `--headless`/`--windowed`, `--realtime`, `--replay`, … `--help`), so more than 15 of them. `Options.table`
/// parses each, says it in `--help` and gives an example its test parses.
public struct Options: Equatable, Sendable {
    /// `--screenshot MS:PATH`.
    public struct Screenshot: Equatable, Sendable {
        public var ms: Double
        public var path: String
    }
    /// `--clock-jump MS:ISO`.
    public struct ClockJump: Equatable, Sendable {
        public var ms: Double
        public var unix: Double
    }

    public var config: String?
    public var mode: Display.Mode = .fullscreen
    public var realtime = false
    public var replay: String?
    public var record: String?
    /// `--metrics PATH`: the metrics file for node_exporter (default `$STATE_DIRECTORY/kiosk.prom`, docs/operations.md).
    public var metrics: String?
    public var trace: String?
    public var screenshots: [Screenshot] = []
    public var scene: String?
    public var rotation: Rotation = .none
    /// `--max-texture N` (or `KIOSK_MAX_TEXTURE`): the longest texture side, below the renderer's own.
    public var maxTexture: Int?
    /// `--calibration PATH`: the calibration file (default `$STATE_DIRECTORY/calibration.json`).
    public var calibration: String?
    /// `--calibrate`: the five-target calibration wizard instead of the kiosk.
    public var calibrate = false
    /// `--touch-test`: every finger shown where the kiosk maps it, instead of the kiosk.
    public var touchTest = false
    /// `--edit`: the kiosk in a window for the person editing its content (docs/authoring.md).
    public var edit = false
    /// `--check`: check the manifest and everything it names, print a summary or every problem, exit 0 or 3.
    public var check = false
    /// `--stats`: print the visitor statistics of `--state` (else `$STATE_DIRECTORY`) from `--since`, `--json`.
    public var stats = false
    public var state: String?
    public var since: String?
    public var json = false
    /// `--stats --report DIR`: the report's folder.
    public var report: String?
    /// `--clock ISO`: the wall clock at time zero (Unix seconds; read as local time).
    public var clock: Double?
    /// `--clock-unsynchronized`: the wall clock starts as a board without a battery's does, not synchronised
    /// (docs/operations.md); the first `--clock-jump` is the network's time arriving.
    public var clockUnsynchronized = false
    /// `--clock-jump MS:ISO`: at `ms` of the kiosk's clock the wall clock is set to `unix` (synchronised).
    public var clockJumps: [ClockJump] = []
    /// `--frame-ms MS`: the virtual clock's frame interval (headless, not real time): a soak of days in
    /// virtual time takes longer steps than 60 Hz.
    public var frameMs: Double?
    /// `--check --plan [DAYS]`: after the checks, what the kiosk will show for the next days (default 7).
    public var planDays: Int?
    public var showVersion = false
    public var showHelp = false

    public init() {}

    /// `--edit`'s window when `--windowed` does not say (it fits a laptop's screen).
    static let editWindow = (width: 1280, height: 800)

    /// The least `--max-texture` takes: two of the tile files' 512-pixel tiles with their overlap (no GPU made in
    /// the last fifteen years takes less).
    static let smallestMaxTexture = 1024

    /// A texture cap given as `v` (`said` names where, for the error): a number of pixels, at least the least.
    static func maxTexture(_ v: String, said: String) throws(KioskError) -> Int {
        guard let n = Int(v), n >= smallestMaxTexture else {
            throw .commandLine("\(said): expected a number of pixels of at least \(smallestMaxTexture)")
        }
        return n
    }

    /// `--headless` without `--realtime`: the virtual clock.
    public var isVirtual: Bool {
        if case .headless = mode { return !realtime }
        return false
    }

    /// Parses the arguments (without the program name). Errors are one line, for exit status 2.
    public static func parse(_ args: [String]) throws(KioskError) -> Options {
        var o = Options()
        var cursor = ArgumentCursor(args)
        var sawWindowed = false
        var sawHeadless = false
        while let a = cursor.next() {
            guard let option = table.first(where: { $0.flags.contains(a) }) else {
                throw .commandLine("unknown option \(a) (see --help)")
            }
            try option.apply(&o, &cursor, a)
            if a == "--windowed" { sawWindowed = true }
            if a == "--headless" { sawHeadless = true }
        }
        if sawWindowed && sawHeadless { throw .commandLine("--windowed and --headless exclude each other") }
        if o.frameMs != nil && (!sawHeadless || o.realtime) {
            throw .commandLine("--frame-ms goes with --headless (the virtual clock)")
        }
        if o.edit {
            if let other = o.check
                ? "--check" : o.stats ? "--stats" : o.calibrate ? "--calibrate" : o.touchTest ? "--touch-test" : nil
            {
                throw .commandLine("--edit and \(other) exclude each other")
            }
            // A window on the desktop unless told otherwise.
            if !sawWindowed && !sawHeadless { o.mode = .windowed(width: editWindow.width, height: editWindow.height) }
        }
        if o.maxTexture == nil, let v = ProcessInfo.processInfo.environment["KIOSK_MAX_TEXTURE"], !v.isEmpty {
            o.maxTexture = try maxTexture(v, said: "KIOSK_MAX_TEXTURE=\(v)")
        }
        if o.planDays != nil && !o.check { throw .commandLine("--plan goes with --check") }
        if o.realtime && !sawHeadless { throw .commandLine("--realtime goes with --headless") }
        if !o.stats, let flag = o.state != nil ? "--state" : o.since != nil ? "--since" : o.json ? "--json" : nil {
            throw .commandLine("\(flag) goes with --stats")
        }
        return o
    }
}
