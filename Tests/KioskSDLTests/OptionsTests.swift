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

    @Test(arguments: [
        ["--headless"], ["--headless", "0x5"], ["--windowed", "1x1", "--headless", "1x1"], ["--rotate", "91"],
        ["--screenshot", "-5:a.png"], ["--screenshot", "5:"], ["--realtime"], ["-x"],
    ])
    func rejects(_ args: [String]) {
        #expect(throws: KioskError.self) { try Options.parse(args) }
    }
}
