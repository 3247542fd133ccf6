import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// The one reader of `.gitmodules` on real repositories: at a commit (one lookup, or through an open
/// `cat-file --batch`), of a working-tree file, and its lookups, against what git itself makes of the file.
@Suite struct GitmodulesTests {
    static let twoEntries = """
        [submodule "core"]
        \tpath = libs/core
        \turl = https://example.com/core.git
        [submodule "ui"]
        \tpath = app/ui
        \turl = ../ui
        """
    static let pathNamedTwice = """
        [submodule "first"]
        \tpath = libs/x
        \turl = https://example.com/first
        [submodule "second"]
        \tpath = libs/x
        \turl = https://example.com/second
        """
    static let malformed = "[submodule \"core\"\n\tpath = libs/core\n"

    /// A repository with one commit per `.gitmodules` content (nil: the commit has none); their ids in order.
    func history(_ sandbox: GitSandbox, _ contents: [String?]) throws -> (path: String, commits: [String]) {
        let repository = try sandbox.makeRepository("super")
        var commits: [String] = []
        for (index, content) in contents.enumerated() {
            if let content {
                try sandbox.write("super/.gitmodules", content + "\n")
                try sandbox.git(["add", "--", ".gitmodules"], in: repository)
            } else if FileManager.default.fileExists(atPath: repository + "/.gitmodules") {
                try sandbox.git(["rm", "-q", "--", ".gitmodules"], in: repository)
            }
            try sandbox.git(["commit", "-q", "--allow-empty", "-m", "step \(index)"], in: repository)
            commits.append(try sandbox.git(["rev-parse", "HEAD"], in: repository))
        }
        return (repository, commits)
    }

    @Test func aCommitAndABatchGiveTheSameAnswer() throws {
        let sandbox = try GitSandbox()
        let (path, commits) = try history(sandbox, [nil, Self.twoEntries, Self.pathNamedTwice, Self.twoEntries])
        let repository = GitRepository(path, git: try sandbox.gitRunner())
        let batch = try CatFileBatch(git: repository.git, repository: path)
        defer { try? batch.close() }

        // No file: nil (not an empty file), by either way.
        #expect(try repository.gitmodules(at: commits[0]) == nil)
        #expect(try repository.gitmodules(at: commits[0], batch: batch) == nil)

        // Two entries, in file order, as git lists them.
        let two = try #require(try repository.gitmodules(at: commits[1]))
        #expect(
            two.entries == [
                GitmodulesEntry(name: "core", path: "libs/core", url: "https://example.com/core.git"),
                GitmodulesEntry(name: "ui", path: "app/ui", url: "../ui"),
            ])
        #expect(try repository.gitmodules(at: commits[1], batch: batch) == two)
        #expect(two.name(ofPath: "app/ui") == "ui")
        #expect(two.name(ofPath: "app") == nil)
        #expect(two.entry(named: "core")?.path == "libs/core")
        #expect(two.entry(named: "libs/core") == nil)

        // Many at once: one answer per commit, in order, the same as one at a time.
        let many = try repository.gitmodules(at: commits + ["HEAD"], batch: batch)
        #expect(many.count == 5)
        for (offset, commit) in commits.enumerated() {
            #expect(many[offset] == (try repository.gitmodules(at: commit)))
        }
        #expect(many[4] == two)
    }

    @Test func aPathNamedTwiceHasTheNameGitGivesIt() throws {
        let sandbox = try GitSandbox()
        let (path, commits) = try history(sandbox, [Self.pathNamedTwice])
        let repository = GitRepository(path, git: try sandbox.gitRunner())
        let gitmodules = try #require(try repository.gitmodules(at: commits[0]))
        #expect(gitmodules.entries.map(\.name) == ["first", "second"])
        // git registers the module at that path under its last name.
        let pinned = try sandbox.git(["rev-parse", "HEAD"], in: path)
        try sandbox.git(["update-index", "--add", "--cacheinfo", "160000,\(pinned),libs/x"], in: path)
        try sandbox.git(["commit", "-q", "-m", "pin"], in: path)
        try sandbox.git(["submodule", "init", "--", "libs/x"], in: path)
        #expect(try sandbox.git(["config", "--get", "submodule.second.url"], in: path) == "https://example.com/second")
        #expect(try sandbox.gitResult(["config", "--get", "submodule.first.url"], in: path).status == 1)
        #expect(gitmodules.name(ofPath: "libs/x") == "second")
        #expect(gitmodules.namesByPath == ["libs/x": "second"])
        #expect(try repository.gitmodules(file: ".gitmodules")?.name(ofPath: "libs/x") == "second")
        #expect(try repository.submoduleNamesByPath() == ["libs/x": "second"])
    }

    @Test func aMalformedFileIsGitsErrorNotAnEmptyList() throws {
        let sandbox = try GitSandbox()
        let (path, commits) = try history(sandbox, [Self.twoEntries, Self.malformed])
        let repository = GitRepository(path, git: try sandbox.gitRunner())
        let batch = try CatFileBatch(git: repository.git, repository: path)
        defer { try? batch.close() }
        // Positive control: the well-formed file before it reads.
        #expect(try repository.gitmodules(at: commits[0])?.entries.count == 2)
        for read in [
            { () throws -> Gitmodules? in try repository.gitmodules(at: commits[1]) },
            { try repository.gitmodules(at: commits[1], batch: batch) },
            { try repository.gitmodules(file: ".gitmodules") },
            { try repository.gitmodules(file: path + "/.gitmodules") },
        ] {
            let error = try #require(throws: GitError.self) { try read() }
            #expect(error.description.contains("bad config line 2"), "\(error)")
            #expect(error.description.contains(".gitmodules"), "\(error)")
        }
        #expect(throws: GitError.self) { try repository.submoduleNamesByPath() }
    }

    @Test func aWorkingTreeFileIsReadLikeACommitsAndNoFileIsNil() throws {
        let sandbox = try GitSandbox()
        let (path, commits) = try history(sandbox, [Self.twoEntries])
        let repository = GitRepository(path, git: try sandbox.gitRunner())
        let file = try #require(try repository.gitmodules(file: ".gitmodules"))
        #expect(file == (try repository.gitmodules(at: commits[0])))
        #expect(try repository.gitmodules(file: path + "/.gitmodules") == file)
        try sandbox.git(["rm", "-q", "--", ".gitmodules"], in: path)
        #expect(try repository.gitmodules(file: ".gitmodules") == nil)
        #expect(try repository.submoduleNamesByPath() == [:])
    }

    @Test func aDirectoryThatIsNoRepositoryIsAnErrorNotNoFile() throws {
        let sandbox = try GitSandbox()
        let (path, commits) = try history(sandbox, [Self.twoEntries])
        let plain = sandbox.path("plain")
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: true)
        // Positive control: the repository answers.
        #expect(try GitRepository(path, git: try sandbox.gitRunner()).gitmodules(at: commits[0]) != nil)
        #expect(throws: GitError.self) {
            try GitRepository(plain, git: try sandbox.gitRunner()).gitmodules(at: commits[0])
        }
    }
}
