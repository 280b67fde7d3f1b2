import Foundation
import Kiosk

/// Why the kiosk cannot speak, said once in the log.
enum SpeechError: Error, Equatable {
    /// SDL opened no audio device.
    case noSound(String)
    /// The synthesiser is not installed.
    case noSynthesizer(String)
    /// The voice asked for does not exist.
    case noVoice(String)
    /// The synthesiser failed (it crashed, said something that is not sound, or took too long).
    case failed(String)

    var message: String {
        switch self {
        case .noSound(let why): "no sound device (\(why)): the kiosk does not speak"
        case .noSynthesizer(let why): "\(why): the kiosk does not speak (install the Debian package espeak-ng)"
        case .noVoice(let voice): "espeak-ng has no voice \"\(voice)\""
        case .failed(let why): "speech: \(why)"
        }
    }
}

/// What turns words into sound (a recording fake in the tests): 16-bit mono samples at `AudioMixer.rate`.
protocol SpeechSynthesizer: Sendable {
    func samples(for text: String, voice: String) -> Result<[Int16], SpeechError>
}

/// espeak-ng (Debian's `espeak-ng`), run as a separate process for each thing said: the words on its standard
/// input, a WAV file on its standard output. A process rather than the library: its library is GPL-3 and the
/// kiosk MIT, and a synthesiser that crashes takes only itself down (README, "Speech").
struct EspeakSynthesizer: SpeechSynthesizer {
    /// The program: `$KIOSK_ESPEAK` (the tests' stand-ins), else `espeak-ng` on the `PATH`.
    let program: String
    /// A synthesis that takes longer than this is stopped (espeak-ng says a 2 000-character text in well under a
    /// second).
    static let timeoutSeconds = 10.0

    static func find() -> Result<EspeakSynthesizer, SpeechError> {
        let env = ProcessInfo.processInfo.environment
        if let p = env["KIOSK_ESPEAK"], !p.isEmpty {
            return FileManager.default.isExecutableFile(atPath: p)
                ? .success(EspeakSynthesizer(program: p)) : .failure(.noSynthesizer("\(p) is not a program"))
        }
        for dir in (env["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/espeak-ng"
            if FileManager.default.isExecutableFile(atPath: p) { return .success(EspeakSynthesizer(program: p)) }
        }
        return .failure(.noSynthesizer("espeak-ng is not installed"))
    }

    /// The voices `-v` takes (each voice's language and its other languages, from `espeak-ng --voices`); nil
    /// when espeak-ng is not installed or does not answer.
    static func installedVoices() -> Set<String>? {
        guard case .success(let espeak) = find(),
            case .success(let listed) = ChildProcess.run(
                espeak.program, ["--voices"], outputLimit: 1 << 20, timeoutSeconds: Self.timeoutSeconds),
            listed.status == 0
        else { return nil }
        return voices(listed: String(decoding: listed.output, as: UTF8.self))
    }

    /// The voices of `espeak-ng --voices`' table: the Language column, and the languages in "(en 2)" under Other
    /// Languages.
    static func voices(listed text: String) -> Set<String> {
        var out: Set<String> = []
        for line in text.split(separator: "\n").dropFirst() {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count >= 2 else { continue }
            out.insert(String(words[1]))
            for (i, w) in words.enumerated() where w.hasPrefix("(") && i + 1 < words.count {
                out.insert(String(w.dropFirst()))
            }
        }
        return out
    }

    /// The most a synthesis may write: 2 000 characters said slowly, several minutes at 22 050 samples a second,
    /// are a few MB; a synthesiser that writes without end is stopped here, not when the kiosk's memory is gone.
    static let outputLimit = 64 << 20

    func samples(for text: String, voice: String) -> Result<[Int16], SpeechError> {
        let run = ChildProcess.run(
            program, ["-v", voice, "--stdout"], input: Array(text.utf8), outputLimit: Self.outputLimit,
            timeoutSeconds: Self.timeoutSeconds)
        let said: ChildProcess.Outcome
        switch run {
        case .success(let outcome): said = outcome
        case .failure(let why): return .failure(.failed(why.description))
        }
        if said.timedOut {
            return .failure(.failed("espeak-ng took longer than \(Int(Self.timeoutSeconds)) s and was stopped"))
        }
        if said.overflowed {
            return .failure(.failed("espeak-ng wrote more than \(Self.outputLimit >> 20) MB and was stopped"))
        }
        if let signal = said.signal { return .failure(.failed("espeak-ng stopped by signal \(signal)")) }
        if let status = said.status, status != 0 {
            let complaint = String(decoding: said.errors, as: UTF8.self)
            if complaint.contains("voice does not exist") { return .failure(.noVoice(voice)) }
            let line = complaint.split(separator: "\n").first.map(String.init) ?? "exit status \(status)"
            return .failure(.failed("espeak-ng: \(line)"))
        }
        return WAV.samples(Data(said.output))
    }
}

/// A WAV file's 16-bit mono samples at `AudioMixer.rate`, as espeak-ng writes them (its sizes may say "to the
/// end": it writes to a pipe).
enum WAV {
    static func samples(_ data: Data) -> Result<[Int16], SpeechError> {
        let bytes = [UInt8](data)
        func u32(_ i: Int) -> Int {
            Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24
        }
        func u16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        guard bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x41, 0x56, 0x45]
        else { return .failure(.failed("espeak-ng wrote no WAV")) }
        var i = 12
        var format: (channels: Int, rate: Int, bits: Int)?
        while i + 8 <= bytes.count {
            let id = String(decoding: bytes[i..<i + 4], as: UTF8.self)
            let size = u32(i + 4)
            let body = i + 8
            if id == "fmt ", body + 16 <= bytes.count {
                format = (u16(body + 2), u32(body + 4), u16(body + 14))
            } else if id == "data" {
                guard let format, format.channels == 1, format.bits == 16, format.rate == AudioMixer.rate else {
                    return .failure(.failed("espeak-ng wrote sound of a kind the kiosk does not play"))
                }
                let end = min(bytes.count, size > bytes.count - body ? bytes.count : body + size)
                let count = (end - body) / 2
                return .success(
                    (0..<count).map {
                        Int16(bitPattern: UInt16(bytes[body + 2 * $0]) | UInt16(bytes[body + 2 * $0 + 1]) << 8)
                    })
            }
            guard size < bytes.count else { break }
            i = body + size + (size & 1)
        }
        return .failure(.failed("espeak-ng wrote a WAV without sound"))
    }
}
