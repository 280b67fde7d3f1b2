import EventLog
import ScrollEngine

/// A scene of the manifest, its scroll options and its hotspots.
extension Manifest {
    /// One scene, its problems recorded; nil when it cannot be made at all (no object, no type, no id). A
    /// missing image is recorded and the scene made anyway, so the rest of it is checked too.
    static func parseScene(
        _ value: JSONValue, path: String, baseDirectory: String, languages: [String], problems: ProblemList,
        fileExists: (String) -> Bool, readFile: (String) -> Result<[UInt8], FileReadError>
    ) -> SceneConfig? {
        guard
            let o = problems.attempt({ () throws(ManifestError) in try Object(value, path: path, problems: problems) })
        else { return nil }
        let optionKeys = [
            "bounces", "alwaysBounceHorizontal", "alwaysBounceVertical", "bouncesZoom", "decelerationRate",
            "directionalLockEnabled", "scrollEnabled", "showsHorizontalScrollIndicator", "showsVerticalScrollIndicator",
            "indicatorStyle", "delaysContentTouches", "canCancelContentTouches", "hotspots", "title",
            "description",
        ]
        guard
            let type = problems.attempt({ () throws(ManifestError) -> SceneType in
                guard let typeName = try o.string("type", required: true) else {
                    throw problems.fail("\(path).type", "missing")
                }
                guard let type = SceneType(rawValue: typeName) else {
                    throw problems.fail(
                        "\(path).type", "\"\(typeName)\" is not a scene type (zoom, carousel, scroll, list or video)")
                }
                return type
            })
        else { return nil }
        switch type {
        case .zoom: o.allow(["id", "type", "image", "minZoom", "maxZoom", "doubleTapZoom", "overlays"] + optionKeys)
        case .carousel: o.allow(["id", "type", "pages", "pageControl", "maxZoom", "doubleTapZoom"] + optionKeys)
        case .scroll: o.allow(["id", "type", "image", "axis", "overlays"] + optionKeys)
        case .list: o.allow(["id", "type", "rows", "sectionIndex", "sort"] + optionKeys)
        case .video:
            o.allow(["id", "type", "video", "poster", "loop", "sound", "fit", "captions", "title", "description"])
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
                problems.placeholder(key, "file not found: \(full)\(hint)", missingFile: full)
            }
            return full
        }
        /// An image value: a path, or a path per language (docs/manifest.md); each image's paths by
        /// language (the first language's under "").
        func images(_ key: String, _ v: JSONValue) throws(ManifestError) -> [String: String] {
            let value = try Object.text(v, path: key, languages: languages, problems: problems, noun: "image")
            let first = languages.first ?? ""
            let fallback = resolve(key, value.text(in: first, fallback: first))
            var byLanguage = ["": fallback]
            for tag in languages.dropFirst() {
                let own = value.text(in: tag, fallback: first)
                if own != value.text(in: first, fallback: first) { byLanguage[tag] = resolve("\(key).\(tag)", own) }
            }
            return byLanguage
        }
        var image: String?
        var pages: [String] = []
        var imageSets: [[String: String]] = []
        var captions: [LocalizedText?] = []
        var pageDescriptions: [LocalizedText?] = []
        var pageVideos: [VideoConfig?] = []
        // A page's `id`, which a hotspot's `page` may name (a page inserted before it does not move it).
        var pageIDs: [String: Int] = [:]
        problems.attempt { () throws(ManifestError) in
            if type == .carousel {
                guard case .array(let list)? = o.values["pages"] else {
                    throw problems.fail(
                        "\(path).pages",
                        o.values["pages"] == nil ? "missing (a list of images)" : "expected a list of images")
                }
                if list.isEmpty { problems.error("\(path).pages", "needs at least one image") }
                for (i, v) in list.enumerated() {
                    // A page is an image path, or {"image": path, "caption": text} (docs/manifest.md).
                    var caption: LocalizedText?
                    var description: LocalizedText?
                    var file: [String: String]?
                    var film: VideoConfig?
                    var id: String?
                    switch v {
                    case .string: file = try images("\(path).pages[\(i)]", v)
                    case .object:
                        let page = try Object(v, path: "\(path).pages[\(i)]", problems: problems)
                        page.allow([
                            "id", "image", "caption", "description", "video", "poster", "loop", "sound", "fit",
                            "captions",
                        ])
                        id = try page.string("id")
                        if let id, pageIDs[id] != nil {
                            throw problems.fail("\(path).pages[\(i)].id", "\"\(id)\" is the id of another page")
                        }
                        // A film's page (docs/video.md): its poster is the page's picture.
                        let key = page.values["video"] == nil ? "image" : "poster"
                        if key == "poster", page.values["image"] != nil {
                            throw problems.fail(
                                "\(path).pages[\(i)].image", "a film's page has a poster, not an image")
                        }
                        guard let value = page.values[key] else {
                            throw problems.fail(
                                "\(path).pages[\(i)].\(key)",
                                key == "image" ? "missing" : "missing (a film's page shows its poster until it plays)")
                        }
                        file = try images("\(path).pages[\(i)].\(key)", value)
                        if key == "poster" {
                            film = try Self.film(page, path: "\(path).pages[\(i)]", resolve: resolve)
                            film?.captions = try captionTracks(
                                page, path: "\(path).pages[\(i)]", baseDirectory: baseDirectory, languages: languages,
                                problems: problems, readFile: readFile)
                        }
                        caption =
                            problems.attempt { () throws(ManifestError) in
                                try page.text("caption", languages: languages)
                            } ?? nil
                        description =
                            problems.attempt { () throws(ManifestError) in
                                try page.text("description", languages: languages)
                            } ?? nil
                    default:
                        problems.error("\(path).pages[\(i)]", "expected a path, found \(v.typeName)")
                    }
                    guard let file, let fallback = file[""] else { continue }
                    if let id { pageIDs[id] = pages.count }
                    pages.append(fallback)
                    imageSets.append(file)
                    captions.append(caption)
                    pageDescriptions.append(description)
                    pageVideos.append(film)
                }
            } else if type == .video {
                if let poster = o.values["poster"] {
                    let set = try images("\(path).poster", poster)
                    image = set[""]
                    imageSets = [set]
                }
            } else if type != .list {
                guard let value = o.values["image"] else { throw problems.fail("\(path).image", "missing") }
                let set = try images("\(path).image", value)
                image = set[""]
                imageSets = [set]
            }
        }
        var localizedImages: [String: [String]] = [:]
        for tag in languages where imageSets.contains(where: { $0[tag] != nil }) {
            localizedImages[tag] = imageSets.map { $0[tag] ?? $0[""] ?? "" }
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
                try parseHotspots(
                    o, type: type, pages: pages.count, pageIDs: pageIDs, languages: languages, problems: problems)
            } ?? []
        let pageControl = problems.attempt { () throws(ManifestError) in try o.bool("pageControl") ?? true } ?? true
        let title = problems.attempt { () throws(ManifestError) in try o.text("title", languages: languages) } ?? nil
        let overlays =
            problems.attempt { () throws(ManifestError) in
                try parseOverlays(o, languages: languages, problems: problems)
            } ?? []
        let list =
            type != .list
            ? nil
            : problems.attempt { () throws(ManifestError) -> ListConfig in
                var list = ListConfig(
                    rows: try parseRows(
                        o, path: path, baseDirectory: baseDirectory, languages: languages, problems: problems,
                        fileExists: fileExists, readFile: readFile))
                list.sectionIndex = try o.bool("sectionIndex") ?? false
                switch try o.string("sort") {
                case nil: break
                case "title": list.sortsByTitle = true
                case let other?: throw problems.fail("\(path).sort", "\"\(other)\" is not a sort (only \"title\")")
                }
                return list
            } ?? ListConfig(rows: [])
        var config = SceneConfig(
            id: id, type: type, image: image, pages: pages, pageControl: pageControl, minZoom: minZoom,
            maxZoom: maxZoom, doubleTapZoom: doubleTapZoom, axis: axis, hotspots: hotspots, options: options,
            path: path, title: title, captions: captions.contains { $0 != nil } ? captions : [], overlays: overlays,
            localizedImages: localizedImages)
        config.list = list
        if type == .video {
            config.video = problems.attempt { () throws(ManifestError) -> VideoConfig in
                var video = try film(o, path: path, resolve: resolve)
                video.captions = try captionTracks(
                    o, path: path, baseDirectory: baseDirectory, languages: languages, problems: problems,
                    readFile: readFile)
                return video
            }
        }
        config.description =
            problems.attempt { () throws(ManifestError) in try o.text("description", languages: languages) } ?? nil
        if pageDescriptions.contains(where: { $0 != nil }) { config.pageDescriptions = pageDescriptions }
        if pageVideos.contains(where: { $0 != nil }) { config.pageVideos = pageVideos }
        return config
    }

    /// A list's rows go to scenes that exist, and show hotspots of zoom scenes that have them.
    static func checkRowActions(_ scene: SceneConfig, scenes: [SceneConfig], ids: Set<String>, problems: ProblemList) {
        for row in scene.list?.rows ?? [] {
            func error(_ key: String, _ message: String) {
                problems.add(
                    ManifestError(file: row.file ?? problems.file, path: "\(row.path).\(key)", message: message))
            }
            switch row.action {
            case nil: break
            case .goto(let target)?:
                if let problem = Destination.problem(target, scenes: scenes, ids: ids) { error("goto", problem) }
            case .show(let target, let hotspot)?:
                guard let zoom = scenes.first(where: { $0.id == target }) else {
                    if !ids.contains(target) { error("show", "no scene has the id \"\(target)\"") }
                    continue
                }
                if zoom.type != .zoom {
                    error("show", "\"\(target)\" is a \(zoom.type.rawValue) scene; show needs a zoom scene")
                } else if !zoom.hotspots.contains(where: { $0.id == hotspot }) {
                    error("show", "the scene \"\(target)\" has no hotspot \"\(hotspot)\"")
                }
            }
        }
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
    /// A hotspot's `page` is a carousel page's index (from 0) or its `id` (`pageIDs`).
    static func parseHotspots(
        _ o: Object, type: SceneType, pages: Int, pageIDs: [String: Int] = [:], languages: [String],
        problems: ProblemList
    ) throws(ManifestError) -> [Hotspot] {
        try o.eachObject("hotspots") { (h, i) throws(ManifestError) -> Hotspot in
            let hp = h.path
            h.allow(["id", "rect", "goto", "page", "label", "labelAt", "description"])
            let rect = try h.imageRect("rect")
            let page: Int
            if case .string(let id)? = h.values["page"] {
                guard let n = pageIDs[id] else {
                    throw problems.fail(
                        "\(hp).page",
                        "no page has the id \"\(id)\""
                            + (pageIDs.isEmpty
                                ? " (give the page an \"id\" to name it here)"
                                : " (the pages' ids: \(pageIDs.keys.sorted().joined(separator: ", ")))"))
                }
                page = n
            } else {
                let number = try h.number("page", in: ManifestLimits.any) ?? 0
                guard number == number.rounded(), type != .carousel || (0..<Double(pages)).contains(number) else {
                    throw problems.fail(
                        "\(hp).page",
                        "no page \(JSONValue.short(number)) (the carousel has \(pages), counted from 0; or name a "
                            + "page's \"id\")")
                }
                page = Int(number)
            }
            var labelAt: Point?
            if let at = h.values["labelAt"] {
                guard case .array(let p) = at, p.count == 2, case .number(let lx) = p[0],
                    case .number(let ly) = p[1],
                    ManifestLimits.imagePixels.contains(lx), ManifestLimits.imagePixels.contains(ly)
                else { throw problems.fail("\(hp).labelAt", "expected [x, y] in image pixels") }
                labelAt = Point(x: lx, y: ly)
            }
            return Hotspot(
                id: try h.string("id") ?? String(i), rect: rect,
                goto: try h.string("goto"), page: page, index: i, label: try h.text("label", languages: languages),
                labelAt: labelAt, description: try h.text("description", languages: languages))
        }
    }

    /// A scene's text boxes; one with a mistake is recorded and left out.
    static func parseOverlays(
        _ o: Object, languages: [String], problems: ProblemList
    ) throws(ManifestError) -> [Overlay] {
        try o.eachObject("overlays") { (b, _) throws(ManifestError) -> Overlay in
            let op = b.path
            b.allow(["text", "rect", "size", "color", "align", "description"])
            guard let text = try b.text("text", languages: languages) else {
                throw problems.fail("\(op).text", "missing")
            }
            let rect = try b.imageRect("rect")
            let size = try b.number("size", in: 4...400) ?? 28
            var color = Color(red: 0.125, green: 0.125, blue: 0.125, alpha: 1)
            if let hex = try b.string("color") {
                guard let rgb = parseColor(hex) else {
                    throw problems.fail("\(op).color", "expected a colour like \"#202020\"")
                }
                color = Color(
                    red: Double(rgb.r) / 255, green: Double(rgb.g) / 255, blue: Double(rgb.b) / 255, alpha: 1)
            }
            let alignName = try b.string("align") ?? "start"
            guard let align = TextAlign(rawValue: alignName) else {
                throw problems.fail("\(op).align", "\"\(alignName)\" is not an alignment (start, center or end)")
            }
            return Overlay(
                text: text, rect: rect, size: size, color: color, align: align,
                description: try b.text("description", languages: languages))
        }
    }

    static func parseColor(_ s: String) -> RGB? {
        guard s.count == 7, s.first == "#", let v = UInt32(s.dropFirst(), radix: 16) else { return nil }
        return RGB(r: UInt8(v >> 16 & 0xFF), g: UInt8(v >> 8 & 0xFF), b: UInt8(v & 0xFF))
    }
}
