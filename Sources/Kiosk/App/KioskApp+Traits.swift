import ScrollEngine

/// The accessibility panel's switches and what they change (docs/accessibility.md): larger text lays the scenes
/// out again on a screen of fewer, larger points; high contrast draws in the high-contrast theme; speech starts
/// and ends audio mode. Each is decided here, once; the draw lists are turned into the screen's pixels and
/// colours by `traits`.
extension KioskApp {
    /// A control of the chrome was tapped (or activated from the keys): the panel's switches here, the rest the
    /// navigator's.
    func tapControl(_ id: String) {
        if id.hasPrefix(FilmControls.filmID) {
            tapFilm(id)
            return
        }
        guard let setting = AccessibilityMenu.setting(id) else {
            navigator.tapControl(id, at: now)
            return
        }
        switch setting {
        case .largerText:
            access.largeText.toggle()
            access.changed(sink: sink)
        case .highContrast:
            access.highContrast.toggle()
            access.changed(sink: sink)
        case .speech:
            if access.audio {
                access.stopAudio(sink: sink)
            } else {
                _ = beginAudio()
            }
        }
        layOut()
        // The switch is said again with its new state (the focus stays on it).
        if access.audio, let e = accessibilityElements.first(where: { $0.id == "accessibility:\(setting.rawValue)" }) {
            access.focus(e.id, in: focusContext, sink: sink)
            access.say(Utterance(text: e.spoken, language: e.language))
        }
    }

    /// How the frame is drawn for the visitor: the panel's display scale, or larger text's (EN 301 549 5.1.4's
    /// rule on the manifest's panel); high contrast's theme.
    public var traits: TraitCollection {
        TraitCollection(
            displayScale: Self.displayScale(
                largeText: access.largeText, pixels: physicalSize, config: manifest.accessibility),
            accessibilityContrast: access.highContrast ? .high : .normal)
    }

    /// How much larger text grows the words against the pictures (1 without it): the ratio of its display scale to
    /// the panel's. A text box on a picture grows as much (`Scene.overlayRuns`).
    var textGrowth: Double {
        guard access.largeText else { return 1 }
        let config = manifest.accessibility
        return Self.displayScale(largeText: true, pixels: physicalSize, config: config)
            / Self.displayScale(largeText: false, pixels: physicalSize, config: config)
    }

    static func displayScale(largeText: Bool, pixels: Size, config: AccessibilityConfig) -> Double {
        largeText
            ? LargerText.displayScale(pixels: pixels, config: config)
            : PanelScale.displayScale(pixels: pixels, config: config)
    }

    /// The size the scenes are laid out at on a screen of `pixels` turned by `rotation`: in points of the display
    /// scale.
    static func sceneSize(
        pixels: Size, rotation: Rotation, largeText: Bool, config: AccessibilityConfig
    ) -> Size {
        rotation.sceneSize(pixels) * (1 / displayScale(largeText: largeText, pixels: pixels, config: config))
    }

    /// The scene size for the screen, the visitor's larger text and the manifest in use now.
    var wantedSceneSize: Size {
        Self.sceneSize(
            pixels: physicalSize, rotation: rotation, largeText: access.largeText, config: manifest.accessibility)
    }

    /// The scenes are laid out in points of the screen at the traits' scale: when that changed (larger text on or
    /// off, the idle reset, a resize), they are laid out again, each view showing what it showed where it showed
    /// it (a picture at the same pixels, a carousel on its page, a list from the same row).
    func layOut() {
        let wanted = wantedSceneSize
        guard wanted != navigator.sceneSize else { return }
        let r = navigator.sceneSize.width > 0 ? wanted.width / navigator.sceneSize.width : 1
        var views = viewStates()
        for id in views.keys {
            views[id]!.contentOffset = views[id]!.contentOffset.map { $0 * r }
            views[id]!.zoomScale *= r
        }
        sink.quietly {
            navigator.resize(sceneSize: wanted)
            apply(views)
        }
    }
}
