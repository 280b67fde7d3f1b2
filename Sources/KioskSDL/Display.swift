import CSDL2
import Kiosk
import ScrollEngine

#if canImport(Glibc)
    import Glibc
#endif

/// The window and renderer SDL gave us, in one of the three modes of the command line.
public final class Display {
    public enum Mode: Equatable, Sendable {
        /// No display: SDL's dummy driver and the software renderer.
        case headless(width: Int, height: Int)
        case windowed(width: Int, height: Int)
        case fullscreen
    }

    public let mode: Mode
    let window: OpaquePointer
    let renderer: OpaquePointer
    /// The output size in pixels (the physical screen).
    public private(set) var size: Size
    /// The largest texture the renderer takes (nil: no limit, as the software renderer).
    public let maxTextureSize: Int?
    /// How every texture is made (format and `--rotate`).
    let textures: TextureMaker
    /// SDL's software renderer (no GPU): it truncates float rectangles, and its plain copies are `rowCopy`'s.
    let isSoftware: Bool
    /// The software renderer's plain copies, made row by row (nil on a GPU, or where this SDL fails the probe).
    let rowCopy: RowCopy?
    public var rotation: Rotation { textures.rotation }

    public init(mode: Mode, rotation: Rotation = .none) throws(KioskError) {
        self.mode = mode
        if case .headless = mode { setenv("SDL_VIDEODRIVER", "dummy", 1) }
        // Touches stay touches: no synthetic mouse events (kmsdrm makes none; X11 would double every touch).
        SDL_SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0")
        SDL_SetHint(SDL_HINT_MOUSE_TOUCH_EVENTS, "0")
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        SDL_SetHint(SDL_HINT_VIDEO_ALLOW_SCREENSAVER, "0")
        // SDL turns SIGTERM and SIGINT into SDL_QUIT only where they have their default action; a parent that
        // ignored or blocked them (a test runner does) would leave the kiosk deaf to a stop. Undo both first.
        signal(SIGTERM, SIG_DFL)
        signal(SIGINT, SIG_DFL)
        var stops = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGTERM)
        sigaddset(&stops, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
        guard SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) == 0 else {
            throw .other(
                "no display: SDL could not start video (\(sdlError())); on a desktop run in a window, "
                    + "on a kiosk set SDL_VIDEODRIVER=kmsdrm, or use --headless WxH")
        }
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
        let asked = getenv("SDL_VIDEODRIVER").map { String(cString: $0) }
        // SDL 2.26 falls back to "offscreen" silently when kmsdrm fails: a black screen with no reason given.
        if driver == "offscreen" && asked != "offscreen" {
            SDL_Quit()
            throw .other(
                "no display: SDL fell back to the offscreen video driver (kmsdrm and X11 failed); "
                    + "set SDL_VIDEODRIVER=offscreen to allow it, or check the display and /dev/dri permissions")
        }
        // No ALLOW_HIGHDPI: window pixels are points (cli-and-trace.md), for touches, the mouse and drawing alike.
        var flags = SDL_WINDOW_SHOWN.rawValue
        var w: Int32 = 1280
        var h: Int32 = 800
        switch mode {
        case .headless(let hw, let hh):
            w = Int32(hw)
            h = Int32(hh)
            flags = SDL_WINDOW_HIDDEN.rawValue
        case .windowed(let ww, let wh):
            w = Int32(ww)
            h = Int32(wh)
            flags |= SDL_WINDOW_RESIZABLE.rawValue
        case .fullscreen:
            var dm = SDL_DisplayMode()
            if SDL_GetDesktopDisplayMode(0, &dm) == 0 {
                w = dm.w
                h = dm.h
            }
            flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue
        }
        let position = kiosk_windowpos_centered()
        guard let window = SDL_CreateWindow("kiosk", position, position, w, h, flags) else {
            let reason = sdlError()
            SDL_Quit()
            throw .other("no display: cannot open a window on the \(driver) video driver (\(reason))")
        }
        self.window = window
        var renderer: OpaquePointer?
        if case .headless = mode {
            renderer = SDL_CreateRenderer(
                window, -1, SDL_RENDERER_SOFTWARE.rawValue | SDL_RENDERER_TARGETTEXTURE.rawValue)
        } else {
            renderer = SDL_CreateRenderer(
                window, -1,
                SDL_RENDERER_ACCELERATED.rawValue | SDL_RENDERER_PRESENTVSYNC.rawValue
                    | SDL_RENDERER_TARGETTEXTURE.rawValue)
            if renderer == nil {
                log(.warning, "no accelerated renderer (\(sdlError())); drawing in software")
                renderer = SDL_CreateRenderer(
                    window, -1, SDL_RENDERER_SOFTWARE.rawValue | SDL_RENDERER_TARGETTEXTURE.rawValue)
            }
        }
        guard let renderer else {
            let reason = sdlError()
            SDL_DestroyWindow(window)
            SDL_Quit()
            throw .other("cannot create a renderer on the \(driver) video driver (\(reason))")
        }
        self.renderer = renderer
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        let rendererName = info.name.map { String(cString: $0) } ?? "?"
        isSoftware = rendererName == "software"
        let opaqueFormat = TextureMaker.opaqueFormat(renderer: renderer, window: window)
        rowCopy = isSoftware ? RowCopy(renderer: renderer, window: window, format: opaqueFormat) : nil
        // The software renderer's streaming textures are its surfaces, which `rowCopy` reads; a GPU's would keep
        // a second copy of every picture in memory.
        textures = TextureMaker(
            renderer: renderer, opaqueFormat: opaqueFormat, rotation: rotation,
            access: rowCopy != nil ? SDL_TEXTUREACCESS_STREAMING : SDL_TEXTUREACCESS_STATIC)
        let maxSide = Int(min(info.max_texture_width, info.max_texture_height))
        maxTextureSize = maxSide > 0 ? maxSide : nil
        var ow: Int32 = 0
        var oh: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &ow, &oh)
        size = Size(width: Double(ow), height: Double(oh))
        if mode == .fullscreen { SDL_ShowCursor(SDL_DISABLE) }
        var dm = SDL_DisplayMode()
        let refresh =
            SDL_GetCurrentDisplayMode(0, &dm) == 0 ? "\(dm.w)x\(dm.h) at \(dm.refresh_rate) Hz" : "unknown mode"
        log(
            .info,
            "video driver \(driver), renderer \(rendererName), output \(ow)x\(oh), display \(refresh), "
                + "max texture \(maxTextureSize.map(String.init) ?? "unlimited")")
    }

    /// The output size changed (a resized window): read it again.
    func refreshSize() -> Size {
        var ow: Int32 = 0
        var oh: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &ow, &oh)
        size = Size(width: Double(ow), height: Double(oh))
        return size
    }

    deinit {
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
        SDL_Quit()
    }
}

func sdlError() -> String { String(cString: SDL_GetError()) }

extension Display.Mode {
    /// The size the mode names (nil for fullscreen, which is the screen's).
    public var size: Size? {
        switch self {
        case .headless(let w, let h), .windowed(let w, let h): Size(width: Double(w), height: Double(h))
        case .fullscreen: nil
        }
    }
}
