import CSDL2
import Foundation
import Kiosk
import Testing

@testable import KioskSDL

/// A tile source whose decodes wait until the test lets each one finish, and which records what it decoded.
final class GatedSource: TileSource, @unchecked Sendable {
    let pyramid = DeepZoomImage(width: 4096, height: 4096, tileSize: 256, overlap: 0, format: "test")
    let name = "gated"
    var isCheap: Bool { false }
    let condition = NSCondition()
    var started: [TileKey] = []
    var allowed = 0

    func surface(level: Int, column: Int, row: Int) -> UnsafeMutablePointer<SDL_Surface>? {
        condition.lock()
        started.append(TileKey(image: 1, level: level, column: column, row: row))
        condition.broadcast()
        while allowed == 0 { condition.wait() }
        allowed -= 1
        condition.unlock()
        return SDL_CreateRGBSurfaceWithFormat(0, 8, 8, 32, SDL_PIXELFORMAT_RGB888.rawValue)
    }

    func describe(level: Int, column: Int, row: Int) -> String { "gated \(level)/\(column)_\(row)" }

    /// Waits until `n` decodes have started.
    func waitForStarts(_ n: Int) {
        condition.lock()
        while started.count < n { condition.wait() }
        condition.unlock()
    }

    /// Lets one decode finish.
    func allowOne() {
        condition.lock()
        allowed += 1
        condition.broadcast()
        condition.unlock()
    }
}

extension SDLEventTests {
    /// A tile that stops being wanted while it decodes is freed, never handed to the renderer; one that is
    /// still queued is never decoded.
    @Test func cancelledDecodesNeverReachTheScreenOrTheCache() throws {
        let source = GatedSource()
        let workers = TileWorkers(count: 1) { surface in
            SDL_ConvertSurfaceFormat(surface, surface.pointee.format.pointee.format, 0)
        }
        defer { workers.stop() }
        func key(_ c: Int) -> TileKey { TileKey(image: 1, level: 12, column: c, row: 0) }
        // A and B wanted; the one worker starts on A.
        workers.want([(key(0), source), (key(1), source)])
        source.waitForStarts(1)
        // The view moved on: now only C. A finishes decoding after that.
        workers.want([(key(2), source)])
        source.allowOne()
        source.waitForStarts(2)
        // The worker went on to C (not B, which was dropped from the queue), and A was not handed over.
        #expect(source.started == [key(0), key(2)])
        #expect(workers.takeDone().isEmpty)
        // C arrives: the worker says so once it is waiting to be taken.
        let arrived = DispatchSemaphore(value: 0)
        workers.notify { arrived.signal() }
        source.allowOne()
        arrived.wait()
        let done = workers.takeDone()
        #expect(done.map(\.0) == [key(2)])
        #expect(workers.cancelled == 1)
        for (_, box) in done { SDL_FreeSurface(box.surface) }
    }
}

/// The frame loop keeps a core of its own: the tile workers take the others, three at most.
@Suite struct TileWorkerCountTests {
    @Test func oneCoreIsTheFrameLoops() {
        #expect([1, 2, 3, 4, 16].map { TileWorkers.count(cores: $0) } == [1, 1, 2, 3, 3])
    }

    @Test func theCoresAreThoseThisProcessMayUse() {
        let cores = TileWorkers.availableCores()
        #expect(cores >= 1)
        #expect(cores <= ProcessInfo.processInfo.activeProcessorCount)
    }
}
