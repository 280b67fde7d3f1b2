import CSDL2
import Foundation

/// The kiosk's sound (docs/accessibility.md, docs/video.md): one SDL audio device and the kiosk's own mixer
/// feeding it, so that what plays stops at once when asked (an interruption is exact to the device's buffer) and
/// SDL's `disk` driver records what was played. Two voices, 16-bit mono samples at `rate`: speech, a clip at a
/// gain; and a film's sound, a stream queued as it is decoded, ducked by `duckDB` while speech plays.
final class AudioMixer: @unchecked Sendable {
    /// What the device is fed at (SDL converts to what the hardware takes).
    static let rate = 22_050
    private let lock = NSLock()
    private var samples: [Int16] = []
    private var position = 0
    /// The clip playing (its number), and the last one played to its end.
    private var clip = 0
    private var ended = 0
    private var gain: Float = 1
    /// When the key or touch that asked for the clip playing came (SDL ticks, ms; nil: none asked for it), and
    /// how long each clip took from it to its first sound handed to SDL (`keyToSpeechMs`).
    private var askedAt: UInt64?
    private var latencies: [Double] = []
    /// The device, once open.
    private var device: SDL_AudioDeviceID = 0
    /// A film's sound not played yet (from `filmPosition`), its gain now and at full.
    private var film: [Int16] = []
    private var filmPosition = 0
    private var filmGain: Float = 0
    private let filmFull = Float(pow(10, AudioMixer.filmDB / 20))
    /// A film's sound is mixed at this level (speech's, `SpeechPlayer.baseDB`) and this much lower while the kiosk
    /// speaks (our choice: a voice well clear of the film under it), moving between the two over `duckSeconds`.
    static let filmDB = -12.0
    static let duckDB = -15.0
    static let duckSeconds = 0.1
    /// At most this much of a film's sound waits (its oldest is let go beyond it).
    static let filmQueueSeconds = 2.0

    /// The device opened for the kiosk's mixer, or why there is none.
    static func open() -> Result<AudioMixer, SpeechError> {
        if SDL_WasInit(SDL_INIT_AUDIO) == 0 && SDL_InitSubSystem(SDL_INIT_AUDIO) != 0 {
            return .failure(.noSound(sdlError()))
        }
        let mixer = AudioMixer()
        var want = SDL_AudioSpec()
        want.freq = Int32(rate)
        want.format = SDL_AudioFormat(AUDIO_S16SYS)
        want.channels = 1
        want.samples = 512
        want.callback = mixerCallback
        want.userdata = Unmanaged.passUnretained(mixer).toOpaque()
        let device = SDL_OpenAudioDevice(nil, 0, &want, nil, 0)
        guard device != 0 else { return .failure(.noSound(sdlError())) }
        mixer.device = device
        SDL_PauseAudioDevice(device, 0)
        return .success(mixer)
    }

    /// A mixer on no device (the tests pull its samples with `fill`).
    init() {}

