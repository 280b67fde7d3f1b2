import EventLog
import ScrollEngine
import Testing

@testable import Kiosk

/// The accessibility button and its panel (docs/accessibility.md): larger text, high contrast and speech, by
/// touch and by the keys, in process on the virtual clock.
@Suite struct AccessibilityPanelTests {
    /// The scene point `p` as SDL's normalised touch on `app`'s screen (points times the display scale).
    static func touch(_ app: KioskApp, _ p: Point, at t: Double) {
        let k = app.traits.displayScale
        app.tap(x: p.x * k / app.physicalSize.width, y: p.y * k / app.physicalSize.height, at: t)
        AppRig.run(app, from: t, to: t + 200)
    }

    static func panel(_ app: KioskApp) -> AccessibilityMenu { app.navigator.chrome.accessMenu }

    static func changes(_ app: KioskApp) -> [String] {
        app.sink.events.compactMap { e in
            guard case .accessibilityDidChange(let audio, let large, let contrast) = e.kind else { return nil }
            return "audio \(audio) largeText \(large) highContrast \(contrast)"
        }
    }

    @Test func theButtonSitsBesideTheLanguageButtonAndOpensThePanel() throws {
        let app = try KeysAndFocusTests.app()
        let chrome = app.navigator.chrome
        let button = Self.panel(app).button
        let language = try #require(chrome.menu?.button)
        // Beside it on its leading side, as tall, in the title bar.
        #expect(button.maxX < language.minX && language.minX - button.maxX <= 8)
        #expect(button.height == language.height && button.width >= WordStyle.languageButtonMinimumWidth)
        #expect(chrome.target(at: Point(x: button.midX, y: button.midY)) == AccessibilityMenu.buttonID)
        Self.touch(app, Point(x: button.midX, y: button.midY), at: 100)
        #expect(Self.panel(app).rows.map(\.setting) == [.largerText, .highContrast, .speech])
        // A tap beside the panel closes it and does nothing else.
        let scene = app.scene.config.id
        Self.touch(app, Point(x: 40, y: app.sceneSize.height - 40), at: 400)
        #expect(Self.panel(app).rows.isEmpty && app.scene.config.id == scene)
        // In Arabic the button is on the language button's other side.
        app.chooseLanguage("ar")
        let ar = app.navigator.chrome
        #expect(ar.accessMenu.button.minX > (ar.menu?.button.maxX ?? .infinity))
    }

    @Test func largerTextLaysTheScenesOutInFewerLargerPointsUntilTheIdleReset() throws {
        let app = try KeysAndFocusTests.app(scene: "directory")
        let pixels = app.physicalSize
        let rowsBefore = app.scene.accessibilityElements(language: "en", fallback: "en").filter {
            $0.frame.maxY <= app.sceneSize.height
        }.count
        let button = Self.panel(app).button
        Self.touch(app, Point(x: button.midX, y: button.midY), at: 100)
        let row = try #require(Self.panel(app).rows.first { $0.setting == .largerText }?.rect)
        app.dropFrameEvents()
        Self.touch(app, Point(x: row.midX, y: row.midY), at: 400)
        #expect(app.access.largeText)
        #expect(Self.changes(app) == ["audio false largeText true highContrast false"])
        let k = app.traits.displayScale
        #expect(k >= LargerText.minimumScale)
        #expect(abs(app.sceneSize.width * k - pixels.width) < 1e-6)
        // The list's rows grew: fewer fit the screen.
        let rowsAfter = app.scene.accessibilityElements(language: "en", fallback: "en").filter {
            $0.frame.maxY <= app.sceneSize.height
        }.count
        #expect(rowsAfter < rowsBefore)
        // The draw list is in pixels: the title bar still spans the whole screen, and its text is larger.
        let list = app.drawList()
        let bar = list.compactMap { c -> Rect? in
            if case .fill(let r, ChromeStyle.bar) = c, r.minY == 0, r.minX == 0 { return r }
            return nil
        }.first
        #expect(bar?.width == pixels.width)
        #expect(bar?.height == WordStyle.titleBarHeight * k)
        let title = list.compactMap { c -> TextRun? in
            if case .text(let run) = c, run.text == "Directory" { return run }
            return nil
        }.first
        #expect(title?.size == WordStyle.titleSize * k)
        // The panel stays open on its switch; the idle reset turns it all off and closes it.
        #expect(!Self.panel(app).rows.isEmpty)
        AppRig.run(app, from: 600, to: 6_500)
        #expect(!app.access.largeText && Self.panel(app).rows.isEmpty)
        #expect(app.sceneSize == pixels)
    }

