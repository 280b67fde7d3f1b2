import ScrollEngine

/// What the host knows of the content's pictures before any scene shows one: each path's size, whether it is
/// drawn from a pyramid (and which, under which number), whether it is opaque, or that it cannot be shown. Read
/// from the files when the content is loaded (their headers and Deep Zoom descriptors, on the loading thread);
/// here it is data, so a scene that opens lays itself out without reading a file. A path it does not know is
/// a placeholder (`ImageInfo.missing`).
public struct ImageCatalog: Equatable, Sendable {
    public var infos: [String: ImageInfo]

    public init(_ infos: [String: ImageInfo] = [:]) { self.infos = infos }

    /// Every picture `manifest` names, in every language, each path described once by `describe`.
    public init(_ manifest: Manifest, describe: (String) -> ImageInfo) {
        var infos: [String: ImageInfo] = [:]
        for path in manifest.scenes.flatMap(\.allImagePaths) where infos[path] == nil {
            infos[path] = describe(path)
        }
        self.infos = infos
    }

    public subscript(path: String) -> ImageInfo { infos[path] ?? .missing }
}
