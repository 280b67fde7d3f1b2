import CSDL2

/// How a film's decoded frames become a texture. For a GPU renderer, as YUV: the GPU converts it as it draws.
/// For SDL's software renderer, converted to RGB in the screen's own format as each frame arrives: SDL keeps a
/// YUV texture as ARGB8888 there, and a scaled copy of it onto the XRGB8888 screen goes through a screen-sized
/// surface allocated and zeroed for every copy (SDL 2.26's linear scaling between two formats): 9 to 14 ms a
/// frame for a 960x540 film filling a 1920x1080 screen on this project's machines, against a few ms for the same
/// copy between one format.
final class FilmUpload {
    let renderer: OpaquePointer
    /// The screen's format, where the software renderer draws; nil for a GPU renderer.
    let rgbFormat: UInt32?
    /// A frame's planes one after another, as `SDL_ConvertPixels` takes them (a decoder's are apart); kept from
    /// frame to frame.
    private var contiguous: [UInt8] = []

    init(renderer: OpaquePointer, rgbFormat: UInt32?) {
        self.renderer = renderer
        self.rgbFormat = rgbFormat
    }

    /// A texture for `picture`'s frames: `current` when it fits them, else a new one (`current` destroyed).
    func texture(for picture: VideoPlayer.Picture, reusing current: OpaquePointer?) -> OpaquePointer? {
        let format =
            rgbFormat ?? (picture.nv12 ? SDL_PIXELFORMAT_NV12.rawValue : SDL_PIXELFORMAT_IYUV.rawValue)
        if let t = current {
            var now: UInt32 = 0
            var w: Int32 = 0
            var h: Int32 = 0
            if SDL_QueryTexture(t, &now, nil, &w, &h) == 0, now == format, w == picture.width, h == picture.height {
                return t
            }
            SDL_DestroyTexture(t)
        }
        return SDL_CreateTexture(
            renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), picture.width, picture.height)
    }

    /// `picture` into `texture` (made by `texture(for:reusing:)`).
    func update(_ texture: OpaquePointer, with picture: VideoPlayer.Picture) {
        guard let rgbFormat else {
            if picture.nv12 {
                _ = SDL_UpdateNVTexture(
                    texture, nil, picture.planes.0, picture.pitches.0, picture.planes.1, picture.pitches.1)
            } else {
                _ = SDL_UpdateYUVTexture(
                    texture, nil, picture.planes.0, picture.pitches.0, picture.planes.1, picture.pitches.1,
                    picture.planes.2, picture.pitches.2)
            }
            return
        }
        let (w, h) = (Int(picture.width), Int(picture.height))
        // The layout SDL reads a planar frame in: Y rows of `pitch`, then the chroma rows, half as many: NV12's
        // interleaved at the same pitch, IYUV's U then V at half of it.
        let pitch = w
        let chromaRows = (h + 1) / 2
        let chromaPitch = picture.nv12 ? 2 * ((w + 1) / 2) : (w + 1) / 2
        let planes =
            picture.nv12
            ? [
                (picture.planes.0, picture.pitches.0, w, h),
                (picture.planes.1, picture.pitches.1, chromaPitch, chromaRows),
            ]
            : [
                (picture.planes.0, picture.pitches.0, w, h),
                (picture.planes.1, picture.pitches.1, chromaPitch, chromaRows),
                (picture.planes.2, picture.pitches.2, chromaPitch, chromaRows),
            ]
        let size = planes.reduce(0) { $0 + $1.2 * $1.3 }
        if contiguous.count < size { contiguous = [UInt8](repeating: 0, count: size) }
        var pixels: UnsafeMutableRawPointer?
        var texturePitch: Int32 = 0
        guard SDL_LockTexture(texture, nil, &pixels, &texturePitch) == 0, let pixels else { return }
        defer { SDL_UnlockTexture(texture) }
        contiguous.withUnsafeMutableBytes { out in
            var at = 0
            for (plane, planePitch, rowBytes, rows) in planes {
                guard let plane else { return }
                for row in 0..<rows {
                    (out.baseAddress! + at + row * rowBytes).copyMemory(
                        from: plane + row * Int(planePitch), byteCount: rowBytes)
                }
                at += rowBytes * rows
            }
            let format = picture.nv12 ? SDL_PIXELFORMAT_NV12.rawValue : SDL_PIXELFORMAT_IYUV.rawValue
            _ = SDL_ConvertPixels(
                picture.width, picture.height, format, out.baseAddress, Int32(pitch), rgbFormat, pixels, texturePitch)
        }
    }
}
