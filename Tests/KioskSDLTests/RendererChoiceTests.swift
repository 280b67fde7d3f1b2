import CSDL2
import Foundation
import Testing

@testable import KioskSDL

/// The renderer chosen on purpose (kmsdrm's OpenGL ES context takes only `opengles2`) and proved by a picture
/// read back: one that cannot be made or draws wrong is passed over, down to software.
@Suite struct RendererChoiceTests {
    static let sdlOrder = ["opengl", "opengles2", "software"]

    @Test func kmsdrmDrawsWithOpenGLES2ThenSoftware() {
        #expect(
            RendererChoice.candidates(videoDriver: "kmsdrm", asked: nil, available: Self.sdlOrder, headless: false)
                == ["opengles2", "software"])
        // Asked for by name (SDL_RENDER_DRIVER): tried first, the rest after it.
        #expect(
            RendererChoice.candidates(videoDriver: "kmsdrm", asked: "opengl", available: Self.sdlOrder, headless: false)
                == ["opengl", "opengles2", "software"])
    }

    @Test func aDesktopKeepsSDLsOrder() {
        #expect(
            RendererChoice.candidates(videoDriver: "x11", asked: nil, available: Self.sdlOrder, headless: false)
                == ["opengl", "opengles2", "software"])
        #expect(
            RendererChoice.candidates(
                videoDriver: "wayland", asked: "software", available: Self.sdlOrder, headless: false)
                == ["software", "opengl", "opengles2"])
        // A name SDL does not have is not tried.
        #expect(
            RendererChoice.candidates(videoDriver: "x11", asked: "vulkan", available: Self.sdlOrder, headless: false)
                == ["opengl", "opengles2", "software"])
        #expect(
            RendererChoice.candidates(videoDriver: "dummy", asked: "opengl", available: Self.sdlOrder, headless: true)
                == ["software"])
    }

    /// One that cannot be made and one whose picture reads back wrong are each said, and the next is tried.
    @Test func aRendererThatFailsOrDrawsWrongIsPassedOver() {
        var closed: [String] = []
        let chosen = RendererChoice.first(
            of: ["opengl", "opengles2", "software"],
            open: { name -> Result<String, RendererChoice.Failure> in
                name == "opengl" ? .failure(.init(reason: "no EGL")) : .success(name)
            },
            check: { $0 == "opengles2" ? "read back (0, 0, 0) where (224, 72, 32) was drawn" : nil },
            close: { closed.append($0) })
        #expect(chosen?.name == "software")
        #expect(closed == ["opengles2"])
        #expect(
            chosen?.passedOver == [
                "renderer opengl could not be made (no EGL); trying opengles2",
                "renderer opengles2 does not draw: read back (0, 0, 0) where (224, 72, 32) was drawn; trying software",
            ])
        let none = RendererChoice.first(
            of: ["software"], open: { name -> Result<String, RendererChoice.Failure> in .success(name) },
            check: { _ in "read back (0, 0, 0)" }, close: { _ in })
        #expect(none == nil)
    }

    /// The probe on a real SDL renderer: right on an ARGB8888 surface; wrong where the pixels cannot hold the
    /// pattern's colours (an 8-bit RGB332 surface: what a renderer drawing the wrong colours reads back).
    @Test func theProbeReadsTheRealPictureBack() throws {
        for (format, right) in [(SDL_PIXELFORMAT_ARGB8888, true), (SDL_PIXELFORMAT_RGB332, false)] {
            let surface = try #require(SDL_CreateRGBSurfaceWithFormat(0, 64, 16, 32, format.rawValue))
            defer { SDL_FreeSurface(surface) }
            let renderer = try #require(SDL_CreateSoftwareRenderer(surface))
            defer { SDL_DestroyRenderer(renderer) }
            let wrong = RendererProbe.check(renderer)
            if right {
                #expect(wrong == nil)
            } else {
                #expect(wrong?.hasPrefix("read back ") == true, "\(wrong ?? "nil")")
            }
        }
    }
}

/// The panel's power behind its protocol: off once the blank frame is shown, on before the first frame after
/// the wake; a control that fails is said once and the panel left on.
@Suite struct PanelPowerTests {
    final class FakePower: DisplayPowerControl {
        var calls: [Bool] = []
        var failure: String?
        func setPower(on: Bool) -> String? {
            calls.append(on)
            return failure
        }
    }

    @Test func offWhileBlankOnBeforeTheWake() {
        let fake = FakePower()
        let panel = PanelPower(control: fake, whyNoControl: nil)
        panel.beforeFrame(blank: false)
        panel.afterFrame(blank: false)
        #expect(fake.calls.isEmpty && panel.isOn)
        panel.afterFrame(blank: true)
        #expect(fake.calls == [false] && !panel.isOn)
        panel.beforeFrame(blank: true)
        panel.afterFrame(blank: true)
        #expect(fake.calls == [false], "once")
        panel.beforeFrame(blank: false)
        #expect(fake.calls == [false, true] && panel.isOn)
    }

    @Test func aPanelThatWillNotTurnOffStaysOnAndIsAskedOnce() {
        let fake = FakePower()
        fake.failure = "the connector's DPMS could not be set (Permission denied)"
        let panel = PanelPower(control: fake, whyNoControl: nil)
        panel.afterFrame(blank: true)
        panel.beforeFrame(blank: false)
        panel.afterFrame(blank: true)
        #expect(fake.calls == [false])
        #expect(panel.isOn)
    }

    @Test func withoutControlThePanelIsOn() {
        let panel = PanelPower(control: nil, whyNoControl: "the x11 video driver owns the display")
        panel.afterFrame(blank: true)
        panel.beforeFrame(blank: false)
        #expect(panel.isOn)
    }
}

/// A kiosk on kmsdrm started before the kernel made the display's device waits for it (a folder standing in for
/// /dev/dri, the pauses counted, not slept).
@Test func theDisplaysDeviceIsWaitedFor() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-dri-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var pauses = 0
    #expect(!Display.waitForDisplayDevice(in: folder, seconds: 1, pause: { _ in pauses += 1 }))
    #expect(pauses == 10)
    pauses = 0
    let found = Display.waitForDisplayDevice(in: folder, seconds: 1) { _ in
        pauses += 1
        if pauses == 3 { _ = FileManager.default.createFile(atPath: folder + "/card0", contents: nil) }
    }
    #expect(found && pauses == 3)
}
