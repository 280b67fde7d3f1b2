import CSDL2

/// Which of SDL's renderers draws, chosen on purpose and proved by a picture read back: a renderer that SDL makes
/// but that draws nothing (the desktop `opengl` renderer on kmsdrm's OpenGL ES context: every frame black, Mesa's
/// invalid enums by the hundred) is said in one `<3>` line and the next is tried, down to software. A black
/// screen that reports itself healthy is the worst failure a kiosk can have.
struct RendererChoice {
    /// SDL's software renderer, the last resort on every driver.
    static let software = "software"

    /// The renderers to try, best first, on `videoDriver`: `asked` first where SDL has it (`SDL_RENDER_DRIVER`);
    /// headless only software (the goldens' pixels). On kmsdrm SDL 2.26 makes an OpenGL ES context, which only
    /// `opengles2` draws into (libsdl-org/SDL#4194, #5348); elsewhere SDL's own order of its accelerated renderers.
    static func candidates(videoDriver: String, asked: String?, available: [String], headless: Bool) -> [String] {
        if headless { return [software] }
        var order: [String]
        if videoDriver == "kmsdrm" {
            order = available.contains("opengles2") ? ["opengles2"] : []
        } else {
            order = available.filter { $0 != software }
        }
        order.append(software)
        if let asked, !asked.isEmpty, available.contains(asked) {
            order.removeAll { $0 == asked }
            order.insert(asked, at: 0)
        }
        return order
    }

    /// The first of `candidates` that opens and passes `check`, with the lines that say why each one before it
    /// was passed over; nil when none does (each said in the lines).
    static func first<R>(
        of candidates: [String], open: (String) -> Result<R, Failure>, check: (R) -> String?, close: (R) -> Void
    ) -> (renderer: R, name: String, passedOver: [String])? {
        var passedOver: [String] = []
        for (i, name) in candidates.enumerated() {
            let next = i + 1 < candidates.count ? "; trying \(candidates[i + 1])" : ""
            switch open(name) {
            case .failure(let failure):
                passedOver.append("renderer \(name) could not be made (\(failure.reason))\(next)")
            case .success(let renderer):
                if let wrong = check(renderer) {
                    close(renderer)
                    passedOver.append("renderer \(name) does not draw: \(wrong)\(next)")
                } else {
                    return (renderer, name, passedOver)
                }
            }
        }
        return nil
    }

    /// Why a renderer could not be made (SDL's error).
    struct Failure: Error {
        var reason: String
    }
}

/// A known picture drawn with the calls every frame uses (a clear, a filled rectangle, a texture copied scaled)
/// and read back at the middle of each part: what a renderer that draws nothing, or draws the wrong colours
/// (a texture format the context cannot take), gives back differs.
enum RendererProbe {
    struct Colour: Equatable, CustomStringConvertible {
        var r, g, b: UInt8
        var description: String { "(\(r), \(g), \(b))" }
        /// Within `tolerance` in every channel: a panel of 16 bits a pixel (RGB565) rounds a channel by up to 8.
        func isClose(to other: Colour, tolerance: Int = 24) -> Bool {
            abs(Int(r) - Int(other.r)) <= tolerance && abs(Int(g) - Int(other.g)) <= tolerance
                && abs(Int(b) - Int(other.b)) <= tolerance
        }
    }

    /// The pattern's colours: none black or white, no two alike, each channel different, so a frame left black,
    /// a red and blue swapped (BGRA taken for RGBA) or a missing texture all read back wrong.
    static let background = Colour(r: 16, g: 40, b: 72)
    static let fill = Colour(r: 224, g: 72, b: 32)
    static let textureLeft = Colour(r: 40, g: 200, b: 96)
    static let textureRight = Colour(r: 96, g: 120, b: 240)

    /// Where each colour is drawn, as fractions of the output: the background's quarter left bare, the fill, and
    /// the texture's two halves.
    static let samples: [(x: Double, y: Double, colour: Colour)] = [
        (0.125, 0.5, background), (0.375, 0.5, fill), (0.625, 0.5, textureLeft), (0.875, 0.5, textureRight),
    ]

