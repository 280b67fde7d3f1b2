import CSDL2
import Kiosk
import ScrollEngine

/// Executes a frame's draw list with SDL. The list is in scene points; each rectangle is turned onto the
/// physical screen here (`--rotate`), and the textures were turned once when they were made, so a turned
/// frame costs what an upright one does. Copies at one texture pixel per screen pixel land on whole pixels:
/// a plain copy, no filtering (UIKit also rounds to device pixels).
final class Renderer {
    /// Held so that the renderer outlives every texture made with it.
    let display: Display
    var renderer: OpaquePointer { display.renderer }
    let images: ImageStore
    var tiles: TileStore { images.tiles }
    var rotation: Rotation { display.rotation }
    let dot: OpaquePointer?
    let home: OpaquePointer?
    /// SDL's software renderer, which truncates float rectangles to whole pixels.
    let truncatesRects: Bool
    /// While a list is drawn: the box its rectangles are turned in (the scene, or a kept picture), and where
    /// the drawing lands on the target (the screen, or a kept tile of a picture), in target pixels.
    var box: Size = .zero
    var shift: Point = .zero
    /// The size of what is drawn on (the screen, or a kept tile), in its pixels.
    lazy var targetSize: Size = display.size
    var background = RGB(r: 0, g: 0, b: 0)
    /// Pictures kept at their scale (software renderer only: a GPU scales for free), and the scene and tiles
    /// that draw their missing parts.
    let layers: PictureLayers?
    var scene: Scene?
    var query = TileQuery.everything
    /// Each picture's scale in the last frame: a picture whose scale changes (a pinch, a zoom animation) is
    /// drawn directly, with nearest-pixel filtering in software; once it holds still it is kept.
    var lastScales: [PictureID: Double] = [:]
    /// Every SDL call of a frame goes through here.
    let calls: DrawCalls
    var seenScales: [PictureID: Double] = [:]

    init(display: Display, images: ImageStore) {
        self.display = display
        let renderer = display.renderer
        self.images = images
        calls = DrawCalls(renderer: renderer)
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        truncatesRects = info.name.map { String(cString: $0) } == "software"
        layers = truncatesRects ? PictureLayers(screen: display.size) : nil
        dot = makeTexture(display.textures, size: 64) { x, y in
            // A white disc with a one-pixel soft edge.
            let d = ((x - 32) * (x - 32) + (y - 32) * (y - 32)).squareRoot()
            return (255, 255, 255, max(0, min(1, 31.5 - d)))
        }
        home = makeTexture(display.textures, size: 128, HomeIcon.pixel)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    }

    /// Draws the app's current frame at `ms`: takes the tiles decoded since the last frame, draws, and asks for
    /// the tiles the frame missed. Returns the draw list (the benchmark replays it).
    @discardableResult
    func draw(_ app: KioskApp, at ms: Double, screenSize: Size) -> [DrawCommand] {
        frameStart = SDL_GetPerformanceCounter()
        tiles.beginFrame(at: ms)
        var query = TileQuery { [tiles] key in tiles.isLoaded(key) }
        query.opacity = { [tiles] key in tiles.opacity(key) }
        if let transition = app.transition, let outgoing = app.outgoing,
            !transition.reload || shownBeforeReload != nil || snapshots?.transition == transition
        {
            drawTransition(transition, from: outgoing, app: app, at: ms, query: &query)
            return []
        }
        endTransition()
        dropShownBeforeReload()
        let list = app.drawList(tiles: &query)
        scene = app.scene
        self.query = query
        draw(list, paths: app.scene.config.imagePaths, background: app.manifest.background, sceneSize: app.sceneSize)
        scene = nil
        tiles.request(missing: self.query.missing, prefetch: self.query.prefetch)
        return list
    }

    /// Whether the last frame showed the picture as a frame at rest should: no visible tile missing (a stand-in
    /// drawn for it) and none that needs another frame.
    var pictureIsComplete: Bool { query.missing.isEmpty && !pictureNeedsFrame }

