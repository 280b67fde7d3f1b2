import CSDL2
import Kiosk
import ScrollEngine
import Testing

@testable import KioskSDL

/// Texts on screen beyond the words' share of the texture budget are kept while shown: the next frame draws
/// them from their textures, none shaped and rasterised again (2 000 labels over the budget took 1.9 s a frame
/// when each frame let the first ones go to make room for the last).
@Test func textsOnScreenOverTheBudgetAreNotMadeAgainEachFrame() throws {
    let surface = try #require(SDL_CreateRGBSurfaceWithFormat(0, 64, 64, 32, SDL_PIXELFORMAT_ARGB8888.rawValue))
    defer { SDL_FreeSurface(surface) }
    let renderer = try #require(SDL_CreateSoftwareRenderer(surface))
    defer { SDL_DestroyRenderer(renderer) }
    let textures = TextureMaker(
        renderer: renderer, opaqueFormat: SDL_PIXELFORMAT_ARGB8888.rawValue, rotation: .none,
        access: SDL_TEXTUREACCESS_STATIC)
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
