import CSDL2
import Kiosk
import ScrollEngine

/// Executes a frame's draw list with SDL, rotated onto the screen when `--rotate` asks.
final class Renderer {
    /// Held so that the renderer outlives every texture made with it.
    let display: Display
    var renderer: OpaquePointer { display.renderer }
    let images: ImageStore
    var tiles: TileStore { images.tiles }
    let rotation: Rotation
    let dot: OpaquePointer?
    let home: OpaquePointer?
    /// The scene's picture before rotation (nil without rotation).
    var target: OpaquePointer?
    var targetSize: Size = .zero
    /// SDL's software renderer, which truncates float rectangles to whole pixels.
    let truncatesRects: Bool

    init(display: Display, images: ImageStore, rotation: Rotation) {
        self.display = display
        let renderer = display.renderer
        self.images = images
        self.rotation = rotation
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        truncatesRects = info.name.map { String(cString: $0) } == "software"
        dot = makeTexture(renderer, size: 64) { x, y in
            // A white disc with a one-pixel soft edge.
            let d = ((x - 32) * (x - 32) + (y - 32) * (y - 32)).squareRoot()
            return (255, 255, 255, max(0, min(1, 31.5 - d)))
        }
        home = makeTexture(renderer, size: 128, HomeIcon.pixel)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    }

    /// Draws the app's current frame at `ms`: takes the tiles decoded since the last frame, draws, and asks for
    /// the tiles the frame missed. Returns the draw list (the benchmark replays it).
    @discardableResult
    func draw(_ app: KioskApp, at ms: Double, screenSize: Size) -> [DrawCommand] {
        tiles.beginFrame(at: ms)
        var query = TileQuery { [tiles] key in tiles.isLoaded(key) }
        query.opacity = { [tiles] key in tiles.opacity(key) }
        let list = app.drawList(tiles: &query)
        draw(
            list, paths: app.scene.config.imagePaths, background: app.manifest.background, sceneSize: app.sceneSize,
            screenSize: screenSize)
        tiles.request(missing: query.missing, prefetch: query.prefetch)
        return list
    }

    /// Draws one frame of `list` for a scene of `sceneSize` whose images are `paths`.
    func draw(_ list: [DrawCommand], paths: [String], background: RGB, sceneSize: Size, screenSize: Size) {
        if rotation != .none {
            if target == nil || targetSize != sceneSize {
                if let t = target { SDL_DestroyTexture(t) }
                target = SDL_CreateTexture(
                    renderer, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_TARGET.rawValue),
                    Int32(sceneSize.width), Int32(sceneSize.height))
                targetSize = sceneSize
            }
            SDL_SetRenderTarget(renderer, target)
        }
        SDL_SetRenderDrawColor(renderer, background.r, background.g, background.b, 255)
        SDL_RenderClear(renderer)
        for command in list { execute(command, paths: paths) }
        if rotation != .none, let target {
            SDL_SetRenderTarget(renderer, nil)
            SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
            SDL_RenderClear(renderer)
            // Turned about the centre: a scene of W x H lands on a screen of H x W.
            var dst = SDL_FRect(
                x: Float((screenSize.width - sceneSize.width) / 2),
                y: Float((screenSize.height - sceneSize.height) / 2),
                w: Float(sceneSize.width), h: Float(sceneSize.height))
            SDL_RenderCopyExF(renderer, target, nil, &dst, Double(rotation.rawValue), nil, SDL_FLIP_NONE)
        }
    }

    func execute(_ command: DrawCommand, paths: [String]) {
        switch command {
        case .image(let index, let source, let destination):
            guard index < paths.count else { return }
            let e = images.entry(paths[index])
            guard let texture = e.texture else {
                placeholder(destination)
                return
            }
            copy(texture, source: source, textureScale: e.scale, destination: destination)
        case .tile(let key, let source, let destination, let opacity):
            guard let texture = tiles.texture(key) else {
                placeholder(destination)
                return
            }
            // Tiles are opaque: blending (slow in software) only while one blends in over its stand-in.
            SDL_SetTextureBlendMode(texture, opacity < 1 ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE)
            SDL_SetTextureAlphaMod(texture, channel(opacity))
            copy(texture, source: source, textureScale: 1, destination: destination)
        case .placeholder(let destination):
            placeholder(destination)
        case .fill(let rect, let color):
            setColor(color)
            var r = frect(rect)
            SDL_RenderFillRectF(renderer, &r)
        case .dot(let center, let radius, let color):
            guard let dot else { return }
            SDL_SetTextureColorMod(dot, channel(color.red), channel(color.green), channel(color.blue))
            SDL_SetTextureAlphaMod(dot, channel(color.alpha))
            var r = frect(Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
            SDL_RenderCopyF(renderer, dot, nil, &r)
        case .homeButton(let rect):
            var r = frect(rect)
            SDL_RenderCopyF(renderer, home, nil, &r)
        }
    }

    /// SDL takes whole-pixel source rectangles: the source is widened to whole pixels and the destination
    /// widened by the same amount, so a zoomed image lands exactly where the engine says (the clip trims it).
    func copy(_ texture: OpaquePointer, source s: Rect, textureScale k: Double, destination d: Rect) {
        let x0 = (s.minX * k).rounded(.down)
        let y0 = (s.minY * k).rounded(.down)
        let x1 = (s.maxX * k).rounded(.up)
        let y1 = (s.maxY * k).rounded(.up)
        guard x1 > x0, y1 > y0, s.width > 0, s.height > 0 else { return }
        let fx = d.width / (s.width * k)
        let fy = d.height / (s.height * k)
        var src = SDL_Rect(x: Int32(x0), y: Int32(y0), w: Int32(x1 - x0), h: Int32(y1 - y0))
        var dst = SDL_FRect(
            x: Float(d.minX - (s.minX * k - x0) * fx), y: Float(d.minY - (s.minY * k - y0) * fy),
            w: Float((x1 - x0) * fx), h: Float((y1 - y0) * fy))
        if truncatesRects {
            // The software renderer cuts a float rectangle to whole pixels by truncating its origin and its size,
            // which can lose the last row or column: cover whole pixels instead (the clip below trims the rest).
            let left = dst.x.rounded(.down)
            let top = dst.y.rounded(.down)
            dst = SDL_FRect(
                x: left, y: top, w: (dst.x + dst.w).rounded(.up) - left, h: (dst.y + dst.h).rounded(.up) - top)
        }
        var clip = SDL_Rect(
            x: Int32(d.minX.rounded(.down)), y: Int32(d.minY.rounded(.down)),
            w: Int32(d.maxX.rounded(.up) - d.minX.rounded(.down)),
            h: Int32(d.maxY.rounded(.up) - d.minY.rounded(.down)))
        SDL_RenderSetClipRect(renderer, &clip)
        SDL_RenderCopyF(renderer, texture, &src, &dst)
        SDL_RenderSetClipRect(renderer, nil)
    }

    /// A broken image: a dark panel with a frame and a cross, so a visitor sees "no picture here", not a hole.
    func placeholder(_ rect: Rect) {
        SDL_SetRenderDrawColor(renderer, 0x3A, 0x3A, 0x42, 255)
        var r = frect(rect)
        SDL_RenderFillRectF(renderer, &r)
        SDL_SetRenderDrawColor(renderer, 0x8A, 0x8A, 0x96, 255)
        SDL_RenderDrawRectF(renderer, &r)
        SDL_RenderDrawLineF(renderer, r.x, r.y, r.x + r.w, r.y + r.h)
        SDL_RenderDrawLineF(renderer, r.x + r.w, r.y, r.x, r.y + r.h)
    }

    func setColor(_ c: Color) {
        SDL_SetRenderDrawColor(renderer, channel(c.red), channel(c.green), channel(c.blue), channel(c.alpha))
    }

    deinit {
        for t in [dot, home, target] { if let t { SDL_DestroyTexture(t) } }
    }
}

