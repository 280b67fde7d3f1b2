import CSDL2
import Kiosk
import ScrollEngine

/// A picture of a scene: its scene and image index.
struct PictureID: Hashable {
    var scene: String
    var index: Int
}

/// Pictures kept at their settled scale in screen pixels, in square tiles, as a browser keeps raster tiles: a
/// pan at a zoom other than one texture pixel per screen pixel then copies pixels instead of scaling them
/// again every frame. A tile is drawn (scaled, filtered) the first time it is seen and kept, least recently
/// used first out, within a budget of about two screens. Where some of a picture's tiles are still missing or
/// blending in, that part is drawn directly until it is complete.
final class PictureLayers {
    struct Key: Hashable {
        var picture: PictureID
        var scale: Double
        /// The words drawn into it (`Picture.words`: their texts and languages), so that a language switch or
        /// new words draw new tiles instead of showing the old words.
        var words: Int
        var column: Int
        var row: Int
    }

    /// What identifies a picture's words in its kept tiles.
    static func wordsKey(_ picture: Picture) -> Int {
        picture.words.map { "\($0.language)\u{1}\($0.text)" }.hashValue
    }

    /// Screen pixels a side.
    static let tileSize = 256
    var tiles: [Key: (texture: OpaquePointer, used: Int)] = [:]
    /// The render target a tile is drawn in (one a pixel format), before its pixels are kept.
    var scratch: [UInt32: OpaquePointer] = [:]
    var frame = 0
    /// How many tiles are kept at most.
    let budgetTiles: Int

    init(screen: Size) {
        let t = Double(Self.tileSize)
        // About two screens of tiles, and never fewer than cover one with a tile's margin all round.
        let cover = ((screen.width / t).rounded(.up) + 1) * ((screen.height / t).rounded(.up) + 1)
        budgetTiles = max(Int(cover), Int((2 * screen.width * screen.height / (t * t)).rounded(.up)))
    }

    /// Tiles drawn and kept in one frame at most (each is about a third of a millisecond in software), and
    /// none once the frame has spent half its time (`Renderer.frameHasRoom`).
    static let rastersPerFrame = 12
    var rasteredThisFrame = 0

    func nextFrame() {
        frame += 1
        rasteredThisFrame = 0
        // Tiles of pictures no longer on screen (another scene, a page swiped away) go after a second.
        guard frame % 60 == 0 else { return }
        drop { $1.used + 60 < frame }
    }

    /// Destroys the kept tiles `which` picks.
    func drop(where which: (Key, (texture: OpaquePointer, used: Int)) -> Bool = { _, _ in true }) {
        for (key, value) in tiles where which(key, value) {
            SDL_DestroyTexture(value.texture)
            tiles[key] = nil
        }
    }

    /// Draws the visible part of `picture` from kept tiles, drawing the missing ones first. While its scale
    /// `moves` (a pinch, a zoom's animation) nothing is kept; a picture whose words would cost more than its
    /// pixels (`wordsOutweighPixels`) is then drawn, like a square whose tile is not kept yet, from the tiles kept
    /// at its last scale, magnified or shrunk, as UIKit shows a zooming view's layer scaled and draws it anew
    /// once it rests.
    func draw(_ picture: Picture, in scene: Scene, with r: Renderer, context: DrawContext, moves: Bool = false) {
        let t = Self.tileSize
        let whole = context.screen(picture.frame)
        // The picture lands on whole pixels (UIKit rounds to device pixels too).
        let ox = Int(whole.minX.rounded())
        let oy = Int(whole.minY.rounded())
        let width = Int(whole.width.rounded())
        let height = Int(whole.height.rounded())
        let clip = context.screen(picture.clip)
        let bounds = r.display.size
        // The visible part, in the picture's own pixels.
        let x0 = max(0, Int(max(clip.minX, 0).rounded()) - ox)
        let y0 = max(0, Int(max(clip.minY, 0).rounded()) - oy)
        let x1 = min(width, Int(min(clip.maxX, bounds.width).rounded()) - ox)
        let y1 = min(height, Int(min(clip.maxY, bounds.height).rounded()) - oy)
        guard x1 > x0, y1 > y0 else { return }
        let id = PictureID(scene: scene.config.id, index: picture.index)
        let words = Self.wordsKey(picture)
        let standIn = Self.wordsOutweighPixels(picture) ? lastScale(of: id, words: words, besides: picture.scale) : nil
        // The picture's size after the turn (its local pixels), to turn squares of it back into its points.
        let turned =
            r.rotation.swapsAxes ? Size(width: picture.frame.height, height: picture.frame.width) : picture.frame.size
        // The kept tiles' copies are made together, screen row by screen row (`RowCopy.batch`).
        r.calls.batch {
            for row in (y0 / t)...((y1 - 1) / t) {
                for column in (x0 / t)...((x1 - 1) / t) {
                    // The tile's part that is visible and within the picture.
                    let left = max(x0, column * t)
                    let top = max(y0, row * t)
                    let right = min(x1, (column + 1) * t)
                    let bottom = min(y1, (row + 1) * t)
                    let key = Key(picture: id, scale: picture.scale, words: words, column: column, row: row)
                    if !moves, let texture = tile(key, picture, turned, scene, r, context) {
                        let src = SDL_Rect(
                            x: Int32(left - column * t), y: Int32(top - row * t), w: Int32(right - left),
                            h: Int32(bottom - top))
                        let dst = SDL_Rect(x: Int32(ox + left), y: Int32(oy + top), w: src.w, h: src.h)
                        r.calls.perform(.copy(texture, src, dst))
                        continue
                    }
                    let part = Rect(
                        x: Double(left), y: Double(top), width: Double(right - left), height: Double(bottom - top))
                    if let standIn,
                        drawScaled(
                            part, of: key, keptAt: standIn, size: Size(width: whole.width, height: whole.height),
                            origin: Point(x: Double(ox), y: Double(oy)), with: r, context: context)
                    {
                        continue
                    }
                    // Some of it is still loading or blending in: that part is drawn as it is, this frame, and kept
                    // once complete.
                    let commands = r.withTilesAtHand {
                        scene.pictureCommands(picture, region: r.rotation.inverse.rect(part, in: turned), tiles: &$0)
                    }
                    var inPart = context.within(box: picture.frame.size, shift: Point(x: Double(-ox), y: Double(-oy)))
                    inPart.part = Rect(
                        x: Double(ox + left), y: Double(oy + top), width: Double(right - left),
                        height: Double(bottom - top)
                    )
                    r.execute(commands, in: inPart)
                }
            }
        }
    }

