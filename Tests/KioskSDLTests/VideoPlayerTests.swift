import CSDL2
import Foundation
import ScrollEngine
import TestClips
import Testing

@testable import Kiosk
@testable import KioskSDL

/// The film's player (docs/video.md): which frame it gives for a time on the timeline.
@Suite struct VideoPlayerTests {
    /// A second of a test pattern at 30 frames a second, H.264 in MP4.
    static func clip() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("player-\(UUID()).mp4").path
        var clip = TestClip(seconds: 1)
        (clip.width, clip.height) = (64, 48)
        try clip.write(to: path)
        return path
    }

    /// A frame asked for a millisecond before it is due is shown: the frame loop wakes on whole milliseconds, and
    /// a loop woken just before the next film frame waited a whole frame for it (a 48 ms seam in a 30 fps loop).
    @Test func aFrameAMillisecondEarlyIsShown() throws {
        let path = try Self.clip()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let player = try VideoPlayer.open(path, loops: true, maxPixels: 64 * 48).get()
        defer { player.stop() }
        #expect(player.frame(at: 0, wait: true).frame?.number == 0)
        #expect(player.frame(at: 1.0 / 30 - 0.010, wait: true).frame == nil)
        #expect(player.frame(at: 1.0 / 30 - 0.001, wait: true).frame?.number == 1)
        // The seam: the first frame of the second loop, a millisecond early.
        #expect(player.frame(at: 1.0 - 0.001, wait: true).frame.map { ($0.loop, $0.number) } ?? (0, -1) == (1, 0))
    }

    /// A looping film of one frame (a still exported as a film) holds it for `shortestLoopSeconds` a round: its
    /// rounds, and its `videoDidLoop`, came every frame.
    @Test func aFilmOfOneFrameLoopsNoFasterThanTheFloor() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("one-\(UUID()).mp4").path
        var clip = TestClip(seconds: 1.0 / 30)
        (clip.width, clip.height) = (64, 48)
        try clip.write(to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let player = try VideoPlayer.open(path, loops: true, maxPixels: 64 * 48).get()
        defer { player.stop() }
        #expect(player.frame(at: 0, wait: true).frame?.loop == 0)
        #expect(player.frame(at: 0.2, wait: true).frame == nil)
        #expect(player.frame(at: VideoPlayer.shortestLoopSeconds - 0.01, wait: true).frame == nil)
        #expect(player.frame(at: VideoPlayer.shortestLoopSeconds, wait: true).frame?.loop == 1)
        #expect(player.frame(at: 2 * VideoPlayer.shortestLoopSeconds, wait: true).frame?.loop == 2)
    }

    /// A film's display matrix and its pixels' aspect, as libav reads them from the file: how it is seen.
    @Test(arguments: [(0, nil), (90, nil), (180, nil), (270, nil), (0, (64, 45))] as [(Int, (Int, Int)?)])
    func theFilmSaysHowItIsSeen(rotation: Int, aspect: (Int, Int)?) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("seen-\(UUID()).mp4").path
        var clip = TestClip(seconds: 0.2)
        (clip.width, clip.height, clip.rotation, clip.sampleAspect) = (64, 48, rotation, aspect)
        try clip.write(to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let player = try VideoPlayer.open(path, loops: false, maxPixels: 64 * 48).get()
        defer { player.stop() }
        #expect(player.display.rotation == rotation)
        let expected = aspect.map { Double($0.0) / Double($0.1) } ?? 1
        #expect(abs(player.display.sampleAspect - expected) < 0.001)
    }

    /// What part of a frame a rectangle of it as seen shows, turned each way: the seen frame's top-left quarter.
    @Test func aPartOfTheFrameAsSeenIsAPartOfItsPixels() {
        let size = Size(width: 720, height: 576)
        let quarter = { (s: Size) in Rect(x: 0, y: 0, width: s.width / 2, height: s.height / 2) }
        let pal = FilmDisplay(rotation: 0, sampleAspect: 64.0 / 45)
        #expect(pal.seen(size) == Size(width: 1024, height: 576))
        #expect(pal.pixels(of: quarter(pal.seen(size)), in: size) == Rect(x: 0, y: 0, width: 360, height: 288))
        // A quarter clockwise: the seen top-left is the frame's bottom-left.
        let turned = FilmDisplay(rotation: 90, sampleAspect: 1)
        #expect(turned.seen(size) == Size(width: 576, height: 720))
        #expect(turned.pixels(of: quarter(turned.seen(size)), in: size) == Rect(x: 0, y: 288, width: 360, height: 288))
        let half = FilmDisplay(rotation: 180, sampleAspect: 1)
        #expect(half.pixels(of: quarter(size), in: size) == Rect(x: 360, y: 288, width: 360, height: 288))
        let back = FilmDisplay(rotation: 270, sampleAspect: 1)
        #expect(back.pixels(of: quarter(back.seen(size)), in: size) == Rect(x: 360, y: 0, width: 360, height: 288))
    }

    /// A film whose first frame comes late (its clock ran while the decoder opened: 50-100 ms at 1080p, the
    /// libraries loaded at the first film) shows its first frame then and the others after it at their intervals:
    /// the frames due meanwhile were dropped as late (two of every film's first second).
    @Test func aFilmsFirstFrameLateDropsNone() throws {
        let path = try Self.clip()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let surface = try #require(SDL_CreateRGBSurfaceWithFormat(0, 64, 48, 32, SDL_PIXELFORMAT_ARGB8888.rawValue))
        defer { SDL_FreeSurface(surface) }
        let renderer = try #require(SDL_CreateSoftwareRenderer(surface))
        defer { SDL_DestroyRenderer(renderer) }
        let store = VideoStore(renderer: renderer, synchronous: true)
        var shot = VideoShot(
            path: path, box: Rect(x: 0, y: 0, width: 64, height: 48), fit: .contain, time: 0.1, session: 1,
            loops: true)
        var frames: [Int] = []
        for i in 0..<4 {
            shot.time = 0.1 + Double(i) / 30
            #expect(store.texture(for: shot) != nil)
            frames.append(store.endFrame().shown?.frame ?? -1)
        }
        #expect(frames == [0, 1, 2, 3])
        #expect(store.framesDropped == 0)
        #expect(store.framesShown == 4)
        _ = store.endFrame()
    }

    /// On SDL's software renderer a film's frames are converted to the screen's own format as they arrive (its
    /// scaled copies then go straight onto the screen, not through a screen-sized surface made for each): the
    /// same pixels as SDL's own YUV texture gives, scaled to twice the film's size.
    @Test func onTheSoftwareRendererAFilmIsInTheScreensFormatWithTheSamePixels() throws {
        let path = try Self.clip()
        defer { try? FileManager.default.removeItem(atPath: path) }
        func drawn(rgbFormat: UInt32?) throws -> (format: UInt32, pixels: [UInt32]) {
            let surface = try #require(
                SDL_CreateRGBSurfaceWithFormat(0, 128, 96, 32, SDL_PIXELFORMAT_RGB888.rawValue))
            defer { SDL_FreeSurface(surface) }
            let renderer = try #require(SDL_CreateSoftwareRenderer(surface))
            defer { SDL_DestroyRenderer(renderer) }
            let store = VideoStore(renderer: renderer, rgbFormat: rgbFormat, synchronous: true)
            let shot = VideoShot(
                path: path, box: Rect(x: 0, y: 0, width: 128, height: 96), fit: .contain, time: 0.5, session: 1,
                loops: true)
            let (texture, _, _) = try #require(store.texture(for: shot))
            var format: UInt32 = 0
            SDL_QueryTexture(texture, &format, nil, nil, nil)
            SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear)
            SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
            SDL_RenderCopy(renderer, texture, nil, nil)
            SDL_RenderPresent(renderer)
            let p = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
            let pixels = (0..<(128 * 96)).map { p[($0 / 128) * Int(surface.pointee.pitch) / 4 + $0 % 128] & 0xFF_FFFF }
            _ = store.endFrame()
            return (format, pixels)
        }
        let yuv = try drawn(rgbFormat: nil)
        let rgb = try drawn(rgbFormat: SDL_PIXELFORMAT_RGB888.rawValue)
        #expect(yuv.format == SDL_PIXELFORMAT_IYUV.rawValue || yuv.format == SDL_PIXELFORMAT_NV12.rawValue)
        #expect(rgb.format == SDL_PIXELFORMAT_RGB888.rawValue)
        #expect(rgb.pixels == yuv.pixels)
        #expect(Set(rgb.pixels).count > 4, "the test pattern, not one colour")
    }
}
