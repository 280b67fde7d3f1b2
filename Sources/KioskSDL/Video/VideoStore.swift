import CSDL2
import Kiosk
import ScrollEngine

/// The videos the frames show (docs/video.md), one `VideoPlayer` a playback: opened at its first frame, its
/// decoded frames uploaded once each into a streaming YUV texture, stopped when a frame no longer shows it. What
/// it did in a frame (started, looped, ended, failed; the frame shown) goes back to the app for the trace.
final class VideoStore {
    private struct Playing {
        let player: VideoPlayer
        var texture: OpaquePointer?
        /// The frame on screen (its picture is in the texture: the decoder's is let go at once).
        var shown: (pts: Double, number: Int, loop: Int)?
        var ended = false
        /// Paused by the visitor (the frame shown stays; nothing to wake for).
        var paused = false
        /// Where on its timeline it was last drawn, in seconds.
        var drawnAt = 0.0
        /// Where on its timeline the sound queued in the mixer ends (nil: none queued).
        var soundEnd: Double?
        /// Where the frame shown is, to go on from if it is let go while parked.
        var place: VideoPlayer.Place?
        /// Opened again where a parked one was let go: its first frame is not a start.
        var resumed = false
        /// How far behind the film's clock its timeline runs: the time its decoder took to give the first frame
        /// (nil until then).
        var lag: Double?
    }

    /// How frames become textures (as YUV, or as the software renderer's RGB).
    private let uploads: FilmUpload
    /// On the virtual clock the decoder is waited for: a replay shows the same frames on every run.
    private let synchronous: Bool
    private let maxPixels: Int
    /// The sound device a film's sound plays through (nil: none, on the virtual clock).
    var sound: SoundDevice?
    private var playing: [Int: Playing] = [:]
    /// Playbacks whose decoder was let go while parked (paused, off the screen: a gallery page's film swiped
    /// away): where each was, and the texture of the frame it showed (a few MiB, against the tens a decoder holds).
    /// A swiped gallery of films keeps one decoder, not one a page; one comes back showing that frame, and goes
    /// on from it.
    private var parked: [Int: (place: VideoPlayer.Place, texture: OpaquePointer?, size: Size, display: FilmDisplay)] =
        [:]
    /// Playbacks that could not play (their poster shows), and the files already said to be broken: a film that
    /// fails in every round of the attract loop is one line in the log, not one a round.
    private var failed: Set<Int> = []
    /// Films being opened on a worker (libav loaded at the first film, the file's head read, a decoder opened):
    /// the frame thread never waits for one. One that has not opened within `--check`'s limit fails.
    private var opening: [Int: WorkerResult<VideoPlayer.Opened>] = [:]
    /// Called from the worker when a film has opened: wakes the frame loop.
    var onOpened: (@Sendable () -> Void)?
    private var said: Set<String> = []
    private var drawn: Set<Int> = []
    private var events: [TraceEvent.Kind] = []
    private var shown: (pts: Double, frame: Int)?
    /// Frames shown and frames decoded but never shown in time, since the start.
    private(set) var framesShown = 0
    private(set) var framesDropped = 0

    /// `maxVideoPixels` (docs/video.md): 3840x2160.
    static let maxPixels = 3840 * 2160

    /// `rgbFormat`: the screen's format where SDL's software renderer draws (`FilmUpload`), else nil.
    init(renderer: OpaquePointer, rgbFormat: UInt32? = nil, synchronous: Bool, maxPixels: Int = VideoStore.maxPixels) {
        uploads = FilmUpload(renderer: renderer, rgbFormat: rgbFormat)
        self.synchronous = synchronous
        self.maxPixels = maxPixels
    }

