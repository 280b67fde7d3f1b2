import EventLog
import ScrollEngine

extension Manifest {
    /// Parses manifest text and stops at its first error. `file` names it in errors; `baseDirectory` resolves
    /// relative paths; `fileExists` is asked about every image and page (the only I/O, injected).
    public static func parse(
        _ text: String, file: String, baseDirectory: String, fileExists: (String) -> Bool,
        readFile: (String) -> Result<[UInt8], FileReadError> = { _ in .failure(FileReadError("no reader")) }
    ) throws(ManifestError) -> Manifest {
        let result = check(
            text, file: file, baseDirectory: baseDirectory, fileExists: fileExists, readFile: readFile)
        if let first = result.errors.first { throw first }
        return result.manifest!
    }

    /// Reads manifest text and reports every problem it finds, not just the first: errors (the manifest cannot be
    /// used) and warnings. The manifest is nil when there is an error.
    /// `readFile` reads a file the manifest names (a list's rows).
    static func check(
        _ text: String, file: String, baseDirectory: String, fileExists: (String) -> Bool,
        readFile: (String) -> Result<[UInt8], FileReadError> = { _ in .failure(FileReadError("no reader")) }
    ) -> ManifestCheck {
        let problems = ProblemList(file: file)
        let root: JSONValue
        switch JSONValue.parseStrictly(Substring(text)) {
        case .success(let v): root = v
        case .failure(let e):
            if text.isEmpty {
                problems.error("", "the file is empty")
            } else if e.isDuplicateKey {
                problems.error(e.path, "given twice (line \(e.line)); a key may appear once")
            } else {
                problems.error("", "not valid JSON (\(e.description))")
            }
            return ManifestCheck(manifest: nil, problems: problems.items)
        }
        guard let top = problems.attempt({ () throws(ManifestError) in try Object(root, path: "", problems: problems) })
        else { return ManifestCheck(manifest: nil, problems: problems.items) }
        top.allow([
            "kioskManifest", "home", "idleTimeoutSeconds", "background", "scenes", "homeButton", "calibration",
            "textureBudgetMiB", "blankAfterSeconds", "transition", "transitionMs", "attract", "openingHours",
            "languages", "fonts", "stillThere", "metricsSeconds", "schedule", "attractSets", "accessibility",
        ])
        problems.attempt { () throws(ManifestError) in
            let version = try top.number("kioskManifest", in: ManifestLimits.any, required: true)!
            guard version == 1 else {
                throw problems.fail("kioskManifest", "version \(version) is not supported (only 1)")
            }
        }

        let languages = problems.attempt { () throws(ManifestError) in try parseLanguages(top, problems) } ?? []
        let fonts =
            problems.attempt { () throws(ManifestError) in
                try parseFonts(
                    top, languages: languages, baseDirectory: baseDirectory, problems, fileExists: fileExists)
            } ?? [:]
        var scenes: [SceneConfig] = []
        /// Every id a scene claims, parsed or not: a goto to a scene with a mistake of its own is not a second one.
        var ids = Set<String>()
        if case .array(let sceneValues)? = top.values["scenes"] {
            if sceneValues.isEmpty { problems.error("scenes", "needs at least one scene") }
            for (i, value) in sceneValues.enumerated() {
                if case .object(let o) = value, case .string(let id)? = o["id"] {
                    if ids.contains(id) { problems.error("scenes[\(i)].id", "\"\(id)\" is used by another scene") }
                    ids.insert(id)
                }
                if let scene = parseScene(
                    value, path: "scenes[\(i)]", baseDirectory: baseDirectory, languages: languages,
                    problems: problems, fileExists: fileExists, readFile: readFile)
                {
                    scenes.append(scene)
                }
            }
        } else {
            problems.error(
                "scenes", top.values["scenes"] == nil ? "missing (a list of scenes)" : "expected a list of scenes")
        }
        for scene in scenes {
            for h in scene.hotspots {
                if let target = h.goto, let problem = Destination.problem(target, scenes: scenes, ids: ids) {
                    problems.error("\(scene.path).hotspots[\(h.index)].goto", problem)
                }
            }
            checkRowActions(scene, scenes: scenes, ids: ids, problems: problems)
        }
        let home = problems.attempt { () throws(ManifestError) in try top.string("home") } ?? nil
        if let home, !ids.contains(home) { problems.error("home", "no scene has the id \"\(home)\"") }
        let idle = problems.attempt { () throws(ManifestError) in
            let idle = try top.number("idleTimeoutSeconds", in: ManifestLimits.seconds) ?? 120
            guard idle >= 0 else { throw problems.fail("idleTimeoutSeconds", "must be 0 (never) or more") }
            return idle
        }
        var background = RGB(r: 0x10, g: 0x10, b: 0x14)
        problems.attempt { () throws(ManifestError) in
            if let hex = try top.string("background") {
                guard let rgb = parseColor(hex) else {
                    throw problems.fail("background", "expected a colour like \"#101014\"")
                }
                background = rgb
            }
        }
        let calibration = problems.attempt { () throws(ManifestError) in try parseCalibration(top, problems) }
        let budget = problems.attempt { () throws(ManifestError) in
            let budget = try top.number("textureBudgetMiB", in: ManifestLimits.textureBudgetMiB) ?? 128
            return budget
        }
        let blank = problems.attempt { () throws(ManifestError) in
            let blank = try top.number("blankAfterSeconds", in: ManifestLimits.seconds) ?? 0
            guard blank >= 0 else { throw problems.fail("blankAfterSeconds", "must be 0 (never) or more") }
            return blank
        }
        let homeButton = problems.attempt { () throws(ManifestError) in try top.bool("homeButton") ?? true }
        let transition = problems.attempt { () throws(ManifestError) -> TransitionStyle in
            guard let name = try top.string("transition") else { return .fade }
            guard let style = TransitionStyle(rawValue: name) else {
                throw problems.fail("transition", "\"\(name)\" is not a transition (fade, zoom or none)")
            }
            return style
        }
        let transitionMs = problems.attempt { () throws(ManifestError) -> Double in
            let ms = try top.number("transitionMs", in: 0...5000) ?? 300
            return ms
        }
        let attract = problems.attempt { () throws(ManifestError) -> Attract? in
            try top.values["attract"].map { (v) throws(ManifestError) in try Attract.parse(v, problems: problems) }
        }
        attract??.check(scenes, problems: problems)
        let hours = problems.attempt { () throws(ManifestError) -> OpeningHours? in
            try top.values["openingHours"].map { (v) throws(ManifestError) in
                try OpeningHours.parse(v, path: "openingHours", problems: problems)
            }
        }
        let attractSets = parseAttractSets(top, scenes: scenes, problems: problems)
        let schedule = problems.attempt { () throws(ManifestError) -> Schedule? in
            try top.values["schedule"].map { (v) throws(ManifestError) in try Schedule.parse(v, problems: problems) }
        }
        schedule??.check(scenes: ids, attractSets: Set(attractSets.keys), problems: problems)
        // The attract loops' films: video scenes of their own, checked as any (errors name the step's fields).
        for loop in [attract ?? nil] + attractSets.keys.sorted().map({ attractSets[$0] }) {
            for (path, value) in loop?.filmScenes ?? [] {
                if let scene = parseScene(
                    value, path: path, baseDirectory: baseDirectory, languages: languages, problems: problems,
                    fileExists: fileExists, readFile: readFile)
                {
                    scenes.append(scene)
                }
            }
        }
        let stillThere =
            problems.attempt { () throws(ManifestError) -> Double in
                guard let v = top.values["stillThere"] else { return 0 }
                let o = try Object(v, path: "stillThere", problems: problems)
                o.allow(["seconds"])
                let seconds = try o.number("seconds", in: 1...600, required: true)!
                if let idle, idle > 0, seconds >= idle {
                    problems.warning(
                        "stillThere.seconds",
                        "not less than idleTimeoutSeconds (\(JSONValue.short(idle))): asked at the first frame without a touch"
                    )
                }
                return seconds
            } ?? 0
        let metricsSeconds =
            problems.attempt { () throws(ManifestError) in try top.number("metricsSeconds", in: 1...3600) ?? 15 }
            ?? 15
        let accessibility =
            problems.attempt { () throws(ManifestError) in
                try parseAccessibility(top, languages: languages, problems: problems)
            } ?? AccessibilityConfig()
        warnUnspoken(scenes, problems: problems)
        let start = home ?? scenes.first?.id
        if let start {
            let scheduled = (schedule??.entries ?? []).compactMap(\.choice.home)
            let shown = ([attract ?? nil] + attractSets.values.map { $0 }).flatMap { $0?.steps.map(\.scene) ?? [] }
            warnUnreachable(scenes, from: [start] + scheduled + shown, problems: problems)
        }
        guard problems.errors.allSatisfy(\.showsPlaceholder), let start, let idle, let calibration, let budget,
            let blank, let homeButton,
            let transition, let transitionMs, let attract, let hours
        else { return ManifestCheck(manifest: nil, problems: problems.items, scenes: scenes, attract: attract ?? nil) }
        var manifest = Manifest(
            home: start, idleTimeoutSeconds: idle, background: background, scenes: scenes, homeButton: homeButton,
            calibration: calibration, baseDirectory: baseDirectory, textureBudgetMiB: budget, blankAfterSeconds: blank,
            transition: transition, transitionMs: transitionMs, attract: attract, openingHours: hours,
            languages: languages, fonts: fonts, stillThereSeconds: stillThere)
        manifest.metricsSeconds = metricsSeconds
        manifest.accessibility = accessibility
        manifest.schedule = schedule ?? nil
        manifest.attractSets = attractSets
        manifest.contentHash = fnv1a(text)
        return ManifestCheck(
            manifest: problems.errors.isEmpty ? manifest : nil, withPlaceholders: manifest, problems: problems.items,
            scenes: scenes, attract: attract)
    }

