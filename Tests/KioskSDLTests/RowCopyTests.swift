import CCopyRows
import CSDL2
import Foundation
import TestSupport
import Testing

@testable import KioskSDL

/// The rows of a copy, with and without stores that bypass the cache: the bytes of a memcpy, whatever the
/// alignment of either end and the length, and nothing outside the row touched.
@Test func copiedRowsAreTheBytesOfAMemcpy() {
    var generator = SplitMix(seed: 0x5EED_C0DE)
    let source = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for stream: Int32 in [0, 1] {
        for offset in [0, 1, 4, 15, 16, 17, 48, 60, 63] {
            for length in [0, 1, 3, 15, 16, 17, 63, 64, 65, 127, 128, 200, 1000, 2056] {
                var target = [UInt8](repeating: 0xEE, count: 2 * 2200 + 128)
                let rows = 2
                source.withUnsafeBytes { s in
                    target.withUnsafeMutableBytes { t in
                        kiosk_copy_rows(t.baseAddress! + offset, 2200, s.baseAddress! + 7, 1900, length, rows, stream)
                    }
                }
                for row in 0..<rows {
                    let at = offset + row * 2200
                    #expect(
                        Array(target[at..<at + length]) == Array(source[7 + row * 1900..<7 + row * 1900 + length]),
                        "stream \(stream), offset \(offset), length \(length), row \(row)")
                    #expect(target[at + length] == 0xEE && (at == 0 || target[at - 1] == 0xEE), "nothing outside")
                }
            }
        }
    }
}

