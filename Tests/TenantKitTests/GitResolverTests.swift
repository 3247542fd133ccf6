import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// The one resolver of a repository: a revision to the typed id it names, a ref to its value, and the yes/no lookups
/// built on it giving the same answers.
@Suite struct GitResolverTests {
    /// A repository with two commits on main, an annotated tag on the first; (sandbox, repository, [first, second]).
    func repository(function: String = #function) throws -> (GitSandbox, GitRepository, [String]) {
        let sandbox = try GitSandbox(function: function)
        let work = try sandbox.makeRepository("work")
        let second = try sandbox.commit(in: "work", file: "README", content: "y\n")
        let first = try sandbox.git(["rev-parse", "HEAD~1"], in: work)
        try sandbox.git(["tag", "-a", "-m", "first", "v1", first], in: work)
        return (sandbox, GitRepository(work, git: try sandbox.gitRunner()), [first, second])
    }

    @Test func aRevisionResolvesToTheIdGitNames() throws {
        let (sandbox, repository, commits) = try repository()
        defer { withExtendedLifetime(sandbox) {} }
        #expect(try repository.resolve("HEAD") == ObjectID(commits[1]))
        #expect(try repository.resolve("HEAD^1") == ObjectID(commits[0]))
        #expect(try repository.objectID(of: "refs/heads/main") == ObjectID(commits[1]))
        // An annotated tag is its own object until peeled.
        let tag = try sandbox.git(["rev-parse", "refs/tags/v1"], in: repository.path)
        #expect(try repository.objectID(of: "refs/tags/v1") == ObjectID(tag))
        #expect(try repository.objectID(of: "refs/tags/v1", peeledTo: .commit) == ObjectID(commits[0]))
        let tree = try sandbox.git(["rev-parse", "HEAD^{tree}"], in: repository.path)
        #expect(try repository.objectID(of: "HEAD", peeledTo: .tree) == ObjectID(tree))
        // Names nothing: nil, or git's own error from the throwing form.
        #expect(try repository.objectID(of: "refs/heads/nothing") == nil)
        #expect(try repository.objectID(of: "HEAD:no-such-file") == nil)
        #expect(try repository.objectID(of: tree, peeledTo: .commit) == nil)
        let error = #expect(throws: GitError.self) { try repository.resolve("HEAD~5", context: "find HEAD~5") }
        #expect(error?.description.hasPrefix("find HEAD~5 failed") == true)
        #expect(error?.stderr.contains("Needed a single revision") == true)
    }

    @Test func aRefsValueIsItsIdOrNilWhenItIsAbsent() throws {
        let (sandbox, repository, commits) = try repository()
        defer { withExtendedLifetime(sandbox) {} }
        #expect(try repository.value(of: try #require(RefName.branch("main"))) == ObjectID(commits[1]))
        #expect(try repository.value(of: try #require(RefName.branch("absent"))) == nil)
        #expect(try repository.value(of: try #require(RefName.tag("v1"))) != ObjectID(commits[0]), "not peeled")
    }

    @Test func theYesNoLookupsAnswerAsTheResolver() throws {
        let (sandbox, repository, commits) = try repository()
        defer { withExtendedLifetime(sandbox) {} }
        #expect(try repository.objectID(of: "v1", peeledTo: .commit)?.hex == commits[0])
        #expect(try repository.hasCommit(commits[0]))
        #expect(try !repository.hasCommit(String(repeating: "0", count: 40)))
        #expect(try repository.hasRef("refs/tags/v1", context: "v1"))
        #expect(try !repository.hasRef("refs/tags/v2", context: "v2"))
        #expect(try repository.resolves("HEAD:README", context: "README"))
        #expect(try !repository.resolves("HEAD:absent", context: "absent"))
    }

    @Test func anUnbornHeadResolvesToNothing() throws {
        let sandbox = try GitSandbox()
        try sandbox.git(["init", "-q", "-b", "main", sandbox.path("empty")])
        let repository = GitRepository(sandbox.path("empty"), git: try sandbox.gitRunner())
        defer { withExtendedLifetime(sandbox) {} }
        #expect(try repository.objectID(of: "HEAD") == nil)
        #expect(throws: GitError.self) { try repository.resolve("HEAD", context: "HEAD") }
    }
}
