import Kiosk

/// The command line of docs/event-log-and-trace.md.
///
/// One stored property per option (`--config`, `--headless`/`--window`, `--realtime`, `--replay`, … `--help`),
/// so more than 15 of them.
public struct Options: Equatable, Sendable {
    public var config: String?
    public var mode: Display.Mode = .fullscreen
    public var realtime = false
    public var replay: String?
    public var record: String?
    /// `--metrics PATH`: the metrics file for node_exporter (default `$STATE_DIRECTORY/kiosk.prom`, docs/operations.md).
    public var metrics: String?
    public var trace: String?
    public var screenshots: [(ms: Double, path: String)] = []
    public var scene: String?
    public var rotation: Rotation = .none
    /// `--calibration PATH`: the calibration file (default `$STATE_DIRECTORY/calibration.json`).
    public var calibration: String?
    /// `--calibrate`: the five-target calibration wizard instead of the kiosk.
    public var calibrate = false
    /// `--touch-test`: every finger shown where the kiosk maps it, instead of the kiosk.
    public var touchTest = false
    /// `--check`: check the manifest and everything it names, print a summary or every problem, exit 0 or 3.
    public var check = false
    /// `--stats`: print the visitor statistics of `--state` (else `$STATE_DIRECTORY`) from `--since`, `--json`.
    public var stats = false
    public var state: String?
    public var since: String?
    public var json = false
    /// `--clock ISO`: the wall clock at time zero (Unix seconds; read as local time).
    public var clock: Double?
    /// `--clock-unsynchronized`: the wall clock starts as a board without a battery's does, not synchronised
    /// (docs/operations.md); the first `--clock-jump` is the network's time arriving.
    public var clockUnsynchronized = false
    /// `--clock-jump MS:ISO`: at `ms` of the kiosk's clock the wall clock is set to `unix` (synchronised).
    public var clockJumps: [(ms: Double, unix: Double)] = []
    /// `--frame-ms MS`: the virtual clock's frame interval (headless, not real time): a soak of days in
    /// virtual time takes longer steps than 60 Hz.
    public var frameMs: Double?
    /// `--check --plan [DAYS]`: after the checks, what the kiosk will show for the next days (default 7).
    public var planDays: Int?
    public var showVersion = false
    public var showHelp = false

    public init() {}

    /// `--headless` without `--realtime`: the virtual clock.
    public var isVirtual: Bool {
        if case .headless = mode { return !realtime }
        return false
    }

    public static func == (a: Options, b: Options) -> Bool {
        a.config == b.config && a.mode == b.mode && a.realtime == b.realtime && a.replay == b.replay
            && a.record == b.record && a.trace == b.trace && a.scene == b.scene && a.rotation == b.rotation
            && a.screenshots.map(\.ms) == b.screenshots.map(\.ms)
            && a.screenshots.map(\.path) == b.screenshots.map(\.path) && a.calibration == b.calibration
            && a.calibrate == b.calibrate && a.touchTest == b.touchTest && a.check == b.check
            && a.stats == b.stats && a.state == b.state && a.since == b.since && a.json == b.json && a.clock == b.clock
            && a.clockUnsynchronized == b.clockUnsynchronized && a.clockJumps.map(\.ms) == b.clockJumps.map(\.ms)
            && a.clockJumps.map(\.unix) == b.clockJumps.map(\.unix) && a.planDays == b.planDays
            && a.frameMs == b.frameMs
    }

    public static let usage = """
        usage: kiosk [options]
          --config PATH          the manifest (default: $KIOSK_CONFIG, else Assets/kiosk.json of the source
                                 tree, else <prefix>/share/kiosk/kiosk.json when installed)
          --windowed WxH         a desktop window instead of fullscreen
          --headless WxH         no display: SDL's dummy driver, software renderer, virtual clock
          --realtime             with --headless: the real frame loop on the real clock
          --replay LOG           feed the events of LOG at their timestamps
          --record LOG           write every input event to LOG
          --trace PATH           write one JSON line per frame
          --metrics PATH         the health for node_exporter's textfile collector (default:
                                 $STATE_DIRECTORY/kiosk.prom)
          --screenshot MS:PATH   save the frame shown at time MS as PNG (repeatable)
          --scene ID             start in scene ID instead of the manifest's home
          --rotate 0|90|180|270  rotate the picture and the touches
          --calibration PATH     the touch calibration file (default: $STATE_DIRECTORY/calibration.json)
          --calibrate            the five-target calibration wizard: writes that file, exits 0 (1: not done)
          --touch-test           every finger shown where the kiosk maps it; ends after 30 s without a touch
          --check                check the manifest and every image it names; a summary and exit 0, or
                                 every problem and exit 3 (WxH of --headless/--windowed: the screen)
          --stats                visitor statistics: visits per day, median and 90th-percentile duration,
                                 scenes by time spent, hotspots by taps
            --state DIR          the state folder to read (default: $STATE_DIRECTORY)
            --since YYYY-MM-DD   only visits from that day on
            --json               one JSON object instead of a table
          --clock ISO            the wall clock at time zero, local time (2026-01-05T09:00:00); headless
                                 runs add the virtual time (without it they start at that Monday 09:00)
          --clock-unsynchronized the wall clock starts unsynchronised (hours and schedules wait for it)
          --clock-jump MS:ISO    at MS ms the wall clock is set to ISO, synchronised (repeatable)
          --plan [DAYS]          with --check: what the kiosk shows for the next DAYS days (default 7)
          --frame-ms MS          with --headless: the virtual clock's frame interval (default 16.667)
          --version, --help
        """

