import CSDL2
import Kiosk
import ScrollEngine

/// Words: a text's laid-out lines (`TextStore`) placed in its box by its alignment and direction, centred down,
/// on its plate if it has one.
extension Renderer {
    func drawText(_ run: TextRun, in context: DrawContext) {
        guard let (texture, pixels, scale) = words.texture(for: run) else { return }
        let size = pixels * scale
        let r = run.rect
        let x: Double
        switch (run.align, run.isRightToLeft) {
        case (.center, _): x = r.midX - size.width / 2
        case (.start, false), (.end, true): x = r.minX
        case (.start, true), (.end, false): x = r.maxX - size.width
        }
        let y = r.midY - size.height / 2
        if let plate = run.plate {
            // A plate a little larger than the lines: half the size's height across, a fifth down.
            let padX = run.size * 0.5
            let padY = run.size * 0.2
            setColor(plate)
            calls.perform(
                .fillF(
                    frect(
                        context.screen(
                            Rect(
                                x: x - padX, y: y - padY, width: size.width + 2 * padX, height: size.height + 2 * padY)
                        ))))
        }
        calls.perform(.alpha(texture, 255))
        copy(
            texture, source: Rect(origin: .zero, size: pixels),
            destination: Rect(x: x, y: y, width: size.width, height: size.height), in: context)
    }
}
