import Foundation
import Testing

/// audit and the observation it reads take their repositories from the workspace and the snapshot (its superproject,
/// its modules' mirrors), not a runner to pair with paths: no `git: Git` parameter, no `git.repository(at:)`.
@Suite struct AuditRepositoryValueTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The files: the observation's reader and its orphan branches, the module pins' rule, every file of audit.
    static func files() throws -> [String] {
        let sources = packageRoot.appendingPathComponent("Sources")
        let audit = sources.appendingPathComponent("TenantAudit")
        let enumerator = try #require(FileManager.default.enumerator(atPath: audit.path))
        var files = [
            "TenantObservation/Observation/ObservationReader.swift",
            "TenantObservation/Observation/OrphanBranches.swift", "TenantModel/Findings/ModulePins.swift",
        ]
        for case let relative as String in enumerator where relative.hasSuffix(".swift") {
            files.append("TenantAudit/" + relative)
        }
        return files.map { sources.appendingPathComponent($0).path }
    }

    /// The lines of `text` that take a runner or pair one with a path.
    static func runnerUses(in text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            line.range(of: #"\bgit: Git\b"#, options: .regularExpression) != nil
                || line.contains("git.repository(at:")
        }
    }

    @Test func theScanFindsARunnerParameterAndLeavesRepositoryValuesAlone() {
        // Positive control: a runner parameter and a pair made by hand are found.
        #expect(Self.runnerUses(in: "static func read(snapshot: Snapshot, git: Git) throws").count == 1)
        #expect(Self.runnerUses(in: "try git.repository(at: path).log(range: r)").count == 1)
        // A repository value, or a runner read from one: nothing.
        #expect(Self.runnerUses(in: "func load(repository: GitRepository, git repo: GitRepository)").isEmpty)
        #expect(
            Self.runnerUses(in: "try CommitGraph.loadBranches(repository: repository.path, git: repository.git)")
                .isEmpty)
    }

    @Test func auditAndTheObservationTakeNoRunner() throws {
        let files = try Self.files()
        #expect(files.count > 20, "the scan found only \(files.count) files; is the package root right?")
        for file in files {
            let uses = Self.runnerUses(in: try String(contentsOfFile: file, encoding: .utf8))
            #expect(uses.isEmpty, "\(file) takes a runner; use the snapshot's or the workspace's repositories: \(uses)")
        }
    }
}