    /// Whether the picture needs another frame whatever the app does: a tile blending in (GL renderers), or
    /// decoded and waiting for its upload (more than the last frame's upload budget took).
    var pictureNeedsFrame: Bool { tiles.isBlending || tiles.hasDecodedWaiting }

    // MARK: Scene transitions

    /// The two scenes of the transition running, each kept as it looked when it began (the new one opens at
    /// rest, and touches wait for the end), so each frame of it is two copies. They are drawn on its first two
    /// frames, one each, and both show the old scene (at progress 0 and about 0.01): no frame draws a scene and
    /// mixes two. A reload's old scene is what the screen showed before it.
    var snapshots: (transition: SceneTransition, old: OpaquePointer, new: OpaquePointer?)?

    func drawTransition(
        _ t: SceneTransition, from outgoing: Scene, app: KioskApp, at ms: Double, query: inout TileQuery
    ) {
        if snapshots?.transition != t, t.reload, let shown = shownBeforeReload {
            endTransition()
            shownBeforeReload = nil
            snapshots = (t, shown, nil)
        } else if snapshots?.transition != t {
            endTransition()
            guard let old = snapshot(outgoing, app: app, query: &query) else { return }
            snapshots = (t, old, nil)
            return
        }
        guard let (_, old, kept) = snapshots else { return }
        guard let new = kept else {
            // The frame that draws the new scene shows the old one again (it is a hundredth of the way through):
            // drawing, keeping and mixing in one frame would take it past its time.
            guard let captured = snapshot(app.scene, app: app, query: &query) else { return }
            snapshots = (t, old, captured)
            calls.perform(.blend(old, SDL_BLENDMODE_NONE))
            calls.perform(.copy(old, nil, sdlRect(Rect(origin: .zero, size: display.size))))
            return
        }
        let p = t.progress(at: ms)
        let full = Rect(origin: .zero, size: display.size)
        switch t.style {
        case .zoom where t.rect != nil:
            let small = rotation.rect(t.rect!, in: app.sceneSize)
            // Growing: the old scene stays, the new one grows out of the hotspot; shrinking: the old one shrinks
            // into the hotspot of the scene it came from, which is already there beneath.
            let (under, over, from, to) = t.shrinks ? (new, old, full, small) : (old, new, small, full)
            calls.perform(.blend(under, SDL_BLENDMODE_NONE))
            calls.perform(.copy(under, nil, sdlRect(full)))
            let r = Rect(
                x: from.minX + (to.minX - from.minX) * p, y: from.minY + (to.minY - from.minY) * p,
                width: from.width + (to.width - from.width) * p, height: from.height + (to.height - from.height) * p)
            calls.perform(.blend(over, SDL_BLENDMODE_NONE))
            calls.perform(.copyF(over, nil, frect(r)))
        default:
            // At either end one scene alone is a plain copy (blending at full alpha is the slowest copy there is).
            let alpha = channel(p)
            if alpha < 255 {
                calls.perform(.blend(old, SDL_BLENDMODE_NONE))
                calls.perform(.copy(old, nil, sdlRect(full)))
            }
            guard alpha > 0 else { return }
            calls.perform(.blend(new, alpha < 255 ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE))
            calls.perform(.alpha(new, alpha))
            calls.perform(.copy(new, nil, sdlRect(full)))
        }
    }

    /// Draws `scene` as a frame at rest shows it (its pictures kept at their scale, filtered) and keeps it.
    func snapshot(_ scene: Scene, app: KioskApp, query: inout TileQuery) -> OpaquePointer? {
        self.scene = scene
        self.query = query
        snapshotting = true
        draw(
            app.drawList(of: scene, tiles: &self.query), paths: scene.config.imagePaths,
            background: app.manifest.background, sceneSize: app.sceneSize)
        snapshotting = false
        self.scene = nil
        query = self.query
        tiles.request(missing: query.missing, prefetch: query.prefetch)
        return captureScreen()
    }

    /// A snapshot is being drawn: its pictures are drawn as at rest, however they moved before.
    var snapshotting = false

