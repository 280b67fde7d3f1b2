import EventLog
import Foundation
import ScrollEngine
import Testing

@testable import Kiosk

/// The chrome takes the touches that begin on it whole, as UIKit's bars and controls do: the content under it
/// never has them, a tap, a drag or a pinch.
@Suite struct ChromeTests {
    /// A carousel under a title, its pages captioned, with a page control; its hotspots under the title bar,
    /// between the bars and under the caption band; three languages.
    static let manifest = """
        {"kioskManifest": 1, "home": "gallery", "idleTimeoutSeconds": 0, "languages": ["en", "de", "ar"],
         "scenes": [
           {"id": "gallery", "type": "carousel", "title": "Gallery", "pageControl": true, "maxZoom": 2.0,
            "pages": [{"image": "a.jpg", "caption": "First"}, {"image": "b.jpg", "caption": "Second"}, "c.jpg"],
            "hotspots": [{"id": "high", "rect": [0, 0, 1600, 60]}, {"id": "middle", "rect": [0, 400, 1600, 100]},
             {"id": "low", "rect": [0, 820, 1600, 20]}]},
           {"id": "map", "type": "zoom", "image": "a.jpg"}
         ]}
        """

    static func app() throws -> KioskApp {
        let m = try Manifest.parse(manifest, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        return KioskApp(manifest: m, physicalSize: Size(width: 800, height: 480)) { _ in
            ImageInfo(size: Size(width: 1600, height: 960), loaded: true)
        }
    }

    /// A drag that begins on the title bar moves nothing; the same drag a little lower turns the page.
    @Test func aDragOnTheTitleBarMovesNothing() throws {
        let app = try Self.app()
        app.swipe(from: Point(x: 0.8, y: 30 / 480), to: Point(x: 0.2, y: 30 / 480), steps: 10, at: 100)
        AppRig.run(app, from: 100, to: 1200)
        #expect(app.scene.view.contentOffset.x == 0)
        #expect(!AppRig.names(app).contains("scrollViewWillBeginDragging"), "\(AppRig.names(app))")
        app.swipe(from: Point(x: 0.8, y: 200 / 480), to: Point(x: 0.2, y: 200 / 480), steps: 10, at: 1300)
        AppRig.run(app, from: 1300, to: 2500)
        #expect(app.scene.view.contentOffset.x == 800)
    }

    /// Taps on the title bar and on a caption band tap no hotspot under them; a tap on the picture between
    /// them does.
    @Test func aTapOnTheBarsTapsNoHotspotUnderThem() throws {
        let app = try Self.app()
        // The pages fit 800 x 480 at half size: `high` is the top 30 points (under the bar), `middle` 200 to 250,
        // `low` 410 to 420 (under the caption band, 331 to 427, above the page control).
        let chrome = app.navigator.chrome
        #expect(chrome.target(at: Point(x: 400, y: 20)) == Chrome.titleBarID)
        #expect(chrome.target(at: Point(x: 400, y: 415)) == Chrome.captionID)
        app.tap(x: 0.5, y: 20 / 480, at: 100)
        app.tap(x: 0.5, y: 415 / 480, at: 600)
        AppRig.run(app, from: 100, to: 1200)
        #expect(!AppRig.names(app).contains("hotspotTapped"), "\(AppRig.names(app))")
        app.tap(x: 0.5, y: 225 / 480, at: 1300)
        AppRig.run(app, from: 1300, to: 2000)
        #expect(app.sink.events.contains { $0.kind == .hotspotTapped(hotspot: "middle") })
    }

    /// A tap on the page control beside the current page's dot turns a page that way, as UIPageControl's does.
    @Test func thePageControlTurnsThePageItIsTappedTowards() throws {
        let app = try Self.app()
        let dot = try #require(app.scene.currentPageDotX)
        app.tap(x: (dot + 30) / 800, y: 444 / 480, at: 100)
        AppRig.run(app, from: 100, to: 1200)
        #expect(app.scene.currentPage == 1)
        app.tap(x: (dot - 20) / 800, y: 444 / 480, at: 1300)
        AppRig.run(app, from: 1300, to: 2400)
        #expect(app.scene.currentPage == 0)
        // A swipe that begins on the page control does not drag the pages.
        app.swipe(from: Point(x: (dot + 10) / 800, y: 444 / 480), to: Point(x: 0.1, y: 444 / 480), steps: 10, at: 2500)
        AppRig.run(app, from: 2500, to: 3600)
        #expect(app.scene.view.contentOffset.x == 0)
    }

    /// A touch that begins on a control and lifts off it does nothing (UIKit's touchUpInside).
    @Test func aTouchThatSlidesOffTheHomeButtonDoesNothing() throws {
        let app = try Self.app()
        app.navigator.show(scene: "map", at: 0)
        AppRig.run(app, from: 0, to: 1000)
        app.swipe(from: Point(x: 56 / 800, y: 56 / 480), to: Point(x: 0.5, y: 0.5), steps: 10, at: 1100)
        AppRig.run(app, from: 1100, to: 2000)
        #expect(app.scene.config.id == "map")
        #expect(!AppRig.names(app).contains("scrollViewWillBeginDragging"), "\(AppRig.names(app))")
        app.tap(x: 56 / 800, y: 56 / 480, at: 2100)
        AppRig.run(app, from: 2100, to: 3000)
        #expect(app.scene.config.id == "gallery")
    }

    /// A chrome touch whose scene leaves under it (a schedule's change, say) never lifts there: the next
    /// touch on the new scene's chrome is its own.
    @Test func aTouchHeldWhenTheSceneLeftDoesNotSwallowTheNext() throws {
        let app = try Self.app()
        app.finger(.down, x: 0.5, y: 30 / 480, at: 100)
        AppRig.run(app, from: 100, to: 200)
        app.navigator.show(scene: "map", at: 200)
        app.finger(.up, x: 0.5, y: 30 / 480, at: 250)
        AppRig.run(app, from: 200, to: 1000)
        app.tap(x: 40 / 800, y: 32 / 480, at: 1100)
        AppRig.run(app, from: 1100, to: 2000)
        #expect(app.scene.config.id == "gallery")
    }

    /// While the choice of languages is open, a drag anywhere moves nothing under it, and a tap beside it closes it.
    @Test func theOpenLanguageChoiceTakesEveryTouch() throws {
        let app = try Self.app()
        let menu = LanguageMenu(app.navigator.languages, sceneSize: app.sceneSize)
        app.tap(x: menu.button.midX / 800, y: menu.button.midY / 480, at: 100)
        AppRig.run(app, from: 100, to: 300)
        #expect(app.navigator.languages.isChoosing)
        app.swipe(from: Point(x: 0.5, y: 0.5), to: Point(x: 0.1, y: 0.5), steps: 10, at: 400)
        AppRig.run(app, from: 400, to: 1500)
        #expect(app.scene.view.contentOffset.x == 0)
        #expect(!app.navigator.languages.isChoosing)
    }

    /// Sizes and contrast a designer would sign: on the default panel (a 27-inch screen, 598 mm across), in 1080p
    /// and in 4K, every control is at least 15 mm and 44 points each way (Apple's HIG), and every word of the
    /// chrome is at least 4.5:1 against the chrome behind it (WCAG 1.4.3), the page dots 3:1 (WCAG 1.4.11).
    @Test(arguments: [(false, 1920.0), (true, 1920), (false, 3840), (true, 3840)])
    func everyControlIsFingerSizedAndEveryWordReadable(choosing: Bool, pixelsAcross: Double) throws {
        // The gallery, not home: with the home button.
        let text = Self.manifest.replacingOccurrences(of: #""home": "gallery""#, with: #""home": "map""#)
        let m = try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        let pixels = Size(width: pixelsAcross, height: pixelsAcross * 9 / 16)
        let app = KioskApp(manifest: m, physicalSize: pixels, startScene: "gallery") { _ in
            ImageInfo(size: Size(width: 1600, height: 960), loaded: true)
        }
        if choosing { app.navigator.tapControl(Chrome.languageButtonID, at: 0) }
        // 15 mm in the panel's pixels, as points (a point is `displayScale` pixels).
        let minimum = max(44, 15 / (598.0 / pixelsAcross) / app.traits.displayScale)
        #expect(app.traits.displayScale == pixelsAcross / 1920)
        let chrome = app.navigator.chrome
        let controls = chrome.targets.filter { $0.id != Chrome.captionID && $0.id != Chrome.languageCloseID }
        #expect(controls.count == (choosing ? 8 : 6), "\(controls.map(\.id))")
        for target in controls where target.id != Chrome.previousPageID && target.id != Chrome.nextPageID {
            #expect(target.rect.width >= minimum && target.rect.height >= minimum, "\(target.id): \(target.rect)")
        }
        let page = try #require(app.scene.pageControlFrame)
        #expect(page.width >= minimum && page.height >= minimum, "\(page)")
        var words = 0
        for command in chrome.commands {
            switch command {
            case .text(let run):
                words += 1
                #expect(run.color.contrast(with: ChromeStyle.bar) >= 4.5, "\(run.text)")
            case .dot(_, _, let color):
                #expect(color.over(ChromeStyle.bar).contrast(with: ChromeStyle.bar) >= 3)
            default: break
            }
        }
        #expect(words >= (choosing ? 5 : 3))
        #expect(ChromeStyle.bar.alpha == 1, "the chrome's words are measured against the bar alone")
    }

    @Test func theContrastIsWCAGs() {
        let black = Color(red: 0, green: 0, blue: 0, alpha: 1)
        let white = Color(red: 1, green: 1, blue: 1, alpha: 1)
        #expect(abs(black.contrast(with: white) - 21) < 1e-9)
        #expect(white.contrast(with: white) == 1)
        // #777777 on white: 4.48, WCAG's well-known near miss.
        let grey = Color(red: 0x77 / 255.0, green: 0x77 / 255.0, blue: 0x77 / 255.0, alpha: 1)
        #expect(abs(grey.contrast(with: white) - 4.48) < 0.01)
    }

    /// Right to left, all of it, as UIKit mirrors an interface (`semanticContentAttribute`): in Arabic the
    /// home button is at the right and the language button at the left, the carousel's first page is at the
    /// right and a swipe to the right brings the next, the page dots run right to left (a tap left of the
    /// current dot turns to the next page), and the visitor keeps their page when the language turns.
    @Test func inArabicTheChromeAndThePagesRunRightToLeft() throws {
        let text = Self.manifest.replacingOccurrences(of: #""home": "gallery""#, with: #""home": "map""#)
        let m = try Manifest.parse(text, file: "k.json", baseDirectory: "/k", fileExists: { _ in true })
        let app = KioskApp(manifest: m, physicalSize: Size(width: 800, height: 480), startScene: "gallery") { _ in
            ImageInfo(size: Size(width: 1600, height: 960), loaded: true)
        }
        app.swipe(from: Point(x: 0.8, y: 0.5), to: Point(x: 0.2, y: 0.5), steps: 10, at: 100)
        AppRig.run(app, from: 100, to: 1200)
        #expect(app.scene.currentPage == 1)
        app.chooseLanguage("ar")
        // Page 1 of three, in the middle either way; the pages' order turned about it.
        #expect(app.scene.currentPage == 1)
        #expect(app.scene.view.contentOffset.x == 800)
        let chrome = app.navigator.chrome
        #expect(chrome.target(at: Point(x: 760, y: 32)) == Chrome.homeButtonID)
        #expect(chrome.target(at: Point(x: 40, y: 32)) == Chrome.languageButtonID)
        #expect(app.scene.pageDotX(0) > app.scene.pageDotX(1) && app.scene.pageDotX(1) > app.scene.pageDotX(2))
        // A swipe to the right: the next page (2), which lies at the left.
        app.swipe(from: Point(x: 0.2, y: 0.5), to: Point(x: 0.8, y: 0.5), steps: 10, at: 1300)
        AppRig.run(app, from: 1300, to: 2400)
        #expect(app.scene.currentPage == 2)
        #expect(app.scene.view.contentOffset.x == 0)
        // A tap right of the current dot: the previous page.
        let dot = try #require(app.scene.currentPageDotX)
        app.tap(x: (dot + 20) / 800, y: 444 / 480, at: 2500)
        AppRig.run(app, from: 2500, to: 3600)
        #expect(app.scene.currentPage == 1)
        // Page 1's picture is drawn where the screen is.
        let drawn = app.drawList().compactMap { c -> Int? in
            if case .picture(let p, _) = c, p.clip.width > 0 { return p.index }
            return nil
        }
        #expect(drawn == [1], "\(drawn)")
        // The idle reset's first page is at the right.
        app.scene.reset()
        #expect(app.scene.currentPage == 0 && app.scene.view.contentOffset.x == 1600)
    }

    /// The vertical scroll indicator runs below the title bar and beside a list's index, on the leading edge
    /// in a right-to-left language, as UIKit's (`verticalScrollIndicatorInsets`).
    @Test func theScrollIndicatorKeepsClearOfTheChrome() throws {
        let app = try ListTests.app()
        let view = app.scene.view
        view.setContentOffset(Point(x: 0, y: 300), animated: false)
        let bar = try #require(view.verticalIndicator?.frame)
        #expect(bar.minY >= WordStyle.titleBarHeight, "\(bar)")
        #expect(bar.maxX <= 800 - ListStyle.indexWidth, "\(bar)")
        app.chooseLanguage("ar")
        let mirrored = try #require(view.verticalIndicator?.frame)
        #expect(mirrored.minX >= ListStyle.indexWidth && mirrored.maxX < 400, "\(mirrored)")
        #expect(mirrored.minY == bar.minY)
    }
}