/// A batch of copies (`kiosk_copy_pieces`), made screen row by screen row and, streamed, with the pieces that
/// meet on a row put together: the bytes of each piece's `kiosk_copy_rows` in turn, for pieces side by side (a
/// row of tiles), apart, of any alignment and length, and overlapping (the later piece's pixels stay).
@Test func aBatchIsTheBytesOfItsCopiesOneAfterAnother() {
    var generator = SplitMix(seed: 0xBA7C_4ED)
    let pitch = 1000
    let height = 60
    let source = (0..<(pitch * 80)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for round in 0..<200 {
        // A row of tiles side by side (a pan's), then pieces anywhere.
        var pieces: [(x: Int, y: Int, width: Int, rows: Int, from: Int)] = []
        var x = Int.random(in: 0...70, using: &generator)
        let y = Int.random(in: 0...20, using: &generator)
        while x < 900 {
            let w = Int.random(in: 1...300, using: &generator)
            pieces.append((x, y, min(w, 960 - x), Int.random(in: 1...30, using: &generator), 0))
            x += w
        }
        for _ in 0..<Int.random(in: 0...4, using: &generator) {
            let px = Int.random(in: 0...900, using: &generator)
            pieces.append(
                (
                    px, Int.random(in: 0...50, using: &generator), Int.random(in: 0...(960 - px), using: &generator),
                    Int.random(in: 0...9, using: &generator), 0
                ))
        }
        pieces = pieces.map { p in (p.x, p.y, p.width, p.rows, Int.random(in: 0...(pitch * 10), using: &generator)) }
        for stream: Int32 in [0, 1] {
            var one = [UInt8](repeating: 0xEE, count: pitch * (height + 30))
            var batch = one
            source.withUnsafeBytes { s in
                one.withUnsafeMutableBytes { t in
                    for p in pieces {
                        kiosk_copy_rows(
                            t.baseAddress! + p.y * pitch + p.x, pitch, s.baseAddress! + p.from, 977, p.width, p.rows,
                            stream)
                    }
                }
                batch.withUnsafeMutableBytes { t in
                    let list = pieces.map { p in
                        kiosk_copy_piece(
                            dst: t.baseAddress! + p.y * pitch + p.x, src: s.baseAddress! + p.from, dstPitch: pitch,
                            srcPitch: 977, rowBytes: p.width, top: Int32(p.y), rows: Int32(p.rows))
                    }
                    var scratch = [Int32](repeating: 0, count: list.count)
                    kiosk_copy_pieces(list, Int32(list.count), stream, &scratch)
                }
            }
            let differing = zip(one, batch).filter { $0 != $1 }.count
            #expect(differing == 0, "round \(round), stream \(stream): \(differing) bytes differ")
        }
    }
}

/// The 320x240 screen's pixels once `under` is drawn unclipped and then `draw` under `clip`.
func screenPixels(
    _ renderer: OpaquePointer, format: UInt32, clip: SDL_Rect?, under: () -> Void, _ draw: () -> Void
) -> [UInt32] {
    SDL_SetRenderTarget(renderer, nil)
    SDL_RenderSetClipRect(renderer, nil)
    under()
    if var c = clip { SDL_RenderSetClipRect(renderer, &c) }
    draw()
    SDL_RenderSetClipRect(renderer, nil)
    var out = [UInt32](repeating: 0, count: 320 * 240)
    _ = out.withUnsafeMutableBytes { SDL_RenderReadPixels(renderer, nil, format, $0.baseAddress, 320 * 4) }
    return out
}

/// In `SDLEventTests`' serialized suite: SDL's state is the process's.
extension SDLEventTests {
    /// The software renderer's plain copies made by `RowCopy` (by memcpy or streamed, whichever the machine
    /// was measured to copy faster; or left to SDL) give the screen SDL's own copy gives, pixel for pixel: copies within the screen, across its edges, under a clip rectangle, small and large (the large
    /// ones stream); and those that are not plain (blending, modulated, scaled, a source beyond the texture) are
    /// left to SDL.
    @Test func aPlainCopyIsTheCopySDLMakes() throws {
        let session = try attractSession(width: 320, height: 240)
        let display = session.display
        let renderer = display.renderer
        let rows = try #require(display.rowCopy, "the software renderer takes the row copies")
        let format = display.textures.opaqueFormat
        let (tw, th): (Int32, Int32) = (400, 300)
        let texture = try #require(
            SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), tw, th))
        defer { SDL_DestroyTexture(texture) }
        var generator = SplitMix(seed: 0x5EED_C0DE)
        let pixels = (0..<Int(tw * th)).map { _ in UInt32.random(in: 0...0xFF_FFFF, using: &generator) }
        _ = pixels.withUnsafeBytes { SDL_UpdateTexture(texture, nil, $0.baseAddress, tw * 4) }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)

        func screen(clip: SDL_Rect?, _ draw: () -> Void) -> [UInt32] {
            screenPixels(
                renderer, format: format, clip: clip,
                under: {
                    SDL_SetRenderDrawColor(renderer, 10, 20, 30, 255)
                    SDL_RenderClear(renderer)
                }, draw)
        }
        let cases: [(SDL_Rect, SDL_Rect, SDL_Rect?)] = [
            (SDL_Rect(x: 0, y: 0, w: 320, h: 240), SDL_Rect(x: 0, y: 0, w: 320, h: 240), nil),
            (SDL_Rect(x: 33, y: 17, w: 320, h: 240), SDL_Rect(x: 0, y: 0, w: 320, h: 240), nil),
            (SDL_Rect(x: 5, y: 3, w: 200, h: 150), SDL_Rect(x: -37, y: 101, w: 200, h: 150), nil),
            (SDL_Rect(x: 79, y: 1, w: 300, h: 299), SDL_Rect(x: 211, y: -50, w: 300, h: 299), nil),
            (SDL_Rect(x: 1, y: 2, w: 7, h: 3), SDL_Rect(x: 13, y: 11, w: 7, h: 3), nil),
            (
                SDL_Rect(x: 50, y: 40, w: 320, h: 240), SDL_Rect(x: 0, y: 0, w: 320, h: 240),
                SDL_Rect(x: 21, y: 30, w: 101, h: 77)
            ),
            (
                SDL_Rect(x: 3, y: 9, w: 120, h: 100), SDL_Rect(x: 300, y: 200, w: 120, h: 100),
                SDL_Rect(x: 290, y: 190, w: 100, h: 100)
            ),
        ]
        // Each of the ways a copy can be measured fastest: ours by memcpy or streamed, or SDL's own.
        for method in CopyMethod.allCases {
            rows.calibration.choose(method)
            for (source, destination, clip) in cases {
                var s = source
                var d = destination
                let sdl = screen(clip: clip) { SDL_RenderCopy(renderer, texture, &s, &d) }
                var took = false
                let ours = screen(clip: clip) {
                    took = rows.copy(texture, source, destination)
                    if !took { SDL_RenderCopy(renderer, texture, &s, &d) }
                }
                #expect(took == (method != .sdl), "\(method): \(source) to \(destination) is a plain copy")
                let differing = zip(ours, sdl).filter { $0 != $1 }.count
                #expect(
                    differing == 0,
                    "\(method): \(source) to \(destination) under \(String(describing: clip)): \(differing) pixels")
            }
            // A batch (a picture's tiles): pieces side by side, apart, across the edges, one over another, made
            // together at the batch's end, under a clip and without one.
            let pieces: [(SDL_Rect, SDL_Rect)] = [
                (SDL_Rect(x: 7, y: 5, w: 101, h: 90), SDL_Rect(x: -3, y: -10, w: 101, h: 90)),
                (SDL_Rect(x: 200, y: 100, w: 150, h: 90), SDL_Rect(x: 98, y: -10, w: 150, h: 90)),
                (SDL_Rect(x: 0, y: 0, w: 120, h: 77), SDL_Rect(x: 248, y: -10, w: 120, h: 77)),
                (SDL_Rect(x: 31, y: 200, w: 300, h: 99), SDL_Rect(x: 10, y: 150, w: 300, h: 99)),
                (SDL_Rect(x: 1, y: 1, w: 50, h: 50), SDL_Rect(x: 40, y: 60, w: 50, h: 50)),
            ]
            for clip in [nil, SDL_Rect(x: 21, y: 30, w: 201, h: 177)] {
                let sdl = screen(clip: clip) {
                    for (s, d) in pieces {
                        var s = s
                        var d = d
                        SDL_RenderCopy(renderer, texture, &s, &d)
                    }
                }
                let ours = screen(clip: clip) {
                    rows.batch {
                        for (s, d) in pieces where !rows.copy(texture, s, d) {
                            var s = s
                            var d = d
                            SDL_RenderCopy(renderer, texture, &s, &d)
                        }
                    }
                }
                let differing = zip(ours, sdl).filter { $0 != $1 }.count
                #expect(differing == 0, "\(method): a batch under \(String(describing: clip)): \(differing) pixels")
            }
        }
        rows.calibration.choose(.streamed)
        let whole = SDL_Rect(x: 0, y: 0, w: 100, h: 100)
        #expect(!rows.copy(texture, whole, SDL_Rect(x: 0, y: 0, w: 200, h: 100)), "scaled")
        #expect(!rows.copy(texture, SDL_Rect(x: 350, y: 0, w: 100, h: 100), whole), "beyond the texture")
        SDL_SetTextureAlphaMod(texture, 128)
        #expect(!rows.copy(texture, whole, whole), "alpha modulated")
        SDL_SetTextureAlphaMod(texture, 255)
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        #expect(!rows.copy(texture, whole, whole), "blended")
    }

    /// The software renderer's small fills made by `RowCopy` (opaque ones, and those blended with
    /// `SDL_BLENDMODE_BLEND`) write the pixels SDL's own fills write, over a picture: inside the screen, across
    /// its edges, under a clip rectangle, fractional rectangles (truncated, at least a pixel), every alpha; a
    /// fill too large to keep cached, or onto a render target, is left to SDL.
    @Test func aSmallFillIsTheFillSDLMakes() throws {
        let session = try attractSession(width: 320, height: 240)
        let renderer = session.display.renderer
        let rows = try #require(session.display.rowCopy)
        let format = session.display.textures.opaqueFormat
        var generator = SplitMix(seed: 0xF111_ED)
        let picture = (0..<(320 * 240)).map { _ in UInt32.random(in: 0...0xFFFF_FFFF, using: &generator) }
        let texture = try #require(
            SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), 320, 240))
        defer { SDL_DestroyTexture(texture) }
        _ = picture.withUnsafeBytes { SDL_UpdateTexture(texture, nil, $0.baseAddress, 320 * 4) }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
        func screen(clip: SDL_Rect?, _ draw: () -> Void) -> [UInt32] {
            screenPixels(
                renderer, format: format, clip: clip, under: { SDL_RenderCopy(renderer, texture, nil, nil) }, draw)
        }
        let rects: [SDL_FRect] = [
            SDL_FRect(x: 10, y: 20, w: 64, h: 64), SDL_FRect(x: -5, y: 230, w: 40, h: 30),
            SDL_FRect(x: 300.7, y: -3.2, w: 40.9, h: 9.99), SDL_FRect(x: 100.5, y: 100.5, w: 0.4, h: 0.2),
            SDL_FRect(x: 1, y: 1, w: 318, h: 3), SDL_FRect(x: 50, y: 30, w: 4.5, h: 187.2),
        ]
        let colors: [(UInt8, UInt8, UInt8, UInt8)] = [
            (255, 255, 255, 255), (0, 0, 0, 89), (12, 200, 77, 128), (255, 0, 255, 0), (1, 2, 3, 254),
            (200, 180, 160, 1),
        ]
        for clip in [nil, SDL_Rect(x: 21, y: 15, w: 201, h: 177)] {
            for (r, g, b, a) in colors {
                for rect in rects {
                    SDL_SetRenderDrawColor(renderer, r, g, b, a)
                    let whole = SDL_Rect(x: Int32(rect.x), y: Int32(rect.y), w: Int32(rect.w), h: Int32(rect.h))
                    // Opaque (`DrawCalls.fill`, whole pixels) and blended (`DrawCalls.fillF`).
                    var took = (opaque: false, blended: false)
                    let opaqueSDL = screen(clip: clip) {
                        var w = whole
                        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
                        SDL_RenderFillRect(renderer, &w)
                        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
                    }
                    let opaqueOurs = screen(clip: clip) {
                        took.opaque = rows.fill(whole)
                        if !took.opaque {
                            var w = whole
                            SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
                            SDL_RenderFillRect(renderer, &w)
                            SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
                        }
                    }
                    let blendedSDL = screen(clip: clip) {
                        var f = rect
                        SDL_RenderFillRectF(renderer, &f)
                    }
                    let blendedOurs = screen(clip: clip) {
                        took.blended = rows.blend(rect)
                        var f = rect
                        if !took.blended { SDL_RenderFillRectF(renderer, &f) }
                    }
                    let what = "\(rect) in (\(r), \(g), \(b), \(a)) under \(String(describing: clip))"
                    #expect(took.opaque == (whole.w > 0 && whole.h > 0), "opaque \(what) is ours")
                    #expect(took.blended, "blended \(what) is ours")
                    #expect(zip(opaqueOurs, opaqueSDL).filter { $0 != $1 }.isEmpty, "opaque \(what)")
                    #expect(zip(blendedOurs, blendedSDL).filter { $0 != $1 }.isEmpty, "blended \(what)")
                }
            }
        }
        #expect(!rows.fill(SDL_Rect(x: 0, y: 0, w: 320, h: 240)), "a screenful is SDL's (past the cache)")
        let target = try #require(
            SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_TARGET.rawValue), 16, 16))
        defer { SDL_DestroyTexture(target) }
        SDL_SetRenderTarget(renderer, target)
        #expect(!rows.fill(SDL_Rect(x: 0, y: 0, w: 8, h: 8)) && !rows.blend(SDL_FRect(x: 0, y: 0, w: 8, h: 8)))
        SDL_SetRenderTarget(renderer, nil)
    }

    /// A picture held still at another scale than one texture pixel per screen pixel is drawn from kept tiles:
    /// each is a streaming texture, so the row copies take it (a render target's copies would be SDL's).
    @Test func aSettledPicturesKeptTilesAreCopiedRowByRow() throws {
        let session = try attractSession(width: 320, height: 240)
        for i in 0..<4 { session.frame(at: Double(i) * 1000 / 60) }
        var kept = 0
        for call in session.renderer.calls.log {
            guard case .copy(let texture, let source, let destination) = call, RowCopy.isPlain(texture) else {
                continue
            }
            var access: Int32 = 0
            SDL_QueryTexture(texture, nil, &access, nil, nil)
            #expect(
                access == Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), "\(String(describing: source)) to \(destination)"
            )
            kept += 1
        }
        #expect(kept > 0, "the frame copies kept tiles")
        #expect(session.renderer.layers?.tiles.isEmpty == false)
    }
}

