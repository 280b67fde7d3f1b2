import CSDL2
import Kiosk
import ScrollEngine

extension Renderer {
    /// A video's frame now, fitted to its box over its poster (which shows until the first frame, and where the
    /// video cannot play). On a turned screen the film is turned as it is copied (its frames are not turned at
    /// upload, as pictures are: each is shown once).
    func drawVideo(_ shot: VideoShot, in context: DrawContext) {
        let screen = Rect(origin: .zero, size: context.box)
        let visible = intersection(shot.box, screen).width > 0 && intersection(shot.box, screen).height > 0
        guard let (texture, size, display) = videos.texture(for: shot, visible: visible) else { return }
        let (seen, destination) = shot.placement(of: display.seen(size))
        let source = display.pixels(of: seen, in: size)
        var src = SDL_Rect(
            x: Int32(source.minX.rounded()), y: Int32(source.minY.rounded()), w: Int32(source.width.rounded()),
            h: Int32(source.height.rounded()))
        // `contain`'s bars are black, not the poster under the film.
        if destination != shot.box {
            calls.perform(.color(0, 0, 0, 255))
            calls.perform(.fillF(frect(context.screen(intersection(shot.box, screen)))))
        }
        let turned = context.screen(destination)
        calls.perform(.blend(texture, SDL_BLENDMODE_NONE))
        // The film turned upright, then with the screen (`--rotate`).
        let angle = (rotation.rawValue + display.rotation) % 360
        guard angle != 0 else {
            calls.perform(.copyF(texture, src, frect(turned)))
            return
        }
        // SDL turns a copy about its centre: the unturned rectangle of the same centre.
        let (w, h) = angle % 180 != 0 ? (turned.height, turned.width) : (turned.width, turned.height)
        var d = SDL_FRect(x: Float(turned.midX - w / 2), y: Float(turned.midY - h / 2), w: Float(w), h: Float(h))
        SDL_RenderCopyExF(renderer, texture, &src, &d, Double(angle), nil, SDL_FLIP_NONE)
    }
}
