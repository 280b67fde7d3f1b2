import Foundation
import Testing

/// Every scene of the demo (a map, a directory, an archive, a gallery, a menu) in English and in Arabic, headless
/// on SDL's software renderer, compared with the screenshots in `Fixtures/screens` (`KIOSK_WRITE_GOLDENS=1`
/// writes them again, in the commit that changes them): the chrome across the screen in every scene type, and
/// all of it mirrored right to left once a visitor chose Arabic. The demo's manifest as shipped, with Debian's Noto fonts named (so that no
/// other installed font changes a pixel) and the archive's picture a plain one (its Deep Zoom pyramid is made
/// by the run script, not kept in the repository).
@Suite struct DemoScreensTests {
    let dir = Kiosk.folder()
    static let folder = Kiosk.repository.appendingPathComponent("Tests/KioskEndToEndTests/Fixtures/screens")
    static let scenes = ["map", "directory", "archive", "gallery", "menu"]

    /// The demo's manifest, its fonts Noto.
    static func manifest() throws -> String {
        let data = try Data(contentsOf: Kiosk.assets.appendingPathComponent("kiosk.json"))
        var m = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        m["fonts"] = [
            "default": WordsEndToEndTests.noto + "/NotoSans-Regular.ttf",
            "ar": WordsEndToEndTests.noto + "/NotoSansArabic-Regular.ttf",
        ]
        m["idleTimeoutSeconds"] = 0
        var scenes = try #require(m["scenes"] as? [[String: Any]])
        for i in scenes.indices where scenes[i]["id"] as? String == "archive" {
            scenes[i]["image"] = "images/floorplan.png"
        }
        m["scenes"] = scenes
        let json = try JSONSerialization.data(withJSONObject: m, options: [.sortedKeys])
        return try #require(String(data: json, encoding: .utf8))
    }

    @Test(arguments: ["en", "ar"])
    func everySceneInEachDirection(language: String) throws {
        guard FileManager.default.fileExists(atPath: WordsEndToEndTests.noto + "/NotoSansArabic-Regular.ttf") else {
            Issue.record("fonts-noto-core is not installed (apt-get install fonts-noto-core)")
            return
        }
        let config = try Kiosk.manifest(try Self.manifest(), in: dir)
        // Arabic chosen as a visitor chooses it: the language button at the top right, then the list's second
        // line (English is the manifest's first, German the list's first).
        var log = LogWriter(width: 640, height: 400)
        if language == "ar" {
            log.tap(1 - 46.0 / 640, 20.0 / 400, at: 100)
            log.tap(1 - 96.0 / 640, (64 + 1 + 64 + 32) / 400, at: 500)
        }
        let replay = try log.write(dir, "choose-\(language).jsonl")
        for scene in Self.scenes {
            let name = "\(scene)-\(language)"
            let shot = dir.appendingPathComponent(name + ".png")
            let r = try Kiosk.run(
                [
                    "--headless", "640x400", "--config", config, "--scene", scene, "--replay", replay,
                    "--screenshot", "1500:" + shot.path,
                ], in: dir, trace: false)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(!r.stderr.contains("<3>") && !r.stderr.contains("<4>"), "\(r.stderr)")
            try WordsEndToEndTests.compare(try #require(Picture(path: shot.path)), shot: shot, in: Self.folder)
        }
    }
}