    /// How many times its visible part a picture's words may cover before a square of it is drawn from its tiles
    /// at another scale rather than with its words again: twenty words each as large as the picture made a
    /// zoom's frame twenty screens of blending (216 ms in software); a map's labels cover a fraction of it.
    static let wordsCoverLimit = 1.0

    /// Whether the words of `picture` (their boxes, within its visible part) cover more than `wordsCoverLimit`
    /// times that part.
    static func wordsOutweighPixels(_ picture: Picture) -> Bool {
        let visible = intersection(picture.frame, picture.clip)
        guard visible.width > 0, visible.height > 0, !picture.words.isEmpty else { return false }
        let origin = picture.frame.origin
        let covered = picture.words.reduce(0.0) { sum, run in
            let box = Rect(
                x: origin.x + run.rect.minX, y: origin.y + run.rect.minY, width: run.rect.width,
                height: run.rect.height)
            let seen = intersection(box, visible)
            return sum + max(0, seen.width) * max(0, seen.height)
        }
        return covered > Self.wordsCoverLimit * visible.width * visible.height
    }

    /// The scale the picture's tiles with these words were last drawn at, other than `scale`.
    func lastScale(of picture: PictureID, words: Int, besides scale: Double) -> Double? {
        tiles.filter { $0.key.picture == picture && $0.key.words == words && $0.key.scale != scale }
            .max { $0.value.used < $1.value.used }?.key.scale
    }

    /// Draws `part` of a picture (its pixels at its scale, `size` in all, placed at `origin` on the target) from
    /// its tiles kept at scale `kept`, scaled; false, drawing nothing, where one of them is not kept.
    func drawScaled(
        _ part: Rect, of key: Key, keptAt kept: Double, size: Size, origin: Point, with r: Renderer,
        context: DrawContext
    ) -> Bool {
        let t = Double(Self.tileSize)
        let f = key.scale / kept
        // The part in the kept pixels, within the picture as it was kept (its last column and row of tiles
        // reach past its edge).
        let keptSize = Size(width: (size.width / f).rounded(), height: (size.height / f).rounded())
        let within = intersection(
            Rect(x: part.minX / f, y: part.minY / f, width: part.width / f, height: part.height / f),
            Rect(origin: .zero, size: keptSize))
        guard within.width > 0, within.height > 0 else { return false }
        var found: [(Key, OpaquePointer)] = []
        for row in Int(within.minY / t)...Int((within.maxY / t).rounded(.up) - 1) {
            for column in Int(within.minX / t)...Int((within.maxX / t).rounded(.up) - 1) {
                let k = Key(picture: key.picture, scale: kept, words: key.words, column: column, row: row)
                guard let texture = tiles[k]?.texture else { return false }
                found.append((k, texture))
            }
        }
        var inPart = context
        inPart.part = Rect(
            x: origin.x + part.minX, y: origin.y + part.minY, width: part.width, height: part.height)
        for (k, texture) in found {
            tiles[k]?.used = frame
            let square = Rect(x: Double(k.column) * t, y: Double(k.row) * t, width: t, height: t)
            let piece = intersection(square, within)
            r.copyScaled(
                texture,
                source: Rect(
                    x: piece.minX - square.minX, y: piece.minY - square.minY, width: piece.width,
                    height: piece.height),
                destination: Rect(
                    x: origin.x + piece.minX * f, y: origin.y + piece.minY * f, width: piece.width * f,
                    height: piece.height * f),
                in: inPart)
        }
        return true
    }

