import Foundation
import Testing

/// The architecture's limits, read from the sources (docs/architecture.md): they hold as the code grows, or a
/// test says where they stopped holding.
struct HouseRulesTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Every Swift file under `folder`, with its text.
    static func files(under folder: String) throws -> [(path: String, text: String)] {
        let root = sources.appendingPathComponent(folder)
        let walker = try #require(FileManager.default.enumerator(atPath: root.path))
        return try walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map {
            ("\(folder)/\($0)", try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// The SDL side knows the app through at most twelve members: a step, a handle, one draw list, the frame's
    /// end and the service's few.
    @Test func theHostKnowsTheAppThroughTwelveMembers() throws {
        let member = try Regex(#"\bapp\.([A-Za-z_]+)"#)
        var used = Set<String>()
        for file in try Self.files(under: "KioskSDL") {
            for match in file.text.matches(of: member) {
                if let name = match.output[1].substring { used.insert(String(name)) }
            }
        }
        #expect(used.contains("step") && used.contains("drawList"), "\(used.sorted())")
        #expect(used.count <= 12, "\(used.count): \(used.sorted())")
    }

    /// No type holds more than 15 stored properties, but a declared data record (its comment says so) and UIKit's
    /// `ScrollView` surface: a type with more does more than one thing.
    @Test func noTypeHoldsMoreThan15StoredProperties() throws {
        let type = try Regex(#"^(?:public |final |private |fileprivate |internal )*(?:class|struct|actor) (\w+)"#)
        // A stored property of a type's body: four spaces in, `let` or `var`, not static, no body of its own (a
        // `{` makes a computed one, unless a value comes before it: an observed one, or a closure).
        let stored = try Regex(
            #"^    (?:@\w+ )*(?:(?:public|private|fileprivate|internal|static|lazy|weak|unowned|nonisolated)(?:\(set\))? )*(?:let|var) \w+"#
        )
        for module in try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).sorted() {
            for file in try Self.files(under: module) {
                var current: (name: String, properties: [String], exempt: Bool)?
                var comment = ""
                func finish() {
                    if let c = current, !c.exempt {
                        #expect(
                            c.properties.count <= 15,
                            "\(file.path): \(c.name) holds \(c.properties.count) stored properties: \(c.properties)")
                    }
                }
                for line in file.text.split(separator: "\n", omittingEmptySubsequences: false) {
                    if let m = line.firstMatch(of: type), let name = m.output[1].substring {
                        finish()
                        let exempt = comment.contains("data record") || name == "ScrollView"
                        current = (String(name), [], exempt)
                    } else if line.hasPrefix("}") {
                        finish()
                        current = nil
                    } else if line.firstMatch(of: stored) != nil, !line.contains("static "),
                        !line.contains("{") || line.prefix(while: { $0 != "{" }).contains(" = ")
                    {
                        current?.properties.append(line.trimmingCharacters(in: .whitespaces))
                    }
                    comment = line.hasPrefix("///") ? comment + line : ""
                }
                finish()
            }
        }
    }

    /// No source file is over 400 lines: a longer one holds more than one concern.
    @Test func noSourceFileIsOver400Lines() throws {
        for module in try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).sorted() {
            for file in try Self.files(under: module) {
                let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
                #expect(lines <= 400, "\(file.path): \(lines) lines")
            }
        }
    }
}
