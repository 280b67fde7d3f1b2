import EventLog
import ScrollEngine

extension Manifest {
    /// Parses manifest text. `file` names it in errors; `baseDirectory` resolves relative paths;
    /// `fileExists` is asked about every image and page (the only I/O, injected).
    public static func parse(
        _ text: String, file: String, baseDirectory: String, fileExists: (String) -> Bool
    ) throws(ManifestError) -> Manifest {
        func fail(_ path: String, _ message: String) -> ManifestError {
            ManifestError(file: file, path: path, message: message)
        }
        guard let root = JSONValue.parse(Substring(text)) else {
            throw fail("", text.isEmpty ? "the file is empty" : "not valid JSON")
        }
        let top = try Object(root, path: "", fail: fail)
        try top.allow([
            "kioskManifest", "home", "idleTimeoutSeconds", "background", "scenes", "homeButton", "calibration",
            "textureBudgetMiB", "blankAfterSeconds",
        ])
        let version = try top.number("kioskManifest", required: true)!
        guard version == 1 else { throw fail("kioskManifest", "version \(version) is not supported (only 1)") }

        guard case .array(let sceneValues)? = top.values["scenes"] else {
            throw fail(
                "scenes", top.values["scenes"] == nil ? "missing (a list of scenes)" : "expected a list of scenes")
        }
        guard !sceneValues.isEmpty else { throw fail("scenes", "needs at least one scene") }
        var scenes: [SceneConfig] = []
        for (i, value) in sceneValues.enumerated() {
            let scene = try parseScene(
                value, path: "scenes[\(i)]", baseDirectory: baseDirectory, fail: fail, fileExists: fileExists)
            if scenes.contains(where: { $0.id == scene.id }) {
                throw fail("scenes[\(i)].id", "\"\(scene.id)\" is used by another scene")
            }
            scenes.append(scene)
        }
        let ids = Set(scenes.map(\.id))
        for (i, scene) in scenes.enumerated() {
            for (j, h) in scene.hotspots.enumerated() {
                if let target = h.goto, !ids.contains(target) {
                    throw fail("scenes[\(i)].hotspots[\(j)].goto", "no scene has the id \"\(target)\"")
                }
            }
        }
        let home = try top.string("home") ?? scenes[0].id
        guard ids.contains(home) else { throw fail("home", "no scene has the id \"\(home)\"") }
        let idle = try top.number("idleTimeoutSeconds") ?? 120
        guard idle >= 0 else { throw fail("idleTimeoutSeconds", "must be 0 (never) or more") }
        var background = RGB(r: 0x10, g: 0x10, b: 0x14)
        if let hex = try top.string("background") {
            guard let rgb = parseColor(hex) else { throw fail("background", "expected a colour like \"#101014\"") }
            background = rgb
        }
        var calibration = Calibration()
        if let c = top.values["calibration"] {
            let o = try Object(c, path: "calibration", fail: fail)
            try o.allow(["swapAxes", "invertX", "invertY", "minX", "maxX", "minY", "maxY", "matrix"])
            if let m = o.values["matrix"] {
                guard case .array(let items) = m, items.count == 6,
                    let matrix = AffineMatrix(items.compactMap { if case .number(let n) = $0 { n } else { nil } })
                else { throw fail("calibration.matrix", "expected [a, b, c, d, e, f]: six numbers") }
                if let problem = matrix.problem { throw fail("calibration.matrix", problem) }
                guard o.values.count == 1 else {
                    throw fail("calibration.matrix", "a matrix stands alone: the per-axis keys cannot be beside it")
                }
                calibration.matrix = matrix
            }
            calibration.swapAxes = try o.bool("swapAxes") ?? false
            calibration.invertX = try o.bool("invertX") ?? false
            calibration.invertY = try o.bool("invertY") ?? false
            calibration.minX = try o.number("minX") ?? 0
            calibration.maxX = try o.number("maxX") ?? 1
            calibration.minY = try o.number("minY") ?? 0
            calibration.maxY = try o.number("maxY") ?? 1
            guard calibration.minX != calibration.maxX else { throw fail("calibration.maxX", "must differ from minX") }
            guard calibration.minY != calibration.maxY else { throw fail("calibration.maxY", "must differ from minY") }
        }
        let budget = try top.number("textureBudgetMiB") ?? 128
        guard budget >= 8 else { throw fail("textureBudgetMiB", "must be at least 8") }
        let blank = try top.number("blankAfterSeconds") ?? 0
        guard blank >= 0 else { throw fail("blankAfterSeconds", "must be 0 (never) or more") }
        return Manifest(
            home: home, idleTimeoutSeconds: idle, background: background, scenes: scenes,
            homeButton: try top.bool("homeButton") ?? true, calibration: calibration, baseDirectory: baseDirectory,
            textureBudgetMiB: budget, blankAfterSeconds: blank)
    }

