import ScrollEngine

/// What inspecting one image found: its size (and pyramid levels for Deep Zoom), or why it cannot be shown.
public struct ImageReport: Equatable, Sendable {
    public var width = 0
    public var height = 0
    /// Deep Zoom: how many levels its pyramid has.
    public var levels: Int?
    public var problem: String?

    public init(width: Int, height: Int, levels: Int? = nil) {
        self.width = width
        self.height = height
        self.levels = levels
    }
    public init(problem: String) { self.problem = problem }
}

/// What the font a language's words are drawn in is: a file that opens and covers the language, or why not.
public enum FontReport: Equatable, Sendable {
    /// The file, and the font's family name.
    case font(file: String, family: String)
    /// No font named for it, and none installed covers it.
    case none
    /// The file is not a font SDL_ttf opens.
    case notAFont(file: String, why: String)
    /// The file opens, but has no letters of the language's script.
    case lacksScript(file: String, family: String)
}

/// Everything `kiosk --check` reports, and what a reload needs to decide: the manifest (nil when anything is
/// wrong), every problem, and a summary line per scene.
public struct ContentReport: Sendable {
    public var manifest: Manifest?
    public var problems: [ManifestError]
    public var summary: [String]
    public var errors: [ManifestError] { problems.filter { !$0.isWarning } }
    /// The manifest, also where its only errors are pictures or films a placeholder covers (what a start goes on
    /// with; a reload and `--check` take `manifest`).
    public var withPlaceholders: Manifest? = nil

    /// A manifest file that cannot be read at all: that is its one problem.
    public static func unreadable(_ file: String, _ message: String) -> ContentReport {
        ContentReport(manifest: nil, problems: [ManifestError(file: file, path: "", message: message)], summary: [])
    }
}

/// The checks of `kiosk --check`, at start and at reload alike (docs/operations.md): the manifest's own (JSON, keys,
/// types, ids, gotos, reachability), then every image it names through `inspect` (decoded by the SDL layer),
/// and every hotspot against its image.
public enum ContentCheck {
    /// Each language's own images of `scene`: decoded as the first language's are; one of another size is a
    /// warning (the scene is laid out again for it, losing the visitor's place, and its hotspots stay where the
    /// first language's image has them).
    static func checkLanguageImages(
        _ scene: SceneConfig, keys: [String], baseDirectory: String, fileExists: (String) -> Bool,
        problems: ProblemList, reports: inout [String: ImageReport], inspect: (String) -> ImageReport
    ) {
        for (tag, paths) in scene.localizedImages.sorted(by: { $0.key < $1.key }) {
            for (i, path) in paths.enumerated() where path != scene.imagePaths[i] && fileExists(path) {
                let key = "\(scene.path).\(keys[i]).\(tag)"
                let first = reports[path] == nil
                let report = reports[path] ?? inspect(path)
                reports[path] = report
                guard first else { continue }
                if let problem = report.problem {
                    problems.placeholder(key, "\(relative(path, to: baseDirectory)): \(problem)")
                } else if let base = reports[scene.imagePaths[i]], base.problem == nil,
                    base.width != report.width || base.height != report.height
                {
                    problems.warning(
                        key,
                        "is \(report.width)x\(report.height), the first language's \(base.width)x\(base.height): "
                            + "a language switch lays the scene out again (the visitor's place is lost)")
                }
            }
        }
    }

    /// A list's thumbnails, each file once: one missing or that does not decode is a warning (its rows show a
    /// placeholder), naming the first row that has it.
    static func checkThumbnails(
        _ list: ListConfig, fileExists: (String) -> Bool, problems: ProblemList, inspect: (String) -> ImageReport
    ) {
        var seen: Set<String> = []
        for row in list.rows {
            guard let path = row.thumbnail, seen.insert(path).inserted else { continue }
            let problem = fileExists(path) ? inspect(path).problem : "file not found"
            guard let problem else { continue }
            var p = ManifestError(
                file: row.file ?? problems.file, path: "\(row.path).thumbnail",
                message: "\(path): \(problem) (its rows show a placeholder)")
            p.isWarning = true
            problems.add(p)
        }
    }

    /// The voices a kiosk's languages speak in (docs/accessibility.md): a warning for each language whose voice
    /// (the manifest's, else the language's own) is not among `installed` (espeak-ng's, `nil`: espeak-ng is not
    /// installed, one warning).
    static func checkVoices(_ manifest: Manifest, installed: Set<String>?, problems: ProblemList) {
        guard let installed else {
            problems.warning(
                "accessibility", "espeak-ng is not installed: the kiosk will not speak (apt install espeak-ng)")
            return
        }
        for tag in manifest.languages {
            let named = manifest.accessibility.voices[tag]
            let voice = named ?? Languages.primary(tag)
            guard !installed.contains(voice) else { continue }
            let path = named == nil ? "languages" : "accessibility.voices.\(tag)"
            problems.warning(
                path,
                "no espeak-ng voice \"\(voice)\" for \"\(tag)\": it is spoken in English (`espeak-ng --voices` lists them)"
            )
        }
    }

