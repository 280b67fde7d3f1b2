import EventLog
import ScrollEngine
import Testing

@testable import Kiosk

/// A scene's appearance, as a UIKit view controller's `viewDidAppear`: a scroll or list scene flashes its
/// scroll indicators once it is on screen whole, so the visitor sees there is more; a zoom scene does not.
@Suite struct AppearanceTests {
    @Test func aScrollSceneFlashesItsIndicatorsWhenItAppears() throws {
        let app = try AppRig.app()
        app.navigator.show(scene: "menu", at: 100)
        // The fade runs; at its end the indicator shows, untouched, then fades away.
        AppRig.run(app, from: 100, to: 100 + 400 + 200)
        let bar = try #require(app.scene.view.verticalIndicator)
        #expect(bar.alpha == 1)
        #expect(app.needsFrame)
        AppRig.run(app, from: 600, to: 3000)
        #expect(app.scene.view.verticalIndicator?.alpha == 0)
        app.navigator.show(scene: "map", at: 3100)
        AppRig.run(app, from: 3100, to: 3700)
        #expect(app.scene.view.indicatorAlpha == 0)
    }
}
