import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// The features hold repository values handed out by the workspace and the snapshot (`workspace.superproject`,
/// `workspace.checkout(at:)`, `snapshot.mirrorRepository(of:)`); they do not pair a path with a runner themselves.
///
/// One scan counts `GitRepository(` constructions per target under `Sources/`, outside the git layer (which defines
/// the value) and the test support (which builds repository states on purpose); another finds a runner taken beside
/// the repositories (`git: Git`) or asked for one (`git.repository(at:)`) outside the few places that make them.
@Suite struct RepositoryValueTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Targets whose features use only handed-out repository values: a construction there fails the test. Every
    /// target outside the git layer and the test support is here.
    static let migrated = [
        "TenantModel", "TenantObservation", "TenantAudit", "TenantVerify", "TenantCompose", "TenantLifecycle",
        "TenantCLI", "TenantExample", "TenantTransaction", "TenantResolve", "TenantWorkingCopy", "TenantRoll",
    ]

    /// Left out of the count: the layer that defines the value, and test support.
    static let exempt: Set<String> = ["TenantGit", "TenantTestSupport"]

    /// The number of `GitRepository(` constructions in `text` (a use of the type's name alone, as a type, is none).
    static func constructions(in text: String) -> Int {
        text.components(separatedBy: "GitRepository(").count - 1
    }

    /// Target name → constructions in its sources.
    static func countsPerTarget() throws -> [String: Int] {
        let sources = packageRoot.appendingPathComponent("Sources")
        var counts: [String: Int] = [:]
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        where !exempt.contains(target) {
            let directory = sources.appendingPathComponent(target)
            guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { continue }
            var count = 0
            for case let relative as String in enumerator where relative.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(relative), encoding: .utf8)
                count += constructions(in: text)
            }
            counts[target] = count
        }
        return counts
    }

    @Test func theCountFindsAConstructionAndLeavesTheTypeNameAlone() {
        // Positive control: the pair built by hand is found, once per construction.
        #expect(Self.constructions(in: #"let repository = GitRepository(path, git: git)"#) == 1)
        #expect(Self.constructions(in: "try GitRepository(a, git: g).x()\nGitRepository(b, git: g)") == 2)
        // The type named, or a handed-out value used: nothing.
        #expect(Self.constructions(in: "func f(_ repository: GitRepository) -> GitRepository?") == 0)
        #expect(Self.constructions(in: "try workspace.superproject.headBranch(context: c)") == 0)
    }

    @Test func theMigratedTargetsBuildNoRepositoryFromAPathAndARunner() throws {
        let counts = try Self.countsPerTarget()
        #expect(counts.count > 8, "the scan found only \(counts.keys.sorted()); is the package root right?")
        for target in Self.migrated {
            let count = try #require(counts[target], "no sources of \(target) found")
            #expect(
                count == 0,
                "\(target) builds \(count) GitRepository value(s) from a path and a runner; use the workspace's or the snapshot's repositories (workspace.superproject, workspace.checkout(at:), snapshot.mirrorRepository(of:))"
            )
        }
        // Every target is either migrated or exempt: a new target is placed on purpose.
        let placed = Set(Self.migrated).union(Self.exempt)
        let unplaced = counts.filter { !placed.contains($0.key) && $0.value > 0 }.keys.sorted()
        #expect(unplaced.isEmpty, "targets that build repositories and are in no list: \(unplaced)")
    }

    /// A runner handed beside the repositories, or a repository made from one: a `git: Git` parameter or property,
    /// `.repository(at:)` called on a runner (`git.repository(at:)`, `workspace.git.repository(at:)`,
    /// `Git(…).repository(at:)`), or a value's runner taken out to pair it with a path again
    /// (`in: repository.path, git: repository.git`; the example builder, a maker, is given the context's).
    /// Deriving one from a repository value held (`superproject.repository(at:)`) is none.
    static let runnerPatterns = [
        #"\bgit: Git\b"#, #"\bgit\??\.repository\(at:"#, #"\bGit\([^)]*\)\.repository\(at:"#,
        #"(?<!ExampleBuilder\()\bgit: \w+(\.\w+)*\.git\b"#,
    ]

    /// The lines of `text` (comments left out) where a feature takes a runner or makes a repository from one.
    static func runnerUses(in text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { return nil }
            let text = String(line)
            guard runnerPatterns.contains(where: { text.range(of: $0, options: .regularExpression) != nil }) else {
                return nil
            }
            return "\(index + 1): \(text.trimmingCharacters(in: .whitespaces))"
        }
    }

    /// The places that make repositories from the runner, as there is no repository yet to derive one from: the CLI's
    /// context (the runner from the options; the directory's repository for the pager and its own configuration),
    /// the workspace's opening (finding the superproject from a directory) and the example builder (which creates
    /// the example's repositories, before there is a workspace).
    static let makers: Set<String> = [
        "TenantCLI/CommandContext.swift", "TenantModel/Workspace/Workspace.swift", "TenantExample/ExampleBuilder.swift",
    ]

    @Test func theRunnerScanFindsARunnerBesideTheRepositoriesAndLeavesDerivedOnesAlone() {
        // Positive control: a runner taken, held or asked for a repository is found.
        #expect(Self.runnerUses(in: "static func load(workspace: Workspace, git: Git) throws").count == 1)
        #expect(Self.runnerUses(in: "    let git: Git\n    var git: Git?").count == 2)
        #expect(Self.runnerUses(in: "try git.repository(at: path).stage(file, context: c)").count == 1)
        #expect(Self.runnerUses(in: "let r = workspace.git.repository(at: root)").count == 1)
        #expect(Self.runnerUses(in: "try Git(environment: e).repository(at: p).topLevel(context: c)").count == 1)
        #expect(
            Self.runnerUses(in: "try MergeTree.merge(p, in: repository.path, git: repository.git, what: w)").count == 1)
        #expect(Self.runnerUses(in: "IgnoreRules.ignored(paths, in: workspace.root, git: workspace.git)").count == 1)
        // Repositories derived from one held, the runner's settings read, comments and other names: none.
        #expect(Self.runnerUses(in: "let mirror = workspace.superproject.repository(at: path)").isEmpty)
        #expect(Self.runnerUses(in: "checkout.repository(at: inner)\nworkspace.git.allowLocalRemotes").isEmpty)
        #expect(Self.runnerUses(in: "/// Takes `git: Git` no more\n// git.repository(at: p)").isEmpty)
        #expect(Self.runnerUses(in: "func f(_ repository: GitRepository, gitDirectory: String)").isEmpty)
        #expect(Self.runnerUses(in: "let builder = ExampleBuilder(git: context.git.allowingLocalRemotes())").isEmpty)
    }

    /// Every Swift file under `Sources` (path relative to it, text) for which `include` holds; records an issue when
    /// the directory cannot be listed or holds suspiciously few files (the package root would be wrong).
    static func sourceFiles(where include: (String) -> Bool = { _ in true }) throws -> [(String, String)] {
        let sources = packageRoot.appendingPathComponent("Sources")
        guard let enumerator = FileManager.default.enumerator(atPath: sources.path) else {
            Issue.record("cannot list \(sources.path)")
            return []
        }
        var files: [(String, String)] = []
        for case let relative as String in enumerator where relative.hasSuffix(".swift") && include(relative) {
            files.append((relative, try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)))
        }
        #expect(files.count > 100, "scanned only \(files.count) files; is the package root right?")
        return files
    }

    @Test func noFeatureTakesARunnerBesideItsRepositoriesOrMakesOneFromARunner() throws {
        let files = try Self.sourceFiles(where: { relative in
            !Self.exempt.contains(where: { relative.hasPrefix($0 + "/") }) && !Self.makers.contains(relative)
        })
        let found = files.flatMap { relative, text in Self.runnerUses(in: text).map { "\(relative):\($0)" } }
        #expect(
            found.isEmpty,
            "a runner beside the repositories, or a repository made from one: \(found); take the workspace, the snapshot or the repository value instead (workspace.superproject, workspace.checkout(at:), snapshot.mirrorRepository(of:), repository.repository(at:))"
        )
    }

    /// The lookups that returned or took a plain `String` in place of the resolver's typed answer, as declared on
    /// `GitRepository` (`func lookUp(_ name: String, …)`) or called on a value (`.lookUp("HEAD", …)`). They are
    /// gone: an id comes from ``GitRepository/objectID(of:peeledTo:context:)``,
    /// ``GitRepository/resolve(_:peeledTo:context:)`` or ``GitRepository/value(of:context:)``. (Customization's own
    /// `lookUp(tenant:module:in:)` is another thing.)
    static let removedLookups = [
        #"func commit\(of"#, #"\.commit\(of:"#, #"func headCommit\("#, #"\.headCommit\("#,
        #"func bornHeadCommit\("#, #"\.bornHeadCommit\("#, #"func verify\(_"#, #"\.verify\("#,
        #"func lookUp\(_"#, #"\.lookUp\((?!tenant:)"#,
    ]

    /// Each pattern of ``removedLookups`` that matches in `text`.
    static func removedLookupUses(in text: String) -> [String] {
        removedLookups.filter { text.range(of: $0, options: .regularExpression) != nil }
    }

    @Test func theScanForRemovedLookupsFindsThemAndLeavesTheResolverAlone() {
        // Positive control: a declaration or a call of one of the removed lookups is found.
        #expect(Self.removedLookupUses(in: "public func headCommit(context: String) throws -> String").count == 1)
        #expect(Self.removedLookupUses(in: "public func lookUp(_ name: String, context: String) -> String?").count == 1)
        #expect(Self.removedLookupUses(in: #"try checkout.lookUp("HEAD", context: c)"#).count == 1)
        #expect(Self.removedLookupUses(in: "try mirror.commit(of: pin)").count == 1)
        #expect(Self.removedLookupUses(in: #"try superproject.verify("HEAD^1", context: c)"#).count == 1)
        // The resolver, and unrelated names that start alike, are none.
        #expect(Self.removedLookupUses(in: #"try checkout.resolve("HEAD", context: c)"#).isEmpty)
        #expect(Self.removedLookupUses(in: "try lookUp(tenant: t, module: m, in: p)").isEmpty)
        #expect(Self.removedLookupUses(in: "static func lookUp(tenant id: String, module name: String)").isEmpty)
        #expect(Self.removedLookupUses(in: "try Customization.lookUp(tenant: t, module: m, in: project)").isEmpty)
        #expect(Self.removedLookupUses(in: "try checkout.commit(message: m, noEdit: true, context: c)").isEmpty)
    }

    @Test func theStringLookupsThatForwardedToTheResolverStayRemoved() throws {
        let found = try Self.sourceFiles().flatMap { relative, text in
            Self.removedLookupUses(in: text).map { "\(relative): \($0)" }
        }
        #expect(
            found.isEmpty,
            "lookups that give a String in place of an ObjectID are back: \(found); use objectID(of:peeledTo:context:), resolve(_:peeledTo:context:) or value(of:context:)"
        )
    }
}
