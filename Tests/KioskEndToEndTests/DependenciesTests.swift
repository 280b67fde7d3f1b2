import Foundation
import Testing

/// The README's table of Debian packages ("Dependencies") is the one list: `./run.sh` installs what the build, the
/// kiosk and the tests need, `.ci/run` installs every package of it, and the kiosk's package depends on (or
/// recommends) each run-time package that is not a library's -dev (those arrive through `dpkg-shlibdeps`).
@Suite struct DependenciesTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: Kiosk.repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// Each package of the README's table with what needs it (build, kiosk, tests, service, CI).
    static func table() throws -> [String: Set<String>] {
        let readme = try text("README.md")
        let section = try #require(readme.components(separatedBy: "## Dependencies").dropFirst().first)
            .components(separatedBy: "\n## ")[0]
        var packages: [String: Set<String>] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let names = cells[0].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            }
            let needs = Set(cells[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            for name in names { packages[name] = needs }
        }
        return packages
    }

    /// The words of a shell array `packages=( ... )` in `script`.
    static func shellPackages(_ script: String) throws -> Set<String> {
        let body = try #require(try text(script).components(separatedBy: "packages=(").dropFirst().first)
        let list = try #require(body.components(separatedBy: ")").first)
        return Set(list.split { $0 == " " || $0 == "\n" }.map(String.init))
    }

    @Test func runShInstallsWhatTheBuildTheKioskAndTheTestsNeed() throws {
        let table = try Self.table()
        #expect(table.count > 20, "the README's table was not found")
        let wanted = Set(table.filter { !$0.value.isDisjoint(with: ["build", "kiosk", "tests"]) }.keys)
        let installed = try Self.shellPackages("run.sh")
        #expect(installed.subtracting(wanted).sorted() == [], "run.sh installs packages the table does not name")
        #expect(wanted.subtracting(installed).sorted() == [], "run.sh does not install what the table says it needs")
    }

    @Test func ciInstallsEveryPackageOfTheTable() throws {
        let table = try Self.table()
        let installed = try Self.shellPackages(".ci/run")
        #expect(installed.symmetricDifference(table.keys).sorted() == [], ".ci/run and the README's table differ")
    }

    @Test func thePackageDependsOnWhatTheKioskAndTheServiceNeed() throws {
        let table = try Self.table()
        let script = try Self.text("package.sh")
        let fields = ["Depends: ", "Recommends: "].compactMap { field in
            script.split(separator: "\n").first { $0.hasPrefix(field) }.map { $0.dropFirst(field.count) }
        }
        // The literal names ($shlibs and $video are the libraries the binary links or loads, found at build time).
        let named = Set(
            fields.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.hasPrefix("$") })
        #expect(named.count >= 5, "no Depends: in package.sh")
        let runTime = Set(
            table.filter { !$0.value.isDisjoint(with: ["kiosk", "service"]) && !$0.key.hasSuffix("-dev") }.keys)
        #expect(named.subtracting(runTime).sorted() == [], "the package depends on what the table does not say")
        #expect(runTime.subtracting(named).sorted() == [], "the package lacks what the table says the kiosk needs")
    }
}
