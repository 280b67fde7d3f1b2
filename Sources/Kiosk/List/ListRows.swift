import EventLog

/// What a tap on a list's row does (docs/manifest.md): open a scene, or open a zoom scene and show one of
/// its hotspots.
public enum RowAction: Equatable, Sendable {
    case goto(scene: String)
    case show(scene: String, hotspot: String)
}

/// One row of a list scene.
public struct ListRow: Equatable, Sendable {
    public var id: String
    public var title: LocalizedText
    public var subtitle: LocalizedText?
    public var thumbnail: String?
    public var section: LocalizedText?
    public var action: RowAction?
    /// What it is, to be spoken after its title (its text alternative, EN 301 549 5.1.3.6).
    public var description: LocalizedText?
    /// Where it was written, for messages: the file of its rows (nil: the manifest) and its path in it
    /// (`scenes[3].rows[2]`, `line 12`).
    public var file: String?
    public var path: String
}

/// Why a file the manifest names could not be read.
public struct FileReadError: Error, Sendable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// A list scene's rows and how they are shown.
public struct ListConfig: Equatable, Sendable {
    public var rows: [ListRow]
    /// The section initials down the trailing edge.
    public var sectionIndex = false
    /// Sections and rows sorted by title (else in the order of their first row).
    var sortsByTitle = false
}

/// Reading a list's rows: an array in the manifest, or a CSV (RFC 4180, a header line; `title.de` columns for
/// other languages) or JSON Lines file beside it.
extension Manifest {
    /// The most rows a list takes: beyond it a file is a mistake (an export of the wrong table), not a directory.
    public static let maximumRows = 100_000

    /// The columns a CSV may have, each but `id` and `title` optional; a text column may have one per language
    /// (`title.de`).
    static let rowColumns = ["id", "title", "subtitle", "thumbnail", "section", "goto", "show", "description"]

    static func parseRows(
        _ o: Object, path: String, baseDirectory: String, languages: [String], problems: ProblemList,
        fileExists: (String) -> Bool, readFile: (String) -> Result<[UInt8], FileReadError>
    ) throws(ManifestError) -> [ListRow] {
        guard let value = o.values["rows"] else {
            throw problems.fail("\(path).rows", "missing (a list of rows, or a .csv or .jsonl file)")
        }
        var rows: [ListRow] = []
        switch value {
        case .array(let list):
            for (i, v) in list.enumerated() {
                let key = "\(path).rows[\(i)]"
                let row = problems.attempt { () throws(ManifestError) in
                    try Self.row(
                        Object(v, path: key, problems: problems), file: nil, languages: languages,
                        baseDirectory: baseDirectory)
                }
                if let row { rows.append(row) }
            }
        case .string(let relative):
            let file = relative.hasPrefix("/") ? relative : baseDirectory + "/" + relative
            guard fileExists(file) else { throw problems.fail("\(path).rows", "file not found: \(file)") }
            let bytes: [UInt8]
            switch readFile(file) {
            case .success(let b): bytes = b
            case .failure(let why): throw problems.fail("\(path).rows", "\(file): cannot be read (\(why.reason))")
            }
            let lower = file.lowercased()
            if lower.hasSuffix(".csv") {
                rows = csvRows(
                    bytes, file: file, languages: languages, baseDirectory: baseDirectory, problems: problems)
            } else if lower.hasSuffix(".jsonl") {
                rows = jsonLinesRows(
                    bytes, file: file, languages: languages, baseDirectory: baseDirectory, problems: problems)
            } else {
                throw problems.fail("\(path).rows", "\(relative): expected a .csv or .jsonl file")
            }
        default:
            throw problems.fail("\(path).rows", "expected a list of rows or a file name, found \(value.typeName)")
        }
        var seen: [String: String] = [:]
        for row in rows {
            if let first = seen[row.id] {
                problems.add(
                    ManifestError(
                        file: row.file ?? problems.file, path: row.path,
                        message: "the id \"\(row.id)\" is also the id of \(first)"))
            } else {
                seen[row.id] = row.path
            }
        }
        return rows
    }

    /// A row from an object (the manifest's, or a JSON line's): `id`, `title`, and the optional keys.
    /// `baseDirectory`: the manifest's folder, where a thumbnail's relative path starts.
    static func row(
        _ o: Object, file: String?, languages: [String], baseDirectory: String
    ) throws(ManifestError) -> ListRow {
        o.allow(rowColumns)
        let id = try o.string("id", required: true)!
        guard !id.isEmpty else { throw o.fail("id", "must not be empty") }
        guard let title = try o.text("title", languages: languages) else { throw o.fail("title", "missing") }
        let thumbnail = try o.string("thumbnail").map { $0.hasPrefix("/") ? $0 : baseDirectory + "/" + $0 }
        let action = try rowAction(goto: o.string("goto"), show: o.string("show")) { k, m in o.fail(k, m) }
        return ListRow(
            id: id, title: title, subtitle: try o.text("subtitle", languages: languages), thumbnail: thumbnail,
            section: try o.text("section", languages: languages), action: action,
            description: try o.text("description", languages: languages), file: file, path: o.path)
    }