    func endTransition() {
        guard let (_, old, new) = snapshots else { return }
        spareSnapshots += [old] + (new.map { [$0] } ?? [])
        snapshots = nil
    }

    /// Screen-sized textures of ended transitions, kept for the next (the attract loop has one every step, and
    /// a new texture costs as much as the copy into it); let go when the screen settles.
    var spareSnapshots: [OpaquePointer] = []

    // MARK: A reload's fade

    /// What the screen showed before new content replaced the old: a reload's transition fades from it (the old
    /// content's pictures are gone by its first frame).
    var shownBeforeReload: OpaquePointer?

    /// Keeps what the frame drawn so far shows (call before presenting the frame after which the content
    /// changes).
    func keepForReload() {
        dropShownBeforeReload()
        shownBeforeReload = captureScreen()
    }

    func dropShownBeforeReload() {
        if let t = shownBeforeReload { spareSnapshots.append(t) }
        shownBeforeReload = nil
    }

    /// What the target shows now, as a texture that blends (nil when the renderer cannot read it back).
    func captureScreen() -> OpaquePointer? {
        let w = Int32(display.size.width)
        let h = Int32(display.size.height)
        let format = display.textures.opaqueFormat
        guard
            let texture = spareSnapshots.popLast()
                ?? SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), w, h)
        else { return nil }
        var pixels: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        guard SDL_LockTexture(texture, nil, &pixels, &pitch) == 0, let pixels else {
            SDL_DestroyTexture(texture)
            return nil
        }
        let read = SDL_RenderReadPixels(renderer, nil, format, pixels, pitch)
        SDL_UnlockTexture(texture)
        guard read == 0 else {
            SDL_DestroyTexture(texture)
            return nil
        }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        SDL_SetTextureAlphaMod(texture, 255)
        return texture
    }

    /// New content replaces the old: its images are retired (but those it shows unchanged), its kept pictures
    /// dropped.
    func contentChanged(keeping paths: Set<String>) {
        images.retire(keeping: paths)
        layers?.drop()
        lastScales = [:]
        seenScales = [:]
    }

    /// Draws one frame of `list` for a scene of `sceneSize` whose images are `paths`. The list covers the whole
    /// screen (its `background` commands fill what no picture covers): nothing is cleared first.
    func draw(_ list: [DrawCommand], paths: [String], background: RGB, sceneSize: Size) {
        box = sceneSize
        shift = .zero
        self.background = background
        layers?.nextFrame()
        lastScales = seenScales
        seenScales = [:]
        for command in list { execute(command, paths: paths) }
    }

    /// The screen has held still for a while: what the last frame did not draw is let go, and the heap's free
    /// pages go back to the system.
    func settle() {
        for t in spareSnapshots { SDL_DestroyTexture(t) }
        spareSnapshots = []
        tiles.settle()
        layers?.settle()
        kiosk_trim_heap()
    }

    /// Executes `commands` whose rectangles are turned in `box` and land `shift` pixels back on the target (a
    /// part of a kept picture), filtered with `scaleMode` if given; the frame's own placement is restored after.
    func execute(
        _ commands: [DrawCommand], paths: [String], box: Size, shift: Point, scaleMode: SDL_ScaleMode? = nil,
        target: Size? = nil
    ) {
        let saved = (self.box, self.shift, self.scaleMode, self.targetSize)
        defer { (self.box, self.shift, self.scaleMode, self.targetSize) = saved }
        self.box = box
        self.shift = shift
        if let target { targetSize = target }
        if let scaleMode { self.scaleMode = scaleMode }
        for c in commands { execute(c, paths: paths) }
    }

    /// A rectangle of the scene (or of the kept picture being drawn) on the target, in its pixels.
    func screen(_ r: Rect) -> Rect {
        let t = rotation.rect(r, in: box)
        return Rect(x: t.minX - shift.x, y: t.minY - shift.y, width: t.width, height: t.height)
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
            copy(texture, source: source * e.scale, destination: destination)
        case .tile(let key, let source, let destination, let opacity):
            guard let texture = tiles.texture(key) else {
                placeholder(destination)
                return
            }
            // Opaque tiles are copied (blending is slow in software), except while one blends in over its stand-in.
            let opaque = isOpaqueTexture(texture)
            calls.perform(.blend(texture, opaque && opacity >= 1 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND))
            calls.perform(.alpha(texture, channel(opacity)))
            copy(texture, source: source, destination: destination)
        case .placeholder(let destination):
            placeholder(destination)
        case .fill(let rect, let color):
            setColor(color)
            calls.perform(.fillF(frect(screen(rect))))
        case .background(let rect):
            // Whole pixels, outward: a picture drawn after it covers any pixel it shares.
            calls.perform(.color(background.r, background.g, background.b, 255))
            let r = screen(rect)
            let x0 = r.minX.rounded(.down)
            let y0 = r.minY.rounded(.down)
            let whole = SDL_Rect(
                x: Int32(x0), y: Int32(y0), w: Int32(r.maxX.rounded(.up) - x0), h: Int32(r.maxY.rounded(.up) - y0))
            calls.perform(.fill(whole))
        case .dot(let center, let radius, let color):
            guard let dot else { return }
            calls.perform(.colorMod(dot, channel(color.red), channel(color.green), channel(color.blue)))
            calls.perform(.alpha(dot, channel(color.alpha)))
            let r = frect(
                screen(Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)))
            calls.perform(.copyF(dot, nil, r))
        case .homeButton(let rect):
            guard let home else { return }
            calls.perform(.copyF(home, nil, frect(screen(rect))))
        case .picture(let picture, let commands):
            let id = PictureID(scene: scene?.config.id ?? "", index: picture.index)
            let moving = lastScales[id] != picture.scale && !snapshotting
            seenScales[id] = picture.scale
            // In software, what is drawn straight from the tiles (a moving zoom, tiles on their way, the stand-ins
            // of a picture at one texture pixel per screen pixel) is filtered to the nearest pixel: it lasts a few
            // frames. What stays on screen is drawn filtered, once, into the kept tiles (and so is all of a
            // transition's snapshot: it stays on screen as long as the transition lasts).
            if layers != nil && !snapshotting { scaleMode = SDL_ScaleModeNearest }
            defer { scaleMode = SDL_ScaleModeLinear }
            if !moving, let layers, let scene, !isUnscaled(commands) {
                layers.draw(picture, in: scene, with: self, paths: paths)
                return
            }
            if moving { layers?.forget(id, except: picture.scale) }
            for c in commands { execute(c, paths: paths) }
        }
    }

    /// When the frame being drawn began (`SDL_GetPerformanceCounter`).
    var frameStart: UInt64 = 0
    /// Whether the frame has time left for work that can wait (a picture's kept tiles): in real time, until
    /// `deferrableWithinMs` of it are spent (tiles uploaded, tiles kept so far); headless on the virtual clock
    /// always, so its screenshots are the same on every run.
    var frameHasRoom: Bool { tiles.synchronous || msSince(frameStart) < Self.deferrableWithinMs }
    /// Half a 60 Hz frame.
    static let deferrableWithinMs = 1000.0 / 60 / 2

    /// A frame took `ms` in all (drawn and presented): the next frame's uploads get what its own drawing left of
    /// `frameWorkMs` (animations draw alike from frame to frame), so uploads do not take a heavy frame past its
    /// time.
    func frameTook(_ ms: Double) {
        let drawing = ms - tiles.uploadedMs
        tiles.uploadBudgetMs = min(
            TileStore.maximumUploadMs, max(TileStore.minimumUploadMs, Self.frameWorkMs - drawing))
    }

    /// What a frame may take with its uploads, leaving the rest of a 60 Hz frame to the system.
    static let frameWorkMs = 12.0

    /// How scaled copies are filtered now.
    var scaleMode = SDL_ScaleModeLinear

    /// Whether a picture is drawn at one texture pixel per screen pixel (then keeping it gains nothing): its
    /// images, or the tiles of its finest level drawn (coarser ones only stand in for tiles on their way).
    func isUnscaled(_ commands: [DrawCommand]) -> Bool {
        let finest = commands.map { if case .tile(let key, _, _, _) = $0 { key.level } else { -1 } }.max() ?? -1
        return commands.allSatisfy { c in
            if case .tile(let key, _, _, _) = c, key.level < finest { return true }
            return isUnscaled(c)
        }
    }

    /// Whether a picture's command copies one texture pixel to one screen pixel.
    func isUnscaled(_ command: DrawCommand) -> Bool {
        switch command {
        case .image(let index, let source, let destination):
            guard let paths = scene?.config.imagePaths, index < paths.count else { return false }
            let k = images.entry(paths[index]).scale
            return abs(destination.width / (source.width * k) - 1) < Self.unitScaleTolerance
        case .tile(_, let source, let destination, _):
            return abs(destination.width / source.width - 1) < Self.unitScaleTolerance
        default:
            return true
        }
    }

    /// Copies `source` (pixels of the texture as it was before the turn) onto `destination` (scene points).
    func copy(_ texture: OpaquePointer, source: Rect, destination: Rect) {
        var w: Int32 = 0
        var h: Int32 = 0
        SDL_QueryTexture(texture, nil, nil, &w, &h)
        let turned = Size(width: Double(w), height: Double(h))
        let size = rotation.swapsAxes ? Size(width: turned.height, height: turned.width) : turned
        let s = rotation.rect(source, in: size)
        let d = screen(destination)
        guard s.width > 0, s.height > 0, d.width > 0, d.height > 0 else { return }
        let fx = d.width / s.width
        let fy = d.height / s.height
        if abs(fx - 1) < Self.unitScaleTolerance && abs(fy - 1) < Self.unitScaleTolerance {
            copyUnscaled(texture, size: turned, source: s, destination: d)
        } else {
            copyScaled(texture, source: s, destination: d)
        }
    }

    /// How close to one texture pixel per screen pixel a copy must be to be drawn as a plain copy.
    static let unitScaleTolerance = 1e-6

    /// One texture pixel per screen pixel: the destination's edges rounded to whole pixels (so neighbouring
    /// copies meet exactly), the source moved by the same whole number of pixels.
    func copyUnscaled(_ texture: OpaquePointer, size: Size, source s: Rect, destination d: Rect) {
        let dx = (d.minX - s.minX).rounded()
        let dy = (d.minY - s.minY).rounded()
        // Whole destination pixels, kept within the texture.
        let x0 = max(d.minX.rounded(), dx)
        let y0 = max(d.minY.rounded(), dy)
        let x1 = min(d.maxX.rounded(), dx + size.width)
        let y1 = min(d.maxY.rounded(), dy + size.height)
        guard x1 > x0, y1 > y0 else { return }
        let src = SDL_Rect(x: Int32(x0 - dx), y: Int32(y0 - dy), w: Int32(x1 - x0), h: Int32(y1 - y0))
        let dst = SDL_Rect(x: Int32(x0), y: Int32(y0), w: Int32(x1 - x0), h: Int32(y1 - y0))
        calls.perform(.copy(texture, src, dst))
    }

    /// SDL takes whole-pixel source rectangles: the source is widened to whole pixels and the destination
    /// widened by the same amount, so a zoomed image lands exactly where the engine says (the clip trims it). In
    /// software, the copy is cut into pieces instead (`copyInPieces`).
    func copyScaled(_ texture: OpaquePointer, source s: Rect, destination d: Rect) {
        calls.perform(.scaleMode(texture, scaleMode))
        if truncatesRects {
            copyInPieces(texture, source: s, destination: d)
            return
        }
        let x0 = s.minX.rounded(.down)
        let y0 = s.minY.rounded(.down)
        let x1 = s.maxX.rounded(.up)
        let y1 = s.maxY.rounded(.up)
        guard x1 > x0, y1 > y0 else { return }
        let fx = d.width / s.width
        let fy = d.height / s.height
        let src = SDL_Rect(x: Int32(x0), y: Int32(y0), w: Int32(x1 - x0), h: Int32(y1 - y0))
        let dst = SDL_FRect(
            x: Float(d.minX - (s.minX - x0) * fx), y: Float(d.minY - (s.minY - y0) * fy),
            w: Float((x1 - x0) * fx), h: Float((y1 - y0) * fy))
        let clip = SDL_Rect(
            x: Int32(d.minX.rounded(.down)), y: Int32(d.minY.rounded(.down)),
            w: Int32(d.maxX.rounded(.up) - d.minX.rounded(.down)),
            h: Int32(d.maxY.rounded(.up) - d.minY.rounded(.down)))
        calls.perform(.clip(clip))
        calls.perform(.copyF(texture, src, dst))
        calls.perform(.clip(nil))
    }

    /// The software renderer scales a copy that crosses its target's edge into a temporary surface as large as
    /// the whole copy (for a stand-in magnified 30 times, the screen and more: megabytes allocated, zeroed and
    /// freed for each such copy), and one cut by a clip rectangle loses its proportion. So a scaled copy is cut into at most nine whole-pixel
    /// copies within the visible part: the source pixels seen whole, and the rows and columns seen in part at
    /// its edges, each stretched over just its visible pixels.
    func copyInPieces(_ texture: OpaquePointer, source s: Rect, destination d: Rect) {
        let columns = Self.pieces(
            source: s.minX, s.maxX, destination: d.minX, d.maxX, visible: max(0, d.minX.rounded(.down)),
            min(targetSize.width, d.maxX.rounded(.up)))
        let rows = Self.pieces(
            source: s.minY, s.maxY, destination: d.minY, d.maxY, visible: max(0, d.minY.rounded(.down)),
            min(targetSize.height, d.maxY.rounded(.up)))
        for row in rows {
            for column in columns {
                let src = SDL_Rect(x: column.source, y: row.source, w: column.count, h: row.count)
                let dst = SDL_Rect(x: column.start, y: row.start, w: column.end - column.start, h: row.end - row.start)
                calls.perform(.copy(texture, src, dst))
            }
        }
    }

    /// One axis of a scaled copy cut into pieces: source pixels `source..<source+count` land on target pixels
    /// `start..<end`. A target pixel shows the source pixel under its centre; the first and last pieces may be
    /// source pixels seen in part, the middle one the pixels seen whole.
    struct Piece: Equatable {
        var source: Int32
        var count: Int32
        var start: Int32
        var end: Int32
    }

    /// At most three pieces, kept inline (a frame makes thousands of these: no heap allocation).
    struct Pieces: RandomAccessCollection {
        var items = (
            Piece(source: 0, count: 0, start: 0, end: 0), Piece(source: 0, count: 0, start: 0, end: 0),
            Piece(source: 0, count: 0, start: 0, end: 0)
        )
        var endIndex = 0
        var startIndex: Int { 0 }

        subscript(i: Int) -> Piece {
            switch i {
            case 0: items.0
            case 1: items.1
            default: items.2
            }
        }

        mutating func append(_ piece: Piece) {
            switch endIndex {
            case 0: items.0 = piece
            case 1: items.1 = piece
            default: items.2 = piece
            }
            endIndex += 1
        }
    }

    /// The pieces of source pixels `s0..<s1` (fractional ends allowed) drawn over `d0..<d1`, within the target
    /// pixels `lo..<hi`.
    static func pieces(
        source s0: Double, _ s1: Double, destination d0: Double, _ d1: Double, visible lo: Double, _ hi: Double
    )
        -> Pieces
    {
        guard hi > lo, s1 > s0, d1 > d0 else { return Pieces() }
        let f = (d1 - d0) / (s1 - s0)
        let first = s0.rounded(.down)
        let last = s1.rounded(.up) - 1
        /// The source pixel under target pixel `p`'s centre, and the first target pixel that shows pixel `i`
        /// (`edge`), within view (`boundary`).
        func column(_ p: Double) -> Double { min(last, max(first, (s0 + (p + 0.5 - d0) / f).rounded(.down))) }
        func edge(_ i: Double) -> Double {
            var e = (d0 + (i - s0) * f - 0.5).rounded(.up)
            // The outermost pixels also fill the view's whole pixels past the copy's fractional ends.
            if i <= first { return min(lo, e) }
            if i > last { return max(hi, e) }
            // A centre on the edge between two source pixels lands on either side by a rounding error: the
            // edge agrees with `column`, so no target pixel falls between two pieces.
            if column(e - 1) >= i {
                e -= 1
            } else if column(e) < i {
                e += 1
            }
            return e
        }
        func boundary(_ i: Double) -> Double { min(hi, max(lo, edge(i))) }
        let a = column(lo)
        let b = column(hi - 1)
        // The pixels seen whole: from the first that starts within view to the last that ends within it.
        let wholeFirst = edge(a) >= lo ? a : a + 1
        let wholeLast = edge(b + 1) <= hi ? b : b - 1
        var out = Pieces()
        func add(_ i: Double, _ n: Double, _ start: Double, _ end: Double) {
            guard end > start, n > 0 else { return }
            out.append(Piece(source: Int32(i), count: Int32(n), start: Int32(start), end: Int32(end)))
        }
        if wholeFirst > wholeLast {
            // No pixel seen whole: at most two pixels, each in part.
            add(a, 1, lo, a == b ? hi : boundary(b))
            if a != b { add(b, 1, boundary(b), hi) }
            return out
        }
        if wholeFirst > a { add(a, 1, lo, boundary(wholeFirst)) }
        add(wholeFirst, wholeLast - wholeFirst + 1, boundary(wholeFirst), boundary(wholeLast + 1))
        if wholeLast < b { add(b, 1, boundary(wholeLast + 1), hi) }
        return out
    }

    /// A broken image: a dark panel with a frame and a cross, so a visitor sees "no picture here", not a hole.
    func placeholder(_ rect: Rect) {
        calls.perform(.color(0x3A, 0x3A, 0x42, 255))
        let r = frect(screen(rect))
        calls.perform(.fillF(r))
        calls.perform(.color(0x8A, 0x8A, 0x96, 255))
        calls.perform(.outline(r))
        calls.perform(.line(r.x, r.y, r.x + r.w, r.y + r.h))
        calls.perform(.line(r.x + r.w, r.y, r.x, r.y + r.h))
    }

    func setColor(_ c: Color) {
        calls.perform(.color(channel(c.red), channel(c.green), channel(c.blue), channel(c.alpha)))
    }

    deinit {
        layers?.removeAll()
        endTransition()
        dropShownBeforeReload()
        for t in [dot, home] + spareSnapshots { if let t { SDL_DestroyTexture(t) } }
    }
}

