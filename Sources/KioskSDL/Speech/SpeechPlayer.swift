import Foundation
import Kiosk

/// Speech as the frames ask for it (docs/accessibility.md): a `speechDidStart` is synthesised off the frame loop
/// and played through the kiosk's mixer; a `speechDidEnd` the app decided (a key, a touch, the next thing to say)
/// stops it at once; the end of what played goes back to the app (`speechDidFinish`). Without a sound device or
/// espeak-ng the kiosk runs as before and says why once. Made at the first thing to say: a kiosk nobody asks
/// to speak never opens a sound device.
final class SpeechPlayer: @unchecked Sendable {
    /// espeak-ng voices by language tag (the manifest's `accessibility.voices`).
    var voices: [String: String]
    private let makeSynthesizer: () -> Result<any SpeechSynthesizer, SpeechError>
    private let makeMixer: () -> Result<AudioMixer, SpeechError>
    private var parts: (synthesizer: any SpeechSynthesizer, mixer: AudioMixer)?
    /// Why it cannot speak (said once).
    private var unavailable: SpeechError?
    private let queue = DispatchQueue(label: "kiosk-speech")
    private let lock = NSLock()
    /// What the frames asked last (a newer ask or a stop makes older syntheses go unplayed), and the mixer's clip
    /// that plays it.
    private var asked = 0
    private var clip: Int?
    /// A synthesis failed for the ask it was for: that ask is over.
    private var failedAsk: Int?
    private var voicesWarned: Set<String> = []
    /// Syntheses made ahead (`prepare`), by voice and text, the newest last, and those under way.
    private var ahead: [(key: String, samples: [Int16])] = []
    private var preparing: Set<String> = []
    /// Wakes the frame loop (from SDL's audio thread) when what plays has ended.
    var wake: (@Sendable () -> Void)?

    init(
        voices: [String: String],
        synthesizer: @escaping () -> Result<any SpeechSynthesizer, SpeechError> = {
            EspeakSynthesizer.find().map { $0 as any SpeechSynthesizer }
        },
        mixer: @escaping () -> Result<AudioMixer, SpeechError> = AudioMixer.open
    ) {
        self.voices = voices
        makeSynthesizer = synthesizer
        makeMixer = mixer
    }

    /// The voice for `language`: the manifest's, else the language's own (`und`: English).
    func voice(for language: String) -> String {
        if let v = voices[language] ?? voices[Languages.primary(language)] { return v }
        let primary = Languages.primary(language)
        return primary.isEmpty || primary == Languages.undetermined ? "en" : primary
    }

    /// A frame's events: what to say begins, what was cut short stops; the volume is `volumeDB` from the default.
    /// `inputAt`: when the key or touch the frame took came (SDL ticks), to time its speech from.
    func observe(_ events: [TraceEvent], volumeDB: Double, inputAt: UInt64? = nil) {
        for e in events {
            switch e.kind {
            case .speechDidStart(let text, let language):
                say(text, voice: voice(for: language), volumeDB: volumeDB, inputAt: inputAt)
            case .speechDidEnd(.interrupted): stop()
            default: break
            }
        }
        parts?.mixer.setGain(Self.baseDB + volumeDB)
    }

