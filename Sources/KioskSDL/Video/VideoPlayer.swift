import CVideo
import Foundation

/// One video playing (docs/video.md): decoded on a thread of its own a few frames ahead (`ahead`, so its memory is
/// bounded), each frame the decoder's own picture (held, not copied), and timed on one timeline that runs on across loops:
/// at the end of the file the decoder goes back to its start and the first frame follows the last one frame
/// interval later, so a loop has no seam (no black frame, no repeated one, no stall while the file is opened again).
final class VideoPlayer: @unchecked Sendable {
    /// A decoded frame: where it is on the timeline (seconds since playing began), its time and number in the clip,
    /// and its picture, the decoder's own (`Picture`).
    struct Frame {
        var time: Double
        var pts: Double
        var number: Int
        var loop: Int
        var picture: Picture
    }

    /// A decoded picture held from the decoder (no copy): its planes (Y, U, V; or NV12's Y and interleaved UV)
    /// and their strides, let go when the last frame holding it goes.
    final class Picture: @unchecked Sendable {
        let planes: (UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?)
        let pitches: (Int32, Int32, Int32)
        let nv12: Bool
        /// Its size: a stream may change it from frame to frame.
        let width: Int32
        let height: Int32
        private let ref: UnsafeMutableRawPointer?

        init(_ f: kiosk_video_frame) {
            planes = f.planes
            pitches = f.pitches
            nv12 = f.nv12 != 0
            width = f.width
            height = f.height
            ref = f.ref
        }

        deinit { kiosk_video_release(ref) }
    }

    let width: Int
    let height: Int
    /// How its frames are seen: turned, and their pixels' aspect.
    let display: FilmDisplay
    /// The decoder in use (settled by the first frame: a hardware decoder that gives none is let go for software).
    var decoder: String {
        condition.lock()
        defer { condition.unlock() }
        return decoderInUse
    }
    private var decoderInUse: String
    let frameSeconds: Double
    let loops: Bool
    /// How many decoded frames wait at most (about 3 MiB each at 1080p): three, or as many as two of the
    /// screen's frames show of a film faster than it (a 240 fps film shows four in each 60 Hz frame, and with
    /// three waiting it played at three quarters of its speed), at most `mostAhead`.
    var ahead: Int { min(Self.mostAhead, max(3, Int((2 * Runner.frameMs / 1000 / frameSeconds).rounded(.up)) + 1)) }
    static let mostAhead = 16
    /// A frame due this soon is shown now: a frame drawn a millisecond before the next film frame was due (the
    /// loop's timers were whole milliseconds) waited a whole frame for it (a 48 ms seam in a 30 fps loop).
    static let earlySeconds = 0.002
    /// Its sound as decoded: pieces of samples at `AudioMixer.rate` and where each begins on the timeline (at most
    /// `soundAheadSeconds` wait; the oldest are let go beyond). Why its sound cannot play, if it cannot.
    struct Sound {
        var time: Double
        var samples: [Int16]
    }
    private var sounds: [Sound] = []
    static let soundAheadSeconds = 3.0
    private(set) var soundProblem: String?

    private let video: OpaquePointer
    private let condition = NSCondition()
    private var queue: [Frame] = []
    /// The decoder is done: the end of a clip that does not loop, or a failure.
    private var ended = false
    private var stopping = false
    /// Why it stopped playing mid-way (nil while it plays, or after a clean end).
    private(set) var failure: String?

    /// Where a film was when it was let go (a gallery page's film swiped away and paused): the frame shown, its
    /// time in the clip and on the timeline, so a player opened again goes on from it, not from the start.
    struct Place: Equatable {
        var offset: Double
        var pts: Double
        var number: Int
        var loop: Int

        init(_ frame: Frame) {
            offset = frame.time - frame.pts
            pts = frame.pts
            number = frame.number
            loop = frame.loop
        }
    }
    /// Where it began: nil, the clip's start.
    private let from: Place?

