import EventLog
import ScrollEngine

extension Manifest {
    /// Parses manifest text and stops at its first error. `file` names it in errors; `baseDirectory` resolves
    /// relative paths; `fileExists` is asked about every image and page (the only I/O, injected).
    public static func parse(
        _ text: String, file: String, baseDirectory: String, fileExists: (String) -> Bool
    ) throws(ManifestError) -> Manifest {
        let result = check(text, file: file, baseDirectory: baseDirectory, fileExists: fileExists)
        if let first = result.errors.first { throw first }
        return result.manifest!
    }

    /// Reads manifest text and reports every problem it finds, not just the first: errors (the manifest cannot be
    /// used) and warnings. The manifest is nil when there is an error.
    public static func check(
        _ text: String, file: String, baseDirectory: String, fileExists: (String) -> Bool
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
                problems.error("", "not valid JSON (line \(e.line): \(e.message))")
            }
            return ManifestCheck(manifest: nil, problems: problems.items)
        }
        guard let top = problems.attempt({ () throws(ManifestError) in try Object(root, path: "", problems: problems) })
        else { return ManifestCheck(manifest: nil, problems: problems.items) }
        top.allow([
            "kioskManifest", "home", "idleTimeoutSeconds", "background", "scenes", "homeButton", "calibration",
            "textureBudgetMiB", "blankAfterSeconds", "transition", "transitionMs", "attract", "openingHours",
        ])
        problems.attempt { () throws(ManifestError) in
            let version = try top.number("kioskManifest", in: ManifestLimits.any, required: true)!
            guard version == 1 else {
                throw problems.fail("kioskManifest", "version \(version) is not supported (only 1)")
            }
        }

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
                    value, path: "scenes[\(i)]", baseDirectory: baseDirectory, problems: problems,
                    fileExists: fileExists)
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
                if let target = h.goto, !ids.contains(target) {
                    problems.error("\(scene.path).hotspots[\(h.index)].goto", "no scene has the id \"\(target)\"")
                }
            }
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
        let start = home ?? scenes.first?.id
        if let start {
            warnUnreachable(scenes, from: [start] + (attract??.steps.map(\.scene) ?? []), problems: problems)
        }
        guard problems.errors.isEmpty, let start, let idle, let calibration, let budget, let blank, let homeButton,
            let transition, let transitionMs, let attract, let hours
        else { return ManifestCheck(manifest: nil, problems: problems.items, scenes: scenes, attract: attract ?? nil) }
        let manifest = Manifest(
            home: start, idleTimeoutSeconds: idle, background: background, scenes: scenes, homeButton: homeButton,
            calibration: calibration, baseDirectory: baseDirectory, textureBudgetMiB: budget, blankAfterSeconds: blank,
            transition: transition, transitionMs: transitionMs, attract: attract, openingHours: hours)
        return ManifestCheck(manifest: manifest, problems: problems.items, scenes: scenes, attract: attract)
    }

    /// A scene that no hotspot leads to, that is not home and that the attract loop does not show: a visitor
    /// never sees it (a warning).
    static func warnUnreachable(_ scenes: [SceneConfig], from roots: [String], problems: ProblemList) {
        var reached = Set(roots)
        var queue = roots
        while let id = queue.popLast() {
            for target in scenes.first(where: { $0.id == id })?.hotspots.compactMap(\.goto) ?? []
            where reached.insert(target).inserted {
                queue.append(target)
            }
        }
        for scene in scenes where reached.insert(scene.id).inserted {
            problems.warning(
                scene.path, "scene \"\(scene.id)\": nothing reaches it (it is not home and no hotspot goes to it)")
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

    /// One scene, its problems recorded; nil when it cannot be made at all (no object, no type, no id). A
    /// missing image is recorded and the scene made anyway, so the rest of it is checked too.
    static func parseScene(
        _ value: JSONValue, path: String, baseDirectory: String, problems: ProblemList, fileExists: (String) -> Bool
    ) -> SceneConfig? {
        guard
            let o = problems.attempt({ () throws(ManifestError) in try Object(value, path: path, problems: problems) })
        else { return nil }
        let optionKeys = [
            "bounces", "alwaysBounceHorizontal", "alwaysBounceVertical", "bouncesZoom", "decelerationRate",
            "directionalLockEnabled", "scrollEnabled", "showsHorizontalScrollIndicator", "showsVerticalScrollIndicator",
            "indicatorStyle", "delaysContentTouches", "canCancelContentTouches", "hotspots",
        ]
        guard
            let type = problems.attempt({ () throws(ManifestError) -> SceneType in
                guard let typeName = try o.string("type", required: true) else {
                    throw problems.fail("\(path).type", "missing")
                }
                guard let type = SceneType(rawValue: typeName) else {
                    throw problems.fail(
                        "\(path).type", "\"\(typeName)\" is not a scene type (zoom, carousel or scroll)")
                }
                return type
            })
        else { return nil }
        switch type {
        case .zoom: o.allow(["id", "type", "image", "minZoom", "maxZoom", "doubleTapZoom"] + optionKeys)
        case .carousel: o.allow(["id", "type", "pages", "pageControl", "maxZoom", "doubleTapZoom"] + optionKeys)
        case .scroll: o.allow(["id", "type", "image", "axis"] + optionKeys)
        }
        guard
            let id = problems.attempt({ () throws(ManifestError) -> String in
                let id = try o.string("id", required: true)!
                guard !id.isEmpty, !id.contains("/") else {
                    throw problems.fail("\(path).id", "must be a non-empty name without \"/\"")
                }
                return id
            })
        else { return nil }

        func resolve(_ key: String, _ relative: String) -> String {
            guard !relative.isEmpty, !relative.utf8.contains(0) else {
                problems.error(key, relative.isEmpty ? "names no file (an empty path)" : "contains a NUL character")
                return relative
            }
            let full = relative.hasPrefix("/") ? relative : baseDirectory + "/" + relative
            if !fileExists(full) {
                let hint =
                    full.hasSuffix(".dzi")
                    ? " (a Deep Zoom image: `vips dzsave` makes one; the demo's is made by "
                        + "`swift run -c release kiosk-deepzoom-demo` or ./run.sh)" : ""
                problems.error(key, "file not found: \(full)\(hint)")
            }
            return full
        }
        var image: String?
        var pages: [String] = []
        problems.attempt { () throws(ManifestError) in
            if type == .carousel {
                guard case .array(let list)? = o.values["pages"] else {
                    throw problems.fail(
                        "\(path).pages",
                        o.values["pages"] == nil ? "missing (a list of images)" : "expected a list of images")
                }
                if list.isEmpty { problems.error("\(path).pages", "needs at least one image") }
                for (i, v) in list.enumerated() {
                    guard case .string(let s) = v else {
                        problems.error("\(path).pages[\(i)]", "expected a path, found \(v.typeName)")
                        continue
                    }
                    pages.append(resolve("\(path).pages[\(i)]", s))
                }
            } else {
                image = resolve("\(path).image", try o.string("image", required: true)!)
            }
        }

        var minZoom = ZoomLimit.fit
        var maxZoom: Double?
        var doubleTapZoom: Double?
        var axis = Axis.vertical
        problems.attempt { () throws(ManifestError) in
            switch o.values["minZoom"] {
            case nil, .string("fit")?: break
            case .number(let n)? where ManifestLimits.zoom.contains(n): minZoom = .scale(n)
            case .number(let n)? where n > 0:
                throw problems.fail("\(path).minZoom", ManifestLimits.outside(ManifestLimits.zoom))
            case let v?:
                throw problems.fail("\(path).minZoom", "expected \"fit\" or a positive number, found \(v.typeName)")
            }
        }
        problems.attempt { () throws(ManifestError) in
            maxZoom = try o.number("maxZoom", in: ManifestLimits.zoom)
        }
        problems.attempt { () throws(ManifestError) in
            doubleTapZoom = try o.number("doubleTapZoom", in: ManifestLimits.zoom)
        }
        problems.attempt { () throws(ManifestError) in
            if let a = try o.string("axis") {
                switch a {
                case "vertical": axis = .vertical
                case "horizontal": axis = .horizontal
                default: throw problems.fail("\(path).axis", "\"\(a)\" is not an axis (vertical or horizontal)")
                }
            }
        }
        var options = ScrollOptions()
        problems.attempt { () throws(ManifestError) in options = try parseOptions(o, path: path, problems: problems) }
        let hotspots =
            problems.attempt { () throws(ManifestError) in
                try parseHotspots(o, path: path, type: type, pages: pages.count, problems: problems)
            } ?? []
        let pageControl = problems.attempt { () throws(ManifestError) in try o.bool("pageControl") ?? true } ?? true
        return SceneConfig(
            id: id, type: type, image: image, pages: pages, pageControl: pageControl, minZoom: minZoom,
            maxZoom: maxZoom, doubleTapZoom: doubleTapZoom, axis: axis, hotspots: hotspots, options: options,
            path: path)
    }

    static func parseOptions(_ o: Object, path: String, problems: ProblemList) throws(ManifestError) -> ScrollOptions {
        var options = ScrollOptions()
        options.bounces = try o.bool("bounces") ?? true
        options.alwaysBounceHorizontal = try o.bool("alwaysBounceHorizontal") ?? false
        options.alwaysBounceVertical = try o.bool("alwaysBounceVertical") ?? false
        options.bouncesZoom = try o.bool("bouncesZoom") ?? true
        switch o.values["decelerationRate"] {
        case nil, .string("normal")?: break
        case .string("fast")?: options.decelerationRate = .fast
        case .number(let n)? where n > 0 && n < 1: options.decelerationRate = DecelerationRate(rawValue: n)
        case let v?:
            throw problems.fail(
                "\(path).decelerationRate",
                "expected \"normal\", \"fast\" or a number between 0 and 1, found \(v.typeName)")
        }
        options.directionalLockEnabled = try o.bool("directionalLockEnabled") ?? false
        options.scrollEnabled = try o.bool("scrollEnabled") ?? true
        options.showsHorizontalScrollIndicator = try o.bool("showsHorizontalScrollIndicator") ?? true
        options.showsVerticalScrollIndicator = try o.bool("showsVerticalScrollIndicator") ?? true
        if let style = try o.string("indicatorStyle") {
            guard let s = IndicatorStyle(rawValue: style) else {
                throw problems.fail("\(path).indicatorStyle", "\"\(style)\" is not a style (default, black or white)")
            }
            options.indicatorStyle = s
        }
        options.delaysContentTouches = try o.bool("delaysContentTouches") ?? true
        options.canCancelContentTouches = try o.bool("canCancelContentTouches") ?? true
        return options
    }

    /// A scene's hotspots; one with a mistake is recorded and left out, the others are kept.
    static func parseHotspots(
        _ o: Object, path: String, type: SceneType, pages: Int, problems: ProblemList
    ) throws(ManifestError) -> [Hotspot] {
        guard let hv = o.values["hotspots"] else { return [] }
        guard case .array(let list) = hv else {
            throw problems.fail("\(path).hotspots", "expected a list, found \(hv.typeName)")
        }
        var hotspots: [Hotspot] = []
        for (i, v) in list.enumerated() {
            let hp = "\(path).hotspots[\(i)]"
            let hotspot = problems.attempt { () throws(ManifestError) -> Hotspot in
                let h = try Object(v, path: hp, problems: problems)
                h.allow(["id", "rect", "goto", "page"])
                guard case .array(let r)? = h.values["rect"], r.count == 4,
                    case .number(let x) = r[0], case .number(let y) = r[1], case .number(let w) = r[2],
                    case .number(let hh) = r[3], w > 0, hh > 0,
                    [x, y, w, hh].allSatisfy({ ManifestLimits.imagePixels.contains($0) })
                else {
                    throw problems.fail(
                        "\(hp).rect", "expected [x, y, width, height] in image pixels, with a positive size")
                }
                let number = try h.number("page", in: ManifestLimits.any) ?? 0
                guard number == number.rounded(), type != .carousel || (0..<Double(pages)).contains(number) else {
                    throw problems.fail(
                        "\(hp).page", "no page \(JSONValue.short(number)) (the carousel has \(pages))")
                }
                let page = Int(number)
                return Hotspot(
                    id: try h.string("id") ?? String(i), rect: Rect(x: x, y: y, width: w, height: hh),
                    goto: try h.string("goto"), page: page, index: i)
            }
            if let hotspot { hotspots.append(hotspot) }
        }
        return hotspots
    }

    static func parseColor(_ s: String) -> RGB? {
        guard s.count == 7, s.first == "#", let v = UInt32(s.dropFirst(), radix: 16) else { return nil }
        return RGB(r: UInt8(v >> 16 & 0xFF), g: UInt8(v >> 8 & 0xFF), b: UInt8(v & 0xFF))
    }
}

/// The range of every number the manifest takes, and how an error says it.
enum ManifestLimits {
    /// Any number a JSON value can be that an integer conversion still takes.
    static let any = -1e15...1e15
    /// Timeouts and delays: a week at most.
    static let seconds = 0.0...604_800
    /// 8 MiB to 64 GiB of textures.
    static let textureBudgetMiB = 8.0...65_536
    /// Zoom scales and their multiples: a ten-thousandth to a thousand (a picture's pixel a thousand points wide).
    static let zoom = 0.0001...1000
    /// Coordinates and sizes in image pixels (a Deep Zoom image is at most 16777216 a side).
    static let imagePixels = -1e8...1e8
    /// A touchscreen's raw normalised readings.
    static let calibration = -1000.0...1000

    static func outside(_ range: ClosedRange<Double>) -> String {
        "must be between \(JSONValue.short(range.lowerBound)) and \(JSONValue.short(range.upperBound))"
    }
}

/// A JSON object with typed, path-naming access.
struct Object {
    let values: [String: JSONValue]
    let path: String
    let problems: ProblemList

    init(_ value: JSONValue, path: String, problems: ProblemList) throws(ManifestError) {
        guard case .object(let o) = value else {
            throw problems.fail(path, "expected an object, found \(value.typeName)")
        }
        values = o
        self.path = path
        self.problems = problems
    }

    func key(_ k: String) -> String { path.isEmpty ? k : "\(path).\(k)" }
    func fail(_ k: String, _ message: String) -> ManifestError { problems.fail(key(k), message) }

    /// Unknown keys are errors, each recorded: a typo must not be silently ignored.
    func allow(_ known: [String]) {
        for k in values.keys.sorted() where !known.contains(k) {
            problems.error(key(k), "unknown key (known here: \(known.joined(separator: ", ")))")
        }
    }

    /// A number, within `range` (every number the manifest takes has one: beyond it a value means nothing, and
    /// would overflow what it becomes).
    func number(
        _ k: String, in range: ClosedRange<Double>, required: Bool = false
    ) throws(ManifestError) -> Double? {
        guard let v = values[k] else {
            if required { throw fail(k, "missing") }
            return nil
        }
        guard case .number(let n) = v, n.isFinite else { throw fail(k, "expected a number, found \(v.typeName)") }
        guard range.contains(n) else { throw fail(k, ManifestLimits.outside(range)) }
        return n
    }

    func string(_ k: String, required: Bool = false) throws(ManifestError) -> String? {
        guard let v = values[k] else {
            if required { throw fail(k, "missing") }
            return nil
        }
        guard case .string(let s) = v else { throw fail(k, "expected a string, found \(v.typeName)") }
        return s
    }

    func bool(_ k: String) throws(ManifestError) -> Bool? {
        guard let v = values[k] else { return nil }
        guard case .bool(let b) = v else { throw fail(k, "expected true or false, found \(v.typeName)") }
        return b
    }
}

/// Every problem found in one file, in the order found.
public final class ProblemList {
    public let file: String
    public private(set) var items: [ManifestError] = []
    public init(file: String) { self.file = file }

    public var errors: [ManifestError] { items.filter { !$0.isWarning } }

    public func fail(_ path: String, _ message: String) -> ManifestError {
        ManifestError(file: file, path: path, message: message)
    }
    public func error(_ path: String, _ message: String) { items.append(fail(path, message)) }
    public func warning(_ path: String, _ message: String) {
        items.append(ManifestError(file: file, path: path, message: message, isWarning: true))
    }
    public func add(_ problem: ManifestError) { items.append(problem) }

    /// Runs `body`; what it throws is recorded, and then the result is nil.
    @discardableResult
    public func attempt<T>(_ body: () throws(ManifestError) -> T) -> T? {
        do { return try body() } catch {
            items.append(error)
            return nil
        }
    }
}