    /// Called on SDL's audio thread when a clip has played to its end (the frame loop is woken to say so).
    var onEnd: (@Sendable () -> Void)? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return whenEnded
        }
        set {
            lock.lock()
            whenEnded = newValue
            lock.unlock()
        }
    }
    private var whenEnded: (@Sendable () -> Void)?

    /// SDL's audio driver in use (`disk` records to a file: SDL_DISKAUDIOFILE).
    static var driverName: String { SDL_GetCurrentAudioDriver().map { String(cString: $0) } ?? "no" }

    deinit {
        if device != 0 { SDL_CloseAudioDevice(device) }
    }

    /// Plays `clip` (replacing what plays) at `gainDB` below full scale, asked for by an input at `askedAt` (SDL
    /// ticks); returns its number.
    @discardableResult
    func play(_ new: [Int16], gainDB: Double, askedAt: UInt64? = nil) -> Int {
        lock.lock()
        defer { lock.unlock() }
        samples = new
        position = 0
        clip += 1
        gain = Float(pow(10, gainDB / 20))
        self.askedAt = askedAt
        return clip
    }

    /// How long each clip asked for by an input took from it to its first sound handed to SDL, in ms.
    var inputToSound: [Double] {
        lock.lock()
        defer { lock.unlock() }
        return latencies
    }

    /// What plays stops now.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        samples = []
        position = 0
        ended = clip
    }

    func setGain(_ db: Double) {
        lock.lock()
        gain = Float(pow(10, db / 20))
        lock.unlock()
    }

    /// Queues a film's sound (played after what is queued; the oldest let go beyond `filmQueueSeconds`).
    func queueFilm(_ samples: ArraySlice<Int16>) {
        lock.lock()
        defer { lock.unlock() }
        if filmPosition > 0 && filmPosition >= film.count / 2 {
            film.removeFirst(filmPosition)
            filmPosition = 0
        }
        film += samples
        let most = Int(Self.filmQueueSeconds * Double(Self.rate))
        if film.count - filmPosition > most { filmPosition = film.count - most }
    }

    /// How many samples of a film's sound wait to be played.
    var filmQueued: Int {
        lock.lock()
        defer { lock.unlock() }
        return film.count - filmPosition
    }

    /// A film's sound stops (paused, or its scene left).
    func clearFilm() {
        lock.lock()
        film = []
        filmPosition = 0
        lock.unlock()
    }

    /// The clip that last played to its end (0: none).
    var lastEnded: Int {
        lock.lock()
        defer { lock.unlock() }
        return ended
    }

    /// SDL's audio thread asks for `bytes` of samples.
    func fill(_ stream: UnsafeMutablePointer<UInt8>, bytes: Int) {
        let count = bytes / 2
        var notify: (@Sendable () -> Void)?
        defer { notify?() }
        stream.withMemoryRebound(to: Int16.self, capacity: count) { out in
            lock.lock()
            defer { lock.unlock() }
            let n = min(count, samples.count - position)
            for i in 0..<max(0, n) {
                let v = Float(samples[position + i]) * gain
                out[i] = Int16(max(-32768, min(32767, v)))
            }
            for i in max(0, n)..<count { out[i] = 0 }
            mixFilm(into: out, count: count, speaking: n > 0)
            if let asked = askedAt, (0..<max(0, n)).contains(where: { out[$0] != 0 }) {
                latencies.append(Double(SDL_GetTicks64() &- asked))
                askedAt = nil
            }
            if n > 0 {
                position += n
                if position >= samples.count {
                    samples = []
                    position = 0
                    ended = clip
                    notify = whenEnded
                }
            }
        }
    }
}

extension AudioMixer {
    /// A film's sound added to the `count` samples at `out` (under the lock), its gain moving towards full, or
    /// ducked while speech plays.
    fileprivate func mixFilm(into out: UnsafeMutablePointer<Int16>, count: Int, speaking: Bool) {
        let n = min(count, film.count - filmPosition)
        let target = speaking ? filmFull * Float(pow(10, Self.duckDB / 20)) : filmFull
        let step = filmFull / Float(Self.duckSeconds * Double(Self.rate))
        for i in 0..<max(0, n) {
            if filmGain < target {
                filmGain = min(target, filmGain + step)
            } else if filmGain > target {
                filmGain = max(target, filmGain - step)
            }
            let v = Float(out[i]) + Float(film[filmPosition + i]) * filmGain
            out[i] = Int16(max(-32768, min(32767, v)))
        }
        filmPosition += max(0, n)
    }
}

/// The kiosk's one sound device, opened at the first thing to play (speech or a film's sound), for both.
final class SoundDevice: @unchecked Sendable {
    private let lock = NSLock()
    private var opened: Result<AudioMixer, SpeechError>?

    func mixer() -> Result<AudioMixer, SpeechError> {
        lock.lock()
        defer { lock.unlock() }
        if let opened { return opened }
        let m = AudioMixer.open()
        opened = m
        return m
    }
}

private let mixerCallback: SDL_AudioCallback = { userdata, stream, length in
    guard let userdata, let stream else { return }
    Unmanaged<AudioMixer>.fromOpaque(userdata).takeUnretainedValue().fill(stream, bytes: Int(length))
}
