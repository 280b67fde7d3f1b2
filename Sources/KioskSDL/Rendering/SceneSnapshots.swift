import CSDL2
import Kiosk

/// Screen-sized pictures a scene change is drawn from: the two scenes of the transition running, what the screen
/// showed before a reload, and the textures of ended transitions kept for the next (the attract loop has one every
/// step, and a new texture costs as much as the copy into it), let go when the screen settles.
final class SceneSnapshots {
    let display: Display
    /// The two scenes of the transition running, each kept as it looked when it began.
    var running: (transition: SceneTransition, old: OpaquePointer, new: OpaquePointer?)?
    /// What the screen showed before new content replaced the old: a reload's transition fades from it (the old
    /// content's pictures are gone by its first frame).
    var shownBeforeReload: OpaquePointer?
    var spare: [OpaquePointer] = []

    init(display: Display) {
        self.display = display
    }

    /// The transition has ended: its pictures are kept for the next.
    func endTransition() {
        guard let (_, old, new) = running else { return }
        spare += [old] + (new.map { [$0] } ?? [])
        running = nil
    }

    /// Keeps what the frame drawn so far shows (call before presenting the frame after which the content
    /// changes).
    func keepForReload() {
        dropShownBeforeReload()
        shownBeforeReload = captureScreen()
    }

    func dropShownBeforeReload() {
        if let t = shownBeforeReload { spare.append(t) }
        shownBeforeReload = nil
    }

    /// The renderer lost its targets' contents (or its device): every kept picture goes; a transition running
    /// draws its scenes again at its next frame.
    func dropAll() {
        endTransition()
        dropShownBeforeReload()
        settle()
    }

    /// The screen has held still: the spare textures are let go.
    func settle() {
        for t in spare { SDL_DestroyTexture(t) }
        spare = []
    }

    /// What the target shows now, as a texture that blends (nil when the renderer cannot read it back).
    func captureScreen() -> OpaquePointer? {
        let renderer = display.renderer
        let w = Int32(display.size.width)
        let h = Int32(display.size.height)
        let format = display.textures.opaqueFormat
        guard
            let texture = spare.popLast()
                ?? SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), w, h)
        else { return nil }
        guard readTarget(renderer, area: nil, format: format, into: texture) else {
            SDL_DestroyTexture(texture)
            return nil
        }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        SDL_SetTextureAlphaMod(texture, 255)
        return texture
    }

    deinit {
        endTransition()
        dropShownBeforeReload()
        settle()
    }
}
