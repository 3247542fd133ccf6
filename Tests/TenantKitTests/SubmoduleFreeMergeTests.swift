import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantRoll

/// roll's superproject merges run where git sees no submodule: merge-ort does not open a checked-out module's
/// repository (once per merge, reading its refs: minutes at 10,000 tenants), and a clone after `switch` merges as a
/// fresh clone does.
@Suite struct SubmoduleFreeMergeTests {
    @Test func aCheckedOutSubmoduleIsNotSearched() throws {
        let sandbox = try GitSandbox()
        let module = try sandbox.makeRepository("module")
        let first = try sandbox.git(["rev-parse", "HEAD"], in: module)
        let second = try sandbox.commit(in: "module", file: "README", content: "2\n")
        let third = try sandbox.commit(in: "module", file: "README", content: "3\n")
        let superproject = try sandbox.makeRepository("super")
        try sandbox.git(
            ["-c", "protocol.file.allow=always", "submodule", "add", "-q", module, "sub"], in: superproject)
        // base pins the first module commit, ours the second, theirs the third (a descendant of the second).
        func pin(_ commit: String, parent: String?) throws -> String {
            try sandbox.git(["update-index", "--cacheinfo", "160000,\(commit),sub"], in: superproject)
            let tree = try sandbox.git(["write-tree"], in: superproject)
            return try sandbox.git(
                ["commit-tree", tree, "-m", "pin"] + (parent.map { ["-p", $0] } ?? []), in: superproject)
        }
        let base = try pin(first, parent: try sandbox.git(["rev-parse", "HEAD"], in: superproject))
        let ours = try pin(second, parent: base)
        let theirs = try pin(third, parent: base)
        let git = try sandbox.gitRunner()

        // In the clone itself git fast-forwards the submodule: it looked into the module's repository.
        let searched = try MergeTree.merge([(ours, theirs)], in: superproject, git: git, what: "the superproject")
        #expect(searched.first?.clean == true)

        let free = try SubmoduleFreeMerge.repository(
            merging: GitRepository(superproject, git: git), commonDirectory: superproject + "/.git", objectID: ours)
        let results = try free.mergeTrees([(ours, theirs)], what: "the superproject")
        #expect(results.first?.clean == false)
        #expect(results.first?.paths == ["sub"])
        // The merged tree was written to the superproject's own object store.
        let tree = try #require(results.first?.tree)
        #expect(try sandbox.git(["cat-file", "-t", tree], in: superproject) == "tree")
    }
}
