import Kiosk
import ScrollEngine

/// How a film's frames are seen: turned clockwise by `rotation` degrees (0, 90, 180 or 270: a phone's portrait film
/// says so in its display matrix) and their pixels `sampleAspect` times as wide as tall (a PAL 16:9 film's 720x576
/// frames have pixels of 64:45 and are seen 1024x576).
struct FilmDisplay: Equatable, Sendable {
    var rotation = 0
    var sampleAspect = 1.0

    /// The size a frame of `size` pixels is seen at: widened by its pixels' aspect, then turned.
    func seen(_ size: Size) -> Size {
        let w = size.width * sampleAspect
        return rotation % 180 == 0 ? Size(width: w, height: size.height) : Size(width: size.height, height: w)
    }

    /// The part of a frame of `size` pixels that `r` (a rectangle of the frame as seen) shows.
    func pixels(of r: Rect, in size: Size) -> Rect {
        let (ws, hs) = (size.width * sampleAspect, size.height)
        let (x0, x1, y0, y1) = (r.minX, r.maxX, r.minY, r.maxY)
        let (x, y): ((Double, Double), (Double, Double)) =
            switch rotation {
            case 90: ((y0, y1), (hs - x1, hs - x0))
            case 180: ((ws - x1, ws - x0), (hs - y1, hs - y0))
            case 270: ((ws - y1, ws - y0), (x0, x1))
            default: ((x0, x1), (y0, y1))
            }
        return Rect(
            x: x.0 / sampleAspect, y: y.0, width: (x.1 - x.0) / sampleAspect, height: y.1 - y.0)
    }
}

extension VideoShot {
    /// Where the film lands in its box (`contain`: whole, centred; `cover`: filling it) and the part of the film
    /// shown (all of it, or the middle that `cover` keeps), for a film of `size` pixels.
    func placement(of size: Size) -> (source: Rect, destination: Rect) {
        let none = Rect(origin: .zero, size: .zero)
        guard size.width > 0, size.height > 0 else { return (none, none) }
        let sx = box.width / size.width
        let sy = box.height / size.height
        switch fit {
        case .contain:
            let s = min(sx, sy)
            let w = size.width * s
            let h = size.height * s
            return (
                Rect(origin: .zero, size: size),
                Rect(x: box.midX - w / 2, y: box.midY - h / 2, width: w, height: h)
            )
        case .cover:
            let s = max(sx, sy)
            let w = box.width / s
            let h = box.height / s
            return (Rect(x: (size.width - w) / 2, y: (size.height - h) / 2, width: w, height: h), box)
        }
    }
}