    /// The texture of `shot`'s frame now, the video's size in pixels and how it is seen (turned, its pixels'
    /// aspect), nil while it has none to show (its poster shows). `visible`: its box is on the screen; a paused one
    /// that is not is let go (`parked`).
    func texture(for shot: VideoShot, visible: Bool = true) -> (
        texture: OpaquePointer, size: Size, display: FilmDisplay
    )? {
        let id = shot.session
        drawn.insert(id)
        guard !failed.contains(id) else { return nil }
        if shot.paused && !visible {
            park(id)
            return nil
        }
        if playing[id] == nil {
            guard let outcome = opened(shot) else {
                // Opening: a parked film's frame shows meanwhile; a new one's poster.
                guard let from = parked[id], let texture = from.texture else { return nil }
                return (texture, from.size, from.display)
            }
            let from = parked.removeValue(forKey: id)
            switch outcome {
            case .success(let player):
                // Back from parked: its frame shows until the decoder has it again.
                playing[id] = Playing(
                    player: player, texture: from?.texture,
                    shown: from.map { ($0.place.pts, $0.place.number, $0.place.loop) },
                    resumed: from != nil)
                if let why = player.soundProblem, said.insert(shot.path + "\u{0}sound").inserted {
                    log(.warning, "\(shot.path): \(why); it plays without sound")
                }
            case .failure(let why):
                if let t = from?.texture { SDL_DestroyTexture(t) }
                fail(id, shot.path, why.message)
                return nil
            }
        }
        guard var p = playing[id] else { return nil }
        if p.lag == nil, let first = p.player.firstTime(wait: synchronous) {
            // The film's clock ran while its decoder opened (the libraries loaded, a key frame decoded, a parked
            // film decoded up to where it was: 50-100 ms at 1080p), and the frames due meanwhile were dropped
            // as late: its first frame shows now, and the others follow it at their intervals.
            p.lag = max(0, shot.time - first)
        }
        let time = shot.time - (p.lag ?? 0)
        p.drawnAt = time
        p.paused = shot.paused
        let (frame, dropped) = p.player.frame(at: time, wait: synchronous)
        framesDropped += dropped
        if let frame {
            let picture = frame.picture
            if let problem = Self.sizeProblem(picture, maxPixels: maxPixels) {
                playing[id] = p
                fail(id, shot.path, problem)
                return nil
            }
            guard let texture = upload(picture, into: &p), picture.planes.0 != nil, picture.pitches.0 > 0 else {
                playing[id] = p
                fail(id, shot.path, "cannot make a texture for its frames (\(sdlError()))")
                return nil
            }
            uploads.update(texture, with: picture)
            if p.shown == nil && !p.resumed {
                events.append(
                    .videoDidStart(
                        video: shot.path, decoder: p.player.decoder, width: p.player.width, height: p.player.height))
            } else if let shown = p.shown, frame.loop > shown.loop {
                events.append(.videoDidLoop(video: shot.path))
            }
            framesShown += 1
            p.shown = (frame.pts, frame.number, frame.loop)
            p.place = VideoPlayer.Place(frame)
        }
        if shot.sound { play(shot, at: time, &p) }
        if !p.ended, p.player.isOver {
            p.ended = true
            if let why = p.player.failure {
                // The last frame decoded (perhaps half broken) does not stay frozen under a line that says the
                // poster shows: the poster does. A later playback (the scene shown again, the loop's next round)
                // tries the film again.
                playing[id] = p
                fail(id, shot.path, why)
                return nil
            }
            events.append(.videoDidEnd(video: shot.path))
        }
        playing[id] = p
        guard let texture = p.texture, let current = p.shown else { return nil }
        shown = (current.pts, current.number)
        var w: Int32 = 0
        var h: Int32 = 0
        SDL_QueryTexture(texture, nil, nil, &w, &h)
        return (texture, Size(width: Double(w), height: Double(h)), p.player.display)
    }