    /// `attractSets`: attract loops by name, each as `attract` is written and checked.
    static func parseAttractSets(_ top: Object, scenes: [SceneConfig], problems: ProblemList) -> [String: Attract] {
        guard let v = top.values["attractSets"] else { return [:] }
        guard
            let o = problems.attempt({ () throws(ManifestError) in
                try Object(v, path: "attractSets", problems: problems)
            })
        else { return [:] }
        var sets: [String: Attract] = [:]
        for name in o.values.keys.sorted() {
            guard let value = o.values[name] else { continue }
            let set = problems.attempt { () throws(ManifestError) in
                try Attract.parse(value, path: "attractSets.\(name)", problems: problems)
            }
            guard let set else { continue }
            set.check(scenes, problems: problems)
            sets[name] = set
        }
        return sets
    }

    /// `languages`: distinct, well-formed tags, the first the default.
    static func parseLanguages(_ top: Object, _ problems: ProblemList) throws(ManifestError) -> [String] {
        guard let v = top.values["languages"] else { return [] }
        guard case .array(let list) = v, !list.isEmpty else {
            throw problems.fail("languages", "expected a list of language tags (like [\"en\", \"de\"])")
        }
        var tags: [String] = []
        for (i, item) in list.enumerated() {
            guard case .string(let tag) = item, Languages.isWellFormed(tag) else {
                throw problems.fail("languages[\(i)]", "expected a language tag (like \"en\" or \"de-CH\")")
            }
            // Tags are case-insensitive (BCP 47): "EN" beside "en" is the same language twice, not a fourth.
            if let same = tags.first(where: { $0.lowercased() == tag.lowercased() }) {
                let how = same == tag ? "" : " (as \"\(same)\": language tags are case-insensitive)"
                throw problems.fail("languages[\(i)]", "\"\(tag)\" is listed twice\(how)")
            }
            tags.append(tag)
        }
        return tags
    }