    static func parseScene(
        _ value: JSONValue, path: String, baseDirectory: String, fail: @escaping (String, String) -> ManifestError,
        fileExists: (String) -> Bool
    ) throws(ManifestError) -> SceneConfig {
        let o = try Object(value, path: path, fail: fail)
        let optionKeys = [
            "bounces", "alwaysBounceHorizontal", "alwaysBounceVertical", "bouncesZoom", "decelerationRate",
            "directionalLockEnabled", "scrollEnabled", "showsHorizontalScrollIndicator", "showsVerticalScrollIndicator",
            "indicatorStyle", "delaysContentTouches", "canCancelContentTouches", "hotspots",
        ]
        guard let typeName = try o.string("type", required: true) else { throw fail("\(path).type", "missing") }
        guard let type = SceneType(rawValue: typeName) else {
            throw fail("\(path).type", "\"\(typeName)\" is not a scene type (zoom, carousel or scroll)")
        }
        switch type {
        case .zoom: try o.allow(["id", "type", "image", "minZoom", "maxZoom", "doubleTapZoom"] + optionKeys)
        case .carousel: try o.allow(["id", "type", "pages", "pageControl", "maxZoom", "doubleTapZoom"] + optionKeys)
        case .scroll: try o.allow(["id", "type", "image", "axis"] + optionKeys)
        }
        let id = try o.string("id", required: true)!
        guard !id.isEmpty, !id.contains("/") else { throw fail("\(path).id", "must be a non-empty name without \"/\"") }

        func resolve(_ key: String, _ relative: String) throws(ManifestError) -> String {
            let full = relative.hasPrefix("/") ? relative : baseDirectory + "/" + relative
            guard fileExists(full) else {
                let hint =
                    full.hasSuffix(".dzi")
                    ? " (a Deep Zoom image: `vips dzsave` makes one; the demo's is made by "
                        + "`swift run -c release kiosk-deepzoom-demo` or ./run.sh)" : ""
                throw fail(key, "file not found: \(full)\(hint)")
            }
            return full
        }
        var image: String?
        var pages: [String] = []
        if type == .carousel {
            guard case .array(let list)? = o.values["pages"] else {
                throw fail(
                    "\(path).pages",
                    o.values["pages"] == nil ? "missing (a list of images)" : "expected a list of images")
            }
            guard !list.isEmpty else { throw fail("\(path).pages", "needs at least one image") }
            for (i, v) in list.enumerated() {
                guard case .string(let s) = v else {
                    throw fail("\(path).pages[\(i)]", "expected a path, found \(v.typeName)")
                }
                pages.append(try resolve("\(path).pages[\(i)]", s))
            }
        } else {
            image = try resolve("\(path).image", try o.string("image", required: true)!)
        }

        var minZoom = ZoomLimit.fit
        switch o.values["minZoom"] {
        case nil, .string("fit")?: break
        case .number(let n)? where n > 0 && n.isFinite: minZoom = .scale(n)
        case let v?: throw fail("\(path).minZoom", "expected \"fit\" or a positive number, found \(v.typeName)")
        }
        let maxZoom = try o.number("maxZoom")
        if let m = maxZoom, m <= 0 { throw fail("\(path).maxZoom", "must be positive") }
        let doubleTapZoom = try o.number("doubleTapZoom")
        if let d = doubleTapZoom, d <= 0 { throw fail("\(path).doubleTapZoom", "must be positive") }
        var axis = Axis.vertical
        if let a = try o.string("axis") {
            switch a {
            case "vertical": axis = .vertical
            case "horizontal": axis = .horizontal
            default: throw fail("\(path).axis", "\"\(a)\" is not an axis (vertical or horizontal)")
            }
        }

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
            throw fail(
                "\(path).decelerationRate",
                "expected \"normal\", \"fast\" or a number between 0 and 1, found \(v.typeName)")
        }
        options.directionalLockEnabled = try o.bool("directionalLockEnabled") ?? false
        options.scrollEnabled = try o.bool("scrollEnabled") ?? true
        options.showsHorizontalScrollIndicator = try o.bool("showsHorizontalScrollIndicator") ?? true
        options.showsVerticalScrollIndicator = try o.bool("showsVerticalScrollIndicator") ?? true
        if let style = try o.string("indicatorStyle") {
            guard let s = IndicatorStyle(rawValue: style) else {
                throw fail("\(path).indicatorStyle", "\"\(style)\" is not a style (default, black or white)")
            }
            options.indicatorStyle = s
        }
        options.delaysContentTouches = try o.bool("delaysContentTouches") ?? true
        options.canCancelContentTouches = try o.bool("canCancelContentTouches") ?? true

