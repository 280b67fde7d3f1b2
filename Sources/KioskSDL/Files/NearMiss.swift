import Foundation
import Kiosk

/// A file the manifest names that is not there, and the one in its folder it most likely means: the same name
/// but for letters' case (which Linux does not ignore, and Windows and macOS do), or but for spaces at its ends.
enum NearMiss {
    /// What to say after "file not found: `path`", or nil when nothing in its folder comes near.
    static func hint(_ path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        if let same = names.first(where: { $0 != name && $0.lowercased() == name.lowercased() }) {
            return "(\"\(same)\" is in the folder: the names differ in capital letters, which count here)"
        }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if let same = names.first(where: { $0 != name && $0.trimmingCharacters(in: .whitespaces) == trimmed }) {
            return "(\"\(same)\" is in the folder: the names differ in spaces at their start or end)"
        }
        return nil
    }

    /// `problems` with a near miss added to each "file not found" of theirs.
    static func hinted(_ problems: [ManifestError]) -> [ManifestError] {
        problems.map { p in
            guard let path = p.missingFile, let hint = hint(path) else { return p }
            var q = p
            q.message += " " + hint
            return q
        }
    }
}
