import EventLog
import ScrollEngine

/// A film's keys in the manifest (docs/video.md): a video scene's or a carousel page's film, and its captions.
extension Manifest {
    /// A film's `video`, `loop` and `fit` (a video scene's, or a carousel page's at `path`).
    static func film(_ o: Object, path: String, resolve: (String, String) -> String) throws(ManifestError)
        -> VideoConfig
    {
        guard let file = try o.string("video", required: true) else {
            throw o.problems.fail("\(path).video", "missing (a video file)")
        }
        var film = VideoConfig(path: resolve("\(path).video", file))
        film.loops = try o.bool("loop") ?? true
        film.sound = try o.bool("sound") ?? false
        if let fit = try o.string("fit") {
            guard let f = VideoFit(rawValue: fit) else {
                throw o.problems.fail("\(path).fit", "\"\(fit)\" is not a fit (contain or cover)")
            }
            film.fit = f
        }
        return film
    }

    /// A video scene's `captions`: one WebVTT file, or one per language. A track that cannot be read is a
    /// warning naming its first problem's line, and that language has no captions (the film plays on).
    static func captionTracks(
        _ o: Object, path: String, baseDirectory: String, languages: [String], problems: ProblemList,
        readFile: (String) -> Result<[UInt8], FileReadError>
    ) throws(ManifestError) -> [String: CaptionTrack] {
        var files: [(tag: String, key: String, relative: String)] = []
        switch o.values["captions"] {
        case nil: return [:]
        case .string(let relative)?: files = [("", "\(path).captions", relative)]
        case let v?:
            let co = try Object(v, path: "\(path).captions", problems: problems)
            for tag in co.values.keys.sorted() {
                guard languages.contains(tag) else {
                    problems.error(co.key(tag), "\"\(tag)\" is not one of the manifest's languages")
                    continue
                }
                guard let relative = try co.string(tag) else { continue }
                files.append((tag, co.key(tag), relative))
            }
        }
        var tracks: [String: CaptionTrack] = [:]
        for (tag, key, relative) in files {
            let file = relative.hasPrefix("/") ? relative : baseDirectory + "/" + relative
            switch readFile(file) {
            case .failure(let why): problems.warning(key, "\(file): cannot be read (\(why.reason)); no captions")
            case .success(let bytes):
                switch CaptionTrack.parse(bytes: Array(bytes)) {
                case .success(let track): tracks[tag] = track
                case .failure(let problem): problems.warning(key, "\(file): \(problem); no captions")
                }
            }
        }
        return tracks
    }
}
