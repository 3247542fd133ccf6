import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// When git's output cannot be read, the error names the command that ran, as it ran, and carries git's result:
/// a person can run it again and see what came back.
@Suite struct GitErrorCommandTests {
    /// A git whose `subcommand` exits 0 with `garbage` on stdout and "shim: garbled" on stderr; every other call runs
    /// the real git.
    func garbling(_ subcommand: String, with garbage: String, in sandbox: GitSandbox) throws -> Git {
        let shim = try sandbox.writeExecutable(
            "bin/git-garbling-\(subcommand)",
            """
            #!/bin/sh
            for argument in "$@"; do
                if [ "$argument" = '\(subcommand)' ]; then
                    printf '%s\\n' '\(garbage)'
                    echo 'shim: garbled' >&2
                    exit 0
                fi
            done
            exec git "$@"

            """)
        return try sandbox.gitRunner(executable: shim)
    }

    @Test func anUnreadableCommitGraphNamesTheWholeCommand() throws {
        let sandbox = try GitSandbox()
        let repository = try sandbox.makeRepository("repo")
        let tip = try sandbox.git(["rev-parse", "HEAD"], in: repository).trimmingCharacters(in: .whitespacesAndNewlines)
        // Positive control: the real git's graph is read.
        let graph = try CommitGraph.load(tips: [tip], repository: repository, git: sandbox.gitRunner(), what: "repo")
        #expect(graph.count == 1 && graph.contains(tip))

        let git = try garbling("rev-list", with: "not-an-id", in: sandbox)
        let error = try #require(
            #expect(throws: GitError.self) {
                try CommitGraph.load(tips: [tip], repository: repository, git: git, what: "repo")
            })
        #expect(
            error.userCommand.suffix(5) == ["rev-list", "--parents", "--topo-order", "--ignore-missing", "--stdin"],
            "\(error.command)")
        #expect(error.stderr == "shim: garbled")
        #expect(error.output?.text == "not-an-id")
        #expect(error.description.contains("--ignore-missing --stdin (in \(repository))"), "\(error.description)")
    }

    @Test func unreadableChangedPathsNameTheCommandAndWhatGitSaid() throws {
        let sandbox = try GitSandbox()
        let repository = try sandbox.makeRepository("repo")
        let base = try sandbox.git(["rev-parse", "HEAD"], in: repository).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let commit = try sandbox.commit(in: "repo", file: "A.swift", content: "// a\n")
        let pairs = [(commit: commit, base: base)]
        // Positive control: the real git's answer is read.
        #expect(
            try ChangedPaths.between(
                pairs, repository: repository, what: "repo", gitlinks: false, git: sandbox.gitRunner())
                == [commit: ["A.swift"]])

        let git = try garbling("diff-tree", with: "garbage", in: sandbox)
        let error = try #require(
            #expect(throws: GitError.self) {
                try ChangedPaths.between(pairs, repository: repository, what: "repo", gitlinks: false, git: git)
            })
        #expect(error.userCommand.suffix(6) == ["diff-tree", "--stdin", "-r", "--raw", "-z", "--no-renames"])
        #expect(error.directory == repository)
        #expect(error.stderr == "shim: garbled")
        #expect(error.description.contains("  git said:\n    shim: garbled"), "\(error.description)")
    }

    @Test func aFastImportThatPrintsTooFewIdsNamesTheCommand() throws {
        let sandbox = try GitSandbox()
        let repository = try GitRepository.initBare(
            at: sandbox.path("bare.git"), git: sandbox.gitRunner(), objectFormat: "sha1", initialBranch: "main",
            context: "make a bare repository")
        let stream = Data(
            """
            commit refs/heads/main
            mark :1
            committer A <a@example.com> 1700000000 +0000
            data 2
            a

            get-mark :1
            done

            """.utf8)
        // Positive control: one mark asked for, one id back.
        #expect(try repository.fastImport(stream, marks: 1, context: "import one commit").count == 1)

        let error = try #require(
            #expect(throws: GitError.self) {
                try repository.fastImport(stream, marks: 2, context: "import one commit")
            })
        #expect(error.userCommand.suffix(3) == ["fast-import", "--quiet", "--done"])
        #expect(error.userCommand.contains("-C"), "the command names the repository: \(error.command)")
        #expect(error.description.contains("expected 2 commit ids, got 1 lines"), "\(error.description)")
        #expect(error.output != nil)
    }
}
