import Foundation
import TenantTestSupport
import Testing

/// The folders of the library's targets (`Sources/TenantGit/Git`, `Sources/TenantRoll/Roll`, …) form layers: no folder
/// uses a type of a folder that (directly or through others) uses one of its own. docs/DESIGN.md lists the layers in
/// order; the targets' dependencies in Package.swift make the compiler refuse a use of an upper target, and this scan
/// keeps the folders inside one target (`Findings/` and `Manifest/` in `TenantModel`) in order too.
///
/// The scan: the top-level type declarations of each folder (`struct`, `enum`, `class`, `actor`, `protocol`,
/// `typealias`), then the capitalised identifiers each file uses outside comments and string literals. A file of
/// folder A naming a type declared in folder B is an edge A → B; a cycle in that graph fails the test, naming each
/// edge with one file:line.
@Suite(.tags(.slow), .notInTheFastSet) struct FolderLayerTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sources = packageRoot.appendingPathComponent("Sources").path
    /// The library's layer targets, bottom to top (the umbrella `TenantKit` holds no folder).
    static let layerTargets = [
        "TenantSupport", "TenantGit", "TenantModel", "TenantObservation", "TenantTransaction", "TenantLifecycle",
        "TenantWorkingCopy", "TenantCompose", "TenantRoll", "TenantVerify", "TenantAudit", "TenantResolve",
    ]

    /// The layer targets' directories under a `Sources` directory.
    static func roots(under sources: String) -> [String] { layerTargets.map { "\(sources)/\($0)" } }

    /// Where a folder uses another's type first: the file (relative to the scanned root), the line and the type.
    struct Use: CustomStringConvertible {
        var file: String
        var line: Int
        var type: String
        var description: String { "\(file):\(line) uses \(type)" }
    }

    /// Folder → folder it uses → the first use found.
    struct FolderGraph {
        var edges: [String: [String: Use]] = [:]

        /// A cycle among the folders, as its edges in order (nil when there is none).
        func cycle() -> [(from: String, to: String, use: Use)]? {
            for start in edges.keys.sorted() {
                // Breadth-first from `start`'s successors back to `start`: the shortest cycle through it.
                var previous: [String: String] = [:]
                var queue = (edges[start] ?? [:]).keys.sorted()
                for next in queue { previous[next] = start }
                var index = 0
                while index < queue.count {
                    let node = queue[index]
                    index += 1
                    if node == start {
                        var path = [start]
                        var current = previous[start] ?? start
                        while current != start {
                            path.append(current)
                            current = previous[current] ?? start
                        }
                        path.append(start)
                        let nodes = Array(path.reversed())
                        return zip(nodes, nodes.dropFirst()).compactMap { from, to in
                            edges[from]?[to].map { (from, to, $0) }
                        }
                    }
                    for next in (edges[node] ?? [:]).keys.sorted() where previous[next] == nil {
                        previous[next] = node
                        queue.append(next)
                    }
                }
            }
            return nil
        }
    }

    /// A line without its `//` comment and with its string literals emptied (interpolations included).
    static func code(_ line: String) -> String {
        var result = ""
        var inString = false
        var escaped = false
        var characters = line.makeIterator()
        var previous: Character = " "
        while let character = characters.next() {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                    result.append("\"")
                }
            } else if character == "\"" {
                inString = true
                result.append("\"")
            } else if character == "/" && previous == "/" {
                result.removeLast()
                break
            } else {
                result.append(character)
            }
            previous = character
        }
        return result
    }

    static func matches(_ pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            let group = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
            return Range(group, in: text).map { String(text[$0]) }
        }
    }

    /// The graph of the folders directly under `roots`.
    static func scan(_ roots: [String]) throws -> FolderGraph {
        let manager = FileManager.default
        var files: [(folder: String, path: String, lines: [String])] = []
        for root in roots {
            for folder in try manager.contentsOfDirectory(atPath: root).sorted() {
                var isDirectory: ObjCBool = false
                guard manager.fileExists(atPath: "\(root)/\(folder)", isDirectory: &isDirectory), isDirectory.boolValue
                else { continue }
                let enumerator = manager.enumerator(atPath: "\(root)/\(folder)")
                while let name = enumerator?.nextObject() as? String {
                    guard name.hasSuffix(".swift") else { continue }
                    let text = try String(contentsOfFile: "\(root)/\(folder)/\(name)", encoding: .utf8)
                    files.append((folder, "\(folder)/\(name)", text.components(separatedBy: "\n")))
                }
            }
        }
        files.sort { $0.path < $1.path }
        // Each file's lines without comments and strings (a multi-line string literal's lines dropped).
        var codeLines: [String: [String]] = [:]
        var declared: [String: String] = [:]
        let declaration =
            #"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|package|final|indirect|nonisolated)\s+)*"#
            + #"(?:struct|enum|class|actor|protocol|typealias)\s+([A-Za-z_]\w*)"#
        for file in files {
            var lines: [String] = []
            var inMultiline = false
            var inBlockComment = false
            for line in file.lines {
                let quotes = line.components(separatedBy: "\"\"\"").count - 1
                if inMultiline || inBlockComment {
                    if quotes % 2 == 1 { inMultiline = false }
                    if line.contains("*/") { inBlockComment = false }
                    lines.append("")
                    continue
                }
                if quotes % 2 == 1 { inMultiline = true }
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("/*") && !line.contains("*/") {
                    inBlockComment = true
                }
                lines.append(code(line))
            }
            codeLines[file.path] = lines
            // Top-level declarations only: a nested type (`Options`) is named through its enclosing one.
            var depth = 0
            for line in lines {
                if depth == 0, let name = try matches(declaration, in: line).first, declared[name] == nil {
                    declared[name] = file.folder
                }
                depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
            }
        }
        var graph = FolderGraph()
        for file in files {
            for (index, line) in (codeLines[file.path] ?? []).enumerated() {
                for identifier in try matches(#"\b[A-Z][A-Za-z0-9_]*\b"#, in: line) {
                    guard let folder = declared[identifier], folder != file.folder,
                        graph.edges[file.folder]?[folder] == nil
                    else { continue }
                    graph.edges[file.folder, default: [:]][folder] = Use(
                        file: file.path, line: index + 1, type: identifier)
                }
            }
        }
        return graph
    }

    static func describe(_ cycle: [(from: String, to: String, use: Use)]) -> String {
        cycle.map { "\($0.from) → \($0.to) (\($0.use))" }.joined(separator: ", ")
    }

    @Test func theFoldersOfTenantKitHaveNoCycle() throws {
        let graph = try Self.scan(Self.roots(under: Self.sources))
        #expect(graph.edges.count > 10, "the scan found the folders' uses: \(graph.edges.keys.sorted())")
        let cycle = graph.cycle().map(Self.describe)
        let advice = "move the type to the lower layer (docs/DESIGN.md lists them)"
        #expect(cycle == nil, "a cycle among the library targets' folders: \(cycle ?? ""); \(advice)")
    }

    /// Positive control: the scan finds a cycle, names each edge's file and line, and does not take a type named
    /// in a comment or a string for a use.
    @Test func theScanFindsACycleAndNamesEachEdge() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("layers-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in ["Lower", "Upper", "Other"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true)
        }
        try "import Foundation\npublic struct Alpha {\n    var beta: Beta?\n}\n".write(
            toFile: "\(root)/Lower/Alpha.swift", atomically: true, encoding: .utf8)
        try "public enum Beta {\n    static func make() -> Alpha { Alpha() }\n}\n".write(
            toFile: "\(root)/Upper/Beta.swift", atomically: true, encoding: .utf8)
        try "/// ``Alpha`` and Beta in words\npublic enum Gamma {\n    static let text = \"Alpha \\(1) Beta\"\n}\n"
            .write(toFile: "\(root)/Other/Gamma.swift", atomically: true, encoding: .utf8)
        let graph = try Self.scan([root])
        #expect(graph.edges["Other"] == nil, "comments and strings are not uses: \(graph.edges)")
        let cycle = try #require(graph.cycle())
        let text = Self.describe(cycle)
        #expect(text == "Lower → Upper (Lower/Alpha.swift:3 uses Beta), Upper → Lower (Upper/Beta.swift:2 uses Alpha)")
    }

    /// Positive control on the real tree: one use of an upper layer's type from a lower folder (as the
    /// `.gitmodules` parser in Verify, used by Git, was) is found as a cycle through both folders.
    @Test func theScanFindsACycleAddedToTheRealTree() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("layers-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.copyItem(atPath: Self.sources, toPath: root)
        try "extension GitRepository {\n    func verified() -> VerifyRun? { nil }\n}\n".write(
            toFile: "\(root)/TenantGit/Git/Back.swift", atomically: true, encoding: .utf8)
        let cycle = try #require(try Self.scan(Self.roots(under: root)).cycle())
        let text = Self.describe(cycle)
        #expect(text.contains("Git → Verify (Git/Back.swift:2 uses VerifyRun)"), "\(text)")
    }
}