    /// `goto` or `show` (`"map#cafe"`), not both.
    static func rowAction(
        goto: String?, show: String?, fail: (String, String) -> ManifestError
    ) throws(ManifestError) -> RowAction? {
        switch (goto, show) {
        case (nil, nil): return nil
        case (let scene?, nil): return .goto(scene: scene)
        case (nil, let target?):
            let parts = target.split(separator: "#", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw fail("show", "expected \"scene#hotspot\", found \"\(target)\"")
            }
            return .show(scene: String(parts[0]), hotspot: String(parts[1]))
        case (_?, _?): throw fail("show", "a row either goes to a scene (goto) or shows a place (show), not both")
        }
    }

    static func jsonLinesRows(
        _ bytes: [UInt8], file: String, languages: [String], baseDirectory: String, problems: ProblemList
    ) -> [ListRow] {
        // A byte-order mark is dropped, as the CSV, manifest and event-log readers drop it.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard let text = String(validating: body, as: UTF8.self) else {
            problems.add(
                ManifestError(file: file, path: "", message: "not UTF-8 text (byte \(firstInvalidUTF8(body) ?? 0))"))
            return []
        }
        var rows: [ListRow] = []
        let lines = ProblemList(file: file)
        // Lines end in LF or CRLF (a Windows editor's): "\r\n" is one Character in Swift, never equal to "\n".
        let split = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (i, line) in split.enumerated() {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            let key = "line \(i + 1)"
            guard rows.count < maximumRows else {
                lines.error(key, "more than \(maximumRows) rows")
                break
            }
            switch JSONValue.parseStrictly(line) {
            case .failure(let e): lines.error(key, "not valid JSON (\(e.message))")
            case .success(let v):
                let row = lines.attempt { () throws(ManifestError) in
                    try Self.row(
                        Object(v, path: key, problems: lines), file: file, languages: languages,
                        baseDirectory: baseDirectory)
                }
                if let row { rows.append(row) }
            }
        }
        for p in lines.items { problems.add(p) }
        return rows
    }

    static func csvRows(
        _ bytes: [UInt8], file: String, languages: [String], baseDirectory: String, problems: ProblemList
    ) -> [ListRow] {
        func error(_ line: Int, _ message: String) {
            problems.add(ManifestError(file: file, path: "line \(line)", message: message))
        }
        let records: [CSV.Record]
        let read = CSV.read(bytes)
        // How it was read, where that was a guess: said, as a warning on the file.
        for note in read.dialect.notes {
            problems.add(ManifestError(file: file, path: "", message: note, isWarning: true))
        }
        switch read.records {
        case .success(let r): records = r
        case .failure(let f):
            error(f.line, f.message)
            return []
        }
        guard let header = records.first else {
            problems.add(ManifestError(file: file, path: "", message: "the file is empty (it needs a header line)"))
            return []
        }
        // Each column: its key and language (nil: every language).
        var columns: [(key: String, language: String?)] = []
        for name in header.fields {
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            let key = parts.first ?? ""
            let language = parts.count == 2 ? parts[1] : nil
            guard rowColumns.contains(key) else {
                error(1, "unknown column \"\(name)\" (known: \(rowColumns.joined(separator: ", ")))")
                return []
            }
            if let language, !languages.contains(language) {
                error(1, "column \"\(name)\": \"\(language)\" is not one of the manifest's languages")
                return []
            }
            // A column named twice would lose the first one's values without a word.
            if let i = header.fields.firstIndex(of: name), i < columns.count {
                error(1, "column \"\(name)\" is named twice (columns \(i + 1) and \(columns.count + 1))")
                return []
            }
            columns.append((key, language))
        }
        for required in ["id", "title"] where !columns.contains(where: { $0.key == required }) {
            error(1, "no \"\(required)\" column (the header line names the columns)")
            return []
        }
        var rows: [ListRow] = []
        for record in records.dropFirst() {
            guard rows.count < maximumRows else {
                error(record.line, "more than \(maximumRows) rows")
                break
            }
            guard record.fields.count == columns.count else {
                error(record.line, "\(record.fields.count) fields; the header has \(columns.count)")
                continue
            }
            // The record as the object a JSON line would be: per-language columns make a text value.
            var object: [String: JSONValue] = [:]
            var texts: [String: [String: JSONValue]] = [:]
            for (column, value) in zip(columns, record.fields) where !value.isEmpty {
                if let language = column.language {
                    texts[column.key, default: [:]][language] = .string(value)
                } else if ["title", "subtitle", "section", "description"].contains(column.key), !languages.isEmpty,
                    header.fields.contains(where: { $0.hasPrefix(column.key + ".") })
                {
                    // `title` beside `title.de`: the first language's text.
                    texts[column.key, default: [:]][languages[0]] = .string(value)
                } else {
                    object[column.key] = .string(value)
                }
            }
            for (key, byLanguage) in texts { object[key] = .object(byLanguage) }
            let rowProblems = ProblemList(file: file)
            let key = "line \(record.line)"
            // A quoted line break in a title is kept, but a row shows one line: said, not cut silently.
            for (column, value) in zip(columns, record.fields) where column.key == "title" && value.contains("\n") {
                let name = column.language.map { "title.\($0)" } ?? "title"
                rowProblems.warning(
                    "\(key).\(name)", "holds a line break; a row shows its title on one line, cut where it ends")
            }
            let row = rowProblems.attempt { () throws(ManifestError) in
                try Self.row(
                    Object(.object(object), path: key, problems: rowProblems), file: file, languages: languages,
                    baseDirectory: baseDirectory)
            }
            for p in rowProblems.items { problems.add(p) }
            if let row { rows.append(row) }
        }
        return rows
    }
}
