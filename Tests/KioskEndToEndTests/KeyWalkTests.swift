import Foundation
import Testing

/// Every scene of the demo walked by the keys alone, element by element and back, in English and in Arabic
/// (docs/accessibility.md): the focus and what is said, from the trace, compared with the transcripts in
/// `Fixtures/keys` (`KIOSK_WRITE_GOLDENS=1` writes them again, in the commit that changes them). Every hotspot
/// and row is reached, and Escape leads home.
@Suite struct KeyWalkTests {
    let dir = Kiosk.folder()
    static let folder = Kiosk.repository.appendingPathComponent("Tests/KioskEndToEndTests/Fixtures/keys")
    /// More presses than any demo scene has elements: each walk goes round once.
    static let presses = 20

    /// The key log: Arabic chosen with the keys where asked (Tab to the language button, past the home button
    /// where there is one and the title, Return, Down to العربية, Return), then `presses` Downs, as many Ups,
    /// and Escape; a key every 200 ms.
    static func keys(arabic: Bool, home: Bool) -> String {
        var names: [String] = []
        if arabic { names += Array(repeating: "Tab", count: home ? 2 : 3) + ["Return", "Down", "Return"] }
        names += Array(repeating: "Down", count: presses) + Array(repeating: "Up", count: presses) + ["Escape"]
        var lines = [#"{"kioskEventLog": 1, "display": {"w": 640, "h": 400}, "source": "key walk"}"#]
        for (i, name) in names.enumerated() {
            let t = 200 * (i + 1)
            lines.append(#"{"timestamp": \#(t), "type": "SDL_KEYDOWN", "key": "\#(name)", "repeat": 0}"#)
            lines.append(#"{"timestamp": \#(t + 60), "type": "SDL_KEYUP", "key": "\#(name)", "repeat": 0}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(arguments: ["en", "ar"])
    func everySceneWalkedAndBack(language: String) throws {
        let config = try Kiosk.manifest(try DemoScreensTests.manifest(), in: dir)
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config))) as? [String: Any])
        for scene in DemoScreensTests.scenes {
            let log = dir.appendingPathComponent("walk-\(scene)-\(language).jsonl")
            try Self.keys(arabic: language == "ar", home: scene == "map").write(
                to: log, atomically: true, encoding: .utf8)
            let r = try Kiosk.run(
                ["--headless", "640x400", "--config", config, "--scene", scene, "--replay", log.path], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            var transcript: [String] = []
            var focused: [String] = []
            var scenes: [String] = []
            for line in r.trace {
                for e in (line["events"] as? [[String: Any]]) ?? [] {
                    switch e["name"] as? String {
                    case "focusDidChange":
                        let id = e["element"] as? String ?? ""
                        focused.append(id)
                        transcript.append("focus \(id)")
                    case "speechDidStart":
                        transcript.append("say[\(e["language"] as? String ?? "")] \(e["text"] as? String ?? "")")
                    case "sceneDidChange": scenes.append(e["scene"] as? String ?? "")
                    case "languageDidChange": transcript.append("language \(e["language"] as? String ?? "")")
                    default: break
                    }
                }
            }
            // Every hotspot of the scene and every row of the directory is reached.
            let config = ((manifest["scenes"] as? [[String: Any]]) ?? []).first { $0["id"] as? String == scene } ?? [:]
            for h in (config["hotspots"] as? [[String: Any]]) ?? [] {
                let id = "hotspot:\(h["id"] as? String ?? "")"
                #expect(focused.contains(id), "\(scene): \(id) never focused")
            }
            if scene == "directory" {
                let rows = try String(contentsOf: Kiosk.assets.appendingPathComponent("directory.csv"), encoding: .utf8)
                    .split(separator: "\n").dropFirst().count
                #expect(Set(focused.filter { $0.hasPrefix("row:") }).count == rows)
            }
            // Escape leads home.
            #expect((scenes.last ?? scene) == "map", "\(scene): \(scenes)")
            let text = transcript.joined(separator: "\n") + "\n"
            let golden = Self.folder.appendingPathComponent("\(scene)-\(language).txt")
            if ProcessInfo.processInfo.environment["KIOSK_WRITE_GOLDENS"] == "1" {
                try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
                try text.write(to: golden, atomically: true, encoding: .utf8)
            }
            let expected = try String(contentsOf: golden, encoding: .utf8)
            #expect(text == expected, "\(scene)-\(language): the walk's transcript differs from \(golden.path)")
        }
    }
}