    /// Why a video cannot play, in a line.
    struct Problem: Error {
        var message: String
    }
    /// A player opened, or why not.
    typealias Opened = Result<VideoPlayer, Problem>

    /// Whether a hardware decoder is tried first: unless the kiosk's environment says
    /// `KIOSK_VIDEO_DECODER=software` (docs/video.md), for a machine whose hardware decoder misbehaves.
    static let tryHardware = ProcessInfo.processInfo.environment["KIOSK_VIDEO_DECODER"] != "software"

    /// Opens `path` (a regular file, at most `maxPixels` a frame); a line saying why not.
    /// With `sound`, its sound is decoded too (a film without one, or whose sound cannot be decoded, plays
    /// silent: `soundProblem` says why).
    /// `from`: where a player of it let go was; it goes on from that frame (decoded from the key frame before it).
    static func open(
        _ path: String, loops: Bool, maxPixels: Int, sound: Bool = false, from: Place? = nil
    ) -> Opened {
        if let problem = RegularFile.problem(path) { return .failure(Problem(message: problem)) }
        var why = [CChar](repeating: 0, count: 256)
        guard let v = kiosk_video_open(path, maxPixels, tryHardware ? 1 : 0, &why, why.count) else {
            return .failure(Problem(message: Self.text(why)))
        }
        var soundProblem: String?
        if sound {
            switch kiosk_video_want_audio(v, Int32(AudioMixer.rate), &why, why.count) {
            case 0: soundProblem = "it has no sound"
            case 1: break
            default: soundProblem = Self.text(why)
            }
        }
        return .success(VideoPlayer(video: v, loops: loops, soundProblem: soundProblem, from: from))
    }