    /// A kept tile, or one drawn now and kept; nil while its part of the picture is incomplete (tiles missing
    /// or blending in), which is then not worth keeping.
    func tile(
        _ key: Key, _ picture: Picture, _ turned: Size, _ scene: Scene, _ r: Renderer, _ context: DrawContext
    )
        -> OpaquePointer?
    {
        if let kept = tiles[key] {
            tiles[key] = (kept.texture, frame)
            return kept.texture
        }
        let t = Self.tileSize
        // The tile's square, in the picture's points (placed at the origin, before the turn).
        let square = Rect(x: Double(key.column * t), y: Double(key.row * t), width: Double(t), height: Double(t))
        let missingBefore = r.query.missing.count
        let commands = r.withTilesAtHand {
            scene.pictureCommands(picture, region: r.rotation.inverse.rect(square, in: turned), tiles: &$0)
        }
        let complete =
            r.query.missing.count == missingBefore
            && !commands.contains { c in
                switch c {
                case .tile(let key, _, _, let o): o < 1 || r.tiles.loading.contains(key.image)
                case .image(let i, _, _): i < context.paths.count && r.images.isLoading(context.paths[i])
                default: false
                }
            }
        // A few tiles a frame: more would take the frame past its time (the rest are drawn directly for now).
        guard complete && rasteredThisFrame < Self.rastersPerFrame && r.frameHasRoom else { return nil }
        rasteredThisFrame += 1
        let format = picture.isOpaque ? r.display.textures.opaqueFormat : SDL_PIXELFORMAT_ARGB8888.rawValue
        guard let target = scratch[format] ?? r.calls.createTarget(format: format, width: Int32(t), height: Int32(t))
        else { return nil }
        scratch[format] = target
        r.calls.perform(.target(target))
        // An opaque picture covers every pixel of the tile that is copied (the rest, past its edge, never is); one
        // with alpha is drawn over nothing.
        if !picture.isOpaque {
            r.calls.perform(.color(0, 0, 0, 0))
            r.calls.perform(.clear)
        }
        r.execute(
            commands,
            in: context.within(
                box: picture.frame.size, shift: Point(x: square.minX, y: square.minY),
                targetSize: Size(width: Double(t), height: Double(t)), scaleMode: SDL_ScaleModeLinear))
        // What the target now holds, read into a streaming texture, which the frames' plain copies read with
        // the cache bypassed (`RowCopy`); SDL would copy the target's rows with its MMX loop.
        let kept = r.calls.keepTarget(format: format, width: Int32(t), height: Int32(t), opaque: picture.isOpaque)
        r.calls.perform(.target(nil))
        guard let kept else { return nil }
        tiles[key] = (kept, frame)
        evict()
        return kept
    }

    /// Lets go of a picture's tiles kept at other scales than `scale` (it is zooming: they will not be drawn
    /// again unless it comes back to exactly that scale, and then they are drawn anew). With `keepingLast` (a
    /// picture whose words outweigh its pixels), those of the last scale it rested at stay: they stand in while it
    /// moves. Other pictures keep none: a screenful of tiles is 8 MiB at 1920x1080.
    func forget(_ picture: PictureID, except scale: Double, keepingLast: Bool) {
        let last =
            keepingLast
            ? tiles.filter { $0.key.picture == picture }.max { $0.value.used < $1.value.used }?.key.scale : nil
        drop { key, _ in key.picture == picture && key.scale != scale && key.scale != last }
    }

    /// Once the screen holds still: the tiles the last frame did not draw go.
    func settle() {
        drop { $1.used < frame }
    }

    /// Drops the least recently used tiles beyond the budget (never one used this frame).
    func evict() {
        guard tiles.count > budgetTiles else { return }
        let old = tiles.filter { $0.value.used < frame }.sorted { $0.value.used < $1.value.used }
        for (key, value) in old.prefix(tiles.count - budgetTiles) {
            SDL_DestroyTexture(value.texture)
            tiles[key] = nil
        }
    }

    var bytes: Int { tiles.count * Self.tileSize * Self.tileSize * 4 }

    func removeAll() {
        drop()
        for t in scratch.values { SDL_DestroyTexture(t) }
        scratch = [:]
    }
}
