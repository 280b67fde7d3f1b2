import Kiosk
import Testing

@testable import KioskSDL

@Suite struct OptionsTests {
    @Test func everyFlag() throws {
        let o = try Options.parse([
            "--config", "m.json", "--headless", "800x480", "--realtime", "--replay", "in.jsonl", "--record",
            "out.jsonl",
            "--trace", "t.jsonl", "--screenshot", "1500:a.png", "--screenshot", "0:b:c.png", "--scene", "map",
            "--rotate", "270",
        ])
        #expect(o.config == "m.json")
        #expect(o.mode == .headless(width: 800, height: 480))
        #expect(o.realtime && o.replay == "in.jsonl" && o.record == "out.jsonl" && o.trace == "t.jsonl")
        #expect(o.screenshots.map(\.ms) == [1500, 0])
        #expect(o.screenshots.map(\.path) == ["a.png", "b:c.png"])
        #expect(o.scene == "map" && o.rotation == .threeQuarters)
        #expect(try Options.parse([]).mode == .fullscreen)
        #expect(try Options.parse(["--windowed", "1280x800"]).mode == .windowed(width: 1280, height: 800))
    }

    /// The fleet's test options: the clock's, the plan's and the virtual clock's step.
    @Test func theFleetsOptions() throws {
        let o = try Options.parse([
            "--headless", "320x240", "--clock", "1970-01-01T00:00:00", "--clock-unsynchronized", "--clock-jump",
            "3000:2026-01-06T10:00:00", "--clock-jump", "500:2026-01-05T10:00:00", "--frame-ms", "1000",
        ])
        #expect(o.clockUnsynchronized && o.clockJumps.map(\.ms) == [3000, 500] && o.frameMs == 1000)
        #expect(try Options.parse(["--check", "--plan"]).planDays == 7)
        #expect(try Options.parse(["--check", "--plan", "30"]).planDays == 30)
    }

    @Test(arguments: [
        ["--headless"], ["--headless", "0x5"], ["--windowed", "1x1", "--headless", "1x1"], ["--rotate", "91"],
        ["--screenshot", "-5:a.png"], ["--screenshot", "5:"], ["--realtime"], ["-x"], ["--plan"],
        ["--check", "--plan", "0"], ["--clock-jump", "5000"], ["--clock-jump", "x:2026-01-05T10:00:00"],
        ["--frame-ms", "10"], ["--headless", "1x1", "--realtime", "--frame-ms", "10"],
        ["--headless", "1x1", "--frame-ms", "0"],
    ])
    func rejects(_ args: [String]) {
        #expect(throws: KioskError.self) { try Options.parse(args) }
    }
}

/// The table of options tests itself: each option's example parses and sets something, and `--help` says each.
@Suite struct OptionsTableTests {
    @Test(arguments: Options.table.map(\.example))
    func eachExampleParsesAndSetsSomething(_ example: [String]) throws {
        let o = try Options.parse(example)
        #expect(o != Options(), "\(example) changes nothing")
    }

    @Test func helpSaysEveryOptionOnceInTheTablesOrder() {
        let usage = Options.usage
        var from = usage.startIndex
        for option in Options.table {
            let flag = option.flags[0]
            guard let r = usage.range(of: "  " + flag, range: from..<usage.endIndex) else {
                Issue.record("--help does not say \(flag) (or not in the table's order)")
                continue
            }
            from = r.upperBound
        }
        #expect(usage.split(separator: "\n").allSatisfy { $0.count <= 100 })
    }

    @Test func eachFlagIsOneOptions() {
        let flags = Options.table.flatMap(\.flags)
        #expect(Set(flags).count == flags.count)
    }
}