    /// A film opened and its first frame decoded when the check may take the time (`inspect`: `--check`, a
    /// reload): its name with what it is, or its problem as an error on `key` (a machine without the libraries:
    /// a warning, the film shows its poster). At the start it is only named.
    static func checkFilm(
        _ video: VideoConfig, key: String, baseDirectory: String, problems: ProblemList,
        inspect: ((String) -> VideoReport)?
    ) -> String {
        let film = relative(video.path, to: baseDirectory)
        guard let report = inspect?(video.path) else { return film }
        if let problem = report.problem, report.libraryMissing {
            problems.warning(key, "\(problem): the film shows its poster")
        } else if let problem = report.problem {
            problems.placeholder(key, "\(film): \(problem)")
        } else {
            return film + " (\(report.summary))"
        }
        return film
    }

    public static func run(
        _ text: String, file: String, baseDirectory: String, fileExists: (String) -> Bool,
        inspect: (String) -> ImageReport, font: ((_ language: String, _ named: [String: String]) -> FontReport)? = nil,
        measure: ((_ run: TextRun, _ named: [String: String]) -> TextMeasure?)? = nil,
        screen: Size = ContentCheck.screen,
        readFile: (String) -> Result<[UInt8], FileReadError> = { _ in .failure(FileReadError("no reader")) },
        fontsMustCover: Bool = true, voices: (() -> Set<String>?)? = nil,
        inspectVideo: ((String) -> VideoReport)? = nil
    ) -> ContentReport {
        let check = Manifest.check(
            text, file: file, baseDirectory: baseDirectory, fileExists: fileExists, readFile: readFile)
        let problems = ProblemList(file: file)
        for p in check.problems { problems.add(p) }
        // The scenes as parsed, with or without errors elsewhere: their images are checked either way.
        let scenes = check.scenes
        var reports: [String: ImageReport] = [:]
        var summary: [String] = []
        for scene in scenes {
            var parts: [String] = []
            let keys = scene.type == .carousel ? scene.pages.indices.map { "pages[\($0)]" } : ["image"]
            for (key, path) in zip(keys, scene.imagePaths) where fileExists(path) {
                let name = relative(path, to: baseDirectory)
                let report = reports[path] ?? inspect(path)
                let first = reports[path] == nil
                reports[path] = report
                if let problem = report.problem {
                    if first { problems.placeholder("\(scene.path).\(key)", "\(name): \(problem)") }
                    parts.append("\(name) (broken)")
                    continue
                }
                let levels = report.levels.map { " (Deep Zoom, \($0) levels)" } ?? tiling(report)
                parts.append("\(name) \(report.width)x\(report.height)\(levels)")
            }
            checkLanguageImages(
                scene, keys: keys, baseDirectory: baseDirectory, fileExists: fileExists, problems: problems,
                reports: &reports, inspect: inspect)
            for h in scene.hotspots {
                let page = scene.type == .carousel ? h.page : 0
                guard page < scene.imagePaths.count, let r = reports[scene.imagePaths[page]], r.problem == nil,
                    r.width > 0
                else { continue }
                let image = Rect(x: 0, y: 0, width: Double(r.width), height: Double(r.height))
                if !(image.minX <= h.rect.minX && h.rect.maxX <= image.maxX && image.minY <= h.rect.minY
                    && h.rect.maxY <= image.maxY)
                {
                    problems.warning(
                        "\(scene.path).hotspots[\(h.index)].rect",
                        "reaches outside its image (\(r.width)x\(r.height)): part of it cannot be touched")
                }
                if h.label != nil, !image.contains(h.labelPoint) {
                    problems.warning(
                        "\(scene.path).hotspots[\(h.index)].\(h.labelAt == nil ? "label" : "labelAt")",
                        "the label is outside its image (\(r.width)x\(r.height)): it shows beside the picture")
                }
            }
            if let list = scene.list {
                checkThumbnails(list, fileExists: fileExists, problems: problems, inspect: inspect)
                let first = check.manifest?.languages.first ?? Languages.undetermined
                let sections = ListLayout(list, language: first, fallback: first).sections.count
                summary.append("\(scene.id): list of \(list.rows.count) rows in \(sections) sections")
                if list.rows.isEmpty {
                    problems.warning("\(scene.path).rows", "no rows: the list says \"Nothing here yet\"")
                }
                continue
            }
            if let video = scene.video {
                // The film is opened and its first frame decoded when the check may take the time (`--check`, a
                // reload); at the start it is only named (it is opened when it plays: its problems are then one
                // line and videoDidFail).
                let captions = video.captions.keys.sorted()
                let film = checkFilm(
                    video, key: "\(scene.path).video", baseDirectory: baseDirectory, problems: problems,
                    inspect: inspectVideo)
                summary.append(
                    "\(scene.id): video, \(film)"
                        + (parts.isEmpty ? "" : ", poster \(parts.joined(separator: ", "))")
                        + (captions.isEmpty
                            ? ""
                            : captions == [""] ? ", captions" : ", captions in \(captions.joined(separator: ", "))"))
                continue
            }
            for (i, video) in scene.pageVideos.enumerated() {
                guard let video else { continue }
                let film = checkFilm(
                    video, key: "\(scene.path).pages[\(i)].video", baseDirectory: baseDirectory, problems: problems,
                    inspect: inspectVideo)
                parts.append("page \(i + 1)'s film \(film)")
            }
            let kind = scene.type == .carousel ? "carousel of \(scene.pages.count)" : scene.type.rawValue
            let hotspots = scene.hotspots.count == 1 ? "1 hotspot" : "\(scene.hotspots.count) hotspots"
            summary.append("\(scene.id): \(kind), \(parts.joined(separator: ", ")), \(hotspots)")
        }
        let sets = (check.manifest?.attractSets ?? [:]).sorted { $0.key < $1.key }.map(\.value)
        for attract in [check.attract].compactMap({ $0 }) + sets {
            attract.check(
                image: { path in
                    reports[path].flatMap { $0.problem == nil && $0.width > 0 ? ($0.width, $0.height) : nil }
                },
                scenes: scenes, problems: problems)
        }
        if let m = check.manifest, let schedule = m.schedule {
            let names = m.attractSets.keys.sorted()
            summary.append(
                "schedule: \(schedule.entries.count) entr\(schedule.entries.count == 1 ? "y" : "ies")"
                    + (names.isEmpty ? "" : ", attract sets \(names.joined(separator: ", "))")
                    + " (kiosk --check --plan shows the days ahead)")
        }
        if let font, let m = check.manifest, !m.languages.isEmpty || scenes.contains(where: \.hasWords) {
            let fonts = checkFonts(m, baseDirectory: baseDirectory, problems: problems, mustCover: fontsMustCover) {
                font($0, m.fonts)
            }
            summary.append(fonts.summary)
            if let measure {
                let words = checkWords(
                    m, languages: fonts.drawn, screen: screen, reports: reports, problems: problems
                ) { measure($0, m.fonts) }
                if let words { summary.append(words) }
            }
        }
        if let voices, let m = check.manifest, !m.languages.isEmpty {
            checkVoices(m, installed: voices(), problems: problems)
        }
        // Content whose only errors are pictures and films a placeholder covers can still be started with.
        var usable = problems.errors.allSatisfy(\.showsPlaceholder) ? check.withPlaceholders : nil
        usable?.contentProblems = problems.errors.map(\.description)
        return ContentReport(
            manifest: problems.errors.isEmpty ? check.manifest : nil, problems: problems.items, summary: summary,
            withPlaceholders: usable)
    }

