import CSDL2
import CSDL2Image
import Foundation

/// The small example `kiosk new DIR` starts from without `--from` (docs/authoring.md): a floor plan larger than
/// two screens (a zoom scene), three pictures with their captions in English and German (a gallery), and a
/// directory whose rows go to them, drawn here so that it needs nothing from the network or the package. A file
/// already in the folder is kept as it is.
enum ExampleContent {
    /// Draws the example's files into `folder`; nil, or why not.
    static func draw(into folder: String) -> String? {
        let pictures: [(String, Int, Int, (UnsafeMutablePointer<SDL_Surface>) -> Void)] = [
            ("plan.png", 4000, 2400, floorPlan),
            ("hall.jpg", 1600, 1000, { landscape($0, sky: (70, 110, 170), ground: (150, 120, 90)) }),
            ("garden.jpg", 1600, 1000, { landscape($0, sky: (120, 170, 210), ground: (70, 130, 60)) }),
            ("tower.jpg", 1600, 1000, { landscape($0, sky: (230, 150, 90), ground: (90, 80, 100)) }),
        ]
        for (name, w, h, paint) in pictures where !FileManager.default.fileExists(atPath: folder + "/" + name) {
            guard let s = SDL_CreateRGBSurfaceWithFormat(0, Int32(w), Int32(h), 24, SDL_PIXELFORMAT_RGB24.rawValue)
            else { return "cannot draw \(name) (\(sdlError()))" }
            defer { SDL_FreeSurface(s) }
            paint(s)
            let path = folder + "/" + name
            let saved = name.hasSuffix(".png") ? IMG_SavePNG(s, path) : IMG_SaveJPG(s, path, 85)
            guard saved == 0 else { return "cannot write \(name) (\(sdlError()))" }
        }
        let texts = [
            (
                "captions.csv",
                "file,caption,caption.de\nhall.jpg,The great hall,Die große Halle\n"
                    + "garden.jpg,The garden in spring,Der Garten im Frühling\ntower.jpg,The tower at dusk,Der Turm am Abend\n"
            ),
            (
                "directory.csv",
                "id,title,title.de,section,goto\ncafe,Café,Café,Food,plan\nshop,Shop,Laden,Shopping,plan\n"
                    + "garden,Garden,Garten,Outside,gallery\ntoilets,Toilets,Toiletten,Services,plan\n"
            ),
        ]
        for (name, text) in texts where !FileManager.default.fileExists(atPath: folder + "/" + name) {
            guard FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(text.utf8)) else {
                return "cannot write \(name)"
            }
        }
        return nil
    }

    static func fill(_ s: UnsafeMutablePointer<SDL_Surface>, _ r: SDL_Rect, _ c: (UInt8, UInt8, UInt8)) {
        var rect = r
        SDL_FillRect(s, &rect, SDL_MapRGB(s.pointee.format, c.0, c.1, c.2))
    }

    /// A plan: a grid on paper and rooms with walls.
    static func floorPlan(_ s: UnsafeMutablePointer<SDL_Surface>) {
        let (w, h) = (s.pointee.w, s.pointee.h)
        fill(s, SDL_Rect(x: 0, y: 0, w: w, h: h), (242, 239, 230))
        for x in stride(from: Int32(0), to: w, by: 200) { fill(s, SDL_Rect(x: x, y: 0, w: 3, h: h), (221, 216, 204)) }
        for y in stride(from: Int32(0), to: h, by: 200) { fill(s, SDL_Rect(x: 0, y: y, w: w, h: 3), (221, 216, 204)) }
        let rooms: [(SDL_Rect, (UInt8, UInt8, UInt8))] = [
            (SDL_Rect(x: 200, y: 200, w: 1400, h: 900), (214, 226, 240)),
            (SDL_Rect(x: 1800, y: 200, w: 2000, h: 900), (232, 222, 200)),
            (SDL_Rect(x: 200, y: 1300, w: 1000, h: 900), (220, 236, 214)),
            (SDL_Rect(x: 1400, y: 1300, w: 1200, h: 900), (240, 214, 214)),
            (SDL_Rect(x: 2800, y: 1300, w: 1000, h: 900), (226, 220, 240)),
        ]
        for (r, c) in rooms {
            fill(s, SDL_Rect(x: r.x - 12, y: r.y - 12, w: r.w + 24, h: r.h + 24), (70, 70, 80))
            fill(s, r, c)
            // A door in the wall below.
            fill(s, SDL_Rect(x: r.x + r.w / 2 - 80, y: r.y + r.h, w: 160, h: 12), (242, 239, 230))
        }
    }

    /// A sky fading to the horizon, hills and a sun: something to swipe through.
    static func landscape(
        _ s: UnsafeMutablePointer<SDL_Surface>, sky: (UInt8, UInt8, UInt8), ground: (UInt8, UInt8, UInt8)
    ) {
        let (w, h) = (s.pointee.w, s.pointee.h)
        for y in 0..<h {
            let t = Double(y) / Double(h)
            func mix(_ a: UInt8) -> UInt8 { UInt8(min(255, Double(a) + (255 - Double(a)) * t * 0.8)) }
            fill(s, SDL_Rect(x: 0, y: y, w: w, h: 1), y < h * 2 / 3 ? (mix(sky.0), mix(sky.1), mix(sky.2)) : ground)
        }
        for y in Int32(0)..<120 {
            let half = Int32((Double(120 * 120 - (y - 60) * (y - 60) * 4)).squareRoot() / 2)
            fill(s, SDL_Rect(x: w * 3 / 4 - half, y: h / 5 + y, w: 2 * half, h: 1), (255, 236, 170))
        }
        for x in stride(from: Int32(0), to: w, by: 8) {
            let top = h * 2 / 3 - Int32(60 + 50 * sin(Double(x) / 180))
            fill(s, SDL_Rect(x: x, y: top, w: 8, h: h * 2 / 3 - top), ground)
        }
    }
}