func channel(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }

func frect(_ r: Rect) -> SDL_FRect {
    SDL_FRect(x: Float(r.minX), y: Float(r.minY), w: Float(r.width), h: Float(r.height))
}

/// A square texture drawn pixel by pixel: `pixel(x, y)` gives r, g, b (0-255) and alpha (0-1) at pixel centres.
func makeTexture(
    _ maker: TextureMaker, size: Int, _ pixel: (Double, Double) -> (UInt8, UInt8, UInt8, Double)
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
    return maker.texture(surface)
}

/// Whether a texture has no alpha channel.
func isOpaqueTexture(_ texture: OpaquePointer) -> Bool {
    var format: UInt32 = 0
    SDL_QueryTexture(texture, &format, nil, nil, nil)
    return TextureMaker.isOpaque32(format)
}

extension Rect {
    static func * (r: Rect, k: Double) -> Rect {
        k == 1 ? r : Rect(x: r.minX * k, y: r.minY * k, width: r.width * k, height: r.height * k)
    }
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

/// A rectangle on whole pixels.
func sdlRect(_ r: Rect) -> SDL_Rect {
    SDL_Rect(
        x: Int32(r.minX.rounded()), y: Int32(r.minY.rounded()), w: Int32(r.width.rounded()),
        h: Int32(r.height.rounded()))
}
