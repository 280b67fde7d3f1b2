import CSDL2
import CSDL2Image
import Kiosk
import ScrollEngine

/// Images as textures, loaded once. An image that fails to load is logged once (naming the file) and stands
/// as a placeholder; an image larger than the renderer's textures is scaled down to fit at load (tile
/// pyramids come with deep zoom).
final class ImageStore {
    struct Entry {
        var texture: OpaquePointer?
        var info: ImageInfo
        /// Texture pixels per image pixel (below 1 when scaled down to fit a texture).
        var scale: Double
    }

    let renderer: OpaquePointer
    let maxTextureSize: Int?
    var entries: [String: Entry] = [:]

    init(renderer: OpaquePointer, maxTextureSize: Int?) {
        self.renderer = renderer
        self.maxTextureSize = maxTextureSize
        IMG_Init(Int32(IMG_INIT_PNG.rawValue | IMG_INIT_JPG.rawValue))
    }

    func info(_ path: String) -> ImageInfo { entry(path).info }

    func entry(_ path: String) -> Entry {
        if let e = entries[path] { return e }
        let e = load(path)
        entries[path] = e
        return e
    }

    func load(_ path: String) -> Entry {
        guard var surface = IMG_Load(path) else {
            log(.warning, "\(path): cannot load the image (\(sdlError())); showing a placeholder")
            return Entry(texture: nil, info: .missing, scale: 1)
        }
        defer { SDL_FreeSurface(surface) }
        let w = Int(surface.pointee.w)
        let h = Int(surface.pointee.h)
        guard w > 0, h > 0 else {
            log(.warning, "\(path): the image is empty; showing a placeholder")
            return Entry(texture: nil, info: .missing, scale: 1)
        }
        var scale = 1.0
        if let limit = maxTextureSize, max(w, h) > limit {
            scale = Double(limit) / Double(max(w, h))
            let sw = Int32(max(1, (Double(w) * scale).rounded(.down)))
            let sh = Int32(max(1, (Double(h) * scale).rounded(.down)))
            if let scaled = SDL_CreateRGBSurfaceWithFormat(0, sw, sh, 32, SDL_PIXELFORMAT_ARGB8888.rawValue) {
                SDL_SetSurfaceBlendMode(surface, SDL_BLENDMODE_NONE)
                SDL_UpperBlitScaled(surface, nil, scaled, nil)
                SDL_FreeSurface(surface)
                surface = scaled
                log(.info, "\(path): \(w)x\(h) is larger than a texture; scaled to \(sw)x\(sh)")
            }
        }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else {
            log(.warning, "\(path): cannot make a texture (\(sdlError())); showing a placeholder")
            return Entry(texture: nil, info: .missing, scale: 1)
        }
        SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear)
        return Entry(
            texture: texture, info: ImageInfo(size: Size(width: Double(w), height: Double(h)), loaded: true),
            scale: scale)
    }

    deinit {
        for e in entries.values { if let t = e.texture { SDL_DestroyTexture(t) } }
        IMG_Quit()
    }
}
