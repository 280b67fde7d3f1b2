import CDisplayPower
import CSDL2

/// Turns the panel's power on or off: nil when done, else why not.
protocol DisplayPowerControl: AnyObject {
    func setPower(on: Bool) -> String?
}

/// The panel's power through DRM: the connector's DPMS property, set on SDL's own kmsdrm file descriptor (the
/// kiosk is the display's DRM master while it runs; nobody else may).
final class DRMDisplayPower: DisplayPowerControl {
    let fd: Int32

    init(fd: Int32) { self.fd = fd }

    func setPower(on: Bool) -> String? {
        var why = [CChar](repeating: 0, count: 256)
        let set = kiosk_drm_set_dpms(fd, on ? 1 : 0, &why, why.count)
        if set > 0 { return nil }
        return String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// SDL's DRM device of `window` on the kmsdrm video driver; nil elsewhere, with why (X11 and Wayland own
    /// their panels' power; headless has none).
    static func of(window: OpaquePointer, videoDriver: String) -> (control: DRMDisplayPower?, whyNot: String?) {
        guard videoDriver == "kmsdrm" else {
            return (
                nil,
                videoDriver == "dummy" || videoDriver == "offscreen"
                    ? nil
                    : "under a compositor (the \(videoDriver) video driver) the panel's power is the compositor's; "
                        + "the kiosk turns it off on the console (docs/deploying.md)"
            )
        }
        let fd = kiosk_kmsdrm_fd(UnsafeMutableRawPointer(window))
        guard fd >= 0 else { return (nil, "SDL gives no DRM device (\(sdlError()))") }
        return (DRMDisplayPower(fd: fd), nil)
    }
}

/// The panel dark while the screen is blank (the idle blanking, outside the opening hours, a closed date): a
/// screen black but lit is signage's first complaint about closed hours. Off once the blank frame is shown; on
/// again before the first frame after the wake. Where the kiosk cannot turn it off (X11, Wayland, no DRM master)
/// it says so once, at the first blank, and draws black as before.
final class PanelPower {
    private let control: DisplayPowerControl?
    /// Why there is no control (nil: nothing to say, as headless).
    private let whyNoControl: String?
    /// Whether the panel is powered (as far as the kiosk turned it).
    private(set) var isOn = true
    private var saidCannot = false

    init(control: DisplayPowerControl?, whyNoControl: String?) {
        self.control = control
        self.whyNoControl = whyNoControl
    }

    /// Before a frame is drawn: a screen no longer blank has its panel on first.
    func beforeFrame(blank: Bool) {
        if !blank && !isOn { turn(on: true) }
    }

    /// After a frame is shown: a blank screen's panel goes off.
    func afterFrame(blank: Bool) {
        guard blank && isOn && !saidCannot else { return }
        guard control != nil else {
            saidCannot = true
            if let whyNoControl {
                log(.warning, "the screen is blank but the panel stays powered, drawn black: \(whyNoControl)")
            }
            return
        }
        turn(on: false)
    }

    private func turn(on: Bool) {
        guard let control else { return }
        if let why = control.setPower(on: on) {
            // Not turned: said once; a panel that would not turn off is left on and drawn black.
            if !saidCannot {
                saidCannot = true
                log(.warning, "the panel's power cannot be turned \(on ? "on" : "off"): \(why)")
            }
            if on { isOn = true }
            return
        }
        isOn = on
        log(.info, "the panel is turned \(on ? "on" : "off") (DPMS)")
    }
}
