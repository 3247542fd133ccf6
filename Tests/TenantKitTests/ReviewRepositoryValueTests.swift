import Foundation
import Testing

/// The review roll's files hold the repository values the workspace and the snapshot hand out
/// (`snapshot.superproject`, `snapshot.existingMirror(of:)`); they pair no path with a runner themselves, although
/// the rest of their target still does.
@Suite struct ReviewRepositoryValueTests {
    /// The review roll's sources under `Sources/TenantRoll/Roll`, by file name.
    static func reviewSources() throws -> [String: String] {
        let directory = RepositoryValueTests.packageRoot.appendingPathComponent("Sources/TenantRoll/Roll")
        var sources: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where name.hasPrefix("Review") && name.hasSuffix(".swift") {
            sources[name] = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
        return sources
    }

    @Test func theReviewRollBuildsNoRepositoryFromAPathAndARunner() throws {
        let sources = try Self.reviewSources()
        // Positive control: the scan sees the review roll's two main files.
        #expect(sources["ReviewRun.swift"] != nil && sources["ReviewProposer.swift"] != nil, "\(sources.keys)")
        for (name, text) in sources.sorted(by: { $0.key < $1.key }) {
            let count = RepositoryValueTests.constructions(in: text)
            #expect(
                count == 0,
                "\(name) builds \(count) GitRepository value(s) from a path and a runner; use the snapshot's repositories (snapshot.superproject, snapshot.existingMirror(of:))"
            )
        }
    }
}
