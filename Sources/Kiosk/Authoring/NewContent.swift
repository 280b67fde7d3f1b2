import EventLog
import ScrollEngine

/// `kiosk new` (docs/authoring.md): a working manifest from a folder of pictures, films and a CSV, for a curator
/// who writes no JSON. Pure: what the folder holds comes in (each file's kind, a picture's size, a CSV's
/// columns), the manifest's text and what it made come out; the host reads the folder and writes the files.
public enum NewContent {
    /// One file of the folder, as the host found it.
    public enum Found: Equatable, Sendable {
        /// A PNG or JPEG (or a Deep Zoom descriptor), with its size in pixels.
        case picture(name: String, width: Int, height: Int)
        /// A film.
        case video(name: String)
        /// A WebVTT caption file (`film.vtt`, `film.de.vtt`).
        case captionTrack(name: String)
        /// A CSV with a `title` column: a directory. Its `title.xx` columns name its languages.
        case directory(name: String, columns: [String])
        /// `captions.csv`: each picture's caption by file name (`file,caption,caption.de,…`).
        case captions(rows: [String: [String: String]], columns: [String])
        /// Anything else, and why it is left out.
        case skipped(name: String, why: String)

        /// Whether the kiosk shows it (a file left out is not; `captions.csv` only with its pictures).
        public var isShown: Bool {
            switch self {
            case .picture, .video, .directory: true
            case .captionTrack, .captions, .skipped: false
            }
        }
    }

    /// What `plan` made: the manifest's text, the files it names (to copy or link beside it), and a line for each
    /// scene and each file left out.
    public struct Plan: Equatable, Sendable {
        public var manifest: String
        public var files: [String]
        public var lines: [String]
    }

    /// The language of a column without a suffix (`title`, `caption`): the manifest's first.
    public static let firstLanguage = "en"
    /// How long the kiosk waits before it goes home, and after that before its attract loop starts (seconds).
    public static let idleTimeoutSeconds = 120.0
    public static let attractAfterSeconds = 60.0
    /// How long each gallery page shows in the attract loop (seconds).
    public static let attractPageSeconds = 6.0

