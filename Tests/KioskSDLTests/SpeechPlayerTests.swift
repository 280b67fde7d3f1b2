import Foundation
import Kiosk
import Testing

@testable import KioskSDL

/// The speech player and the mixer without a sound device: a recording synthesiser, a mixer pulled by hand.
@Suite struct SpeechPlayerTests {
    /// Says a tone of `count` samples for any text, and notes what it was asked (the voice missing for `missing`).
    final class Recording: SpeechSynthesizer, @unchecked Sendable {
        let lock = NSLock()
        var asked: [(text: String, voice: String)] = []
        var missing: Set<String> = []
        var fails = false
        let count: Int
        init(count: Int = 4410) { self.count = count }

        func samples(for text: String, voice: String) -> Result<[Int16], SpeechError> {
            lock.lock()
            defer { lock.unlock() }
            asked.append((text, voice))
            if fails { return .failure(.failed("espeak-ng stopped by signal 11")) }
            if missing.contains(voice) { return .failure(.noVoice(voice)) }
            return .success((0..<count).map { $0 % 2 == 0 ? 8000 : -8000 })
        }
    }

    /// The mixer's next `n` samples, as SDL's audio thread would take them.
    static func pull(_ mixer: AudioMixer, _ n: Int) -> [Int16] {
        var buffer = [Int16](repeating: 1, count: n)
        buffer.withUnsafeMutableBytes { mixer.fill($0.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes: n * 2) }
        return buffer
    }

    static func player(_ synthesizer: Recording, mixer: AudioMixer, voices: [String: String] = [:]) -> SpeechPlayer {
        SpeechPlayer(voices: voices, synthesizer: { .success(synthesizer) }, mixer: { .success(mixer) })
    }

    /// Waits (on the player's own queue, not the clock) for the syntheses asked so far.
    static func settle(_ player: SpeechPlayer) { player.waitForSyntheses() }

    @Test func aStopIsSilentFromTheNextBuffer() {
        let mixer = AudioMixer()
        mixer.play([Int16](repeating: 10_000, count: 22_050), gainDB: 0)
        #expect(Self.pull(mixer, 512).allSatisfy { $0 == 10_000 })
        mixer.stop()
        // One buffer of SDL's (512 samples, 23 ms): well within the 50 ms of audio the contract allows.
        #expect(Self.pull(mixer, 512).allSatisfy { $0 == 0 })
    }

    @Test func theGainIsInDecibels() {
        let mixer = AudioMixer()
        mixer.play([Int16](repeating: 10_000, count: 100), gainDB: -6)
        #expect(Self.pull(mixer, 1) == [5011])
        mixer.setGain(12)
        // Louder than full scale is held at full scale.
        #expect(Self.pull(mixer, 1) == [32767])
    }

    @Test func eachLanguageHasItsVoiceAndTheEndIsSaid() {
        let synthesizer = Recording()
        let mixer = AudioMixer()
        let player = Self.player(synthesizer, mixer: mixer, voices: ["en": "en-gb"])
        player.observe([TraceEvent(.speechDidStart(text: "Guten Tag", language: "de"))], volumeDB: 0)
        Self.settle(player)
        player.observe([TraceEvent(.speechDidStart(text: "Hello", language: "en-US"))], volumeDB: 0)
        Self.settle(player)
        player.observe([TraceEvent(.speechDidStart(text: "?", language: "und"))], volumeDB: 0)
        Self.settle(player)
        #expect(synthesizer.asked.map(\.voice) == ["de", "en-gb", "en"])
        #expect(!player.takeFinished())
        _ = Self.pull(mixer, 4410)
        #expect(player.takeFinished())
        #expect(!player.takeFinished())
    }

    @Test func anInterruptionStopsWhatPlaysAndALateSynthesisIsNotPlayed() {
        let synthesizer = Recording()
        let mixer = AudioMixer()
        let player = Self.player(synthesizer, mixer: mixer)
        player.observe([TraceEvent(.speechDidStart(text: "one", language: "en"))], volumeDB: 0)
        Self.settle(player)
        #expect(Self.pull(mixer, 100).contains { $0 != 0 })
        player.observe([TraceEvent(.speechDidEnd(reason: .interrupted))], volumeDB: 0)
        #expect(Self.pull(mixer, 512).allSatisfy { $0 == 0 })
        // Asked and cut short in the same frame: nothing of it plays.
        player.observe(
            [
                TraceEvent(.speechDidStart(text: "two", language: "en")),
                TraceEvent(.speechDidEnd(reason: .interrupted)),
            ], volumeDB: 0)
        Self.settle(player)
        #expect(Self.pull(mixer, 512).allSatisfy { $0 == 0 })
    }