    /// `fonts`: font files by language (one of `languages`) or `default`, relative to the manifest.
    static func parseFonts(
        _ top: Object, languages: [String], baseDirectory: String, _ problems: ProblemList,
        fileExists: (String) -> Bool
    ) throws(ManifestError) -> [String: String] {
        guard let v = top.values["fonts"] else { return [:] }
        let o = try Object(v, path: "fonts", problems: problems)
        var fonts: [String: String] = [:]
        for key in o.values.keys.sorted() {
            guard key == "default" || languages.contains(key) else {
                problems.error(
                    "fonts.\(key)", "\"\(key)\" is neither \"default\" nor one of the manifest's languages")
                continue
            }
            guard let relative = try o.string(key), !relative.isEmpty, !relative.utf8.contains(0) else {
                problems.error("fonts.\(key)", "expected the path of a font file")
                continue
            }
            let full = relative.hasPrefix("/") ? relative : baseDirectory + "/" + relative
            if !fileExists(full) { problems.error("fonts.\(key)", "file not found: \(full)") }
            fonts[key] = full
        }
        return fonts
    }

    /// A scene that no hotspot or list row leads to, that is not home and that the attract loop does not show: a
    /// visitor never sees it (a warning).
    static func warnUnreachable(_ scenes: [SceneConfig], from roots: [String], problems: ProblemList) {
        var reached = Set(roots)
        var queue = roots
        let ids = Set(scenes.map(\.id))
        while let id = queue.popLast() {
            for goto in scenes.first(where: { $0.id == id })?.targets ?? [] {
                let target = Destination(goto, sceneIDs: ids).scene
                if reached.insert(target).inserted { queue.append(target) }
            }
        }
        for scene in scenes where reached.insert(scene.id).inserted {
            problems.warning(
                scene.path,
                "scene \"\(scene.id)\": nothing reaches it (it is not home and no hotspot or row goes to it)")
        }
    }

