import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// CommitWriter writes commits through one `git fast-import`: the same ids as `hash-object -t commit` of the same
/// text, no ref, a pack instead of loose objects for a large batch.
@Suite struct CommitWriterTests {
    let identity = CommitIdentity(
        author: "Ada Author <ada@example.invalid> 1700000000 +0100",
        committer: "Cy Committer <cy@example.invalid> 1700000100 -0500")

    /// A bare repository with two commits on main; returns (sandbox, repository, [older, newer]).
    func repository(function: String = #function) throws -> (GitSandbox, String, [String]) {
        let sandbox = try GitSandbox(function: function)
        let work = try sandbox.makeRepository("work")
        let second = try sandbox.commit(in: "work", file: "README", content: "y\n")
        let first = try sandbox.git(["rev-parse", "HEAD~1"], in: work)
        let bare = sandbox.path("repo.git")
        try sandbox.git(["clone", "-q", "--bare", work, bare])
        return (sandbox, bare, [first, second])
    }

    /// What `hash-object -t commit` gives the commit text CommitWriter means.
    func hashObjectID(_ spec: CommitSpec, sandbox: GitSandbox, in repository: String) throws -> String {
        var text = "tree \(spec.tree)\n"
        for parent in spec.parents { text += "parent \(parent)\n" }
        text += "author \(identity.author)\ncommitter \(identity.committer)\n\n\(spec.message)\n"
        return try sandbox.git(["hash-object", "-t", "commit", "--stdin"], in: repository, input: text)
    }

    @Test func idsMatchHashObjectForEveryShape() throws {
        let (sandbox, repo, commits) = try repository()
        let git = try sandbox.gitRunner()
        let tree = try sandbox.git(["rev-parse", commits[1] + "^{tree}"], in: repo)
        let oldTree = try sandbox.git(["rev-parse", commits[0] + "^{tree}"], in: repo)
        let specs = [
            CommitSpec(tree: tree, parents: [commits[1], commits[0]], message: "Roll general_dev into t1: merge"),
            CommitSpec(tree: oldTree, parents: [commits[1]], message: "one parent\n\nwith a body, ümlauts → arrows"),
            CommitSpec(tree: tree, parents: [], message: "a root commit"),
            CommitSpec(tree: oldTree, parents: [commits[0]], message: "after the root: its parent is its own"),
            CommitSpec(tree: tree, parents: [commits[0], commits[1], commits[0]], message: "three parents"),
        ]
        let ids = try CommitWriter.write(specs, in: repo, identity: identity, git: git)
        #expect(ids.count == specs.count)
        for (spec, id) in zip(specs, ids) {
            #expect(id == (try hashObjectID(spec, sandbox: sandbox, in: repo)))
            // The object exists, with the parents given (the root commit has none).
            let parents = try sandbox.git(["rev-list", "--parents", "-n", "1", id], in: repo)
                .split(separator: " ").dropFirst().map(String.init)
            #expect(parents == spec.parents)
        }
        // No ref was written, not even the scratch branch.
        let refs = try sandbox.git(["for-each-ref", "--format=%(refname)"], in: repo)
        #expect(refs == "refs/heads/main")
    }

    @Test func aLargeBatchIsOnePackNotLooseObjects() throws {
        let (sandbox, repo, commits) = try repository()
        let git = try sandbox.gitRunner()
        let tree = try sandbox.git(["rev-parse", commits[1] + "^{tree}"], in: repo)
        func looseCount() throws -> Int {
            let lines = try sandbox.git(["count-objects", "-v"], in: repo).split(separator: "\n")
            let count = lines.first { $0.hasPrefix("count: ") }?.dropFirst("count: ".count)
            return Int(count ?? "") ?? -1
        }
        let looseBefore = try looseCount()
        let specs = (0..<300).map {
            CommitSpec(tree: tree, parents: [commits[1], commits[0]], message: "merge \($0)")
        }
        let ids = try CommitWriter.write(specs, in: repo, identity: identity, git: git)
        #expect(Set(ids).count == 300)
        #expect(try looseCount() == looseBefore)
        let missing = try sandbox.gitResult(["cat-file", "-e", ids[299]], in: repo)
        #expect(missing.status == 0)
    }

    @Test func aBadTreeIsRefusedAndNothingIsWritten() throws {
        let (sandbox, repo, commits) = try repository()
        let git = try sandbox.gitRunner()
        let objectsBefore = try sandbox.git(["count-objects", "-v"], in: repo)
        // Not an object id: refused before git runs.
        #expect(throws: CommitWriterError.self) {
            try CommitWriter.write(
                [CommitSpec(tree: "main", parents: [commits[0]], message: "x")], in: repo, identity: identity,
                git: git)
        }
        // A well-formed id of a tree that does not exist: fast-import fails, and the error names the commits.
        let absent = String(repeating: "1", count: 40)
        #expect(throws: GitError.self) {
            try CommitWriter.write(
                [CommitSpec(tree: absent, parents: [commits[0]], message: "x")], in: repo, identity: identity,
                git: git)
        }
        #expect(try sandbox.git(["count-objects", "-v"], in: repo) == objectsBefore)
        // Positive control: the same call with the real tree writes.
        let tree = try sandbox.git(["rev-parse", commits[0] + "^{tree}"], in: repo)
        let id = try CommitWriter.write(
            CommitSpec(tree: tree, parents: [commits[0]], message: "x"), in: repo, identity: identity, git: git)
        #expect(ObjectID.isValid(id))
    }
}
