import CSDL2
import Kiosk
import ScrollEngine
import Testing

@testable import KioskSDL

/// Texts on screen beyond the words' share of the texture budget are kept while shown: the next frame draws
/// them from their textures, none shaped and rasterised again (2 000 labels over the budget took 1.9 s a frame
/// when each frame let the first ones go to make room for the last).
@Test func textsOnScreenOverTheBudgetAreNotMadeAgainEachFrame() throws {
    try withSoftwareTextures { textures in try textsOnScreenOverTheBudgetAreNotMadeAgain(textures) }
}

func textsOnScreenOverTheBudgetAreNotMadeAgain(_ textures: TextureMaker) throws {
    let store = TextStore(fonts: FontBook(named: [:]), textures: textures, budgetBytes: 64 * 1024)
    let runs = (0..<200).map { i in
        TextRun(
            "Label \(i)", language: "en", size: 20, color: Color(red: 1, green: 1, blue: 1, alpha: 1),
            rect: Rect(x: 0, y: 0, width: 200, height: 40), plate: Color(red: 0, green: 0, blue: 0, alpha: 1))
    }
    var made: [Int] = []
    for _ in 0..<3 {
        store.nextFrame()
        let before = store.made
        for run in runs { _ = store.texture(for: run) }
        made.append(store.made - before)
    }
    #expect(made == [200, 0, 0], "\(made)")
    #expect(store.bytes > 64 * 1024)
    // Once they are no longer drawn, they go down to the budget.
    store.nextFrame()
    store.nextFrame()
    #expect(store.bytes <= 64 * 1024)
}

/// A picture zoomed in on its overlays: past `TextStore.maximumPixels` a text is drawn from its texture at that
/// size, scaled, so zooming on makes nothing again, its texture stays bounded, and it is still drawn where its
/// letters pass the longest texture side (twenty overlays of size 400 zoomed took three seconds a frame and over a
/// gigabyte, and vanished past 4096 pixels). The fonts opened for the sizes on the way are closed between frames.
@Test func aTextZoomedPastTheLargestLettersIsScaledNotMadeAgain() throws {
    try withSoftwareTextures { textures in try aTextZoomedPastTheLargestLetters(textures) }
}

func aTextZoomedPastTheLargestLetters(_ textures: TextureMaker) throws {
    let fonts = FontBook(named: [:])
    let store = TextStore(fonts: fonts, textures: textures, budgetBytes: 64 * 1024 * 1024)
    func run(zoom: Double) -> TextRun {
        TextRun(
            "Big words", language: "en", size: 40 * zoom, color: Color(red: 1, green: 0, blue: 0, alpha: 1),
            rect: Rect(x: 0, y: 0, width: 480 * zoom, height: 300 * zoom))
    }
    // Settled at one size after another, as a pinch that stops now and then.
    var made: [Int] = []
    var largest = 0
    for step in 1...40 {
        store.nextFrame()
        let before = store.made
        let drawn = try #require(store.texture(for: run(zoom: Double(step) * 4)), "zoom \(step * 4)")
        made.append(store.made - before)
        largest = max(largest, drawn.entry.bytes)
        let shown = drawn.entry.size.height * drawn.scale
        #expect(shown >= 40 * Double(step) * 4, "the letters are drawn at their size: \(shown)")
        #expect(fonts.openCount <= FontBook.maximumOpen + 1)
    }
    // Up to 512 pixels (zoom 12.8) each size is made; past it, nothing more.
    #expect(made.prefix(3) == [1, 1, 1])
    #expect(made.suffix(27).allSatisfy { $0 == 0 }, "\(made)")
    // One line of nine letters at 512 pixels: well under a 4096-pixel square.
    #expect(largest < 4096 * 1024 * 4)
}

/// `body` with the texture maker of a software renderer on a small surface (freed after).
func withSoftwareTextures(_ body: (TextureMaker) throws -> Void) throws {
    let surface = try #require(SDL_CreateRGBSurfaceWithFormat(0, 64, 64, 32, SDL_PIXELFORMAT_ARGB8888.rawValue))
    defer { SDL_FreeSurface(surface) }
    let renderer = try #require(SDL_CreateSoftwareRenderer(surface))
    defer { SDL_DestroyRenderer(renderer) }
    try body(
        TextureMaker(
            renderer: renderer, opaqueFormat: SDL_PIXELFORMAT_ARGB8888.rawValue, rotation: .none,
            access: SDL_TEXTUREACCESS_STATIC))
}