    /// Whether `shot`'s film has opened, or why it could not: nil while it opens on its worker (the first ask
    /// starts it; a parked film opens again where it was). One that takes longer than `--check` allows fails.
    /// On the virtual clock the film is opened in the frame, so a replay shows the same frames on every run.
    private func opened(_ shot: VideoShot) -> VideoPlayer.Opened? {
        let id = shot.session
        let (path, loops, limit) = (shot.path, shot.loops, maxPixels)
        let (sound, from) = (shot.sound && self.sound != nil, parked[id]?.place)
        let open: @Sendable () -> VideoPlayer.Opened = {
            VideoPlayer.open(path, loops: loops, maxPixels: limit, sound: sound, from: from)
        }
        let job =
            opening[id]
            ?? (synchronous ? WorkerResult(done: open()) : WorkerResult(name: "kiosk-film-open", then: onOpened, open))
        opening[id] = job
        if let outcome = job.result {
            opening[id] = nil
            return outcome
        }
        guard Self.secondsLeft(job) <= 0 else { return nil }
        job.abandon(Self.letGo)
        opening[id] = nil
        return .failure(.init(message: VideoInspector.tooSlow()))
    }

    /// How long a film still opening may take before it fails (at most 0: it has taken too long).
    private static func secondsLeft(_ job: WorkerResult<VideoPlayer.Opened>) -> Double {
        VideoInspector.timeLimitSeconds - job.secondsRunning
    }

    /// A film opened for no one (its scene was left, or it took too long): its decoder is stopped.
    private static let letGo: @Sendable (VideoPlayer.Opened) -> Void = {
        if case .success(let player) = $0 { player.stop() }
    }

    /// The streaming texture `picture` is uploaded into: YUV in three planes (the software decoder's), or NV12 (a
    /// hardware decoder's), of the picture's size; made at the first frame, made anew when the planes or the size
    /// change (a parked film's texture; a stream whose frames change size, as an editor's concatenation of clips
    /// of two sizes does: an upload of the old size would read past the smaller frame).
    private func upload(_ picture: VideoPlayer.Picture, into p: inout Playing) -> OpaquePointer? {
        p.texture = uploads.texture(for: picture, reusing: p.texture)
        return p.texture
    }

    /// Why a decoded frame cannot be shown (a size of nothing, or past `maxPixels`, which the film's header did not
    /// say), or nil.
    static func sizeProblem(_ picture: VideoPlayer.Picture, maxPixels: Int) -> String? {
        let (w, h) = (Int(picture.width), Int(picture.height))
        if w <= 0 || h <= 0 { return "a frame of \(w)x\(h) pixels cannot be shown" }
        if w * h > maxPixels { return "a frame of \(w)x\(h) is over maxVideoPixels" }
        return nil
    }

    /// A film's sound, as far as the frame shown: queued in the mixer to play at its time on the film's timeline,
    /// a gap filled with silence, an overlap cut. When the queue strays from the picture by more than
    /// `soundSlackSeconds` (the sound device's clock is not the kiosk's), the next piece puts it back.
    private func play(_ shot: VideoShot, at time: Double, _ p: inout Playing) {
        guard let device = sound else { return }
        let mixer: AudioMixer
        switch device.mixer() {
        case .success(let m): mixer = m
        case .failure(let why):
            if case .noSound(let detail) = why, said.insert("\u{0}sound").inserted {
                log(.warning, "no sound device (\(detail)): films play without sound")
            }
            return
        }
        guard !shot.paused else {
            if p.soundEnd != nil { mixer.clearFilm() }
            p.soundEnd = nil
            return
        }
        let rate = Double(AudioMixer.rate)
        let queuedUntil = time + Double(mixer.filmQueued) / rate
        // Strayed: what is queued is taken for where it really ends, and the next piece is cut or preceded by
        // silence to meet the picture (a glitch as long as the stray, not a gap).
        if let end = p.soundEnd, abs(end - queuedUntil) > Self.soundSlackSeconds { p.soundEnd = queuedUntil }
        var end = p.soundEnd ?? time
        for piece in p.player.sound(until: time + Self.soundLeadSeconds) {
            var samples = piece.samples[...]
            let gap = piece.time - end
            if gap > 1 / rate {
                mixer.queueFilm(ArraySlice(repeating: 0, count: Int(gap * rate)))
            } else if gap < -1 / rate {
                samples = samples.dropFirst(Int(-gap * rate))
            }
            mixer.queueFilm(samples)
            end = max(end, piece.time + Double(piece.samples.count) / rate)
        }
        p.soundEnd = end
    }

