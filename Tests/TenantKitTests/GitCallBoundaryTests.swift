import Foundation
import Testing

/// Every git call of tenantctl goes through `Sources/TenantGit/Git` (the runner and `GitRepository`'s named
/// operations): no other source file builds a git argument vector.
///
/// The scan reads every `.swift` file under `Sources/` outside `Sources/TenantGit/Git/` and reports a line that
/// - calls the runner directly: `git.run(`, `git.runNetwork(`, `git.text(`, `git.spawn(` (any receiver ending in
///   `git`, e.g. `context.git.run(`), or `.run(`, `.runNetwork(`, `.spawn(` with an array literal as first argument;
/// - starts an array literal (not a subscript such as `fields["branch"]`) with a git subcommand (`["rev-parse", …`,
///   `["-c", …`): a vector being built, whoever runs it. tenantctl's own command names that git shares (`switch`, `status`, `tag`, `init`) are not in the list,
///   so the demo's `tenantctl` invocations are not mistaken for git;
/// - contains the string literal `"--end-of-options"`, which only a git argument vector has;
/// - starts an array literal with `"git"` itself (`["git", "fast-import", …]`: a command line built by hand).
///
/// Exempt, with the reason next to each entry: the layer itself, and test support (it builds repository states on
/// purpose with raw git, states tenantctl must meet but never makes).
@Suite struct GitCallBoundaryTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Paths (relative to the package root) the scan leaves out; a directory ends in `/`.
    static let exempt: [String] = [
        // The layer itself.
        "Sources/TenantGit/Git/",
        // Test support: GitSandbox and the test servers set up repositories (and nginx) with raw commands on purpose.
        "Sources/TenantTestSupport/",
    ]

    /// git subcommands a vector can start with (and `-c`, a vector's leading configuration).
    static let subcommands = [
        "-c", "add", "am", "apply", "branch", "cat-file", "check-ignore", "checkout", "clone", "commit", "commit-tree",
        "config", "diff", "diff-tree", "fast-import", "fetch", "for-each-ref", "gc", "hash-object", "lfs", "log",
        "ls-files", "ls-remote", "ls-tree", "merge", "merge-base", "merge-tree", "mktag", "mktree", "push", "read-tree",
        "remote", "reset", "rev-list", "rev-parse", "show", "show-ref", "submodule", "symbolic-ref", "update-index",
        "update-ref", "var", "worktree",
    ]

    static func patterns() throws -> [NSRegularExpression] {
        let words = subcommands.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
        return try [
            #"\bgit\.(run|runNetwork|text|spawn)\("#,
            #"\.(run|runNetwork|spawn)\(\s*\["#,
            #"(?<![\w)\]?!])\[\s*"(\#(words))"\s*[,\]]"#,
            #""--end-of-options""#,
            #"(?<![\w)\]?!])\[\s*"git"\s*,"#,
        ].map { try NSRegularExpression(pattern: $0) }
    }

    /// The 1-based lines of `text` where a pattern matches.
    static func violations(in text: String) throws -> [Int] {
        let range = NSRange(text.startIndex..., in: text)
        var lines: Set<Int> = []
        for pattern in try patterns() {
            for match in pattern.matches(in: text, range: range) {
                guard let start = Range(match.range, in: text)?.lowerBound else { continue }
                lines.insert(text[..<start].reduce(1) { $1 == "\n" ? $0 + 1 : $0 })
            }
        }
        return lines.sorted()
    }

    @Test func theScanCatchesAVectorAndLeavesOtherCallsAlone() throws {
        #expect(try Self.violations(in: #"let out = try git.run(["rev-parse", "HEAD"], in: path)"#) == [1])
        #expect(try Self.violations(in: "x\ntry context.git.text(\n    arguments, in: root)") == [2])
        #expect(try Self.violations(in: "let v = [\n  \"update-ref\", \"-d\", ref]") == [1])
        #expect(try Self.violations(in: #"args += ["--end-of-options", name]"#) == [1])
        #expect(try Self.violations(in: #"command: ["git", "fast-import", "--quiet"], directory: path"#) == [1])
        #expect(try Self.violations(in: #"try Git(executable: nil).spawn(["cat-file", "--batch"], in: nil)"#) == [1])
        #expect(
            try Self.violations(in: #"let code = Tenantctl.run(arguments: full, environment: environment)"#).isEmpty)
        #expect(try Self.violations(in: #"guard try command(["status"], in: workspace) == .success"#).isEmpty)
        #expect(try Self.violations(in: #"let branch = fields["branch"].flatMap { $0 }"#).isEmpty)
        #expect(try Self.violations(in: #"try repository.resolve("HEAD", context: "read HEAD").hex"#).isEmpty)
    }

    @Test func noFileOutsideTheGitLayerBuildsAGitArgumentVector() throws {
        let sources = Self.packageRoot.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var scanned = 0
        var found: [String] = []
        for case let relative as String in enumerator where relative.hasSuffix(".swift") {
            let path = "Sources/" + relative
            guard !Self.exempt.contains(where: { $0.hasSuffix("/") ? path.hasPrefix($0) : path == $0 }) else {
                continue
            }
            scanned += 1
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            found += try Self.violations(in: text).map { "\(path):\($0)" }
        }
        #expect(scanned > 50, "the scan read only \(scanned) files; is the package root right?")
        #expect(found.isEmpty, "git argument vectors outside Sources/TenantGit/Git: \(found)")
    }
}