    /// The longest side a whole picture's texture has on every board's GPU (a Raspberry Pi 5's V3D takes 4096): a
    /// plain picture over it is tiled, as its pyramid cut once into the cache folder.
    public static let largestWholePicture = 4096

    /// What tiling a plain picture over `largestWholePicture` costs, for `--check`'s summary (empty for others).
    static func tiling(_ report: ImageReport) -> String {
        guard max(report.width, report.height) > largestWholePicture else { return "" }
        // Its levels take a third more than its pixels, 4 bytes each.
        let bytes = report.width * report.height * 4 * 4 / 3
        return " (over \(largestWholePicture): tiled, cut once into the cache, \(mebibytes(bytes)))"
    }

    /// The screen words are measured on when `kiosk --check` is not told one (`--headless WxH`): a 1080p panel.
    public static let screen = Size(width: 1920, height: 1080)

    /// Every text of every scene in every language, laid out at the scene's opening view on `screen`: one that
    /// does not fit its box (it would end in an ellipsis) is a warning naming its path and language. The words'
    /// textures of each scene, in the language whose take the most, are summed: the summary line says them, and a
    /// scene whose words alone are more than the words' share of the texture budget (they would be rasterised again
    /// every frame) is a warning. Nil when no scene has words.
    static func checkWords(
        _ m: Manifest, languages drawn: [String], screen: Size, reports: [String: ImageReport], problems: ProblemList,
        measure: (TextRun) -> TextMeasure?
    ) -> String? {
        let languages = m.languages.isEmpty ? [Languages.undetermined] : m.languages
        let budget = TextureBudget.words(m.textureBudgetBytes)
        var parts: [String] = []
        for config in m.scenes where config.hasWords {
            let images = config.imagePaths.map { path -> ImageInfo in
                guard let r = reports[path], r.problem == nil, r.width > 0 else { return .missing }
                return ImageInfo(size: Size(width: Double(r.width), height: Double(r.height)), loaded: true)
            }
            let scene = Scene(config: config, size: screen, images: images, sink: EventSink())
            var said: Set<String> = []
            var most = (bytes: 0, language: languages[0])
            for tag in languages where drawn.contains(tag) {
                var bytes = 0
                for (key, run) in scene.wordBoxes(language: tag, fallback: languages[0]) {
                    guard let measured = measure(run) else { continue }
                    bytes += measured.bytes
                    if !measured.fits && said.insert(key).inserted {
                        problems.warning(
                            key,
                            "does not fit its box on a \(Int(screen.width))x\(Int(screen.height)) screen: it ends in an ellipsis"
                        )
                    }
                }
                if bytes > most.bytes { most = (bytes, tag) }
            }
            parts.append("\(config.id) \(mebibytes(most.bytes))")
            if most.bytes > budget {
                problems.warning(
                    config.path,
                    "its words take about \(mebibytes(most.bytes)) of textures in \"\(most.language)\" at its opening view, "
                        + "more than the words' share of the texture budget (\(mebibytes(budget))): they would be drawn "
                        + "again every frame; use fewer or shorter texts, or a larger textureBudgetMiB")
            }
        }
        guard !parts.isEmpty else { return nil }
        return "words' textures at each scene's opening view: \(parts.joined(separator: ", ")) (their share of the "
            + "texture budget: \(mebibytes(budget)))"
    }

