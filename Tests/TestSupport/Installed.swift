import Foundation
import Testing

/// What a test needs that `./run.sh` does not install: a test that needs it runs only where it is installed, and
/// its skip names the Debian package that brings it (`.ci/run` installs them all and runs every test).
public enum Installed {
    /// Why a test that runs `path` cannot run here (it is not installed), or nil.
    public static func missing(_ path: String, from package: String, for what: String) -> String? {
        FileManager.default.isExecutableFile(atPath: path)
            ? nil : "\(path) is not installed (apt-get install \(package)): \(what)"
    }

    /// A test that reads file `path` (a library, a module), from Debian's `package`, for `what`.
    public static func needsFile(_ path: String, from package: String, for what: String) -> ConditionTrait {
        let here = FileManager.default.fileExists(atPath: path)
        return .enabled(
            if: here, Comment(rawValue: here ? "" : "\(path) is not installed (apt-get install \(package)): \(what)"))
    }

    /// A test that runs `path`, from Debian's `package`, for `what`.
    public static func needs(_ path: String, from package: String, for what: String) -> ConditionTrait {
        let why = missing(path, from: package, for: what)
        return .enabled(if: why == nil, Comment(rawValue: why ?? ""))
    }
}