func channel(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }

func frect(_ r: Rect) -> SDL_FRect {
    SDL_FRect(x: Float(r.minX), y: Float(r.minY), w: Float(r.width), h: Float(r.height))
}

/// A square texture drawn pixel by pixel: `pixel(x, y)` gives r, g, b (0-255) and alpha (0-1) at pixel centres.
func makeTexture(
    _ renderer: OpaquePointer, size: Int, _ pixel: (Double, Double) -> (UInt8, UInt8, UInt8, Double)
) -> OpaquePointer? {
    guard
        let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(size), Int32(size), 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
    else { return nil }
    defer { SDL_FreeSurface(surface) }
    let pitch = Int(surface.pointee.pitch) / 4
    let pixels = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
    for y in 0..<size {
        for x in 0..<size {
            let (r, g, b, a) = pixel(Double(x) + 0.5, Double(y) + 0.5)
            let alpha = UInt32(max(0, min(255, (a * 255).rounded())))
            pixels[y * pitch + x] = alpha << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        }
    }
    guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
    SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
    SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear)
    return texture
}

/// The home button's picture on a 128 px square: a dark translucent disc, a white ring and a white house.
enum HomeIcon {
    static func pixel(_ x: Double, _ y: Double) -> (UInt8, UInt8, UInt8, Double) {
        let d = ((x - 64) * (x - 64) + (y - 64) * (y - 64)).squareRoot()
        let disc = max(0, min(1, 62 - d))
        guard disc > 0 else { return (0, 0, 0, 0) }
        let ring = max(0, min(1, 3 - abs(d - 58)))
        if house(x, y) { return (255, 255, 255, 0.95) }
        if ring > 0 { return (255, 255, 255, 0.95 * ring) }
        return (0, 0, 0, 0.5 * disc)
    }

    /// A roof (triangle) over a body (rectangle) with a door cut out.
    static func house(_ x: Double, _ y: Double) -> Bool {
        let roof = y >= 34 && y <= 62 && abs(x - 64) <= (y - 34) * 1.15
        let body = x >= 44 && x <= 84 && y >= 60 && y <= 92
        let door = x >= 58 && x <= 70 && y >= 74 && y <= 92
        return (roof || body) && !door
    }
}
