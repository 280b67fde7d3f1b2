import CSDL2
import Foundation
import Testing

@testable import KioskSDL

/// A font that cannot draw (a FIFO, a folder, an empty file, a picture, a font copied in half) is found without
/// blocking, said, and the words are drawn in an installed font that covers the language instead.
@Suite struct FontProblemTests {
    static let noto = "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"

    func folder() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-fonts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: noto))) func brokenFontsAreFoundAndReplaced() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/fifo.ttf"
        #expect(mkfifo(fifo, 0o600) == 0)
        let empty = dir + "/empty.ttf"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let font = try Data(contentsOf: URL(fileURLWithPath: Self.noto))
        let half = dir + "/half.ttf"
        _ = FileManager.default.createFile(atPath: half, contents: font.prefix(font.count / 2))
        let picture = dir + "/picture.ttf"
        _ = FileManager.default.createFile(
            atPath: picture, contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(FontBook.problem(file: Self.noto, language: "en") == nil)
        for (file, said) in [
            (fifo, "is a FIFO"), (dir, "is a folder"), (empty, "not a font"), (picture, "not a font"),
            (half, "copied only in part"),
        ] {
            let why = FontBook.problem(file: file, language: "en")
            #expect(why?.contains(said) == true, "\(file): \(why ?? "nil")")
            let book = FontBook(named: ["default": file])
            let used = try #require(book.file(for: "en"))
            #expect(used != file && FontBook.problem(file: used, language: "en") == nil, "\(file) -> \(used)")
            #expect(book.font(for: "en", pixels: 20) != nil)
        }
    }

    /// A language no installed font covers (Klingon, "tlh") is drawn in the fallback font, as `--check` and the
    /// start say: its words, and its language button, were not drawn at all (a button nobody could see, which a
    /// visitor's tap still found).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: noto))) func aLanguageNoFontCoversIsDrawnInTheFallback() {
        let book = FontBook(named: [:])
        #expect(FontBook.installedFont(covering: "tlh") == nil)
        let used = book.file(for: "tlh")
        #expect(used != nil && FontBook.problem(file: used!, language: "en") == nil, "\(used ?? "nil")")
        #expect(book.font(for: "tlh", pixels: 20) != nil)
    }
}

/// Languages written in their own scripts are checked with a letter of that script: the fonts fontconfig finds
/// for Amharic, Bengali, Georgian, Khmer, Kannada, Gujarati, Lao and Malayalam write them (`--check` said they
/// showed boxes, testing them with a Latin "A" they do not have).
@Test(
    .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/noto/NotoSansEthiopic-Regular.ttf")),
    arguments: ["am", "bn", "ka", "km", "kn", "gu", "lo", "ml"])
func fontsForOtherScriptsAreNotSaidToShowBoxes(language: String) {
    switch FontBook.report(language: language, named: [:]) {
    case .font: break
    case let other: Issue.record("\(language): \(other)")
    }
}
