import CSDL2
import CSDL2Image
import Foundation
import Kiosk
import ScrollEngine

/// Decoding ahead: the pictures the kiosk will show soon (the attract loop's, a carousel's pages a swipe away) are
/// decoded on a thread of their own and copied into their textures a band a frame, so their first frame only
/// draws them.
extension ImageStore {
    /// Decodes `paths` ahead, off the frame loop (the attract loop's next scene): their first frame then only
    /// copies them into textures. Only plain images that become one texture whole; the others load as before.
    func prefetch(_ paths: [String]) {
        for path in paths where needsTexture(path) && !prefetching.contains(path) {
            // The catalog's size where it has one (the frame thread reads no file), else the header's.
            let known = catalog.infos[path].flatMap { $0.loaded ? (Int($0.size.width), Int($0.size.height)) : nil }
            guard !path.lowercased().hasSuffix(".dzi"), let (w, h) = known ?? headerSize(path),
                max(w, h) <= min(Self.pyramidThreshold, maxTextureSize ?? Int.max)
            else { continue }
            prefetching.insert(path)
            let (rotation, format, box, notify) = (
                display.textures.rotation, display.textures.opaqueFormat, prefetched, onPrefetched
            )
            let t = Thread {
                SignalListener.leaveSignalsToTheMainThread()
                setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, TileWorkers.niceness)
                defer { notify?() }
                let decoded: UnsafeMutablePointer<SDL_Surface>
                switch decodeImage(path) {
                case .success(let s): decoded = s
                case .failure(let p): return box.fail(path, p.message)
                }
                let opaque = isOpaque(decoded)
                let prepared = TextureMaker.prepare(decoded, rotation: rotation, opaqueFormat: format)
                SDL_FreeSurface(decoded)
                guard let (surface, _) = prepared else { return box.fail(path, sdlError()) }
                box.lock.lock()
                box.ready[path] = (surface, Int(w), Int(h), opaque)
                box.lock.unlock()
            }
            t.name = "kiosk-prefetch"
            t.start()
        }
    }

    /// Copies a band of the picture being adopted into its texture (all that is left when `whole`); once the
    /// last is in, the picture is an entry and its surface is freed.
    func continueAdopting(whole: Bool = false) {
        guard var a = adopting else { return }
        let surface = a.decoded.0
        let h = surface.pointee.h
        let n = whole ? h - a.row : min(Self.adoptRows, h - a.row)
        var band = SDL_Rect(x: 0, y: a.row, w: surface.pointee.w, h: n)
        SDL_UpdateTexture(
            a.texture, &band, surface.pointee.pixels + Int(a.row) * Int(surface.pointee.pitch), surface.pointee.pitch)
        a.row += n
        guard a.row >= h else {
            adopting = a
            return
        }
        adopting = nil
        let (_, w, ph, opaque) = a.decoded
        SDL_FreeSurface(surface)
        let info = ImageInfo(size: Size(width: Double(w), height: Double(ph)), loaded: true, isOpaque: opaque)
        entries[a.path] = Entry(
            texture: a.texture, info: info, scale: 1, identity: a.identity,
            drawnInFrame: entries[a.path]?.drawnInFrame ?? 0)
        letGoBeyondBudget(sparing: a.path)
    }

    /// Makes the textures of the pictures decoded ahead. While the screen moves (`moving`), one step a frame
    /// (a band of rows, or the empty texture) and only in frames that left room for it (`spentMs` so far; the
    /// empty texture of a 2400x1600 picture takes 6 to 16 ms here, as the system provides its memory page by
    /// page: that is why the attract loop's pictures are made before it starts); while it holds still, all of
    /// them at once (no frame waits for them).
    func adoptPrefetched(spentMs: Double, moving: Bool) {
        guard !moving || spentMs <= Self.adoptWithinMs else { return }
        repeat {
            if adopting != nil {
                continueAdopting(whole: !moving)
            } else if !startAdopting() {
                return
            }
        } while !moving
    }

    /// Takes the next picture decoded ahead and makes its (empty) texture; false when none is ready. A picture
    /// its worker could not decode becomes a placeholder, its reason said once.
    func startAdopting() -> Bool {
        guard !prefetching.isEmpty else { return false }
        prefetched.lock.lock()
        let next = prefetched.ready.first { needsTexture($0.key) }
        if let next { prefetched.ready[next.key] = nil }
        let failed = prefetched.failed
        prefetched.failed.removeAll()
        prefetched.lock.unlock()
        for (path, why) in failed.sorted(by: { $0.key < $1.key }) where prefetching.remove(path) != nil {
            log(.warning, "\(path): cannot load the image (\(why)); showing a placeholder")
            var e = Entry.placeholder
            e.identity = FileIdentity(path)
            entries[path] = e
        }
        guard let (path, decoded) = next else { return false }
        prefetching.remove(path)
        let surface = decoded.0
        guard
            let texture = display.textures.emptyTexture(
                format: surface.pointee.format.pointee.format, width: surface.pointee.w, height: surface.pointee.h,
                opaque: decoded.3)
        else {
            SDL_FreeSurface(surface)
            return true
        }
        adopting = Adopting(path: path, decoded: decoded, texture: texture, row: 0, identity: FileIdentity(path))
        return true
    }

    /// An entry made of a picture decoded ahead (the surface is freed), nil when no texture could be made.
    func entry(_ decoded: (UnsafeMutablePointer<SDL_Surface>, Int, Int, Bool)) -> Entry? {
        let (surface, w, h, opaque) = decoded
        defer { SDL_FreeSurface(surface) }
        guard let texture = display.textures.texture(prepared: surface, opaque: opaque) else { return nil }
        let info = ImageInfo(size: Size(width: Double(w), height: Double(h)), loaded: true, isOpaque: opaque)
        return Entry(texture: texture, info: info, scale: 1)
    }

    /// After a frame (that took `spentMs`; 0: none was drawn): keeps the pictures within the budget, then
    /// decodes ahead the pictures `upcoming` the kiosk will show soon (the attract loop's, a carousel's pages a
    /// swipe away, if they were let go) and makes textures of what is ready (less while it is `moving`).
    func prepareUpcoming(_ upcoming: [String], moving: Bool, spentMs: Double) {
        spared = Set(upcoming)
        letGoBeyondBudget()
        frame += 1
        prefetch(upcoming)
        adoptPrefetched(spentMs: spentMs, moving: moving)
    }

    /// Lets go of everything decoded ahead (new content: the files may have changed).
    func dropPrefetched() {
        if let a = adopting {
            SDL_FreeSurface(a.decoded.0)
            SDL_DestroyTexture(a.texture)
            adopting = nil
        }
        prefetched.lock.lock()
        for r in prefetched.ready.values { SDL_FreeSurface(r.0) }
        prefetched.ready.removeAll()
        prefetched.failed.removeAll()
        prefetched.lock.unlock()
        prefetching.removeAll()
    }

    /// The decoded image of `path` if it is ready (the caller frees the surface).
    func takePrefetched(_ path: String) -> (UnsafeMutablePointer<SDL_Surface>, Int, Int, Bool)? {
        guard prefetching.remove(path) != nil else { return nil }
        prefetched.lock.lock()
        defer { prefetched.lock.unlock() }
        // Another's decoding that arrived after its image was loaded anyway is let go here.
        for (p, r) in prefetched.ready where p != path && !needsTexture(p) {
            SDL_FreeSurface(r.0)
            prefetched.ready[p] = nil
        }
        return prefetched.ready.removeValue(forKey: path)
    }
}