    @Test func highContrastDrawsTheChromeInItsTheme() throws {
        let app = try KeysAndFocusTests.app()
        let button = Self.panel(app).button
        Self.touch(app, Point(x: button.midX, y: button.midY), at: 100)
        let row = try #require(Self.panel(app).rows.first { $0.setting == .highContrast }?.rect)
        Self.touch(app, Point(x: row.midX, y: row.midY), at: 400)
        #expect(app.access.highContrast && !app.access.largeText)
        let colours = app.drawList().flatMap(\.flattened).compactMap { c -> Color? in
            switch c {
            case .fill(_, let color), .dot(_, _, let color): color
            case .text(let run): run.plate ?? run.color
            default: nil
            }
        }
        for standard in HighContrast.table.keys { #expect(!colours.contains(standard)) }
        #expect(colours.contains(HighContrast.black))
    }

    /// Every pair of the high-contrast theme that meets: text at least 4.5:1, a control's parts at least 3:1.
    @Test func theHighContrastThemeMeetsItsRatios() {
        let c = HighContrast.color
        let text: [(Color, Color, String)] = [
            (c(WordStyle.white), c(ChromeStyle.bar), "words on a bar"),
            (c(ChromeStyle.tint), c(ChromeStyle.bar), "a bar button's words"),
            (c(WordStyle.white), c(WordStyle.labelPlate), "a label on its plate"),
            (c(ListStyle.titleColor), c(ListStyle.background), "a row's title"),
            (c(ListStyle.subtitleColor), c(ListStyle.background), "a row's subtitle"),
            (c(ListStyle.titleColor), c(ListStyle.headerBackground), "a section header"),
            (c(ListStyle.titleColor), c(ListStyle.highlight), "a highlighted row's title"),
            (c(ListStyle.indexColor), c(ListStyle.background), "the index"),
            (c(StillThereCard.ink), c(StillThereCard.paper), "the still-there card"),
            (c(StillThereCard.accent), c(StillThereCard.paper), "the card's countdown"),
        ]
        let controls: [(Color, Color, String)] = [
            (c(ChromeStyle.separator), c(ChromeStyle.bar), "a hairline on a bar"),
            (c(ChromeStyle.tint), c(ChromeStyle.bar), "the accessibility figure"),
            (c(SwitchStyle.onTrack), c(ChromeStyle.bar), "a switch that is on"),
            (c(SwitchStyle.offTrack), c(ChromeStyle.bar), "a switch that is off"),
            (c(SwitchStyle.ring), c(SwitchStyle.onTrack), "the knob on a track that is on"),
            (c(SwitchStyle.ring), c(SwitchStyle.offTrack), "the knob on a track that is off"),
            (c(ListStyle.chevronColor), c(ListStyle.background), "a row's chevron"),
            (FocusRing.inner, c(ChromeStyle.bar), "the focus ring on a bar"),
            (FocusRing.outer, c(ListStyle.background), "the focus ring on a list"),
        ]
        for (fore, back, what) in text {
            #expect(fore.contrast(with: back) >= 4.5, "\(what): \(fore.contrast(with: back)):1")
        }
        for (fore, back, what) in controls {
            #expect(fore.contrast(with: back) >= 3, "\(what): \(fore.contrast(with: back)):1")
        }
        // The standard theme does not meet them all: the high-contrast one is needed.
        #expect(SwitchStyle.offTrack.contrast(with: ChromeStyle.bar) < 3)
    }

    @Test func theKeysReachThePanelAndHearEachSwitch() throws {
        let app = try KeysAndFocusTests.app()
        KeysAndFocusTests.press(app, "Tab", at: 100)
        var t = 300.0
        while app.access.focused != "chrome:accessibility" && t < 3_000 {
            KeysAndFocusTests.press(app, "Tab", at: t)
            t += 200
        }
        #expect(app.access.focused == "chrome:accessibility")
        KeysAndFocusTests.press(app, "Return", at: t)
        #expect(app.access.focused == "accessibility:largerText")
        #expect(KeysAndFocusTests.spoken(app).last == "say[en] Larger text, switch button, off")
        app.dropFrameEvents()
        KeysAndFocusTests.press(app, "Return", at: t + 200)
        #expect(app.access.largeText)
        #expect(KeysAndFocusTests.spoken(app).contains("say[en] Larger text, switch button, on"))
        // The speech switch turns audio mode off: nothing more is said, the focus is let go.
        KeysAndFocusTests.press(app, "Down", at: t + 400)
        KeysAndFocusTests.press(app, "Down", at: t + 600)
        #expect(app.access.focused == "accessibility:speech")
        app.dropFrameEvents()
        KeysAndFocusTests.press(app, "Return", at: t + 800)
        #expect(!app.access.audio && app.access.focused == nil)
        #expect(!KeysAndFocusTests.spoken(app).contains { $0.hasPrefix("say") })
        // Escape closes the panel (a key starts audio mode again, on the button that opened it).
        KeysAndFocusTests.press(app, "Escape", at: t + 1_000)
        #expect(Self.panel(app).rows.isEmpty)
    }

    @Test func largerTextMeetsTheRuleOnAPanelWhereItCan() {
        var config = AccessibilityConfig()
        // A 27-inch 1080p panel at 600 mm: a capital H of 7.3 mm is 23.5 pixels.
        let hd = LargerText.displayScale(pixels: Size(width: 1920, height: 1080), config: config)
        let h = config.largeTextCapitalHeightMM * 1920 / 598
        #expect(abs(h - 23.5) < 0.1)
        #expect(LargerText.smallestTextSize * hd * LargerText.capitalHeightPerPoint >= h - 1e-9)
        // A screen whose pixels are large already still gets larger text.
        #expect(
            LargerText.displayScale(pixels: Size(width: 640, height: 400), config: config) == LargerText.minimumScale)
        // Far away on a small screen the rule cannot be met: as large as leaves 320 points.
        config.viewingDistanceMM = 3_000
        config.panelMM = Size(width: 300, height: 200)
        #expect(LargerText.displayScale(pixels: Size(width: 1920, height: 1080), config: config) == 1080.0 / 320)
        // Turned (a portrait screen), the same panel gives the same scale.
        #expect(
            LargerText.displayScale(pixels: Size(width: 1080, height: 1920), config: AccessibilityConfig()) == hd)
    }
}
