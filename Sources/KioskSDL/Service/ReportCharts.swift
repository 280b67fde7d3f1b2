import CSDL2
import CSDL2Image
import CSDL2TTF
import Foundation
import Kiosk
import ScrollEngine

/// The report's pictures (docs/operations.md, `--stats --report`), drawn with SDL into surfaces and written as
/// PNG by SDL_image, their words in the kiosk's own fonts: bar charts, the hours of the week, and a picture with
/// its touches over it.
final class ReportCharts {
    let fonts = FontBook(named: [:])
    static let width: Int32 = 960
    static let ink: (UInt8, UInt8, UInt8) = (0x20, 0x20, 0x28)
    static let bar: (UInt8, UInt8, UInt8) = (0x0A, 0x84, 0xFF)
    static let paper: (UInt8, UInt8, UInt8) = (0xFF, 0xFF, 0xFF)

    func surface(height: Int32) -> UnsafeMutablePointer<SDL_Surface>? {
        guard let s = SDL_CreateRGBSurfaceWithFormat(0, Self.width, height, 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
        else { return nil }
        fill(s, SDL_Rect(x: 0, y: 0, w: Self.width, h: height), Self.paper)
        return s
    }

    func fill(_ s: UnsafeMutablePointer<SDL_Surface>, _ r: SDL_Rect, _ c: (UInt8, UInt8, UInt8), alpha: UInt8 = 255) {
        var rect = r
        if alpha == 255 {
            SDL_FillRect(s, &rect, SDL_MapRGBA(s.pointee.format, c.0, c.1, c.2, 255))
            return
        }
        // A translucent fill: a one-pixel surface of the colour, blended and stretched.
        guard let dot = SDL_CreateRGBSurfaceWithFormat(0, 1, 1, 32, SDL_PIXELFORMAT_ARGB8888.rawValue) else { return }
        defer { SDL_FreeSurface(dot) }
        SDL_FillRect(dot, nil, SDL_MapRGBA(dot.pointee.format, c.0, c.1, c.2, alpha))
        SDL_SetSurfaceBlendMode(dot, SDL_BLENDMODE_BLEND)
        SDL_UpperBlitScaled(dot, nil, s, &rect)
    }

    /// `text` at (`x`, `y`) (its top-left; `alignRight`: its top-right), `pixels` high.
    func text(
        _ s: UnsafeMutablePointer<SDL_Surface>, _ text: String, x: Int32, y: Int32, pixels: Int = 16,
        alignRight: Bool = false
    ) {
        guard !text.isEmpty, let font = fonts.font(for: "en", pixels: pixels),
            let t = TTF_RenderUTF8_Blended(font, text, SDL_Color(r: Self.ink.0, g: Self.ink.1, b: Self.ink.2, a: 255))
        else { return }
        defer { SDL_FreeSurface(t) }
        var at = SDL_Rect(x: alignRight ? x - t.pointee.w : x, y: y, w: t.pointee.w, h: t.pointee.h)
        SDL_UpperBlit(t, nil, s, &at)
    }

    /// Bars for `values`, labelled below with `labels` (some left out where they would crowd), the largest
    /// value written above its bar, `title` at the top.
    func bars(title: String, labels: [String], values: [Double], valueText: (Double) -> String)
        -> UnsafeMutablePointer<SDL_Surface>?
    {
        let height: Int32 = 320
        guard let s = surface(height: height) else { return nil }
        text(s, title, x: 16, y: 10, pixels: 20)
        let (left, top, bottom): (Int32, Int32, Int32) = (56, 52, height - 44)
        fill(s, SDL_Rect(x: left, y: bottom, w: Self.width - left - 16, h: 2), Self.ink)
        let most = max(values.max() ?? 0, 1e-9)
        text(s, valueText(values.max() ?? 0), x: left - 6, y: top - 8, pixels: 13, alignRight: true)
        guard !values.isEmpty else { return s }
        let step = Double(Self.width - left - 16) / Double(values.count)
        let every = max(1, Int((60 / step).rounded(.up)))
        for (i, v) in values.enumerated() {
            let h = Int32(Double(bottom - top) * v / most)
            let x = left + Int32(Double(i) * step)
            // Bars a gap apart where there is room for one; many days' bars touch.
            let gap: Int32 = step >= 8 ? 2 : 0
            fill(s, SDL_Rect(x: x + gap, y: bottom - h, w: max(1, Int32(step.rounded(.up)) - 2 * gap), h: h), Self.bar)
            if i % every == 0 { text(s, labels[i], x: x + 2, y: bottom + 8, pixels: 13) }
        }
        return s
    }

    /// The visits by hour of the week: a row a day, a cell an hour, darker for more.
    func hoursOfWeek(_ counts: [[Int]]) -> UnsafeMutablePointer<SDL_Surface>? {
        guard let s = surface(height: 320) else { return nil }
        text(s, "Visits by hour of the week", x: 16, y: 10, pixels: 20)
        let most = max(1, counts.flatMap { $0 }.max() ?? 1)
        let (left, top, cell): (Int32, Int32, Int32) = (120, 52, 34)
        for (d, row) in counts.enumerated() {
            text(s, VisitReport.weekdays[d], x: 16, y: top + Int32(d) * cell + 8, pixels: 14)
            for (h, n) in row.enumerated() {
                let shade = UInt8(255 - 200 * n / most)
                let r = SDL_Rect(x: left + Int32(h) * cell, y: top + Int32(d) * cell, w: cell - 2, h: cell - 2)
                fill(s, r, n == 0 ? (0xF2, 0xF2, 0xF7) : (shade, shade, 255))
            }
        }
        for h in stride(from: 0, to: 24, by: 3) {
            text(s, "\(h):00", x: left + Int32(h) * cell, y: top + 7 * cell + 6, pixels: 13)
        }
        return s
    }

    /// `picture` (nil: a grey field, its file gone) with `grid`'s touches over it, warmer for more.
    func heatmap(_ key: String, grid: TouchGrid.Picture, picture: String?) -> UnsafeMutablePointer<SDL_Surface>? {
        let aspect = grid.image.height / max(1, grid.image.width)
        let boxW = Self.width - 32
        let boxH = Int32(min(720, Double(boxW) * aspect))
        let w = aspect * Double(boxW) > 720 ? Int32(720 / aspect) : boxW
        guard let s = surface(height: boxH + 56) else { return nil }
        let total = grid.counts.reduce(0, +)
        text(s, "\(key): \(total) touch\(total == 1 ? "" : "es")", x: 16, y: 10, pixels: 20)
        var area = SDL_Rect(x: 16, y: 48, w: w, h: boxH)
        if let picture, let image = IMG_Load(picture) {
            defer { SDL_FreeSurface(image) }
            SDL_SetSurfaceBlendMode(image, SDL_BLENDMODE_NONE)
            SDL_UpperBlitScaled(image, nil, s, &area)
            // Faded, so that the touches read over it.
            fill(s, area, Self.paper, alpha: 110)
        } else {
            fill(s, area, (0xC8, 0xC8, 0xCC))
        }
        let most = max(1, grid.counts.max() ?? 1)
        let cw = Double(w) / Double(TouchGrid.columns)
        let ch = Double(boxH) / Double(TouchGrid.rows)
        for (i, n) in grid.counts.enumerated() where n > 0 {
            let t = Double(n) / Double(most)
            let r = SDL_Rect(
                x: area.x + Int32(Double(i % TouchGrid.columns) * cw),
                y: area.y + Int32(Double(i / TouchGrid.columns) * ch),
                w: Int32(cw.rounded(.up)), h: Int32(ch.rounded(.up)))
            fill(s, r, (255, UInt8(200 * (1 - t)), 0), alpha: UInt8(90 + 150 * t))
        }
        return s
    }

    /// Writes `s` (then frees it) as PNG; false when it could not.
    static func save(_ s: UnsafeMutablePointer<SDL_Surface>?, _ path: String) -> Bool {
        guard let s else { return false }
        defer { SDL_FreeSurface(s) }
        return IMG_SavePNG(s, path) == 0
    }
}
