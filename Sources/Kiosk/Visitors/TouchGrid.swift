import EventLog
import ScrollEngine

/// The touches on the pictures, counted (docs/authoring.md): per picture a coarse grid over its pixels, each cell
/// the number of touch-downs that landed there on the picture (a zoomed-in touch lands where it is on the
/// picture). Counts only: no times, no order, nothing of one visit. A day's grid is its file,
/// `visits/YYYY-MM-DD.touches.json`: `{"map": {"grid": [64, 36], "image": [4800, 3000], "counts": […]}}`.
public struct TouchGrid: Equatable, Sendable {
    /// The grid's columns and rows, over any picture (our choice: a 16:9 grid of cells a finger's size on a
    /// 1080p screen showing the whole picture).
    public static let columns = 64
    public static let rows = 36

    public struct Picture: Equatable, Sendable {
        /// The picture's size in pixels.
        public var image: Size
        /// Row by row, `columns` x `rows`.
        public var counts: [Int]
    }

    /// By picture: a zoom or scroll scene's id, a carousel page's `scene/page` (page from 0).
    public var pictures: [String: Picture] = [:]

    public init() {}

    public var isEmpty: Bool { pictures.isEmpty }

    /// The cell of `point` (image pixels) on a picture of `image`, if the point is on it.
    public static func cell(_ point: Point, image: Size) -> Int? {
        guard image.width > 0, image.height > 0, (0..<image.width).contains(point.x),
            (0..<image.height).contains(point.y)
        else { return nil }
        let c = min(columns - 1, Int(point.x / image.width * Double(columns)))
        let r = min(rows - 1, Int(point.y / image.height * Double(rows)))
        return r * columns + c
    }

    /// One touch-down at `point` on picture `key` of `image`; one off the picture is not counted.
    public mutating func add(_ key: String, point: Point, image: Size) {
        guard let cell = Self.cell(point, image: image) else { return }
        if pictures[key]?.image != image {
            // A new picture (or one replaced by another size: the old size's counts are kept aside).
            replace(key, with: Picture(image: image, counts: Array(repeating: 0, count: Self.columns * Self.rows)))
        }
        pictures[key]!.counts[cell] += 1
    }

    /// `other`'s counts added to these (a day's file read again); a picture whose size differs takes `other`'s,
    /// and the counts of its other size are kept aside.
    public mutating func merge(_ other: TouchGrid) {
        for (key, p) in other.pictures {
            guard let mine = pictures[key], mine.image == p.image else {
                replace(key, with: p)
                continue
            }
            pictures[key]!.counts = zip(mine.counts, p.counts).map(+)
        }
    }

    /// Picture `key` is now `p`: the counts it had for another size (a new version of the floor plan, a day's
    /// file of the old one) are not lost but kept under `asideKey`, added to those kept there before.
    mutating func replace(_ key: String, with p: Picture) {
        if let old = pictures[key], old.image != p.image {
            let aside = Self.asideKey(key, image: old.image)
            if let earlier = pictures[aside], earlier.image == old.image {
                pictures[aside]!.counts = zip(earlier.counts, old.counts).map(+)
            } else {
                pictures[aside] = old
            }
        }
        pictures[key] = p
    }

    /// Where a picture's counts for an earlier size are kept: `map 4800x3000`.
    public static func asideKey(_ key: String, image: Size) -> String {
        "\(key) \(Int(image.width))x\(Int(image.height))"
    }

    /// The day file's text.
    public var json: String {
        let parts = pictures.sorted { $0.key < $1.key }.map { key, p in
            "\(jsonString(key)): {\"grid\": [\(Self.columns), \(Self.rows)], \"image\": [\(Int(p.image.width)), "
                + "\(Int(p.image.height))], \"counts\": [\(p.counts.map(String.init).joined(separator: ", "))]}"
        }
        return "{" + parts.joined(separator: ",\n ") + "}\n"
    }

    /// A day file's grid; nil when it is not one (torn, edited, another grid's shape).
    public static func parse(_ text: String) -> TouchGrid? {
        guard case .object(let o)? = JSONValue.parse(Substring(text)) else { return nil }
        var grid = TouchGrid()
        for (key, value) in o {
            guard case .object(let p) = value, case .array(let g)? = p["grid"],
                g == [.number(Double(columns)), .number(Double(rows))], case .array(let i)? = p["image"], i.count == 2,
                case .number(let w) = i[0], case .number(let h) = i[1], case .array(let c)? = p["counts"],
                c.count == columns * rows
            else { return nil }
            let counts = c.compactMap { v -> Int? in
                guard case .number(let n) = v, n >= 0, n < 1e12, n == n.rounded() else { return nil }
                return Int(n)
            }
            guard counts.count == c.count else { return nil }
            grid.pictures[key] = Picture(image: Size(width: w, height: h), counts: counts)
        }
        return grid
    }
}