    /// A C string the decoder wrote into `buffer`.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private init(video: OpaquePointer, loops: Bool, soundProblem: String?, from: Place?) {
        self.video = video
        self.from = from
        self.loops = loops
        self.soundProblem = soundProblem
        width = Int(kiosk_video_width(video))
        height = Int(kiosk_video_height(video))
        display = FilmDisplay(
            rotation: Int(kiosk_video_rotation(video)), sampleAspect: kiosk_video_sample_aspect(video))
        decoderInUse = String(cString: kiosk_video_decoder(video))
        frameSeconds = kiosk_video_frame_seconds(video)
        let thread = Thread { [self] in decode() }
        thread.name = "kiosk-video"
        thread.start()
    }

    deinit { kiosk_video_close(video) }

    /// Stops the decoding thread (it lets go of the player when it has ended).
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// The shortest a looping film's round lasts: a shorter one (a single frame, a still exported as a film)
    /// holds its last frame until then. Our choice: half a second, shorter than any film made to loop.
    static let shortestLoopSeconds = 0.5

    /// The decoding thread: frames into the queue while there is room, the file looped or ended.
    private func decode() {
        var why = [CChar](repeating: 0, count: 256)
        var out = kiosk_video_frame()
        var offset = from?.offset ?? 0
        var last = 0.0
        var number = from?.number ?? 0
        var loop = from?.loop ?? 0
        var empty = true
        // Going on from a place: to the key frame before it, then its frames up to it decoded and let go.
        var skipping = false
        if let from, from.pts > 0 {
            if kiosk_video_seek(video, from.pts, &why, why.count) == 0 {
                skipping = true
            } else {
                condition.lock()
                failure = Self.text(why)
                ended = true
                condition.broadcast()
                condition.unlock()
                return
            }
        }
        while true {
            condition.lock()
            while queue.count >= ahead && !stopping { condition.wait() }
            let stop = stopping
            condition.unlock()
            if stop { break }
            let r = kiosk_video_next(video, &out, &why, why.count)
            if skipping, r == 1, let from, out.pts < from.pts - frameSeconds / 2 {
                // Before the place: neither shown nor heard.
                kiosk_video_release(out.ref)
                var samples: UnsafePointer<Int16>?
                var pts = 0.0
                _ = kiosk_video_take_audio(video, &samples, &pts)
                continue
            }
            skipping = false
            // The sound decoded on the way (before a loop's rewind: it is this loop's).
            takeSound(offset: offset)
            if r == 1 {
                let frame = Frame(
                    time: offset + out.pts, pts: out.pts, number: number, loop: loop, picture: Picture(out))
                last = out.pts
                number += 1
                let settled = empty ? String(cString: kiosk_video_decoder(video)) : nil
                empty = false
                condition.lock()
                if let settled { decoderInUse = settled }
                queue.append(frame)
                condition.broadcast()
                condition.unlock()
                continue
            }
            var failed: String?
            if r == 0 && loops && !empty {
                // The seam: the first frame one frame interval after the last; a round lasts at least
                // `shortestLoopSeconds` (a film of one frame looped every frame, its `videoDidLoop` with it).
                if kiosk_video_rewind(video, &why, why.count) == 0 {
                    offset += max(last + frameSeconds, Self.shortestLoopSeconds)
                    number = 0
                    loop += 1
                    continue
                }
                failed = Self.text(why)
            } else if r == 0 && empty {
                failed = "no frame decodes"
            } else if r < 0 {
                failed = Self.text(why)
            }
            condition.lock()
            failure = failed
            ended = true
            condition.broadcast()
            condition.unlock()
            break
        }
    }

    /// The sound decoded since the last call, placed on the timeline (`offset`: where this loop of the clip began).
    private func takeSound(offset: Double) {
        var samples: UnsafePointer<Int16>?
        var pts = 0.0
        let count = kiosk_video_take_audio(video, &samples, &pts)
        guard count > 0, let samples else { return }
        let piece = Sound(time: offset + pts, samples: Array(UnsafeBufferPointer(start: samples, count: count)))
        condition.lock()
        sounds.append(piece)
        let most = Int(Self.soundAheadSeconds * Double(AudioMixer.rate))
        while sounds.count > 1 && sounds.reduce(0, { $0 + $1.samples.count }) > most { sounds.removeFirst() }
        condition.unlock()
    }

    /// The sound decoded that begins by `time` on the timeline, taken.
    func sound(until time: Double) -> [Sound] {
        condition.lock()
        defer { condition.unlock() }
        let n = sounds.firstIndex { $0.time > time } ?? sounds.count
        defer { sounds.removeFirst(n) }
        return Array(sounds.prefix(n))
    }

    /// The frame to show at `time` on the timeline: the last decoded one due by then (those before it were not
    /// shown in time: `dropped`), or nil when none is due yet (the one shown stays). `wait`: on the virtual clock,
    /// the decoder is waited for until the frame after `time` is known, so a replay shows the same frames on every
    /// run.
    func frame(at time: Double, wait: Bool) -> (frame: Frame?, dropped: Int) {
        let due = time + Self.earlySeconds
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        if wait {
            while !ended && !queue.contains(where: { $0.time > due }) {
                // Room for the decoder to go on: frames already due are taken as they come.
                if queue.count >= ahead, queue[0].time <= due, queue[1].time <= due { queue.removeFirst() }
                condition.broadcast()
                condition.wait()
            }
        }
        var chosen: Frame?
        var dropped = 0
        while let f = queue.first, f.time <= due {
            if chosen != nil { dropped += 1 }
            chosen = f
            queue.removeFirst()
        }
        return (chosen, dropped)
    }

    /// The timeline time of the first frame it has to show; on the virtual clock (`wait`) its decoder is waited
    /// for, in real time nil until it is decoded.
    func firstTime(wait: Bool) -> Double? {
        condition.lock()
        defer { condition.unlock() }
        if wait { while !ended && queue.isEmpty { condition.wait() } }
        return queue.first?.time
    }

    /// The timeline time of the next decoded frame not shown yet (nil: none decoded yet).
    var nextTime: Double? {
        condition.lock()
        defer { condition.unlock() }
        return queue.first?.time
    }

    /// Whether it has nothing more to show (a clip that does not loop, played out; or a failure).
    var isOver: Bool {
        condition.lock()
        defer { condition.unlock() }
        return ended && queue.isEmpty
    }
}