    /// A film's sound is queued this far ahead of its picture, and may stray this far from it before it is put
    /// back (ITU-R BT.1359: sound 45 ms early or 125 ms late is noticed; the device takes 23 ms at a time).
    static let soundLeadSeconds = 0.2
    static let soundSlackSeconds = 0.045

    /// A paused film off the screen is let go (its decoder and its frames); where it was and the texture of its
    /// frame are kept, for when its page comes back. One that has shown no frame yet starts from its beginning
    /// then.
    private func park(_ id: Int) {
        guard let p = playing.removeValue(forKey: id) else { return }
        if p.soundEnd != nil { try? sound?.mixer().get().clearFilm() }
        p.player.stop()
        if let place = p.place {
            parked[id] = (
                place, p.texture, Size(width: Double(p.player.width), height: Double(p.player.height)), p.player.display
            )
        } else if let t = p.texture {
            SDL_DestroyTexture(t)
        }
    }

    private func fail(_ id: Int, _ path: String, _ why: String) {
        failed.insert(id)
        if let p = playing.removeValue(forKey: id) {
            p.player.stop()
            if let t = p.texture { SDL_DestroyTexture(t) }
        }
        events.append(.videoDidFail(video: path, why: why))
        say(path, why)
    }

    private func say(_ path: String, _ why: String) {
        if said.insert(path).inserted { log(.error, "\(path): \(why); showing its poster") }
    }

    /// The end of a frame: what the videos did in it, for the app; the playbacks it did not draw are stopped.
    func endFrame() -> (events: [TraceEvent.Kind], shown: (pts: Double, frame: Int)?) {
        for (id, p) in playing where !drawn.contains(id) {
            if p.soundEnd != nil { try? sound?.mixer().get().clearFilm() }
            p.player.stop()
            if let t = p.texture { SDL_DestroyTexture(t) }
            playing[id] = nil
        }
        // A playback that failed stays failed while it is the one shown (a transition's frames do not draw it).
        if failed.count > 64 { failed = failed.intersection(drawn) }
        // A parked one no frame drew any more (its scene left) is forgotten, and so is one still opening.
        for (id, p) in parked where !drawn.contains(id) {
            if let t = p.texture { SDL_DestroyTexture(t) }
            parked[id] = nil
        }
        for (id, job) in opening where !drawn.contains(id) {
            job.abandon(Self.letGo)
            opening[id] = nil
        }
        drawn.removeAll(keepingCapacity: true)
        defer {
            events.removeAll(keepingCapacity: true)
            shown = nil
        }
        return (events, shown)
    }

    /// Whether a video plays (not ended, not paused), or one still opening is past its time limit (a frame
    /// fails it). One opening within its limit needs no frame: its worker wakes the loop when it has opened.
    var isPlaying: Bool {
        playing.values.contains { !$0.ended && !$0.paused } || opening.values.contains { Self.secondsLeft($0) <= 0 }
    }

    /// How long after the last frame drawn the next film frame is due, in seconds: the frame loop sleeps until
    /// then (a 30 fps film is drawn 30 times a second, not 60), or until a film still opening reaches its time
    /// limit. Nil while a playing film's next frame is not decoded yet (the loop draws on) or none plays or opens.
    var nextFrameIn: Double? {
        var soonest: Double?
        for p in playing.values where !p.ended && !p.paused {
            guard let next = p.player.nextTime else { return nil }
            soonest = min(soonest ?? .infinity, next - p.drawnAt)
        }
        for job in opening.values { soonest = min(soonest ?? .infinity, max(0, Self.secondsLeft(job))) }
        return soonest
    }
}