    /// The manifest for `found`, titled `title` (the folder's name), for pictures shown on `screen`: a picture larger
    /// than twice the screen is a zoom scene of its own, the others a gallery in file-name order with the captions
    /// of `captions.csv`, a directory CSV a list scene, each film a video scene with its caption tracks (and the
    /// picture of the same name as its poster); a home scene that reaches every other one, the idle timeout, and
    /// an attract loop over the gallery.
    public static func plan(_ found: [Found], title: String, screen: Size) -> Plan {
        var scenes: [(id: String, title: String, json: String)] = []
        var files: [String] = []
        var lines: [String] = []
        var ids: Set<String> = ["home"]
        func id(for name: String) -> String {
            let base = String(
                stem(name).lowercased().unicodeScalars.map {
                    $0.properties.isAlphabetic || ("0"..."9").contains($0) ? Character($0) : "-"
                })
            var candidate = base.isEmpty ? "scene" : base
            var n = 2
            while ids.contains(candidate) {
                candidate = "\(base)-\(n)"
                n += 1
            }
            ids.insert(candidate)
            return candidate
        }
        // File-name order, as a file manager shows it: letters' case aside.
        let sorted = found.sorted { (name($0).lowercased(), name($0)) < (name($1).lowercased(), name($1)) }
        let captions: [String: [String: String]] =
            sorted.compactMap { f -> [String: [String: String]]? in
                if case .captions(let rows, _) = f { rows } else { nil }
            }.first ?? [:]
        let tracks = sorted.compactMap { if case .captionTrack(let n) = $0 { n } else { nil } }
        let films = sorted.compactMap { if case .video(let n) = $0 { n } else { nil } }
        var languages: Set<String> = [firstLanguage]
        for f in sorted {
            switch f {
            case .directory(_, let columns), .captions(_, let columns):
                for c in columns {
                    for prefix in ["title.", "caption."] where c.hasPrefix(prefix) {
                        let tag = String(c.dropFirst(prefix.count))
                        if Languages.isWellFormed(tag) { languages.insert(tag) }
                    }
                }
            default: break
            }
        }
        // Posters: a picture named as a film.
        let posters = Set(films.map(stem))
        var pages: [String] = []
        for case .picture(let name, let w, let h) in sorted where !posters.contains(stem(name)) {
            files.append(name)
            guard Double(w) > 2 * screen.width || Double(h) > 2 * screen.height else {
                pages.append(name)
                continue
            }
            let sceneID = id(for: name)
            scenes.append(
                (
                    sceneID, pretty(name),
                    #"{"id": \#(jsonString(sceneID)), "type": "zoom", "image": \#(jsonString(name)), "title": \#(jsonString(pretty(name)))}"#
                ))
            lines.append("\(sceneID): zoom, \(name) \(w)x\(h)")
        }
        var galleryID: String?
        if !pages.isEmpty {
            let gallery = id(for: "gallery")
            galleryID = gallery
            let items = pages.map { page -> String in
                guard let text = captions[page], !text.isEmpty else { return jsonString(page) }
                return #"{"image": \#(jsonString(page)), "caption": \#(words(text))}"#
            }
            scenes.append(
                (
                    gallery, "Gallery",
                    #"{"id": \#(jsonString(gallery)), "type": "carousel", "title": "Gallery", "pages": [\#(items.joined(separator: ", "))]}"#
                ))
            let captioned = pages.filter { captions[$0] != nil }.count
            lines.append(
                "\(gallery): carousel of \(pages.count)" + (captioned > 0 ? ", \(captioned) captioned" : ""))
        }
        for film in films {
            files.append(film)
            let sceneID = id(for: film)
            var json =
                #"{"id": \#(jsonString(sceneID)), "type": "video", "video": \#(jsonString(film)), "title": \#(jsonString(pretty(film)))"#
            let poster = sorted.compactMap { f -> String? in
                if case .picture(let n, _, _) = f, stem(n) == stem(film) { n } else { nil }
            }.first
            if let poster {
                files.append(poster)
                json += #", "poster": \#(jsonString(poster))"#
            }
            // `film.vtt` is the first language's, `film.de.vtt` German (`film.DE.vtt` too: tags are the same in
            // either case); a second track of a language, or one whose name's language is not a tag, is left out.
            var own: [(String, String)] = []
            for track in tracks where stem(track) == stem(film) || stem(stem(track)) == stem(film) {
                let suffix =
                    stem(track) == stem(film) ? firstLanguage : String(stem(track).dropFirst(stem(film).count + 1))
                guard Languages.isWellFormed(suffix) else {
                    lines.append(
                        "left out: \(track) (\"\(suffix)\" is not a language tag: name it like \(stem(film)).de.vtt)")
                    continue
                }
                let language = suffix.lowercased()
                if let first = own.first(where: { $0.0 == language }) {
                    lines.append("left out: \(track) (a second \(language) track beside \(first.1))")
                    continue
                }
                own.append((language, track))
                files.append(track)
                languages.insert(language)
            }
            if !own.isEmpty {
                json +=
                    #", "captions": {"# + own.map { "\(jsonString($0.0)): \(jsonString($0.1))" }.joined(separator: ", ")
                    + "}"
            }
            scenes.append((sceneID, pretty(film), json + "}"))
            lines.append(
                "\(sceneID): video, \(film)" + (poster.map { ", poster \($0)" } ?? "")
                    + (own.isEmpty ? "" : ", captions in \(own.map(\.0).sorted().joined(separator: ", "))"))
        }
        for case .directory(let name, let columns) in sorted {
            files.append(name)
            let sceneID = id(for: name)
            let sections = columns.contains("section")
            scenes.append(
                (
                    sceneID, pretty(name),
                    #"{"id": \#(jsonString(sceneID)), "type": "list", "rows": \#(jsonString(name)), "title": \#(jsonString(pretty(name))), "sort": "title""#
                        + (sections ? #", "sectionIndex": true}"# : "}")
                ))
            lines.append("\(sceneID): list, the rows of \(name)")
        }
        for case .skipped(let name, let why) in sorted { lines.append("left out: \(name) (\(why))") }
        var home: String
        var all = scenes.map(\.json)
        if scenes.count == 1 {
            home = scenes[0].id
        } else {
            home = "home"
            let rows = scenes.map { s in
                #"{"id": \#(jsonString(s.id)), "title": \#(jsonString(s.title)), "goto": \#(jsonString(s.id))}"#
            }
            all.insert(
                #"{"id": "home", "type": "list", "title": \#(jsonString(title)), "rows": [\#(rows.joined(separator: ", "))]}"#,
                at: 0)
            lines.insert("home: list of the \(scenes.count) scenes", at: 0)
        }
        var top = [#""kioskManifest": 1"#, #""home": \#(jsonString(home))"#]
        let ordered = [firstLanguage] + languages.subtracting([firstLanguage]).sorted()
        // Captions by language name their languages: a film's one track is "en"'s, and "en" must be one.
        let named = scenes.contains { $0.json.contains(#""captions": {"#) }
        if ordered.count > 1 || named {
            top.append(#""languages": [\#(ordered.map(jsonString).joined(separator: ", "))]"#)
        }
        top.append(#""idleTimeoutSeconds": \#(Int(idleTimeoutSeconds))"#)
        if let galleryID {
            let seconds = min(attractAfterSeconds, Double(pages.count) * attractPageSeconds)
            top.append(
                #""attract": {"afterSeconds": \#(Int(attractAfterSeconds)), "steps": [{"scene": \#(jsonString(galleryID)), "seconds": \#(Int(seconds)), "advanceEverySeconds": \#(Int(attractPageSeconds))}]}"#
            )
        }
        top.append("\"scenes\": [\n    " + all.joined(separator: ",\n    ") + "\n  ]")
        return Plan(manifest: "{\n  " + top.joined(separator: ",\n  ") + "\n}\n", files: files, lines: lines)
    }

    /// `captions.csv` read: each file's caption by language, and its columns.
    public struct CaptionsFile: Sendable {
        public var rows: [String: [String: String]]
        public var columns: [String]
    }

    /// Why a file cannot be used, in a line.
    public struct Problem: Error {
        public var message: String
    }

    /// A caption's texts by language as the manifest writes a text: one string, or one per language.
    static func words(_ text: [String: String]) -> String {
        let present = text.filter { !$0.value.isEmpty }
        if present.count == 1, let only = present[firstLanguage] { return jsonString(only) }
        return "{"
            + present.sorted { $0.key < $1.key }.map { "\(jsonString($0.key)): \(jsonString($0.value))" }
            .joined(separator: ", ") + "}"
    }

    /// `captions.csv`'s rows: each file's caption by language (`caption` the first language's, `caption.de`…),
    /// or the line of the first problem.
    public static func captions(_ bytes: [UInt8]) -> Result<CaptionsFile, Problem> {
        let records: [CSV.Record]
        switch CSV.records(bytes) {
        case .success(let r): records = r
        case .failure(let f): return .failure(Problem(message: "line \(f.line): \(f.message)"))
        }
        guard let header = records.first?.fields, let file = header.firstIndex(of: "file") else {
            return .failure(
                Problem(message: "line 1: expected a header with a file column (file,caption,caption.de,…)"))
        }
        // Each language column's tag as the manifest takes tags (`caption.l000` made a manifest its check refused).
        for column in header where column.hasPrefix("caption.") {
            let tag = String(column.dropFirst(8))
            guard Languages.isWellFormed(tag) else {
                return .failure(
                    Problem(
                        message:
                            "line 1: column \(column): \"\(tag)\" is not a language tag (like caption.de or caption.de-CH)"
                    ))
            }
        }
        var rows: [String: [String: String]] = [:]
        for record in records.dropFirst() where file < record.fields.count {
            var texts: [String: String] = [:]
            for (i, column) in header.enumerated() where i < record.fields.count {
                if column == "caption" { texts[firstLanguage] = record.fields[i] }
                if column.hasPrefix("caption.") { texts[String(column.dropFirst(8))] = record.fields[i] }
            }
            rows[record.fields[file]] = texts
        }
        return .success(CaptionsFile(rows: rows, columns: header))
    }

    /// A CSV's header line (its column names); nil when it is not a CSV that reads.
    public static func header(_ bytes: [UInt8]) -> [String]? {
        guard case .success(let records) = CSV.records(bytes), let first = records.first else { return nil }
        return first.fields
    }

    static func name(_ f: Found) -> String {
        switch f {
        case .picture(let n, _, _), .video(let n), .captionTrack(let n), .directory(let n, _), .skipped(let n, _): n
        case .captions: "captions.csv"
        }
    }

    /// A file's name without its last extension.
    static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// A file's name as a title: its stem, dashes and underscores as spaces, its first letter a capital.
    public static func pretty(_ name: String) -> String {
        let words = String(stem(name).map { $0 == "_" || $0 == "-" ? " " : $0 })
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}
