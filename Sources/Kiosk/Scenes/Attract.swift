import EventLog
import ScrollEngine

/// How a scene change looks (docs/manifest.md, `transition`).
public enum TransitionStyle: String, Equatable, Sendable {
    case fade, zoom, none
}

/// The attract loop (docs/manifest.md, `attract`): after `afterSeconds` without a touch (from the idle reset), its
/// steps play in a loop until a touch.
public struct Attract: Equatable, Sendable {
    public struct View: Equatable, Sendable {
        /// Image pixels.
        public var center: Point
        /// In `minZoom`'s unit: a zoom scene's scale (image pixels per point), relative to the fitted size when
        /// `minZoom` is "fit"… as the manifest's zoom keys are.
        public var zoom: Double
    }

    public struct Step: Equatable, Sendable {
        public var scene: String
        public var seconds: Double
        public var from: View?
        public var to: View?
        public var advanceEverySeconds: Double?
        /// Its JSON path, for messages.
        public var path: String
        /// A film step (`{"video": …}`): its film is a video scene of its own, made by the manifest's parser with
        /// the step's path as its id (`film` holds the step's keys for it); without `seconds` the step lasts until
        /// the film ends.
        public var film: [String: JSONValue]?
        public var untilFilmEnds = false
    }

    /// How long a film step without `seconds` lasts at most, should its film never say it ended.
    static let longestFilmSeconds = 600.0
    /// The least a step lasts and a carousel's page stays, in seconds, a film's step included whose film fails or
    /// ends at once.
    static let shortestStepSeconds = 1.0
    /// The keys of a film step that are its film's (as a video scene's).
    static let filmKeys = ["video", "poster", "fit", "sound", "captions"]

    public var afterSeconds: Double
    public var steps: [Step]

    /// `attract` (or an attract set, `attractSets.NAME`, at `path`).
    static func parse(_ value: JSONValue, path root: String = "attract", problems: ProblemList) throws(ManifestError)
        -> Attract
    {
        let o = try Object(value, path: root, problems: problems)
        o.allow(["afterSeconds", "steps"])
        let after = try o.number("afterSeconds", in: ManifestLimits.seconds, required: true)!
        guard after > 0 else { throw problems.fail("\(root).afterSeconds", "must be more than 0") }
        guard case .array(let list)? = o.values["steps"], !list.isEmpty else {
            throw problems.fail("\(root).steps", "expected a list of one step or more")
        }
        var steps: [Step] = []
        for (i, v) in list.enumerated() {
            let path = "\(root).steps[\(i)]"
            let step = problems.attempt { () throws(ManifestError) -> Step in
                let s = try Object(v, path: path, problems: problems)
                s.allow(["scene", "seconds", "from", "to", "advanceEverySeconds"] + filmKeys)
                let film = s.values["video"] != nil
                if film && s.values["scene"] != nil {
                    throw problems.fail(path, "a step shows a scene or a video, not both")
                }
                let scene = film ? path : try s.string("scene", required: true)!
                let seconds =
                    try s.number("seconds", in: ManifestLimits.seconds, required: !film) ?? Self.longestFilmSeconds
                guard seconds > 0 else { throw problems.fail("\(path).seconds", "must be more than 0") }
                guard seconds >= Self.shortestStepSeconds else {
                    throw problems.fail(
                        "\(path).seconds",
                        "must be at least \(Int(Self.shortestStepSeconds)) s (a shorter step only flickers)")
                }
                func view(_ key: String) throws(ManifestError) -> View? {
                    guard let v = s.values[key] else { return nil }
                    let o = try Object(v, path: "\(path).\(key)", problems: problems)
                    o.allow(["center", "zoom"])
                    guard case .array(let c)? = o.values["center"], c.count == 2, case .number(let x) = c[0],
                        case .number(let y) = c[1], ManifestLimits.imagePixels.contains(x),
                        ManifestLimits.imagePixels.contains(y)
                    else { throw problems.fail("\(path).\(key).center", "expected [x, y] in image pixels") }
                    let zoom = try o.number("zoom", in: ManifestLimits.zoom) ?? 1
                    return View(center: Point(x: x, y: y), zoom: zoom)
                }
                let every = try s.number("advanceEverySeconds", in: ManifestLimits.seconds)
                if let every, every <= 0 {
                    throw problems.fail("\(path).advanceEverySeconds", "must be more than 0")
                }
                if let every, every < Self.shortestStepSeconds {
                    throw problems.fail(
                        "\(path).advanceEverySeconds",
                        "must be at least \(Int(Self.shortestStepSeconds)) s (a page turn takes a third of one; faster "
                            + "is a page turned every frame)")
                }
                var step = Step(
                    scene: scene, seconds: seconds, from: try view("from"), to: try view("to"),
                    advanceEverySeconds: every, path: path)
                if film {
                    if step.from != nil || step.to != nil || every != nil {
                        throw problems.fail(
                            path, "a video step plays its film; from, to and advanceEverySeconds are for scenes")
                    }
                    step.film = s.values.filter { Self.filmKeys.contains($0.key) }
                    step.untilFilmEnds = s.values["seconds"] == nil
                }
                return step
            }
            if let step { steps.append(step) }
        }
        return Attract(afterSeconds: after, steps: steps)
    }

    /// Its film steps' films, as the video scenes that play them (`id`: the step's path; a step with `seconds`
    /// loops its film for them, one without plays it once).
    var filmScenes: [(path: String, value: JSONValue)] {
        steps.compactMap { step in
            guard var keys = step.film else { return nil }
            keys["id"] = .string(step.path)
            keys["type"] = .string("video")
            keys["loop"] = .bool(!step.untilFilmEnds)
            return (step.path, .object(keys))
        }
    }

    /// The checks that need the scenes: each step's scene exists, and its keys suit the scene's type.
    func check(_ scenes: [SceneConfig], problems: ProblemList) {
        for step in steps where step.film == nil {
            guard let scene = scenes.first(where: { $0.id == step.scene }) else {
                problems.error("\(step.path).scene", "no scene has the id \"\(step.scene)\"")
                continue
            }
            if scene.type == .carousel && (step.from != nil || step.to != nil) {
                problems.error(
                    "\(step.path)", "a carousel pages (advanceEverySeconds); from and to are for zoom and scroll scenes"
                )
            }
            if scene.type != .carousel && step.advanceEverySeconds != nil {
                problems.error(
                    "\(step.path).advanceEverySeconds",
                    "only a carousel pages; \"\(scene.id)\" is a \(scene.type.rawValue) scene")
            }
        }
    }

    /// A step's `from` or `to` outside its image (the size as `inspect` found it) is an error.
    func check(image: (String) -> (width: Int, height: Int)?, scenes: [SceneConfig], problems: ProblemList) {
        for step in steps where step.film == nil {
            guard let scene = scenes.first(where: { $0.id == step.scene }), scene.type != .carousel,
                let size = scene.imagePaths.first.flatMap(image)
            else { continue }
            for (key, v) in [("from", step.from), ("to", step.to)] {
                guard let v else { continue }
                if !(0...Double(size.width)).contains(v.center.x) || !(0...Double(size.height)).contains(v.center.y) {
                    problems.error(
                        "\(step.path).\(key).center",
                        "[\(v.center.x), \(v.center.y)] is outside the image (\(size.width)x\(size.height))")
                }
            }
        }
    }
}