    /// Parses the arguments (without the program name). Errors are one line, for exit status 2.
    public static func parse(_ args: [String]) throws(KioskError) -> Options {
        var o = Options()
        var i = 0
        func value(_ flag: String) throws(KioskError) -> String {
            i += 1
            guard i < args.count else { throw .commandLine("\(flag) needs a value (see --help)") }
            return args[i]
        }
        func size(_ flag: String, _ s: String) throws(KioskError) -> (Int, Int) {
            let parts = s.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 16384, h <= 16384
            else { throw .commandLine("\(flag) \(s): expected WIDTHxHEIGHT, e.g. 1920x1080") }
            return (w, h)
        }
        var sawWindowed = false
        var sawHeadless = false
        while i < args.count {
            let a = args[i]
            switch a {
            case "--config": o.config = try value(a)
            case "--windowed":
                let (w, h) = try size(a, try value(a))
                o.mode = .windowed(width: w, height: h)
                sawWindowed = true
            case "--headless":
                let (w, h) = try size(a, try value(a))
                o.mode = .headless(width: w, height: h)
                sawHeadless = true
            case "--realtime": o.realtime = true
            case "--replay": o.replay = try value(a)
            case "--record": o.record = try value(a)
            case "--trace": o.trace = try value(a)
            case "--metrics": o.metrics = try value(a)
            case "--screenshot":
                let v = try value(a)
                guard let colon = v.firstIndex(of: ":"), let ms = Double(v[..<colon]), ms >= 0, ms.isFinite,
                    !v[v.index(after: colon)...].isEmpty
                else { throw .commandLine("--screenshot \(v): expected MS:PATH, e.g. 1500:shot.png") }
                o.screenshots.append((ms, String(v[v.index(after: colon)...])))
            case "--scene": o.scene = try value(a)
            case "--rotate":
                let v = try value(a)
                guard let n = Int(v), let r = Rotation(rawValue: n) else {
                    throw .commandLine("--rotate \(v): expected 0, 90, 180 or 270")
                }
                o.rotation = r
            case "--calibration": o.calibration = try value(a)
            case "--calibrate": o.calibrate = true
            case "--touch-test": o.touchTest = true
            case "--check": o.check = true
            case "--stats": o.stats = true
            case "--state": o.state = try value(a)
            case "--since":
                let v = try value(a)
                guard v.count == 10, LocalTime.parse(v) != nil else {
                    throw .commandLine("--since \(v): expected a day, YYYY-MM-DD")
                }
                o.since = v
            case "--json": o.json = true
            case "--clock":
                let v = try value(a)
                guard let t = LocalTime.parse(v) else {
                    throw .commandLine("--clock \(v): expected local time, e.g. 2026-01-05T09:00:00")
                }
                o.clock = t
            case "--clock-unsynchronized": o.clockUnsynchronized = true
            case "--clock-jump":
                let v = try value(a)
                let parts = v.split(separator: ":", maxSplits: 1).map(String.init)
                guard parts.count == 2, let ms = Double(parts[0]), ms.isFinite, ms >= 0,
                    let t = LocalTime.parse(parts[1])
                else {
                    throw .commandLine("--clock-jump \(v): expected MS:ISO, e.g. 5000:2026-01-05T09:00:00")
                }
                o.clockJumps.append((ms, t))
            case "--frame-ms":
                let v = try value(a)
                guard let ms = Double(v), ms >= 1, ms <= 1000 else {
                    throw .commandLine("--frame-ms \(v): expected milliseconds from 1 to 1000")
                }
                o.frameMs = ms
            case "--plan":
                o.planDays = 7
                if i + 1 < args.count, let days = Int(args[i + 1]) {
                    guard (1...366).contains(days) else {
                        throw .commandLine("--plan \(days): expected a number of days from 1 to 366")
                    }
                    o.planDays = days
                    i += 1
                }
            case "--version": o.showVersion = true
            case "--help", "-h": o.showHelp = true
            default: throw .commandLine("unknown option \(a) (see --help)")
            }
            i += 1
        }
        if sawWindowed && sawHeadless { throw .commandLine("--windowed and --headless exclude each other") }
        if o.frameMs != nil && (!sawHeadless || o.realtime) {
            throw .commandLine("--frame-ms goes with --headless (the virtual clock)")
        }
        if o.planDays != nil && !o.check { throw .commandLine("--plan goes with --check") }
        if o.realtime && !sawHeadless { throw .commandLine("--realtime goes with --headless") }
        if !o.stats, let flag = o.state != nil ? "--state" : o.since != nil ? "--since" : o.json ? "--json" : nil {
            throw .commandLine("\(flag) goes with --stats")
        }
        return o
    }
}
