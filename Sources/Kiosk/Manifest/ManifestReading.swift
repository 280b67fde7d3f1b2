import EventLog
import ScrollEngine

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
final class ProblemList {
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
    /// An error about a picture or film that a placeholder covers at a start (`ManifestError.showsPlaceholder`);
    /// `missingFile`: the file it is about, when it is not found.
    public func placeholder(_ path: String, _ message: String, missingFile: String? = nil) {
        var e = fail(path, message)
        e.showsPlaceholder = true
        e.missingFile = missingFile
        items.append(e)
    }

    /// Runs `body`; what it throws is recorded, and then the result is nil.
    @discardableResult
    func attempt<T>(_ body: () throws(ManifestError) -> T) -> T? {
        do { return try body() } catch {
            items.append(error)
            return nil
        }
    }
}

extension Object {
    /// `[x, y, width, height]` in image pixels at `k`, with a positive size (a hotspot's, an overlay's).
    func imageRect(_ k: String) throws(ManifestError) -> Rect {
        guard case .array(let r)? = values[k], r.count == 4,
            case .number(let x) = r[0], case .number(let y) = r[1], case .number(let w) = r[2],
            case .number(let h) = r[3], w > 0, h > 0,
            [x, y, w, h].allSatisfy({ ManifestLimits.imagePixels.contains($0) })
        else { throw fail(k, "expected [x, y, width, height] in image pixels, with a positive size") }
        return Rect(x: x, y: y, width: w, height: h)
    }
}

extension Object {
    /// The objects of the list at `k`, each made by `make` from its object and index; one with a mistake is
    /// recorded and left out, the others are kept (a scene's hotspots, its overlays).
    func eachObject<T>(_ k: String, _ make: (Object, Int) throws(ManifestError) -> T) throws(ManifestError) -> [T] {
        guard let v = values[k] else { return [] }
        guard case .array(let list) = v else { throw fail(k, "expected a list, found \(v.typeName)") }
        var made: [T] = []
        for (i, item) in list.enumerated() {
            let one = problems.attempt { () throws(ManifestError) -> T in
                try make(try Object(item, path: key("\(k)[\(i)]"), problems: problems), i)
            }
            if let one { made.append(one) }
        }
        return made
    }
}
