import Foundation

/// A film's captions in one language, read from WebVTT (W3C's format, what editors and YouTube export): its cues,
/// each a text on screen from `start` to `end` seconds of the film.
public struct CaptionTrack: Equatable, Sendable {
    public struct Cue: Equatable, Sendable {
        public var start: Double
        public var end: Double
        public var text: String
    }

    /// By start time.
    public private(set) var cues: [Cue]

    /// The text on screen at `t` seconds of the film: the cue that began last among those that cover it.
    public func text(at t: Double) -> String? {
        // The last cue to begin by `t` (binary search), then back over those that began before it and still run.
        var lo = 0
        var hi = cues.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if cues[mid].start <= t { lo = mid + 1 } else { hi = mid }
        }
        var i = lo - 1
        // Cues rarely overlap: a few steps back at most find one that still runs.
        var steps = 0
        while i >= 0 && steps < 8 {
            if cues[i].end > t { return cues[i].text }
            i -= 1
            steps += 1
        }
        return nil
    }

    /// What is wrong with a track: the line (1 first) and why.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// The most cues a track may have (an hour's film has a few thousand).
    static let maximumCues = 100_000

    /// The cues of WebVTT `text`, or its first problem.
    public static func parse(_ text: String) -> Result<CaptionTrack, Problem> { parse(bytes: Array(text.utf8)) }

    /// The cues of a WebVTT file's `bytes`, or its first problem: UTF-8 text (as WebVTT is), its first line that is
    /// not named (it was read with U+FFFD in place of its bytes, and shown so). Lines end in LF, CRLF or CR; they
    /// are cut from the bytes (cut as a `String`'s characters, a 64 MB track took seconds more).
    public static func parse(bytes: [UInt8]) -> Result<CaptionTrack, Problem> {
        var lines: [Substring] = []
        var start = 0
        var i = 0
        while i <= bytes.count {
            if i == bytes.count || bytes[i] == UInt8(ascii: "\n") || bytes[i] == UInt8(ascii: "\r") {
                guard let line = String(validating: bytes[start..<i], as: UTF8.self) else {
                    return .failure(
                        Problem(line: lines.count + 1, message: "not UTF-8 text (save the file as UTF-8)"))
                }
                lines.append(Substring(line))
                if i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\r"), bytes[i + 1] == UInt8(ascii: "\n") { i += 1 }
                start = i + 1
            }
            i += 1
        }
        return parse(lines: lines)
    }

    /// The cues of a WebVTT file's lines.
    static func parse(lines: [Substring]) -> Result<CaptionTrack, Problem> {
        var lines = lines
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = first.dropFirst() }
        guard let header = lines.first, header.hasPrefix("WEBVTT"),
            header.count == 6 || header.dropFirst(6).first == " " || header.dropFirst(6).first == "\t"
        else { return .failure(Problem(line: 1, message: "a WebVTT file begins with WEBVTT")) }
        var cues: [Cue] = []
        var i = 1
        // The header's own lines, to the first blank one.
        while i < lines.count && !lines[i].isEmpty { i += 1 }
        while i < lines.count {
            while i < lines.count && lines[i].isEmpty { i += 1 }
            guard i < lines.count else { break }
            let blockStart = i
            var block: [Substring] = []
            while i < lines.count && !lines[i].isEmpty {
                // A cue's words never hold "-->" (WebVTT): such a line after the times begins the next cue (a file
                // that left out the blank line, or a cue id written as times), not words of this one.
                if lines[i].contains("-->") && block.contains(where: { $0.contains("-->") }) { break }
                block.append(lines[i])
                i += 1
            }
            let head = block[0]
            if head.hasPrefix("NOTE") || head.hasPrefix("STYLE") || head.hasPrefix("REGION") { continue }
            // An optional identifier, then the times.
            let timing = head.contains("-->") ? 0 : 1
            guard timing < block.count, block[timing].contains("-->") else {
                return .failure(
                    Problem(line: blockStart + 1, message: "a cue without its times (00:01.000 --> 00:04.000)"))
            }
            let line = blockStart + timing + 1
            let parts = block[timing].split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 3, parts[1] == "-->", let start = time(parts[0]), let end = time(parts[2]) else {
                return .failure(
                    Problem(
                        line: line,
                        message: "\"\(block[timing].prefix(60))\" is not a cue's times (00:01.000 --> 00:04.000)"))
            }
            guard end >= start else { return .failure(Problem(line: line, message: "the cue ends before it begins")) }
            // A cue of no length (its end its start) shows nothing: it is left out, not the track.
            if end == start { continue }
            guard cues.count < maximumCues else {
                return .failure(Problem(line: line, message: "more than \(maximumCues) cues"))
            }
            let words = block[(timing + 1)...].map { plain($0) }.joined(separator: "\n")
            // A cue is a caption: as long as a manifest's text at most (one of 640 KB took seconds a frame to lay
            // out, and the frames stopped).
            if let problem = Object.lengthProblem(words) {
                return .failure(Problem(line: line + 1, message: "the cue's words: \(problem)"))
            }
            cues.append(Cue(start: start, end: end, text: words))
        }
        // In the order they begin (a file's order, usually).
        if zip(cues, cues.dropFirst()).contains(where: { $0.start > $1.start }) {
            cues = cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(
                \.element)
        }
        return .success(CaptionTrack(cues: cues))
    }

    /// A WebVTT time in seconds: `mm:ss.ttt` or `hh:mm:ss.ttt`.
    static func time(_ s: Substring) -> Double? {
        let fields = s.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3 else { return nil }
        let last = fields[fields.count - 1].split(separator: ".", omittingEmptySubsequences: false)
        guard last.count == 2, last[0].count == 2, last[1].count == 3 else { return nil }
        let numbers = fields.dropLast().map { $0 } + [last[0], last[1]]
        guard
            numbers.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
            )
        else { return nil }
        let n = numbers.compactMap { Int($0) }
        guard n.count == numbers.count else { return nil }
        let (hours, minutes, seconds, millis) = fields.count == 3 ? (n[0], n[1], n[2], n[3]) : (0, n[0], n[1], n[2])
        guard minutes < 60, seconds < 60 else { return nil }
        return Double(hours * 3600 + minutes * 60 + seconds) + Double(millis) / 1000
    }

    /// A cue's line as words: its tags (`<i>`, `<v Name>`, `<00:01.000>`) left out, its character references read.
    static func plain(_ line: Substring) -> String {
        // Most lines have neither (a 64 MB track took 16 s to read, each line's letters appended one by one).
        guard line.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
            return String(line)
        }
        var out = ""
        var inTag = false
        for c in line {
            if c == "<" {
                inTag = true
            } else if c == ">" && inTag {
                inTag = false
            } else if !inTag {
                out.append(c)
            }
        }
        guard out.utf8.contains(UInt8(ascii: "&")) else { return out }
        for (entity, c) in [
            ("&lt;", "<"), ("&gt;", ">"), ("&nbsp;", "\u{A0}"), ("&lrm;", "\u{200E}"), ("&rlm;", "\u{200F}"),
            ("&amp;", "&"),
        ] {
            out = out.replacingOccurrences(of: entity, with: c)
        }
        return out
    }
}