    static func mebibytes(_ bytes: Int) -> String {
        let tenths = (Double(bytes) / 1_048_576 * 10).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10) MiB"
    }

    /// Each language's font, its problems recorded; the summary line (`words: en Noto Sans, ar Noto Sans
    /// Arabic`) and the languages that have a font. `mustCover`: a language without a usable font is an error
    /// (`--check`, as the contract says); else (the start, a reload) a warning, and the kiosk runs on with the
    /// font it falls back to, as it shows a placeholder for a broken picture.
    static func checkFonts(
        _ m: Manifest, baseDirectory: String, problems: ProblemList, mustCover: Bool = true,
        font: (String) -> FontReport
    ) -> (summary: String, drawn: [String]) {
        func fails(_ key: String, _ message: String) {
            if mustCover {
                problems.error(key, message)
            } else {
                problems.warning(
                    key, message + "; its words are drawn in the fallback font (boxes for letters it lacks)")
            }
        }
        let languages = m.languages.isEmpty ? [Languages.undetermined] : m.languages
        var parts: [String] = []
        var drawn: [String] = []
        for (i, tag) in languages.enumerated() {
            let key =
                m.fonts[tag] != nil ? "fonts.\(tag)" : m.fonts["default"] != nil ? "fonts.default" : "languages[\(i)]"
            switch font(tag) {
            case .font(let file, let family):
                parts.append("\(tag) \(family) (\(relative(file, to: baseDirectory)))")
                drawn.append(tag)
            case .none:
                fails(key, "no installed font covers \"\(tag)\"; name one in \"fonts\"")
            case .notAFont(let file, let why):
                fails(key, "\(relative(file, to: baseDirectory)) is not a font (\(why))")
            case .lacksScript(let file, let family):
                problems.warning(
                    key,
                    "\(relative(file, to: baseDirectory)) (\(family)) has no letters of \"\(tag)\": its words show as boxes"
                )
                parts.append("\(tag) \(family) (\(relative(file, to: baseDirectory)))")
            }
        }
        return ("words: " + parts.joined(separator: ", "), drawn)
    }

    /// `path` relative to `base` when it is inside it.
    public static func relative(_ path: String, to base: String) -> String {
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

/// What `kiosk --check` learns of a text laid out in its font as it is drawn: whether it fits its box, and the
/// bytes of its texture.
public struct TextMeasure: Equatable, Sendable {
    public var fits: Bool
    public var bytes: Int
    public init(fits: Bool, bytes: Int) {
        self.fits = fits
        self.bytes = bytes
    }
}
