import Foundation
import Kiosk
import ScrollEngine
import Testing

@testable import KioskSDL

/// In `SDLEventTests`' serialized suite: SDL's state is the process's.
extension SDLEventTests {
    /// A list's long titles, in German and in Arabic, wrap over as many lines as the fonts need and are drawn
    /// whole: the rows are reckoned from the fonts' widths (`TextMetricsReader`), so every title fits its box as
    /// the renderer lays it out. (Before, every title was one line in an 88-point row: the long ones cut.)
    @Test(arguments: ["de", "ar"])
    func longTitlesAreDrawnWhole(language: String) throws {
        setenvDummy()
        let titles = [
            "de": [
                "Sammlung historischer Musikinstrumente aus dem achtzehnten Jahrhundert",
                "Kinderwerkstatt", "Restaurierungswerkstatt für Gemälde und Skulpturen des Spätmittelalters",
            ],
            "ar": [
                "مجموعة الآلات الموسيقية التاريخية من القرن الثامن عشر في القاعة الكبرى",
                "ورشة الأطفال", "ورشة ترميم اللوحات والمنحوتات من أواخر العصور الوسطى وعصر النهضة",
            ],
        ][language]!
        let rows = titles.enumerated().map { i, t in
            #"{"id": "r\#(i)", "title": "\#(t)", "subtitle": "\#(i)", "goto": "map"}"#
        }
        let path = NSTemporaryDirectory() + "kiosk-rows-\(UUID().uuidString).json"
        try """
        {"kioskManifest": 1, "idleTimeoutSeconds": 0, "home": "list", "languages": ["\(language)"], "scenes": [
          {"id": "list", "type": "list", "title": "List", "rows": [\(rows.joined(separator: ", "))]},
          {"id": "map", "type": "zoom", "image": "\(Self.images)/floorplan.png"}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let session = try HeadlessSession(manifestPath: path, width: 800, height: 480, synchronous: true)
        let list = session.frame(at: 0)
        let drawn = list.compactMap { if case .text(let r) = $0, titles.contains(r.text) { r } else { nil } }
        #expect(drawn.count == 3)
        // The long ones take more than one line.
        #expect(drawn.filter { $0.rect.height > 2 * $0.size }.count == 2, "\(drawn.map(\.rect))")
        for run in drawn {
            let measure = try #require(TextStore.measure(run, fonts: session.renderer.words.fonts))
            #expect(measure.fits, "\(run.text) in \(run.rect)")
        }
    }
}