    @Test func aMissingVoiceSpeaksEnglishAndAFailedSynthesisEnds() {
        let synthesizer = Recording()
        synthesizer.missing = ["xx"]
        let mixer = AudioMixer()
        let player = Self.player(synthesizer, mixer: mixer, voices: ["de": "xx"])
        player.observe([TraceEvent(.speechDidStart(text: "Hallo", language: "de"))], volumeDB: 0)
        Self.settle(player)
        #expect(synthesizer.asked.map(\.voice) == ["xx", "en"])
        #expect(Self.pull(mixer, 10).contains { $0 != 0 })
        synthesizer.fails = true
        player.observe([TraceEvent(.speechDidStart(text: "Hallo", language: "de"))], volumeDB: 0)
        Self.settle(player)
        // Not a stuck voice: what could not be said is over.
        #expect(player.takeFinished())
    }

    @Test func withoutASoundDeviceNothingIsSynthesised() {
        let synthesizer = Recording()
        let player = SpeechPlayer(
            voices: [:], synthesizer: { .success(synthesizer) }, mixer: { .failure(.noSound("no audio driver")) })
        for _ in 0..<3 {
            player.observe([TraceEvent(.speechDidStart(text: "Hello", language: "en"))], volumeDB: 0)
            #expect(player.takeFinished())
        }
        #expect(synthesizer.asked.isEmpty)
    }

    @Test func aWAVAsEspeakWritesItToAPipe() throws {
        // RIFF with "to the end" sizes, fmt (mono, 22050 Hz, 16 bit), data: 1, -2.
        var bytes: [UInt8] = Array("RIFF".utf8) + [0xFF, 0xFF, 0xFF, 0x7F] + Array("WAVEfmt ".utf8)
        bytes += [16, 0, 0, 0, 1, 0, 1, 0, 0x22, 0x56, 0, 0, 0x44, 0xAC, 0, 0, 2, 0, 16, 0]
        bytes += Array("data".utf8) + [0xFF, 0xFF, 0xFF, 0x7F, 1, 0, 0xFE, 0xFF]
        #expect(try WAV.samples(Data(bytes)).get() == [1, -2])
        #expect(throws: SpeechError.self) { try WAV.samples(Data("not a wav".utf8)).get() }
        var stereo = bytes
        stereo[22] = 2
        #expect(throws: SpeechError.self) { try WAV.samples(Data(stereo)).get() }
    }

    @Test func theVoicesEspeakListsAreItsLanguagesAndTheirOtherNames() {
        let listed = """
            Pty Language       Age/Gender VoiceName          File                 Other Languages
             5  ar              --/M      Arabic             sem/ar
             2  en-gb           --/M      English_(Great_Britain) gmw/en               (en 2)
             2  en-us           --/M      English_(America)  gmw/en-US            (en 3)
            """
        #expect(EspeakSynthesizer.voices(listed: listed) == ["ar", "en-gb", "en-us", "en"])
    }

    /// What the next key would say is synthesised ahead: when it is asked for it plays at once, from the samples
    /// made, and the synthesiser is not asked again.
    @Test func whatTheNextKeyWouldSayIsMadeAhead() {
        let synthesizer = Recording()
        let mixer = AudioMixer()
        let player = Self.player(synthesizer, mixer: mixer)
        // Nothing is made ahead before speech was asked for once (no sound device opened for it).
        player.prepare([Utterance(text: "Shop", language: "en")])
        Self.settle(player)
        #expect(synthesizer.asked.isEmpty)
        player.observe([TraceEvent(.speechDidStart(text: "Welcome. Map", language: "en"))], volumeDB: 0)
        Self.settle(player)
        player.prepare([Utterance(text: "Shop", language: "en"), Utterance(text: "Exit", language: "en")])
        player.prepare([Utterance(text: "Shop", language: "en")])
        Self.settle(player)
        #expect(synthesizer.asked.map(\.text) == ["Welcome. Map", "Shop", "Exit"])
        // The key: "Shop" plays before the queue is waited for, and is not synthesised again.
        player.observe([TraceEvent(.speechDidStart(text: "Shop", language: "en"))], volumeDB: 0)
        #expect(Self.pull(mixer, 2).contains { $0 != 0 })
        Self.settle(player)
        #expect(synthesizer.asked.count == 3)
        _ = Self.pull(mixer, 4410)
        #expect(player.takeFinished())
    }
}