    /// Draws the pattern on `renderer` (not presented: the first frame covers it) and reads it back; nil when
    /// every sample is right, else what was read where.
    static func check(_ renderer: OpaquePointer) -> String? {
        var w: Int32 = 0
        var h: Int32 = 0
        guard SDL_GetRendererOutputSize(renderer, &w, &h) == 0, w >= 8, h >= 2 else {
            return "no output size (\(sdlError()))"
        }
        guard let texture = patternTexture(renderer) else { return "no texture (\(sdlError()))" }
        defer { SDL_DestroyTexture(texture) }
        let previous = SDL_GetRenderTarget(renderer)
        SDL_SetRenderTarget(renderer, nil)
        defer { SDL_SetRenderTarget(renderer, previous) }
        SDL_SetRenderDrawColor(renderer, background.r, background.g, background.b, 255)
        SDL_RenderClear(renderer)
        SDL_SetRenderDrawColor(renderer, fill.r, fill.g, fill.b, 255)
        var fillRect = SDL_Rect(x: w / 4, y: 0, w: w / 4, h: h)
        SDL_RenderFillRect(renderer, &fillRect)
        var textureRect = SDL_Rect(x: w / 2, y: 0, w: w - w / 2, h: h)
        SDL_RenderCopy(renderer, texture, nil, &textureRect)
        var wrong: [String] = []
        for s in samples {
            var rect = SDL_Rect(x: Int32(Double(w) * s.x), y: Int32(Double(h) * s.y), w: 1, h: 1)
            var pixel: UInt32 = 0
            guard SDL_RenderReadPixels(renderer, &rect, SDL_PIXELFORMAT_ARGB8888.rawValue, &pixel, 4) == 0 else {
                return "cannot read its pixels (\(sdlError()))"
            }
            let read = Colour(
                r: UInt8(truncatingIfNeeded: pixel >> 16), g: UInt8(truncatingIfNeeded: pixel >> 8),
                b: UInt8(truncatingIfNeeded: pixel))
            if !read.isClose(to: s.colour) { wrong.append("\(read) where \(s.colour) was drawn") }
        }
        return wrong.isEmpty ? nil : "read back " + wrong.joined(separator: ", ")
    }

    /// A 16x16 texture, its left half one colour and its right half another, made as the pictures' are
    /// (ARGB8888, uploaded).
    private static func patternTexture(_ renderer: OpaquePointer) -> OpaquePointer? {
        let side = 16
        guard
            let texture = SDL_CreateTexture(
                renderer, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_STATIC.rawValue), Int32(side),
                Int32(side))
        else { return nil }
        func argb(_ c: Colour) -> UInt32 { 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b) }
        let pixels = (0..<side * side).map { argb($0 % side < side / 2 ? textureLeft : textureRight) }
        let ok = pixels.withUnsafeBytes { SDL_UpdateTexture(texture, nil, $0.baseAddress, Int32(side * 4)) == 0 }
        guard ok else {
            SDL_DestroyTexture(texture)
            return nil
        }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
        return texture
    }
}

/// What the OpenGL (or GLES) context current on this thread says it is, for the start's line: nil without one
/// (the software renderer).
func glIdentity() -> String? {
    guard SDL_GL_GetCurrentContext() != nil, let address = SDL_GL_GetProcAddress("glGetString") else { return nil }
    typealias GetString = @convention(c) (UInt32) -> UnsafePointer<UInt8>?
    let getString = unsafeBitCast(address, to: GetString.self)
    // GL_VENDOR, GL_RENDERER, GL_VERSION (the OpenGL and OpenGL ES headers' values).
    let parts = [0x1F00, 0x1F01, 0x1F02].map { getString(UInt32($0)).map { String(cString: $0) } ?? "?" }
    return "GL vendor \(parts[0]), renderer \(parts[1]), version \(parts[2])"
}