    static func parseCalibration(_ top: Object, _ problems: ProblemList) throws(ManifestError) -> Calibration {
        var calibration = Calibration()
        guard let c = top.values["calibration"] else { return calibration }
        let o = try Object(c, path: "calibration", problems: problems)
        o.allow(["swapAxes", "invertX", "invertY", "minX", "maxX", "minY", "maxY", "matrix"])
        if let m = o.values["matrix"] {
            guard case .array(let items) = m, items.count == 6,
                let matrix = AffineMatrix(items.compactMap { if case .number(let n) = $0 { n } else { nil } })
            else { throw problems.fail("calibration.matrix", "expected [a, b, c, d, e, f]: six numbers") }
            if let problem = matrix.problem { throw problems.fail("calibration.matrix", problem) }
            guard o.values.count == 1 else {
                throw problems.fail(
                    "calibration.matrix", "a matrix stands alone: the per-axis keys cannot be beside it")
            }
            calibration.matrix = matrix
        }
        calibration.swapAxes = try o.bool("swapAxes") ?? false
        calibration.invertX = try o.bool("invertX") ?? false
        calibration.invertY = try o.bool("invertY") ?? false
        calibration.minX = try o.number("minX", in: ManifestLimits.calibration) ?? 0
        calibration.maxX = try o.number("maxX", in: ManifestLimits.calibration) ?? 1
        calibration.minY = try o.number("minY", in: ManifestLimits.calibration) ?? 0
        calibration.maxY = try o.number("maxY", in: ManifestLimits.calibration) ?? 1
        guard calibration.minX != calibration.maxX else {
            throw problems.fail("calibration.maxX", "must differ from minX")
        }
        guard calibration.minY != calibration.maxY else {
            throw problems.fail("calibration.maxY", "must differ from minY")
        }
        return calibration
    }
}
