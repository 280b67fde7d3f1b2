import Kiosk

/// One option of the command line, said once: its flags, what its value is called, its lines in `--help`, how
/// it sets `Options`, and an example of it (with what it goes with) that its test parses.
struct OptionSpec: Sendable {
    let flags: [String]
    /// The value's name in `--help` (`PATH`, `WxH`); nil: a switch.
    let value: String?
    let help: [String]
    /// Said under the option before it (`--stats`'s `--state`, `--since`, `--json`).
    var under = false
    let example: [String]
    /// Sets the option from the arguments (`cursor` holds its value, if it takes one).
    let apply: @Sendable (inout Options, inout ArgumentCursor, _ flag: String) throws(KioskError) -> Void

    /// Its lines in `--help`: the flag and its value, the help beside them from column 25.
    var usageLines: [String] {
        // `-h` is `--help`'s short form, not said.
        let label =
            String(repeating: " ", count: under ? 4 : 2) + flags.filter { $0 != "-h" }.joined(separator: ", ")
            + (value.map { " " + $0 } ?? "")
        guard let first = help.first else { return [label] }
        let column = 25
        let pad = String(repeating: " ", count: max(1, column - label.count))
        return [label + pad + first] + help.dropFirst().map { String(repeating: " ", count: column) + $0 }
    }
}

/// The arguments, read one at a time.
struct ArgumentCursor {
    private let args: [String]
    private var i = 0
    init(_ args: [String]) { self.args = args }

    /// The next argument (a flag), if any.
    mutating func next() -> String? {
        guard i < args.count else { return nil }
        defer { i += 1 }
        return args[i]
    }

    /// The value of `flag`: the next argument, which it must have.
    mutating func value(_ flag: String) throws(KioskError) -> String {
        guard let v = next() else { throw .commandLine("\(flag) needs a value (see --help)") }
        return v
    }

    /// The next argument when it is a number (an optional value, as `--plan`'s), taken.
    mutating func optionalInt() -> Int? {
        guard i < args.count, let n = Int(args[i]) else { return nil }
        i += 1
        return n
    }
}

extension Options {
    /// `--help`.
    public static var usage: String {
        ([
            "usage: kiosk [options]",
            "       kiosk new DIR [--from FOLDER]   a content folder from pictures, films and a CSV",
        ]
            + table.flatMap(\.usageLines)).joined(separator: "\n")
    }

