import Foundation
import TenantKit
import TenantTestSupport
import Testing

@Suite struct BatchProcessTests {
    @Test func catFileBatchReadsManyObjectsWithOneProcess() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("repo", files: ["a.txt": "alpha\n", "dir/b.txt": "beta\n"])
        let git = try sandbox.gitRunner()
        let batch = try CatFileBatch(git: git, repository: repo)
        let objects = try batch.objects(["HEAD:a.txt", "HEAD:missing", "HEAD:dir/b.txt", "HEAD:dir"])
        #expect(objects.count == 4)
        #expect(objects[0]?.text == "alpha\n")
        #expect(objects[0]?.type == "blob")
        #expect(objects[1] == nil)
        #expect(objects[2]?.text == "beta\n")
        let tree = try #require(objects[3])
        #expect(tree.type == "tree")
        let entries = try #require(GitParse.treeObject(tree.data))
        #expect(entries.map(\.name) == ["b.txt"])
        #expect(entries[0].id == (try sandbox.git(["rev-parse", "HEAD:dir/b.txt"], in: repo)))
        // Many requests (more than one chunk) in order.
        let many = try batch.objects(Array(repeating: "HEAD:a.txt", count: 300))
        #expect(many.allSatisfy { $0?.text == "alpha\n" })
        try batch.close()
    }

    @Test func treeObjectParserReadsGitlinks() throws {
        let sandbox = try GitSandbox()
        let sub = try sandbox.makeRepository("sub")
        let sup = try sandbox.makeRepository("sup")
        try sandbox.git(["submodule", "add", "-q", sub, "Modules/Sub"], in: sup)
        try sandbox.git(["commit", "-q", "-m", "pin"], in: sup)
        let git = try sandbox.gitRunner()
        let batch = try CatFileBatch(git: git, repository: sup)
        let tree = try #require(try batch.object("HEAD:Modules"))
        let entries = try #require(GitParse.treeObject(tree.data))
        #expect(entries.count == 1)
        #expect(entries[0].isGitlink)
        #expect(entries[0].name == "Sub")
        #expect(entries[0].id == (try sandbox.git(["rev-parse", "HEAD"], in: sub)))
        let listed = try #require(
            GitParse.lsTree(try git.run(["ls-tree", "-z", "HEAD", "--", "Modules/Sub"], in: sup).stdout))
        #expect(listed.map(\.path) == ["Modules/Sub"])
        #expect(listed[0].entry.isGitlink)
        #expect(GitParse.treeObject([1, 2, 3]) == nil)
    }

    @Test func refTransactionAppliesAllUpdatesAtomically() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("repo")
        let first = try sandbox.git(["rev-parse", "HEAD"], in: repo)
        let second = try sandbox.commit(in: "repo", file: "f", content: "2\n")
        let git = try sandbox.gitRunner()
        var journalWritten = false
        try RefTransaction.apply(
            [
                try RefUpdate(checking: "refs/heads/a", new: first, old: nil),
                try RefUpdate(checking: "refs/heads/main", new: first, old: second),
            ], in: repo, git: git, context: "test transaction", beforeCommit: { journalWritten = true })
        #expect(journalWritten)
        let refs = try sandbox.refs(repo)
        #expect(refs["refs/heads/a"] == first)
        #expect(refs["refs/heads/main"] == first)
    }

    @Test func refTransactionAbortsAsAWholeWhenOneOldValueDoesNotMatch() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("repo")
        let first = try sandbox.git(["rev-parse", "HEAD"], in: repo)
        let second = try sandbox.commit(in: "repo", file: "f", content: "2\n")
        try sandbox.git(["branch", "b", first], in: repo)
        let before = try sandbox.refs(repo)
        let git = try sandbox.gitRunner()
        var journalWritten = false
        let error = #expect(throws: GitError.self) {
            try RefTransaction.apply(
                [
                    try RefUpdate(checking: "refs/heads/new", new: second, old: nil),
                    try RefUpdate(checking: "refs/heads/b", new: second, old: second),  // wrong lease: b is at first
                ], in: repo, git: git, context: "roll t2", beforeCommit: { journalWritten = true })
        }
        #expect(!journalWritten)
        let text = try #require(error).description
        #expect(text.hasPrefix("roll t2 failed"))
        #expect(text.contains("refs/heads/b"))
        #expect(try sandbox.refs(repo) == before)
        #expect(!FileManager.default.fileExists(atPath: repo + "/.git/refs/heads/new.lock"))
    }

    @Test func refTransactionAbortsWhenJournalFails() throws {
        struct JournalFull: Error {}
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("repo")
        let head = try sandbox.git(["rev-parse", "HEAD"], in: repo)
        let before = try sandbox.refs(repo)
        let git = try sandbox.gitRunner()
        let update = try RefUpdate(checking: "refs/heads/x", new: head, old: nil)
        #expect(throws: JournalFull.self) {
            try RefTransaction.apply(
                [update], in: repo, git: git, context: "t",
                beforeCommit: { throw JournalFull() })
        }
        #expect(try sandbox.refs(repo) == before)
    }

    @Test func parsersReadMachineFormats() {
        #expect(
            GitParse.refs("refs/heads/a\0abc\nrefs/heads/b c\0def\n") == [
                "refs/heads/a": "abc", "refs/heads/b c": "def",
            ])
        #expect(GitParse.refs("garbage") == nil)
        let parents = GitParse.parents("c3 c2 c1\nc1\n")
        #expect(parents.map(\.commit) == ["c3", "c1"])
        #expect(parents[0].parents == ["c2", "c1"])
        #expect(GitParse.lsTree(Data("160000 commit abc\tModules/A B\0".utf8))?.first?.path == "Modules/A B")
        #expect(GitParse.lsTree(Data("broken\0".utf8)) == nil)
    }
}
