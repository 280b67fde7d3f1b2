import CSDL2
import CSDL2Image
import Foundation
import Testing

/// `kiosk new` (docs/authoring.md): a working content folder from a folder of pictures, films and a CSV, checked
/// as `--check` checks it, and shown.
@Suite struct NewContentTests {
    let dir = Kiosk.folder()

    /// A `width` x `height` picture of one colour, written by SDL_image (PNG or JPEG by its name).
    func picture(_ path: String, width: Int, height: Int) throws {
        let s = try #require(
            SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), 24, SDL_PIXELFORMAT_RGB24.rawValue))
        defer { SDL_FreeSurface(s) }
        memset(s.pointee.pixels, 0x70, Int(s.pointee.pitch) * height)
        let saved = path.hasSuffix(".png") ? IMG_SavePNG(s, path) : IMG_SaveJPG(s, path, 80)
        #expect(saved == 0)
    }

    /// A curator's folder: pictures (one larger than two screens, names with spaces, quotes and other scripts),
    /// their captions in English and German, a directory, a film with its captions, and files that are none of
    /// these. What `kiosk new` makes passes `--check`, and a visitor's tap on its home reaches the gallery.
    @Test func aFolderOfPicturesBecomesAKiosk() throws {
        let from = dir.appendingPathComponent("from").path
        try FileManager.default.createDirectory(atPath: from, withIntermediateDirectories: true)
        try picture(from + "/big plan.png", width: 4000, height: 300)
        try picture(from + "/a.jpg", width: 800, height: 600)
        try picture(from + "/Ölbild \"alt\" 東京.jpg", width: 600, height: 800)
        try picture(from + "/opening.jpg", width: 320, height: 240)
        try VideoTests.clip(from + "/opening.mp4", seconds: 1)
        try "WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n".write(
            toFile: from + "/opening.vtt", atomically: true, encoding: .utf8)
        try "WEBVTT\n\n00:00.000 --> 00:01.000\nHallo\n".write(
            toFile: from + "/opening.de.vtt", atomically: true, encoding: .utf8)
        try "file,caption,caption.de\na.jpg,A field,Ein Feld\n".write(
            toFile: from + "/captions.csv", atomically: true, encoding: .utf8)
        try "id,title,title.de,section\ncafe,Café,Café,Food\nshop,Shop,Laden,Shopping\n".write(
            toFile: from + "/shops.csv", atomically: true, encoding: .utf8)
        try "name,phone\nx,1\n".write(toFile: from + "/phones.csv", atomically: true, encoding: .utf8)
        try "notes".write(toFile: from + "/notes.txt", atomically: true, encoding: .utf8)
        // A name in Latin-1, not UTF-8 (a camera's card, an old Windows share): said as such.
        let latin1 = Array(from.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8) + [0]
        let fd = latin1.map { CChar(bitPattern: $0) }.withUnsafeBufferPointer {
            open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644)
        }
        #expect(fd >= 0)
        close(fd)
        let target = dir.appendingPathComponent("museum").path
        let r = try Kiosk.run(["new", target, "--from", from], in: dir, trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(out.contains("home: list of the 4 scenes"), "\(out)")
        #expect(out.contains("big-plan: zoom, big plan.png 4000x300"), "\(out)")
        #expect(out.contains("gallery: carousel of 2, 1 captioned"), "\(out)")
        #expect(out.contains("opening: video, opening.mp4, poster opening.jpg, captions in de, en"), "\(out)")
        #expect(out.contains("shops: list, the rows of shops.csv"), "\(out)")
        #expect(out.contains("left out: phones.csv (no title column: not a directory)"), "\(out)")
        #expect(out.contains { $0.hasPrefix("left out: notes.txt") }, "\(out)")
        #expect(
            out.contains(
                "left out: caf\u{FFFD}.jpg (its name is not UTF-8 text; rename it (convmv -f latin1 -t utf8))"),
            "\(out)")
        #expect(out.last?.hasPrefix("checked: ok") == true, "\(out)")
        let manifest = target + "/kiosk.json"
        let check = try Kiosk.run(["--check", "--config", manifest], in: dir, trace: false)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("gallery: carousel of 2, a.jpg 800x600"), "\(check.stdout)")
        // A visitor taps the home list's second row (the zoom scene is the first): the gallery opens.
        var log = LogWriter()
        log.tap(0.3, (64 + 88 + 44) / 480, at: 500)
        let visit = try Kiosk.run(
            ["--headless", "800x480", "--config", manifest, "--replay", try log.write(dir)], in: dir)
        #expect(visit.status == 0, "\(visit.stderr)")
        #expect(visit.events.contains { $0.name == "sceneDidChange" && $0.fields["scene"] as? String == "gallery" })
        // The new kiosk's files are copies: editing its CSV in place leaves the curator's original as it was.
        var original = stat()
        var brought = stat()
        #expect(stat(from + "/shops.csv", &original) == 0 && stat(target + "/shops.csv", &brought) == 0)
        #expect(original.st_ino != brought.st_ino || original.st_dev != brought.st_dev, "a hard link, not a copy")
        let edited = try FileHandle(forWritingTo: URL(fileURLWithPath: target + "/shops.csv"))
        edited.seekToEndOfFile()
        edited.write(Data("bar,Bar,Bar,Food\n".utf8))
        try edited.close()
        #expect(!(try String(contentsOfFile: from + "/shops.csv", encoding: .utf8)).contains("bar,Bar"))
        // Made again, it refuses: the manifest (perhaps edited since) is never overwritten.
        let before = try String(contentsOfFile: manifest, encoding: .utf8)
        let again = try Kiosk.run(["new", target, "--from", from], in: dir, trace: false)
        #expect(again.status == 2)
        #expect(again.stderr.contains("kiosk.json exists: kiosk new never overwrites a manifest"), "\(again.stderr)")
        #expect(try String(contentsOfFile: manifest, encoding: .utf8) == before)
    }

    /// Without `--from`, a small example to start from: it passes `--check`.
    /// Caption files named in ways the check refuses (`film.EN.vtt` beside `film.vtt`, `film..vtt`), a captions
    /// CSV with a column that is no language, and a film with one track: what `kiosk new` makes passes its own
    /// check (it wrote every one of these into the manifest, after which every language was "unknown"), and says
    /// what it left out and why.
    @Test func captionFilesNamedAmissAreLeftOutAndTheManifestChecks() throws {
        let from = dir.appendingPathComponent("named").path
        try FileManager.default.createDirectory(atPath: from, withIntermediateDirectories: true)
        try VideoTests.clip(from + "/film.mp4", seconds: 1)
        try VideoTests.clip(from + "/other.mp4", seconds: 1)
        try picture(from + "/a.jpg", width: 800, height: 600)
        let vtt = "WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n"
        for name in ["film.vtt", "film.EN.vtt", "film..vtt", "other.vtt"] {
            try vtt.write(toFile: from + "/" + name, atomically: true, encoding: .utf8)
        }
        try "file,caption,caption.l000\na.jpg,A,B\n".write(
            toFile: from + "/captions.csv", atomically: true, encoding: .utf8)
        let target = dir.appendingPathComponent("named-out").path
        let r = try Kiosk.run(["new", target, "--from", from], in: dir, trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(out.contains("left out: film..vtt (\"\" is not a language tag: name it like film.de.vtt)"), "\(out)")
        #expect(out.contains("left out: film.vtt (a second en track beside film.EN.vtt)"), "\(out)")
        #expect(out.contains { $0.hasPrefix("left out: captions.csv (line 1: column caption.l000:") }, "\(out)")
        #expect(out.contains("other: video, other.mp4, captions in en"), "\(out)")
        #expect(out.last?.hasPrefix("checked: ok") == true, "\(out) \(r.stderr)")
        let check = try Kiosk.run(["--check", "--config", target + "/kiosk.json"], in: dir, trace: false)
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func withoutAFolderItMakesAnExample() throws {
        let target = dir.appendingPathComponent("example").path
        let r = try Kiosk.run(["new", target], in: dir, trace: false)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("plan: zoom, plan.png 4000x2400"), "\(r.stdout)")
        let check = try Kiosk.run(["--check", "--config", target + "/kiosk.json"], in: dir, trace: false)
        #expect(check.status == 0, "\(check.stderr)")
    }

    /// A folder with nothing to show, a missing one, a command line without a folder: one line, nothing made.
    @Test(arguments: ["empty", "text only", "missing", "no target"])
    func nothingToMakeIsOneLine(_ kind: String) throws {
        let from = dir.appendingPathComponent("from-\(kind)").path
        if kind != "missing" {
            try FileManager.default.createDirectory(atPath: from, withIntermediateDirectories: true)
        }
        if kind == "text only" { try "x".write(toFile: from + "/a.txt", atomically: true, encoding: .utf8) }
        let target = dir.appendingPathComponent("out-\(kind)").path
        let r = try Kiosk.run(kind == "no target" ? ["new"] : ["new", target, "--from", from], in: dir, trace: false)
        #expect(r.status == 2, "\(kind): \(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("<3>kiosk: new: "), "\(kind): \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target + "/kiosk.json"))
    }
}
