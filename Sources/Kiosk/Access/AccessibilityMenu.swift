import ScrollEngine

/// The accessibility button and its panel (docs/accessibility.md): a 64 pt button beside the language button
/// (on its leading side; at the trailing edge where there is none), the universal access figure on it in the
/// chrome's tint; a tap opens a panel under it of three switches, larger text, high contrast and speech, each a
/// line of the chrome's material with its name and a switch (UIKit's `UISwitch`: a track, green when on, and a
/// knob at its trailing end when on). A switch changes at once and the panel stays open; a tap beside it, the
/// button again or Escape closes it.
struct AccessibilityMenu {
    enum Setting: String, CaseIterable {
        case largerText, highContrast, speech

        var word: SpokenWords.Word {
            switch self {
            case .largerText: .largerText
            case .highContrast: .highContrast
            case .speech: .speech
            }
        }
    }

    /// What the panel shows: whether it is open and each switch.
    struct State: Equatable {
        var isOpen = false
        var largerText = false
        var highContrast = false
        var speech = false

        subscript(_ setting: Setting) -> Bool {
            switch setting {
            case .largerText: largerText
            case .highContrast: highContrast
            case .speech: speech
            }
        }
    }

    static let buttonID = "\u{0}accessibility"
    static let closeID = "\u{0}accessibilityClose"
    static let settingPrefix = "\u{0}accessibility:"

    /// The setting a chrome target switches, if it is one of the panel's.
    static func setting(_ id: String) -> Setting? {
        id.hasPrefix(settingPrefix) ? Setting(rawValue: String(id.dropFirst(settingPrefix.count))) : nil
    }

    static let buttonSize = WordStyle.languageButtonHeight
    static let margin = WordStyle.languageButtonMargin
    static let rowHeight = 64.0
    static let panelWidth = 360.0

    let button: Rect
    /// The panel's lines (none while it is closed).
    let rows: [(setting: Setting, rect: Rect)]
    let state: State
    let language: String
    let rightToLeft: Bool

    init(_ state: State, besideLanguageButton: Bool, sceneSize: Size, language: String) {
        self.state = state
        self.language = language
        rightToLeft = Languages.isRightToLeft(language)
        let trailing =
            sceneSize.width - Self.margin - (besideLanguageButton ? LanguageMenu.buttonWidth + Self.margin : 0)
        var button = Rect(x: trailing - Self.buttonSize, y: 0, width: Self.buttonSize, height: Self.buttonSize)
        let width = min(Self.panelWidth, sceneSize.width - 2 * Self.margin)
        let left = max(Self.margin, min(button.maxX, sceneSize.width - Self.margin) - width)
        var rows: [(setting: Setting, rect: Rect)] =
            state.isOpen
            ? Setting.allCases.enumerated().map { i, setting in
                (
                    setting,
                    Rect(x: left, y: button.maxY + 1 + Double(i) * Self.rowHeight, width: width, height: Self.rowHeight)
                )
            } : []
        if rightToLeft {
            button = button.mirrored(across: sceneSize.width)
            rows = rows.map { ($0.setting, $0.rect.mirrored(across: sceneSize.width)) }
        }
        self.button = button
        self.rows = rows
    }

    /// The chrome's targets: the button, and while the panel is open its lines and the rest of the screen (which
    /// closes it).
    func targets(sceneSize: Size) -> [Chrome.Target] {
        var out = [Chrome.Target(id: Self.buttonID, rect: button)]
        for (setting, rect) in rows { out.append(Chrome.Target(id: Self.settingPrefix + setting.rawValue, rect: rect)) }
        if state.isOpen { out.append(Chrome.Target(id: Self.closeID, rect: Rect(origin: .zero, size: sceneSize))) }
        return out
    }

