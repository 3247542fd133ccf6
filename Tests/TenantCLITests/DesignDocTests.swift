import ArgumentParser
import Foundation
import Testing

@testable import TenantCLI

/// docs/DESIGN.md names the code each command goes through and the operations of each `GitRepository` file: the
/// names must exist, so the page cannot keep describing code that moved or went away.
@Suite struct DesignDocTests {
    static let root = CLIReferenceTests.root

    static func design() throws -> String {
        try String(contentsOf: root.appendingPathComponent("docs/DESIGN.md"), encoding: .utf8)
    }

    /// Every Swift file under `Sources/`: file name → text.
    static func sources() throws -> [String: String] {
        let sources = root.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var files: [String: String] = [:]
        for case let relative as String in enumerator where relative.hasSuffix(".swift") {
            files[(relative as NSString).lastPathComponent] = try String(
                contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
        }
        return files
    }

    /// The rows of the Markdown table under `heading`, as cells (the header and the separator left out).
    static func table(under heading: String, in text: String) throws -> [[String]] {
        let start = try #require(text.range(of: "\n" + heading + "\n"), "no \(heading) in docs/DESIGN.md")
        var rows: [[String]] = []
        var inTable = false
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("|") else {
                if inTable { break }
                continue
            }
            inTable = true
            rows.append(line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        return Array(rows.dropFirst(2))
    }

    /// The `code` spans of `text`.
    static func codeSpans(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The names of types declared in `sources`.
    static func declaredTypes(_ sources: [String: String]) throws -> Set<String> {
        let pattern = try NSRegularExpression(
            pattern:
                #"(?m)^\s*(?:public |package |internal |private |fileprivate )?(?:final )?(?:struct|enum|class|actor|protocol|typealias) (\w+)"#
        )
        var names: Set<String> = []
        for text in sources.values {
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { names.insert(String(text[range])) }
            }
        }
        return names
    }

    /// The problems of the command table: commands it lacks, files and types it names that do not exist.
    static func commandTableProblems(_ design: String, sources: [String: String]) throws -> [String] {
        let rows = try table(under: "## Every command's path", in: design)
        var problems: [String] = []
        if rows.isEmpty { problems.append("no command table") }
        // Types, and the targets (`TenantExample`).
        let targets = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
        let types = try declaredTypes(sources).union(targets)
        // The commands a row names: `tenant add/remove` is tenant add and tenant remove; `roll --undo` is roll.
        var named: Set<String> = []
        for row in rows {
            for span in codeSpans(row.first ?? "") {
                let words = span.split(separator: " ").filter { !$0.hasPrefix("-") && !$0.hasPrefix("<") }
                guard let first = words.first else { continue }
                named.insert(String(first))
                for word in words.dropFirst() {
                    for part in word.split(separator: "/") { named.insert("\(first) \(part)") }
                }
            }
            for span in row.dropFirst().flatMap(codeSpans) {
                if span.hasSuffix(".swift"), !span.contains("…") {
                    let file = (span as NSString).lastPathComponent
                    if sources[file] == nil { problems.append("no file \(span)") }
                    continue
                }
                // `Type`, `Type.member`, `Type.member(…)`: the type must exist.
                guard span.range(of: #"^[A-Z]\w*(\.\w+)?(\(.*\))?$"#, options: .regularExpression) != nil,
                    let name = span.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).first
                else { continue }
                if !types.contains(String(name)) { problems.append("no type \(name) (in `\(span)`)") }
            }
        }
        for (path, command) in CLIReferenceTests.allCommands(Tenantctl.self).dropFirst()
        where command.configuration.subcommands.isEmpty && command.configuration.shouldDisplay {
            let words = path.split(separator: " ").dropFirst().joined(separator: " ")
            if !named.contains(words) { problems.append("no row for \(words)") }
        }
        return problems
    }

    @Test func everyCommandHasARowAndEveryNameInItExists() throws {
        let design = try Self.design()
        let sources = try Self.sources()
        let problems = try Self.commandTableProblems(design, sources: sources)
        #expect(problems.isEmpty, "docs/DESIGN.md, Every command's path: \(problems)")
        // Positive controls: a renamed file, a type that went away and a command left out are caught.
        let broken = design.replacingOccurrences(of: "`Tenantctl+Roll.swift`", with: "`Tenantctl+Rolls.swift`")
            .replacingOccurrences(of: "`RollPlanner`", with: "`RollPlannr`")
            .replacingOccurrences(of: "| `runs` |", with: "| `runz` |")
        let found = try Self.commandTableProblems(broken, sources: sources)
        #expect(found.contains("no file Tenantctl+Rolls.swift"), "\(found)")
        #expect(found.contains { $0.hasPrefix("no type RollPlannr") }, "\(found)")
        #expect(found.contains("no row for runs"), "\(found)")
    }

    /// The operations the page lists for each `GitRepository+<Topic>.swift` are functions of that file.
    static func operationProblems(_ design: String, sources: [String: String]) throws -> [String] {
        let rows = try table(under: "### Git operations (`Git/`)", in: design)
        var problems: [String] = []
        if rows.isEmpty { problems.append("no operations table") }
        let function = try NSRegularExpression(pattern: #"func (\w+)"#)
        for row in rows {
            guard row.count >= 2, let file = codeSpans(row[0]).first else { continue }
            guard let text = sources[file] else {
                problems.append("no file \(file)")
                continue
            }
            let functions = Set(
                function.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
                    Range($0.range(at: 1), in: text).map { String(text[$0]) }
                })
            for span in codeSpans(row[1]) {
                // An operation is `name` or `name(labels:)`; other spans describe it (`status --porcelain=v2 -z`).
                guard span.range(of: #"^[a-z]\w*(\([^)]*\))?$"#, options: .regularExpression) != nil else { continue }
                let name = String(span.prefix { $0.isLetter || $0.isNumber })
                if !functions.contains(name) { problems.append("\(file) has no \(name)") }
            }
        }
        return problems
    }

    @Test func everyListedGitOperationIsInItsFile() throws {
        let design = try Self.design()
        let sources = try Self.sources()
        let problems = try Self.operationProblems(design, sources: sources)
        #expect(problems.isEmpty, "docs/DESIGN.md, Git operations: \(problems)")
        // Positive control: an operation that is not in its file is caught.
        let broken = design.replacingOccurrences(of: "`fetchMirror`", with: "`fetchMirrors`")
        #expect(
            try Self.operationProblems(broken, sources: sources).contains(
                "GitRepository+Remote.swift has no fetchMirrors"))
    }

    /// The target dependencies of Package.swift (test targets and other packages' products left out): target → the
    /// targets it depends on.
    static func packageGraph(_ manifest: String) throws -> [String: Set<String>] {
        let target = try NSRegularExpression(
            pattern: #"\.(?:target|executableTarget)\(\s*name:\s*"(\w+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
        let range = NSRange(manifest.startIndex..., in: manifest)
        var graph: [String: Set<String>] = [:]
        for match in target.matches(in: manifest, range: range) {
            guard let name = Range(match.range(at: 1), in: manifest).map({ String(manifest[$0]) }) else { continue }
            let list = Range(match.range(at: 2), in: manifest).map { String(manifest[$0]) } ?? ""
            // `"TenantKit"` is a target; `.product(name: "ArgumentParser", …)` is another package's.
            let entries = list.components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            graph[name] = Set(
                entries.filter { $0.hasPrefix("\"") && $0.hasSuffix("\"") }.map { String($0.dropFirst().dropLast()) })
        }
        return graph
    }

    /// The graph the Layers diagram draws: the code block under `## Layers`, a line per target, the targets after
    /// its arrow the ones it depends on.
    static func diagramGraph(_ design: String) throws -> [String: Set<String>] {
        let section = try #require(design.components(separatedBy: "\n## Layers\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```").dropFirst().first)
        var graph: [String: Set<String>] = [:]
        for line in block.split(separator: "\n") {
            let parts = line.components(separatedBy: "→")
            let name = parts[0].trimmingCharacters(in: CharacterSet(charactersIn: " ─"))
            guard !name.isEmpty else { continue }
            let names = parts.dropFirst().joined().split(whereSeparator: { !$0.isLetter })
            graph[String(name.split(separator: " ")[0])] = Set(
                names.filter { $0.hasPrefix("Tenant") || $0 == "tenantctl" }.map(String.init))
        }
        return graph
    }

    @Test func theLayersDiagramIsThePackagesTargetGraph() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let package = try Self.packageGraph(manifest)
        #expect(package.count > 12, "the targets of Package.swift: \(package.keys.sorted())")
        let diagram = try Self.diagramGraph(try Self.design())
        #expect(diagram == package, "docs/DESIGN.md's Layers diagram differs from Package.swift")
        // Positive control: a dependency the package lacks is caught.
        let broken = try Self.design().replacingOccurrences(
            of: "TenantAudit ───────→ TenantObservation", with: "TenantAudit ───────→ TenantVerify")
        #expect(try Self.diagramGraph(broken) != package)
    }
}