/// The measurement, in the frames: the first large batches take memcpy and streamed in turn, a run of batches
/// each, the first of a run not counted; once each has had its trials, the one with the fastest batch per byte
/// makes every copy; small batches are neither timed nor tried (streamed, as before the measurement); what it
/// found is one line.
@Test func theCopyMeasuredFastestInTheFirstFramesIsTheOneUsed() {
    let big = CopyCalibration.measuredBytes
    for (fast, slow) in [(CopyMethod.memcpy, CopyMethod.streamed), (.streamed, .memcpy)] {
        let c = CopyCalibration(environment: [:])
        #expect(c.method(for: big / 2) == .streamed, "a small batch before the choice")
        var tried: [CopyMethod] = []
        while c.measured == nil && tried.count < 100 {
            let m = c.method(for: big)
            tried.append(m)
            c.record(m, bytes: big / 2, ms: 0.01)  // small: not counted
            // The first of each run finds the cache as the other method left it: slow, whichever it is.
            let first = tried.count % CopyCalibration.run == 1
            // The fast one's best batch is twice the bytes in less than twice the time of the slow one's.
            c.record(m, bytes: m == fast ? 2 * big : big, ms: first ? 0.1 : m == fast ? 1.5 : 1.0)
        }
        let runs = (0..<(tried.count / CopyCalibration.run)).map { tried[$0 * CopyCalibration.run] }
        #expect(runs == [.memcpy, .streamed, .memcpy, .streamed], "runs of each in turn: \(tried)")
        #expect(Set(tried[0..<CopyCalibration.run]) == [.memcpy], "a run is one method's")
        #expect(c.measured == fast, "\(fast) copied a byte fastest, the first of each run aside")
        #expect(c.method(for: big) == fast && c.method(for: 10) == fast)
        c.record(slow, bytes: big, ms: 0.001)
        #expect(c.measured == fast, "the choice is made once")
    }
    let named = CopyCalibration(environment: [CopyCalibration.override: "sdl"])
    #expect(named.measured == .sdl && named.method(for: CopyCalibration.measuredBytes) == .sdl)
    #expect(CopyCalibration(environment: [CopyCalibration.override: "fast"]).measured == nil, "not a method: measured")
    #expect(CopyCalibration.fastest([.memcpy: 0.9, .streamed: 0.6]) == .streamed)
    #expect(CopyCalibration.fastest([:]) == .streamed, "nothing measured: as before the measurement")
    let line = CopyCalibration.describe([.memcpy: 0.5, .streamed: 0.6])
    #expect(line.contains("by memcpy") && line.contains("streamed 4.75 ms") && line.contains("1920x1080"))
}
