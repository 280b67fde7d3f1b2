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
        /// The render target's pixels read into a new streaming texture (`keepTarget`): a kept tile that the
        /// software renderer's plain copies read (`RowCopy`); a replay reads into one alike.
        case keep(UInt32, Int32, Int32)
    }

    let renderer: OpaquePointer
    /// The software renderer's plain copies, made row by row (nil on a GPU: SDL makes every copy).
    let rows: RowCopy?
    /// Set to keep the calls of the frames drawn from now on.
    var recording = false
    var log: [Call] = []

    init(display: Display) {
        renderer = display.renderer
        rows = display.rowCopy
    }

    func perform(_ call: Call) {
        if recording { log.append(call) }
        if case .copy(let t, let s, let d) = call, let rows, rows.copy(t, s, d) { return }
        // A batch's copies land before anything else draws (a texture's state is not what they read).
        switch call {
        case .blend, .alpha, .colorMod, .scaleMode, .create: break
        default: rows?.flush()
        }
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
            if let rows, rows.fill(r) { break }
            SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
            SDL_RenderFillRect(renderer, &r)
            SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        case .fillF(var r):
            if let rows, rows.blend(r) { break }
            SDL_RenderFillRectF(renderer, &r)
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
        case .create, .keep: break
        }
    }

    /// Runs `body` with its plain copies made together at its end (`RowCopy.batch`); as it is without them.
    func batch(_ body: () -> Void) {
        if let rows { rows.batch(body) } else { body() }
    }

    /// Makes a render-target texture (recorded: a replay makes one too).
    func createTarget(format: UInt32, width: Int32, height: Int32) -> OpaquePointer? {
        if recording { log.append(.create(format, width, height)) }
        return SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_TARGET.rawValue), width, height)
    }

    /// The pixels of the render target (`width` x `height`, in `format`) read into a new streaming texture (which
    /// blends as `opaque` says): what the target shows, for copies that `RowCopy` makes. Recorded.
    func keepTarget(format: UInt32, width: Int32, height: Int32, opaque: Bool) -> OpaquePointer? {
        if recording { log.append(.keep(format, width, height)) }
        rows?.flush()
        return Self.read(renderer, format: format, width: width, height: height, opaque: opaque)
    }

    static func read(_ renderer: OpaquePointer, format: UInt32, width: Int32, height: Int32, opaque: Bool)
        -> OpaquePointer?
    {
        guard
            let texture = SDL_CreateTexture(
                renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), width, height)
        else { return nil }
        guard readTarget(renderer, area: SDL_Rect(x: 0, y: 0, w: width, h: height), format: format, into: texture)
        else {
            SDL_DestroyTexture(texture)
            return nil
        }
        SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear)
        SDL_SetTextureBlendMode(texture, opaque ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
        return texture
    }

    /// The pixels `calls` write: every copy (scaled or not), fill and clear, each cut to its target and clip
    /// rectangle (a target's clip starts unset, as SDL's does). A frame's work in a unit no machine can move.
    func pixelsWritten(_ calls: [Call]) -> Int {
        var w: Int32 = 0
        var h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        let screen = SDL_Rect(x: 0, y: 0, w: w, h: h)
        var bounds = screen
        var clip: SDL_Rect?
        func area(_ r: SDL_Rect) -> Int {
            var limit = bounds
            if var c = clip {
                var both = SDL_Rect()
                guard SDL_IntersectRect(&limit, &c, &both) == SDL_TRUE else { return 0 }
                limit = both
            }
            var r = r
            var cut = SDL_Rect()
            guard SDL_IntersectRect(&r, &limit, &cut) == SDL_TRUE else { return 0 }
            return Int(cut.w) * Int(cut.h)
        }
        func whole(_ r: SDL_FRect) -> SDL_Rect {
            let x0 = r.x.rounded(.down)
            let y0 = r.y.rounded(.down)
            return SDL_Rect(
                x: Int32(clamping: Int(x0)), y: Int32(clamping: Int(y0)),
                w: Int32(clamping: Int((r.x + r.w).rounded(.up) - x0)),
                h: Int32(clamping: Int((r.y + r.h).rounded(.up) - y0)))
        }
        var total = 0
        for call in calls {
            switch call {
            case .copy(_, _, let d), .fill(let d): total += area(d)
            case .copyF(_, _, let d), .fillF(let d): total += area(whole(d))
            case .clear: total += area(bounds)
            case .clip(let r): clip = r
            case .target(let t):
                clip = nil
                if let t {
                    var tw: Int32 = 0
                    var th: Int32 = 0
                    SDL_QueryTexture(t, nil, nil, &tw, &th)
                    bounds = SDL_Rect(x: 0, y: 0, w: tw, h: th)
                } else {
                    bounds = screen
                }
            default: break
            }
        }
        return total
    }

    /// Performs `calls` again with nothing around them: what they cost SDL. The copies are batched as the
    /// frame batches them (`batch`; whatever else draws makes them first).
    func replay(_ calls: [Call]) {
        var made: [OpaquePointer] = []
        batch {
            for call in calls {
                if case .create(let f, let w, let h) = call {
                    if let t = SDL_CreateTexture(renderer, f, Int32(SDL_TEXTUREACCESS_TARGET.rawValue), w, h) {
                        made.append(t)
                    }
                    continue
                }
                if case .keep(let f, let w, let h) = call {
                    rows?.flush()
                    if let t = Self.read(renderer, format: f, width: w, height: h, opaque: true) { made.append(t) }
                    continue
                }
                perform(call)
            }
        }
        for t in made { SDL_DestroyTexture(t) }
    }
}

/// Reads what `renderer`'s target shows (`area`, nil: all of it) into the streaming `texture` of `format`; false
/// when it cannot.
func readTarget(_ renderer: OpaquePointer, area: SDL_Rect?, format: UInt32, into texture: OpaquePointer) -> Bool {
    var pixels: UnsafeMutableRawPointer?
    var pitch: Int32 = 0
    guard SDL_LockTexture(texture, nil, &pixels, &pitch) == 0, let pixels else { return false }
    defer { SDL_UnlockTexture(texture) }
    guard var area else { return SDL_RenderReadPixels(renderer, nil, format, pixels, pitch) == 0 }
    return SDL_RenderReadPixels(renderer, &area, format, pixels, pitch) == 0
}
