import CSDL2

/// Every SDL call the renderer makes while drawing a frame goes through here, so the benchmark can keep a
/// frame's calls and replay exactly those, bare, to see what SDL alone costs (`overheadRatio`).
final class DrawCalls {
    enum Call {
        case copy(OpaquePointer, SDL_Rect?, SDL_Rect)
        case copyF(OpaquePointer, SDL_Rect?, SDL_FRect)
        /// An opaque fill (the background): written, not blended, which in software is a memset, not a blend.
        case fill(SDL_Rect)
        case fillF(SDL_FRect)
        case outline(SDL_FRect)
        case line(Float, Float, Float, Float)
        case color(UInt8, UInt8, UInt8, UInt8)
        case clip(SDL_Rect?)
        case blend(OpaquePointer, SDL_BlendMode)
        case alpha(OpaquePointer, UInt8)
        case colorMod(OpaquePointer, UInt8, UInt8, UInt8)
        case scaleMode(OpaquePointer, SDL_ScaleMode)
        case target(OpaquePointer?)
        case clear
        /// A texture made while drawing (a kept tile of a picture); a replay makes and frees one alike.
        case create(UInt32, Int32, Int32)
    }

    let renderer: OpaquePointer
    /// Set to keep the calls of the frames drawn from now on.
    var recording = false
    var log: [Call] = []

    init(renderer: OpaquePointer) { self.renderer = renderer }

    func perform(_ call: Call) {
        if recording { log.append(call) }
        switch call {
        case .copy(let t, var s, var d):
            if s == nil {
                SDL_RenderCopy(renderer, t, nil, &d)
            } else {
                SDL_RenderCopy(renderer, t, &s!, &d)
            }
        case .copyF(let t, var s, var d):
            if s == nil {
                SDL_RenderCopyF(renderer, t, nil, &d)
            } else {
                SDL_RenderCopyF(renderer, t, &s!, &d)
            }
        case .fill(var r):
            SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
            SDL_RenderFillRect(renderer, &r)
            SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        case .fillF(var r): SDL_RenderFillRectF(renderer, &r)
        case .outline(var r): SDL_RenderDrawRectF(renderer, &r)
        case .line(let x0, let y0, let x1, let y1): SDL_RenderDrawLineF(renderer, x0, y0, x1, y1)
        case .color(let r, let g, let b, let a): SDL_SetRenderDrawColor(renderer, r, g, b, a)
        case .clip(var r):
            if r == nil { SDL_RenderSetClipRect(renderer, nil) } else { SDL_RenderSetClipRect(renderer, &r!) }
        case .blend(let t, let m): SDL_SetTextureBlendMode(t, m)
        case .alpha(let t, let a): SDL_SetTextureAlphaMod(t, a)
        case .colorMod(let t, let r, let g, let b): SDL_SetTextureColorMod(t, r, g, b)
        case .scaleMode(let t, let m): SDL_SetTextureScaleMode(t, m)
        case .target(let t): SDL_SetRenderTarget(renderer, t)
        case .clear: SDL_RenderClear(renderer)
        case .create: break
        }
    }

    /// Makes a render-target texture (recorded: a replay makes one too).
    func createTarget(format: UInt32, width: Int32, height: Int32) -> OpaquePointer? {
        if recording { log.append(.create(format, width, height)) }
        return SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_TARGET.rawValue), width, height)
    }

    /// Performs `calls` again with nothing around them: what they cost SDL.
    func replay(_ calls: [Call]) {
        var made: [OpaquePointer] = []
        for call in calls {
            if case .create(let f, let w, let h) = call {
                if let t = SDL_CreateTexture(renderer, f, Int32(SDL_TEXTUREACCESS_TARGET.rawValue), w, h) {
                    made.append(t)
                }
                continue
            }
            perform(call)
        }
        for t in made { SDL_DestroyTexture(t) }
    }
}
