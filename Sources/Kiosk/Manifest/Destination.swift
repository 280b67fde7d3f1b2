/// Where a `goto` leads: a scene, or a row of a list scene (`"directory#cafe"`: the list opened with that row at
/// its top, as `scrollToRow(at:at:animated:)` places it). A scene whose own id holds a `#` is still named whole.
public struct Destination: Equatable, Sendable {
    public var scene: String
    public var row: String?

    public init(scene: String, row: String? = nil) {
        self.scene = scene
        self.row = row
    }

    /// `goto` read against the manifest's scene ids.
    public init(_ goto: String, sceneIDs ids: Set<String>) {
        guard !ids.contains(goto), let hash = goto.firstIndex(of: "#") else {
            self.init(scene: goto)
            return
        }
        let row = goto[goto.index(after: hash)...]
        self.init(scene: String(goto[..<hash]), row: row.isEmpty ? nil : String(row))
    }

    /// What is wrong with `goto` among `scenes` (nil: it leads somewhere).
    static func problem(_ goto: String, scenes: [SceneConfig], ids: Set<String>) -> String? {
        let d = Destination(goto, sceneIDs: ids)
        guard ids.contains(d.scene) else { return "no scene has the id \"\(d.scene)\"" }
        guard let row = d.row, let target = scenes.first(where: { $0.id == d.scene }) else { return nil }
        guard let list = target.list else {
            return "\"\(d.scene)\" is a \(target.type.rawValue) scene; a row (#\(row)) needs a list scene"
        }
        guard list.rows.contains(where: { $0.id == row }) else {
            return "the list \"\(d.scene)\" has no row \"\(row)\""
        }
        return nil
    }
}
