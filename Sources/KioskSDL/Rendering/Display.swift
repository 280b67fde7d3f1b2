import CDisplayPower
import CSDL2
import Foundation
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
    /// SDL's video driver (`kmsdrm`, `x11`, `wayland`, `dummy`, ...) and the renderer that draws on it, chosen
    /// and proved by `RendererChoice`.
    public let videoDriver: String
    public let rendererName: String
    let window: OpaquePointer
    let renderer: OpaquePointer
    /// The DRM card shown on (kmsdrm; nil elsewhere).
    let card: DisplayCard?
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
    /// The panel's power: turned off while the screen is blank, where the driver lets the kiosk (kmsdrm).
    private(set) lazy var panel: PanelPower = {
        let power = DRMDisplayPower.of(window: window, videoDriver: videoDriver)
        return PanelPower(control: power.control, whyNoControl: power.whyNot)
    }()

    /// SDL 2.26's video drivers on Debian in the order SDL tries them, less Wayland (SDL_video.c's bootstrap).
    static let driversWithoutWayland = "x11,kmsdrm,offscreen"

    /// Whether a Wayland compositor's socket can be named: `WAYLAND_DISPLAY` as a path, or `XDG_RUNTIME_DIR` a
    /// folder (libwayland looks there for `WAYLAND_DISPLAY`, `wayland-0` by default).
    static var waylandReachable: Bool {
        if let socket = getenv("WAYLAND_DISPLAY").map({ String(cString: $0) }), socket.hasPrefix("/") { return true }
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), runtime.hasPrefix("/") else {
            return false
        }
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: runtime, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// `maxTexture`: the longest texture side allowed, below the renderer's own (`--max-texture`,
    /// `KIOSK_MAX_TEXTURE`: a GPU's limit, tried on a machine whose renderer has none).
    public init(mode: Mode, rotation: Rotation = .none, maxTexture: Int? = nil) throws(KioskError) {
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
        var chosenCard: DisplayCard?
        if getenv("SDL_VIDEODRIVER").map({ String(cString: $0).lowercased() }) == "kmsdrm" {
            Self.waitForDisplayDevice()
            // An operator's SDL_KMSDRM_DEVICE_INDEX (which SDL takes over any hint) names the only card looked at.
            let asked = getenv("SDL_KMSDRM_DEVICE_INDEX").flatMap { Int(String(cString: $0)) }
            let cards = DisplayCard.survey().filter { asked == nil || $0.number == asked }
            let card = try DisplayCard.choose(cards, holders: { DisplayHolders.named(card: $0) }).get()
            SDL_SetHint(SDL_HINT_KMSDRM_DEVICE_INDEX, String(card.number))
            chosenCard = card
        }
        if getenv("SDL_VIDEODRIVER") == nil, !Self.waylandReachable {
            // SDL tries Wayland before kmsdrm, and libwayland writes "error: XDG_RUNTIME_DIR is invalid or not set
            // in the environment." to stderr where there is no compositor's folder to look in: a stray line before
            // the kiosk's own. Where Wayland cannot be reached, SDL's other drivers in SDL's own order.
            SDL_SetHint(SDL_HINT_VIDEODRIVER, Self.driversWithoutWayland)
        }
        guard SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) == 0 else {
            throw .other(
                "no display: SDL could not start video (\(sdlError())); on a desktop run in a window, "
                    + "on a kiosk set SDL_VIDEODRIVER=kmsdrm, or use --headless WxH")
        }
        // SDL 2.26 names kmsdrm "KMSDRM" (and the others in lower case): compared in lower case everywhere.
        let driver = (SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none").lowercased()
        let asked = getenv("SDL_VIDEODRIVER").map { String(cString: $0) }
        // SDL 2.26 falls back to "offscreen" silently when kmsdrm fails: a black screen with no reason given.
        if driver == "offscreen" && asked != "offscreen" {
            SDL_Quit()
            throw .other(
                "no display: SDL fell back to the offscreen video driver (kmsdrm and X11 failed); "
                    + "set SDL_VIDEODRIVER=offscreen to allow it, or check the display and /dev/dri permissions")
        }
        // No ALLOW_HIGHDPI: window pixels are points (docs/event-log-and-trace.md), for touches, the mouse and drawing alike.
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
        let headless = if case .headless = mode { true } else { false }
        // On a screen, every present waits for the panel's refresh: the renderer's, and the GPU renderer that
        // shows the software renderer's surface on kmsdrm. With a swap interval of 0 SDL's kmsdrm flips pages
        // asynchronously, which garbles the Raspberry Pi's DSI touchscreen and fails on a Pi 5
        // (raspberrypi/firmware#1851, raspberrypi/linux#5828).
        if !headless { SDL_SetHint(SDL_HINT_RENDER_VSYNC, "1") }
        if driver == "kmsdrm" {
            // The software renderer's surface is shown through a GPU renderer of SDL's choosing, the desktop
            // `opengl` by default, which draws nothing into kmsdrm's OpenGL ES context.
            SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "opengles2")
        }
        let drivers = Self.renderDrivers()
        let candidates = RendererChoice.candidates(
            videoDriver: driver, asked: getenv("SDL_RENDER_DRIVER").map { String(cString: $0) },
            available: drivers, headless: headless)
        let position = kiosk_windowpos_centered()
        var windowError: String?
        let chosen = RendererChoice.first(
            of: candidates,
            open: { (name) -> Result<(window: OpaquePointer, renderer: OpaquePointer), RendererChoice.Failure> in
                // A window for each try: a renderer that failed may have left its window made for another API.
                guard let window = SDL_CreateWindow("kiosk", position, position, w, h, flags) else {
                    windowError = sdlError()
                    return .failure(.init(reason: "no window: \(windowError ?? "")"))
                }
                var rendererFlags = SDL_RENDERER_TARGETTEXTURE.rawValue
                if name != RendererChoice.software && !headless { rendererFlags |= SDL_RENDERER_PRESENTVSYNC.rawValue }
                guard let index = drivers.firstIndex(of: name),
                    let renderer = SDL_CreateRenderer(window, Int32(index), rendererFlags)
                else {
                    let reason = sdlError()
                    SDL_DestroyWindow(window)
                    return .failure(.init(reason: reason))
                }
                return .success((window, renderer))
            },
            check: { RendererProbe.check($0.renderer) },
            close: {
                SDL_DestroyRenderer($0.renderer)
                SDL_DestroyWindow($0.window)
            })
        guard let chosen else {
            SDL_Quit()
            if let windowError {
                throw .other("no display: cannot open a window on the \(driver) video driver (\(windowError))")
            }
            throw .other(
                "no renderer draws on the \(driver) video driver (tried \(candidates.joined(separator: ", ")): see the lines above"
            )
        }
        for line in chosen.passedOver { log(.error, line) }
        window = chosen.renderer.window
        let renderer = chosen.renderer.renderer
        self.renderer = renderer
        rendererName = chosen.name
        videoDriver = driver
        card = chosenCard
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        isSoftware = rendererName == RendererChoice.software
        let opaqueFormat = TextureMaker.opaqueFormat(renderer: renderer, window: window)
        rowCopy = isSoftware ? RowCopy(renderer: renderer, window: window, format: opaqueFormat) : nil
        // The software renderer's streaming textures are its surfaces, which `rowCopy` reads; a GPU's would keep
        // a second copy of every picture in memory.
        let maxSide = Int(min(info.max_texture_width, info.max_texture_height))
        let own = maxSide > 0 ? maxSide : nil
        maxTextureSize = [own, maxTexture].compactMap { $0 }.min()
        var maker = TextureMaker(
            renderer: renderer, opaqueFormat: opaqueFormat, rotation: rotation,
            access: rowCopy != nil ? SDL_TEXTUREACCESS_STREAMING : SDL_TEXTUREACCESS_STATIC)
        maker.maximumSide = maxTextureSize ?? Int.max
        textures = maker
        let capped =
            maxTexture.map { cap in
                cap < (own ?? Int.max)
                    ? " (--max-texture \(cap); the renderer's \(own.map(String.init) ?? "unlimited"))" : ""
            } ?? ""
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
            "video driver \(driver)\(card.map { " on \($0.named)" } ?? ""), renderer \(rendererName), its test picture read back right (tried in the order "
                + "\(candidates.joined(separator: ", "))), \(Self.glSaid(isSoftware: isSoftware)), output \(ow)x\(oh), "
                + "display \(refresh), "
                + "max texture \(maxTextureSize.map(String.init) ?? "unlimited")\(capped), "
                + (headless ? "no vsync (headless)" : "vsync on (never asynchronous page flips)"))
    }

    /// After the first present: on kmsdrm SDL's DRM device must be its card's master, or nothing it presents
    /// reaches the panel (another program took the card between the kiosk's look and SDL's; SDL 2.26 says
    /// nothing). Nil when shown, else the line that says who holds it.
    func firstPresentProblem() -> KioskError? {
        guard videoDriver == "kmsdrm" else { return nil }
        let fd = kiosk_kmsdrm_fd(UnsafeMutableRawPointer(window))
        guard fd >= 0, kiosk_drm_is_master(fd) == 0 else { return nil }
        let path = card?.path ?? "the display's DRM card"
        return DisplayCard.held(path, connectors: "", by: card.flatMap { DisplayHolders.named(card: $0.path) })
    }

    /// The GL that draws, for the start's line: the software renderer's surface is shown through one where the
    /// window system's framebuffer is a GL texture (kmsdrm, X11), else none.
    static func glSaid(isSoftware: Bool) -> String {
        guard let gl = glIdentity() else { return "no GL" }
        return isSoftware ? "shown through \(gl)" : gl
    }

    /// At boot the kiosk's unit can start before the kernel has made the display's device (seen in a virtual
    /// machine: "kmsdrm not available", a restart 3 s later, one more toward the unit's start limit): a kiosk on
    /// kmsdrm waits up to `seconds` for a `card*` in `folder`, said once, before SDL looks. True when there is one.
    @discardableResult
    static func waitForDisplayDevice(
        in folder: String = "/dev/dri", seconds: Double = 20, pause: (Double) -> Void = { usleep(UInt32($0 * 1e6)) }
    ) -> Bool {
        func present() -> Bool {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains { $0.hasPrefix("card") }
        }
        if present() { return true }
        log(.info, "waiting up to \(Int(seconds)) s for the display's device (\(folder)/card*)")
        let step = 0.1
        for _ in 0..<Int(seconds / step) {
            pause(step)
            if present() { return true }
        }
        return false
    }

    /// SDL's renderers, in its order (the index `SDL_CreateRenderer` takes).
    static func renderDrivers() -> [String] {
        (0..<max(0, SDL_GetNumRenderDrivers())).map { i in
            var info = SDL_RendererInfo()
            SDL_GetRenderDriverInfo(i, &info)
            return info.name.map { String(cString: $0) } ?? "?"
        }
    }

    /// Draws the known pattern again and reads it back (after a renderer reset): nil when right, else what was
    /// wrong.
    func checkPicture() -> String? { RendererProbe.check(renderer) }

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