    /// Whether what was asked last has come to its end since the last call (played out, or it could not be said).
    func takeFinished() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if failedAsk == asked {
            failedAsk = nil
            return true
        }
        guard let c = clip, let mixer = parts?.mixer, mixer.lastEnded >= c else { return false }
        clip = nil
        return true
    }

    /// The most syntheses kept ahead: the focus's two neighbours, and those of the last few moves.
    static let aheadLimit = 8

    /// Synthesises `utterances` (what the next key would say) on the speech queue before they are asked for, so
    /// that the key is heard at once; nothing until speech has been asked for once.
    func prepare(_ utterances: [Utterance]) {
        guard !utterances.isEmpty, let (synthesizer, _) = parts else { return }
        for u in utterances {
            let voice = voice(for: u.language)
            let key = Self.key(u.text, voice)
            lock.lock()
            let known = preparing.contains(key) || ahead.contains { $0.key == key }
            if !known { preparing.insert(key) }
            lock.unlock()
            if known { continue }
            queue.async { [self] in
                let result = synthesizer.samples(for: u.text, voice: voice)
                lock.lock()
                preparing.remove(key)
                if case .success(let samples) = result {
                    ahead.append((key, samples))
                    if ahead.count > Self.aheadLimit { ahead.removeFirst() }
                }
                lock.unlock()
            }
        }
    }

    static func key(_ text: String, _ voice: String) -> String { voice + "\u{1}" + text }

    /// A synthesis made ahead for `text` in `voice` (call with the lock held).
    private func madeAhead(_ text: String, _ voice: String) -> [Int16]? {
        let key = Self.key(text, voice)
        return ahead.last { $0.key == key }?.samples
    }

    /// Returns once the syntheses asked so far are done (the tests' wait: no clock).
    func waitForSyntheses() { queue.sync {} }

    /// Speech plays this far below full scale at the default volume: room for the two steps up.
    static let baseDB = -12.0

    /// How long each thing said for a key or a touch took from it to its first sound, in ms.
    var inputToSound: [Double] { parts?.mixer.inputToSound ?? [] }

    private func say(_ text: String, voice: String, volumeDB: Double, inputAt: UInt64?) {
        guard let (synthesizer, mixer) = ready() else {
            lock.lock()
            asked += 1
            failedAsk = asked
            lock.unlock()
            return
        }
        lock.lock()
        asked += 1
        let ask = asked
        clip = nil
        let made = madeAhead(text, voice)
        lock.unlock()
        mixer.stop()
        // Made ahead: played now, without waiting for the queue.
        if let made {
            let playing = mixer.play(made, gainDB: Self.baseDB + volumeDB, askedAt: inputAt)
            lock.lock()
            if ask == asked { clip = playing }
            lock.unlock()
            return
        }
        queue.async { [self] in
            lock.lock()
            let ready = madeAhead(text, voice)
            lock.unlock()
            var result = ready.map { .success($0) } ?? synthesizer.samples(for: text, voice: voice)
            if case .failure(.noVoice) = result {
                warnOnce(voice, "\(SpeechError.noVoice(voice).message): speaking in English")
                result = synthesizer.samples(for: text, voice: "en")
            }
            var failure: SpeechError?
            lock.lock()
            if ask == asked {
                switch result {
                case .success(let samples):
                    clip = mixer.play(samples, gainDB: Self.baseDB + volumeDB, askedAt: inputAt)
                case .failure(let why):
                    failedAsk = ask
                    failure = why
                }
            }
            lock.unlock()
            if let failure { warnOnce(failure.message, failure.message) }
        }
    }

    private func stop() {
        lock.lock()
        asked += 1
        clip = nil
        lock.unlock()
        parts?.mixer.stop()
    }

    /// The synthesiser and the mixer, made at the first ask (nil, said once, when either cannot be had).
    private func ready() -> (any SpeechSynthesizer, AudioMixer)? {
        if let parts { return parts }
        if unavailable != nil { return nil }
        switch (makeSynthesizer(), makeMixer()) {
        case (.success(let s), .success(let m)):
            m.onEnd = wake
            parts = (s, m)
            log(.info, "speech: espeak-ng, played through SDL's \(AudioMixer.driverName) audio")
            return (s, m)
        case (.failure(let why), _), (_, .failure(let why)):
            unavailable = why
            log(.warning, why.message)
            return nil
        }
    }

    private func warnOnce(_ key: String, _ message: String) {
        lock.lock()
        let first = voicesWarned.insert(key).inserted
        lock.unlock()
        if first { log(.warning, message) }
    }
}
