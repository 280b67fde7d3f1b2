import ScrollEngine
import Testing

@testable import Kiosk

/// `kiosk new`'s plan (docs/authoring.md), from what a folder holds to the manifest's text.
@Suite struct NewContentPlanTests {
    static let screen = Size(width: 1920, height: 1080)

    /// Each scene's id is unique and safe whatever the files are called; a picture larger than twice the screen is
    /// a zoom scene, the others pages; a lone scene is home itself.
    @Test func scenesHaveUniqueIdsAndTheirKinds() throws {
        let plan = NewContent.plan(
            [
                .picture(name: "Map.png", width: 3841, height: 100),
                .picture(name: "map.jpg", width: 5000, height: 100),
                .picture(name: "gallery.png", width: 9000, height: 100),
                .picture(name: "p.jpg", width: 3840, height: 2160),
            ], title: "T", screen: Self.screen)
        // File-name order, as a file manager shows it: letters' case aside.
        #expect(plan.lines.contains("map: zoom, map.jpg 5000x100"), "\(plan.lines)")
        #expect(plan.lines.contains("map-2: zoom, Map.png 3841x100"), "\(plan.lines)")
        #expect(plan.lines.contains("gallery: zoom, gallery.png 9000x100"), "\(plan.lines)")
        #expect(plan.lines.contains("gallery-2: carousel of 1"), "\(plan.lines)")
        let m = try Manifest.parse(plan.manifest, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        #expect(m.scenes.map(\.id) == ["home", "gallery", "map", "map-2", "gallery-2"])
        #expect(m.home == "home")
        let one = NewContent.plan([.picture(name: "a.jpg", width: 10, height: 10)], title: "T", screen: Self.screen)
        #expect(
            try Manifest.parse(one.manifest, file: "k.json", baseDirectory: "/k", fileExists: { _ in true }).home
                == "gallery")
    }

    /// The languages come from the columns: `title.de` in a directory, `caption.fr` in `captions.csv`, a film's
    /// `film.ar.vtt`; the first is English.
    @Test func languagesComeFromTheColumns() throws {
        let captions = try NewContent.captions(Array("file,caption,caption.fr\na.jpg,A,Un\n".utf8)).get()
        let plan = NewContent.plan(
            [
                .picture(name: "a.jpg", width: 10, height: 10),
                .captions(rows: captions.rows, columns: captions.columns),
                .directory(name: "d.csv", columns: ["id", "title", "title.de"]), .video(name: "film.mp4"),
                .captionTrack(name: "film.ar.vtt"),
            ], title: "T", screen: Self.screen)
        let m = try Manifest.parse(
            plan.manifest, file: "k.json", baseDirectory: "/k", fileExists: { _ in true },
            readFile: { _ in .success(Array("id,title,title.de\nx,X,Y\n".utf8)) })
        #expect(m.languages == ["en", "ar", "de", "fr"])
        #expect(plan.manifest.contains(#""caption": {"en": "A", "fr": "Un"}"#), "\(plan.manifest)")
        #expect(plan.files.sorted() == ["a.jpg", "d.csv", "film.ar.vtt", "film.mp4"])
    }
}