    /// Every option, in the order `--help` says them.
    static let table: [OptionSpec] = [
        OptionSpec(
            flags: ["--config"], value: "PATH",
            help: [
                "the manifest (default: $KIOSK_CONFIG, else Assets/kiosk.json of the source",
                "tree, else <prefix>/share/kiosk/kiosk.json when installed)",
            ], example: ["--config", "m.json"]
        ) { o, c, f throws(KioskError) in o.config = try c.value(f) },
        OptionSpec(
            flags: ["--windowed"], value: "WxH", help: ["a desktop window instead of fullscreen"],
            example: ["--windowed", "1280x800"]
        ) { o, c, f throws(KioskError) in
            let (w, h) = try size(f, c.value(f))
            o.mode = .windowed(width: w, height: h)
        },
        OptionSpec(
            flags: ["--headless"], value: "WxH",
            help: ["no display: SDL's dummy driver, software renderer, virtual clock"],
            example: ["--headless", "800x480"]
        ) { o, c, f throws(KioskError) in
            let (w, h) = try size(f, c.value(f))
            o.mode = .headless(width: w, height: h)
        },
        OptionSpec(
            flags: ["--realtime"], value: nil, help: ["with --headless: the real frame loop on the real clock"],
            example: ["--headless", "1x1", "--realtime"]
        ) { o, _, _ in o.realtime = true },
        OptionSpec(
            flags: ["--replay"], value: "LOG", help: ["feed the events of LOG at their timestamps"],
            example: ["--replay", "in.jsonl"]
        ) { o, c, f throws(KioskError) in o.replay = try c.value(f) },
        OptionSpec(
            flags: ["--record"], value: "LOG", help: ["write every input event to LOG"],
            example: ["--record", "out.jsonl"]
        ) { o, c, f throws(KioskError) in o.record = try c.value(f) },
        OptionSpec(
            flags: ["--trace"], value: "PATH", help: ["write one JSON line per frame"], example: ["--trace", "t.jsonl"]
        ) { o, c, f throws(KioskError) in o.trace = try c.value(f) },
        OptionSpec(
            flags: ["--metrics"], value: "PATH",
            help: ["the health for node_exporter's textfile collector (default:", "$STATE_DIRECTORY/kiosk.prom)"],
            example: ["--metrics", "k.prom"]
        ) { o, c, f throws(KioskError) in o.metrics = try c.value(f) },
        OptionSpec(
            flags: ["--screenshot"], value: "MS:PATH", help: ["save the frame shown at time MS as PNG (repeatable)"],
            example: ["--screenshot", "1500:a.png"]
        ) { o, c, f throws(KioskError) in
            let v = try c.value(f)
            guard let colon = v.firstIndex(of: ":"), let ms = Double(v[..<colon]), ms >= 0, ms.isFinite,
                !v[v.index(after: colon)...].isEmpty
            else { throw .commandLine("--screenshot \(v): expected MS:PATH, e.g. 1500:shot.png") }
            o.screenshots.append(Screenshot(ms: ms, path: String(v[v.index(after: colon)...])))
        },
        OptionSpec(
            flags: ["--scene"], value: "ID", help: ["start in scene ID instead of the manifest's home"],
            example: ["--scene", "map"]
        ) { o, c, f throws(KioskError) in o.scene = try c.value(f) },
        OptionSpec(
            flags: ["--rotate"], value: "0|90|180|270", help: ["rotate the picture and the touches"],
            example: ["--rotate", "270"]
        ) { o, c, f throws(KioskError) in
            let v = try c.value(f)
            guard let n = Int(v), let r = Rotation(rawValue: n) else {
                throw .commandLine("--rotate \(v): expected 0, 90, 180 or 270")
            }
            o.rotation = r
        },
        OptionSpec(
            flags: ["--max-texture"], value: "N",
            help: [
                "textures of at most N pixels a side, a GPU's limit (Raspberry Pi 5: 4096);",
                "also KIOSK_MAX_TEXTURE",
            ],
            example: ["--max-texture", "2048"]
        ) { o, c, f throws(KioskError) in
            let v = try c.value(f)
            o.maxTexture = try Options.maxTexture(v, said: "--max-texture \(v)")
        },
        OptionSpec(
            flags: ["--calibration"], value: "PATH",
            help: ["the touch calibration file (default: $STATE_DIRECTORY/calibration.json)"],
            example: ["--calibration", "c.json"]
        ) { o, c, f throws(KioskError) in o.calibration = try c.value(f) },
        OptionSpec(
            flags: ["--calibrate"], value: nil,
            help: ["the five-target calibration wizard: writes that file, exits 0 (1: not done)"],
            example: ["--calibrate"]
        ) { o, _, _ in o.calibrate = true },
        OptionSpec(
            flags: ["--touch-test"], value: nil,
            help: ["every finger shown where the kiosk maps it; ends after 30 s without a touch"],
            example: ["--touch-test"]
        ) { o, _, _ in o.touchTest = true },
        OptionSpec(
            flags: ["--edit"], value: nil,
            help: [
                "a window for editing the content: a saved file is shown at once, problems",
                "as a banner, right-drag prints a hotspot, G a grid (no statistics kept)",
            ], example: ["--edit"]
        ) { o, _, _ in o.edit = true },
        OptionSpec(
            flags: ["--check"], value: nil,
            help: [
                "check the manifest and every image it names; a summary and exit 0, or",
                "every problem and exit 3 (WxH of --headless/--windowed: the screen)",
            ], example: ["--check"]
        ) { o, _, _ in o.check = true },
        OptionSpec(
            flags: ["--stats"], value: nil,
            help: [
                "visitor statistics: visits per day, median and 90th-percentile duration,",
                "scenes by time spent, hotspots by taps",
            ], example: ["--stats"]
        ) { o, _, _ in o.stats = true },
        OptionSpec(
            flags: ["--state"], value: "DIR", help: ["the state folder to read (default: $STATE_DIRECTORY)"],
            under: true,
            example: ["--stats", "--state", "s"]
        ) { o, c, f throws(KioskError) in o.state = try c.value(f) },
        OptionSpec(
            flags: ["--since"], value: "YYYY-MM-DD", help: ["only visits from that day on"], under: true,
            example: ["--stats", "--since", "2026-01-05"]
        ) { o, c, f throws(KioskError) in
            let v = try c.value(f)
            guard v.count == 10, LocalTime.parse(v) != nil else {
                throw .commandLine("--since \(v): expected a day, YYYY-MM-DD")
            }
            o.since = v
        },
        OptionSpec(
            flags: ["--json"], value: nil, help: ["one JSON object instead of a table"], under: true,
            example: ["--stats", "--json"]
        ) { o, _, _ in o.json = true },
        OptionSpec(
            flags: ["--report"], value: "DIR",
            help: [
                "index.html, its charts and report.json in DIR: visits by day and hour,",
                "their length, languages, scenes, taps, touches on each picture",
            ],
            under: true, example: ["--stats", "--report", "r"]
        ) { o, c, f throws(KioskError) in o.report = try c.value(f) },
        OptionSpec(
            flags: ["--clock"], value: "ISO",
            help: [
                "the wall clock at time zero, local time (2026-01-05T09:00:00); headless",
                "runs add the virtual time (without it they start at that Monday 09:00,",
                "or when the opening hours next open if they are closed then)",
            ], example: ["--clock", "2026-01-05T09:00:00"]
        ) { o, c, f throws(KioskError) in
            let v = try c.value(f)
            guard let t = LocalTime.parse(v) else {
                throw .commandLine("--clock \(v): expected local time, e.g. 2026-01-05T09:00:00")
            }
            o.clock = t
        },
        OptionSpec(
            flags: ["--clock-unsynchronized"], value: nil,
            help: ["the wall clock starts unsynchronised (hours and schedules wait for it)"],
            example: ["--clock-unsynchronized"]
        ) { o, _, _ in o.clockUnsynchronized = true },
        OptionSpec(
            flags: ["--clock-jump"], value: "MS:ISO",
            help: ["at MS ms the wall clock is set to ISO, synchronised (repeatable)"],
            example: ["--clock-jump", "5000:2026-01-05T09:00:00"]
        ) { o, c, f throws(KioskError) in
            let v = try c.value(f)
            let parts = v.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let ms = Double(parts[0]), ms.isFinite, ms >= 0,
                let t = LocalTime.parse(parts[1])
            else {
                throw .commandLine("--clock-jump \(v): expected MS:ISO, e.g. 5000:2026-01-05T09:00:00")
            }
            o.clockJumps.append(ClockJump(ms: ms, unix: t))
        },
        OptionSpec(
            flags: ["--plan"], value: "[DAYS]",
            help: ["with --check: what the kiosk shows for the next DAYS days (default 7)"],
            example: ["--check", "--plan", "30"]
        ) { o, c, _ throws(KioskError) in
            o.planDays = 7
            if let days = c.optionalInt() {
                guard (1...366).contains(days) else {
                    throw .commandLine("--plan \(days): expected a number of days from 1 to 366")
                }
                o.planDays = days
            }
        },
        OptionSpec(
            flags: ["--frame-ms"], value: "MS",
            help: ["with --headless: the virtual clock's frame interval (default 16.667)"],
            example: ["--headless", "1x1", "--frame-ms", "100"]
        ) { o, c, f throws(KioskError) in
            let v = try c.value(f)
            guard let ms = Double(v), ms >= 1, ms <= 1000 else {
                throw .commandLine("--frame-ms \(v): expected milliseconds from 1 to 1000")
            }
            o.frameMs = ms
        },
        OptionSpec(flags: ["--version", "--help", "-h"], value: nil, help: [], example: ["-h"]) { o, _, f in
            if f == "--version" { o.showVersion = true } else { o.showHelp = true }
        },
    ]

    /// A `WxH` value of `flag`.
    static func size(_ flag: String, _ s: String) throws(KioskError) -> (Int, Int) {
        let parts = s.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 16384, h <= 16384
        else { throw .commandLine("\(flag) \(s): expected WIDTHxHEIGHT, e.g. 1920x1080") }
        return (w, h)
    }
}
