import ScrollEngine

/// The kiosk's keys (docs/accessibility.md, a tactile keypad presents itself as a keyboard): SDL key names onto
/// the kiosk's actions, and the manifest's `accessibility.keys` besides them.
struct KeyTable {
    /// A key pressed, as the kiosk acts on it: its action and, for an arrow, the way it points (a focused picture
    /// pans that way instead of the focus moving).
    struct Press: Equatable {
        var action: KeyAction
        var arrow: Point?
    }

    /// The contract's table. Left and Right are next and previous in a left-to-right language and the other way
    /// round in a right-to-left one (`press`).
    static let standard: [String: KeyAction] = [
        "Tab": .next, "Right": .next, "Down": .next, "Left": .previous, "Up": .previous,
        "Return": .activate, "Keypad Enter": .activate, "Space": .activate,
        "Escape": .back, "Backspace": .back,
        "+": .zoomIn, "=": .zoomIn, "Keypad +": .zoomIn, "-": .zoomOut, "Keypad -": .zoomOut,
        "PageDown": .nextPage, "PageUp": .previousPage,
        "F1": .help, "F3": .repeat,
        "F11": .volumeDown, "F12": .volumeUp, "VolumeDown": .volumeDown, "VolumeUp": .volumeUp,
    ]

    static let arrows: [String: Point] = [
        "Left": Point(x: -1, y: 0), "Right": Point(x: 1, y: 0), "Up": Point(x: 0, y: -1), "Down": Point(x: 0, y: 1),
    ]

    /// The manifest's keys, by SDL name (a manifest's `KP 5` is SDL's `Keypad 5`).
    let extra: [String: KeyAction]

    init(_ config: AccessibilityConfig) {
        var extra: [String: KeyAction] = [:]
        for (name, action) in config.keys { extra[Self.sdlName(name)] = action }
        self.extra = extra
    }

    static func sdlName(_ name: String) -> String {
        name.hasPrefix("KP ") ? "Keypad " + name.dropFirst(3) : name
    }

    /// What key `name` does (nil: none of the kiosk's actions; a desktop key such as Home or End). With Shift, Tab
    /// goes back; in a right-to-left language Left is next and Right previous.
    func press(_ name: String, shift: Bool, rightToLeft: Bool) -> Press? {
        guard var action = extra[name] ?? Self.standard[name] else { return nil }
        if name == "Tab" && shift { action = .previous }
        if rightToLeft && (name == "Left" || name == "Right") { action = action == .next ? .previous : .next }
        return Press(action: action, arrow: extra[name] == nil ? Self.arrows[name] : nil)
    }
}
