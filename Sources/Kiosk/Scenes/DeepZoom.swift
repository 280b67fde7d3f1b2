import ScrollEngine

/// A Deep Zoom Image (`.dzi`, as `vips dzsave` writes it): a pyramid of tiles, level 0 one pixel, the top
/// level the full image, each level half the one above (rounded up), cut into `tileSize` tiles that overlap
/// their neighbours by `overlap` pixels. Tiles live at `<name>_files/<level>/<column>_<row>.<format>`.
public struct DeepZoomImage: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var tileSize: Int
    public var overlap: Int
    public var format: String

    public init(width: Int, height: Int, tileSize: Int, overlap: Int, format: String) {
        self.width = width
        self.height = height
        self.tileSize = tileSize
        self.overlap = overlap
        self.format = format
    }

    /// The tile sizes a descriptor may give: smaller tiles make millions of files (a screenful of one-pixel
    /// tiles is two million decodes), larger ones more than a texture holds on small GPUs.
    public static let tileSizes = 64...8192

    /// The top level: `ceil(log2(max(width, height)))`.
    public var maxLevel: Int {
        var level = 0
        while (1 << level) < max(width, height) { level += 1 }
        return level
    }

    /// A level's size in pixels.
    public func size(level: Int) -> (width: Int, height: Int) {
        let shift = maxLevel - level
        guard shift >= 0 else { return (width, height) }
        return ((width + (1 << shift) - 1) >> shift, (height + (1 << shift) - 1) >> shift)
    }

    /// Columns and rows of tiles at a level.
    public func tiles(level: Int) -> (columns: Int, rows: Int) {
        let s = size(level: level)
        return ((s.width + tileSize - 1) / tileSize, (s.height + tileSize - 1) / tileSize)
    }

    /// The pixels of a level that tile (column, row) covers, overlap included (as stored in its file).
    public func storedRect(level: Int, column: Int, row: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let s = size(level: level)
        let x0 = max(0, column * tileSize - overlap)
        let y0 = max(0, row * tileSize - overlap)
        let x1 = min(s.width, (column + 1) * tileSize + overlap)
        let y1 = min(s.height, (row + 1) * tileSize + overlap)
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// The relative path of a tile's file from the `.dzi`'s folder, for a `.dzi` named `name`.
    public static func tilePath(name: String, level: Int, column: Int, row: Int, format: String) -> String {
        "\(name)_files/\(level)/\(column)_\(row).\(format)"
    }
}

/// A `.dzi` that cannot be read.
public struct DeepZoomError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension DeepZoomImage {
    /// Reads a `.dzi` descriptor: `<Image TileSize=… Overlap=… Format=…><Size Width=… Height=…/></Image>`.
    public static func parse(_ xml: String) throws(DeepZoomError) -> DeepZoomImage {
        func attribute(_ element: String, _ name: String) -> String? {
            guard let start = xml.range(of: "<\(element)") else { return nil }
            let rest = xml[start.upperBound...]
            guard let end = rest.firstIndex(of: ">") else { return nil }
            let tag = rest[..<end]
            for quote in ["\"", "'"] {
                if let a = tag.range(of: " \(name)=\(quote)") ?? tag.range(of: "\n\(name)=\(quote)")
                    ?? tag.range(of: "\t\(name)=\(quote)")
                {
                    let value = tag[a.upperBound...]
                    guard let close = value.firstIndex(of: Character(quote)) else { return nil }
                    return String(value[..<close])
                }
            }
            return nil
        }
        func integer(_ element: String, _ name: String, minimum: Int) throws(DeepZoomError) -> Int {
            guard let text = attribute(element, name) else {
                throw DeepZoomError(message: "missing \(element) \(name)")
            }
            guard let v = Int(text), v >= minimum else {
                throw DeepZoomError(
                    message: "\(element) \(name)=\"\(text)\" is not a whole number of at least \(minimum)")
            }
            return v
        }
        guard xml.contains("<Image") else { throw DeepZoomError(message: "not a Deep Zoom descriptor (no <Image>)") }
        let tileSize = try integer("Image", "TileSize", minimum: 1)
        let overlap = try integer("Image", "Overlap", minimum: 0)
        guard let format = attribute("Image", "Format"), ["jpeg", "jpg", "png", "webp"].contains(format.lowercased())
        else { throw DeepZoomError(message: "Image Format must be jpeg, jpg, png or webp") }
        let width = try integer("Size", "Width", minimum: 1)
        let height = try integer("Size", "Height", minimum: 1)
        guard width <= 1 << 24, height <= 1 << 24 else {
            throw DeepZoomError(message: "Size is beyond 16777216 pixels a side")
        }
        guard Self.tileSizes.contains(tileSize) else {
            throw DeepZoomError(
                message: "Image TileSize=\"\(tileSize)\" is outside \(Self.tileSizes.lowerBound) to "
                    + "\(Self.tileSizes.upperBound) pixels (vips dzsave writes 254)")
        }
        guard overlap < tileSize / 2 else {
            throw DeepZoomError(message: "Overlap must be smaller than half the TileSize")
        }
        return DeepZoomImage(width: width, height: height, tileSize: tileSize, overlap: overlap, format: format)
    }
}
