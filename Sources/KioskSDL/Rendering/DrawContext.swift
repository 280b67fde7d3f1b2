import CSDL2
import Kiosk
import ScrollEngine

/// Where one draw list lands, passed down with it: the box its rectangles are turned in and where on the target
/// they land, the target's size, the filtering of scaled copies and the scene whose images it names. A kept
/// picture's tile draws its part of the picture in a context of its own; nothing is saved and restored.
struct DrawContext {
    /// The box the rectangles are turned in (the scene, or a kept picture).
    var box: Size
    /// How far back on the target the drawing lands (a kept tile of a picture), in target pixels.
    var shift: Point = .zero
    /// The size of what is drawn on (the screen, or a kept tile), in its pixels.
    var targetSize: Size
    /// How scaled copies are filtered.
    var scaleMode = SDL_ScaleModeLinear
    /// The manifest's background colour.
    var background: RGB
    /// The scene drawn (nil for a list that belongs to none), and the paths its image commands index.
    var scene: Scene?
    var paths: [String]
    /// A snapshot is being drawn: its pictures are drawn as at rest, however they moved before.
    var snapshotting = false
    /// The screen's turn.
    var rotation: Rotation
    /// The only part of the target drawn on (target pixels), where a copy draws only part of itself: a picture's
    /// square drawn directly while its kept tile is incomplete takes only the square of a word that crosses it.
    var part: Rect? = nil

    /// The target pixels a copy may land on: the target, or the part of it.
    var visible: Rect {
        let whole = Rect(origin: .zero, size: targetSize)
        return part.map { intersection($0, whole) } ?? whole
    }

    /// A rectangle of the scene (or of the kept picture being drawn) on the target, in its pixels.
    func screen(_ r: Rect) -> Rect {
        let t = rotation.rect(r, in: box)
        return Rect(x: t.minX - shift.x, y: t.minY - shift.y, width: t.width, height: t.height)
    }

    /// The same scene and filtering, drawn in `box` and landing `shift` pixels back on a target of `targetSize`.
    func within(box: Size, shift: Point, targetSize: Size? = nil, scaleMode: SDL_ScaleMode? = nil) -> DrawContext {
        var c = self
        c.box = box
        c.shift = shift
        if let targetSize { c.targetSize = targetSize }
        if let scaleMode { c.scaleMode = scaleMode }
        return c
    }
}