    var commands: [DrawCommand] {
        var out: [DrawCommand] = [.fill(button, ChromeStyle.bar)]
        out += Self.figure(in: button, color: ChromeStyle.tint)
        out += ChromeStyle.panel(rows.map(\.rect))
        for (setting, rect) in rows {
            let switchFrame = SwitchStyle.frame(in: rect, rightToLeft: rightToLeft)
            var words = rect.insetBy(dx: 16, dy: 0)
            words.size.width -= SwitchStyle.size.width + 16
            if rightToLeft { words.origin.x += SwitchStyle.size.width + 16 }
            out.append(
                .text(
                    TextRun(
                        SpokenWords.say(setting.word, in: language).text, language: language,
                        size: WordStyle.languageNameSize, color: WordStyle.white, rect: words, align: .start)))
            out += SwitchStyle.commands(in: switchFrame, on: state[setting] != rightToLeft, isOn: state[setting])
        }
        return out
    }

    /// The universal access figure (ISO 7001's person with arms outstretched): a head, arms, a body and legs.
    static func figure(in r: Rect, color: Color) -> [DrawCommand] {
        let (x, y) = (r.midX, r.midY)
        return [
            .dot(center: Point(x: x, y: y - 14), radius: 5, color),
            .fill(Rect(x: x - 14, y: y - 6, width: 28, height: 4), color),
            .fill(Rect(x: x - 2, y: y - 6, width: 4, height: 14), color),
            .fill(Rect(x: x - 7, y: y + 6, width: 4, height: 12), color),
            .fill(Rect(x: x + 3, y: y + 6, width: 4, height: 12), color),
        ]
    }

    /// The elements the keys reach: the button, or with the panel open its switches only (as the choice of
    /// languages: the rest of the screen closes it, as Escape does).
    func accessibilityElements() -> [AccessibilityElement] {
        let comma = SpokenWords.comma(language)
        guard state.isOpen else {
            return [
                AccessibilityElement(
                    id: "chrome:accessibility", frame: button,
                    spoken: AccessibilityElement.spoken(
                        SpokenWords.say(.accessibility, in: language).text, role: .button, language: language),
                    language: language, target: Self.buttonID)
            ]
        }
        return rows.map { setting, rect in
            let name = SpokenWords.say(setting.word, in: language).text
            let value = SpokenWords.say(state[setting] ? .on : .off, in: language).text
            return AccessibilityElement(
                id: "accessibility:\(setting.rawValue)", frame: rect,
                spoken: AccessibilityElement.spoken(name, role: .switchButton, language: language) + comma + value,
                language: language, target: Self.settingPrefix + setting.rawValue)
        }
    }
}

/// A switch as UIKit draws `UISwitch`: a pill-shaped track (green when on, grey when off) and a round white knob
/// ringed in black (so that it stands 3:1 from the track in either theme), at the trailing end when on.
enum SwitchStyle {
    static let size = Size(width: 60, height: 36)
    /// UIKit's dark `systemGreen`, #30D158.
    static let onTrack = Color(red: 0.188, green: 0.820, blue: 0.345, alpha: 1)
    /// UIKit's dark `systemGray4`, #3A3A3C.
    static let offTrack = Color(red: 0.227, green: 0.227, blue: 0.235, alpha: 1)
    static let ring = Color(red: 0, green: 0, blue: 0, alpha: 1)
    static let knob = WordStyle.white

    /// Where the switch is in a panel's line: at its trailing end, centred down.
    static func frame(in line: Rect, rightToLeft: Bool) -> Rect {
        let x = rightToLeft ? line.minX + 16 : line.maxX - 16 - size.width
        return Rect(x: x, y: line.midY - size.height / 2, width: size.width, height: size.height)
    }

    /// The switch in `r`: its knob at the right when `right`, the track's colour by `isOn`.
    static func commands(in r: Rect, on right: Bool, isOn: Bool) -> [DrawCommand] {
        let radius = r.height / 2
        let track = isOn ? onTrack : offTrack
        let centre = Point(x: right ? r.maxX - radius : r.minX + radius, y: r.midY)
        return [
            .fill(Rect(x: r.minX + radius, y: r.minY, width: r.width - 2 * radius, height: r.height), track),
            .dot(center: Point(x: r.minX + radius, y: r.midY), radius: radius, track),
            .dot(center: Point(x: r.maxX - radius, y: r.midY), radius: radius, track),
            .dot(center: centre, radius: radius - 2, ring),
            .dot(center: centre, radius: radius - 4, knob),
        ]
    }
}