        var hotspots: [Hotspot] = []
        if let hv = o.values["hotspots"] {
            guard case .array(let list) = hv else {
                throw fail("\(path).hotspots", "expected a list, found \(hv.typeName)")
            }
            for (i, v) in list.enumerated() {
                let hp = "\(path).hotspots[\(i)]"
                let h = try Object(v, path: hp, fail: fail)
                try h.allow(["id", "rect", "goto", "page"])
                guard case .array(let r)? = h.values["rect"], r.count == 4,
                    case .number(let x) = r[0], case .number(let y) = r[1], case .number(let w) = r[2],
                    case .number(let hh) = r[3], w > 0, hh > 0
                else {
                    throw fail("\(hp).rect", "expected [x, y, width, height] in image pixels, with a positive size")
                }
                let page = Int(try h.number("page") ?? 0)
                if type == .carousel, page < 0 || page >= pages.count {
                    throw fail("\(hp).page", "no page \(page) (the carousel has \(pages.count))")
                }
                hotspots.append(
                    Hotspot(
                        id: try h.string("id") ?? String(i), rect: Rect(x: x, y: y, width: w, height: hh),
                        goto: try h.string("goto"), page: page))
            }
        }
        return SceneConfig(
            id: id, type: type, image: image, pages: pages, pageControl: try o.bool("pageControl") ?? true,
            minZoom: minZoom, maxZoom: maxZoom, doubleTapZoom: doubleTapZoom, axis: axis, hotspots: hotspots,
            options: options)
    }

    static func parseColor(_ s: String) -> RGB? {
        guard s.count == 7, s.first == "#", let v = UInt32(s.dropFirst(), radix: 16) else { return nil }
        return RGB(r: UInt8(v >> 16 & 0xFF), g: UInt8(v >> 8 & 0xFF), b: UInt8(v & 0xFF))
    }
}

/// A JSON object with typed, path-naming access.
struct Object {
    let values: [String: JSONValue]
    let path: String
    let fail: (String, String) -> ManifestError

    init(_ value: JSONValue, path: String, fail: @escaping (String, String) -> ManifestError) throws(ManifestError) {
        guard case .object(let o) = value else {
            throw fail(path, "expected an object, found \(value.typeName)")
        }
        values = o
        self.path = path
        self.fail = fail
    }

    func key(_ k: String) -> String { path.isEmpty ? k : "\(path).\(k)" }

    /// Unknown keys are an error: a typo must not be silently ignored.
    func allow(_ known: [String]) throws(ManifestError) {
        for k in values.keys.sorted() where !known.contains(k) {
            throw fail(key(k), "unknown key (known here: \(known.joined(separator: ", ")))")
        }
    }

    func number(_ k: String, required: Bool = false) throws(ManifestError) -> Double? {
        guard let v = values[k] else {
            if required { throw fail(key(k), "missing") }
            return nil
        }
        guard case .number(let n) = v, n.isFinite else { throw fail(key(k), "expected a number, found \(v.typeName)") }
        return n
    }

    func string(_ k: String, required: Bool = false) throws(ManifestError) -> String? {
        guard let v = values[k] else {
            if required { throw fail(key(k), "missing") }
            return nil
        }
        guard case .string(let s) = v else { throw fail(key(k), "expected a string, found \(v.typeName)") }
        return s
    }

    func bool(_ k: String) throws(ManifestError) -> Bool? {
        guard let v = values[k] else { return nil }
        guard case .bool(let b) = v else { throw fail(key(k), "expected true or false, found \(v.typeName)") }
        return b
    }
}
