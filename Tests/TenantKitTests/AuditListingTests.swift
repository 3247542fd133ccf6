import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// audit reads each module's branch names and commit graph in one listing (`git log --branches` with the branches
/// at each commit): the same branches as `for-each-ref`, the same graph as `rev-list`, the same report.
@Suite struct AuditListingTests {
    /// A repository with a branch at an old commit, nested and comma names, a commit no branch reaches and a tag.
    static func repository(_ sandbox: GitSandbox) throws -> (path: String, loose: String, old: String) {
        let repo = try sandbox.makeRepository("repo")
        let old = try sandbox.git(["rev-parse", "HEAD"], in: repo)
        try sandbox.commit(in: "repo", file: "f", content: "1\n")
        try sandbox.git(["branch", "feature/x", old], in: repo)
        try sandbox.git(["branch", "a,b"], in: repo)
        try sandbox.git(["checkout", "-q", "-b", "side", old], in: repo)
        try sandbox.commit(in: "repo", file: "g", content: "side\n")
        try sandbox.git(["checkout", "-q", "main"], in: repo)
        try sandbox.git(["merge", "-q", "--no-edit", "side"], in: repo)
        try sandbox.git(["tag", "v1", old], in: repo)
        // A commit on no branch (a pin pushed and its branch deleted).
        let tree = try sandbox.git(["rev-parse", "HEAD^{tree}"], in: repo)
        let loose = try sandbox.git(["commit-tree", tree, "-p", old, "-m", "loose"], in: repo)
        return (repo, loose, old)
    }

    @Test func oneListingGivesTheBranchesOfForEachRefAndTheGraphOfRevList() throws {
        let sandbox = try GitSandbox()
        let (repo, loose, old) = try Self.repository(sandbox)
        let missing = String(repeating: "1", count: 40)
        let calls = Locked([[String]]())
        let git = try sandbox.gitRunner().tracing(into: calls)
        let read = try CommitGraph.loadBranches(more: [loose, old, missing], repository: repo, git: git, what: "repo")
        #expect(calls.current.count == 1, "\(calls.current)")
        let branches = try GitRefs.branches(under: "refs/heads/", in: repo, git: git, what: "repo")
        #expect(read.branches == branches)
        #expect(Set(read.branches.keys) == ["main", "side", "feature/x", "a,b"])
        let listed = try CommitGraph.load(
            tips: Set(branches.values).sorted() + [loose, old, missing], repository: repo, git: git, what: "repo")
        #expect(read.graph.count == listed.count)
        let commits = try sandbox.git(["rev-list", "--all", loose], in: repo).split(separator: "\n").map(String.init)
        #expect(commits.count == read.graph.count)
        for commit in commits {
            #expect(read.graph.contains(commit))
            for base in [old, branches["main"] ?? "", loose] {
                #expect(read.graph.compare(commit, with: base) == listed.compare(commit, with: base))
            }
        }
        #expect(read.graph.isAncestor(old, of: loose))
        #expect(!read.graph.contains(missing))
    }

    @Test func aBranchAtAnAnnotatedTagIsReadAsForEachRefGivesIt() throws {
        let sandbox = try GitSandbox()
        let (repo, _, old) = try Self.repository(sandbox)
        try sandbox.git(["tag", "-a", "-m", "annotated", "release", old], in: repo)
        let tagObject = try sandbox.git(["rev-parse", "release"], in: repo)
        // git refuses a branch at a non-commit, a remote may have one all the same.
        try sandbox.write("repo/.git/refs/heads/tagged", tagObject + "\n")
        let calls = Locked([[String]]())
        let git = try sandbox.gitRunner().tracing(into: calls)
        let read = try CommitGraph.loadBranches(more: [], repository: repo, git: git, what: "repo")
        #expect(read.branches["tagged"] == tagObject)
        #expect(read.branches == (try sandbox.branches(repo)))
        #expect(read.graph.contains(old))
        #expect(calls.current.count == 2, "\(calls.current)")  // the listing, then for-each-ref
    }

    @Test func aRepositoryWithoutBranchesListsTheGivenCommitsOnly() throws {
        let sandbox = try GitSandbox()
        let (repo, _, old) = try Self.repository(sandbox)
        let bare = sandbox.path("bare.git")
        try sandbox.git(["clone", "-q", "--bare", repo, bare])
        let tree = try sandbox.git(["rev-parse", "\(old)^{tree}"], in: bare)
        let loose = try sandbox.git(["commit-tree", tree, "-p", old, "-m", "loose"], in: bare)
        for branch in try sandbox.branches(bare).keys {
            try sandbox.git(["update-ref", "-d", "refs/heads/\(branch)"], in: bare)
        }
        #expect(try sandbox.branches(bare).isEmpty)
        let git = try sandbox.gitRunner()
        let none = try CommitGraph.loadBranches(more: [], repository: bare, git: git, what: "bare")
        #expect(none.branches.isEmpty && none.graph.count == 0)
        let pinned = try CommitGraph.loadBranches(more: [loose], repository: bare, git: git, what: "bare")
        #expect(pinned.branches.isEmpty)
        #expect(pinned.graph.contains(loose) && pinned.graph.count == 2)
        // Positive control: the listing reads the branches when there are some.
        try sandbox.git(["branch", "restored", loose], in: bare)
        #expect(try CommitGraph.loadBranches(more: [], repository: bare, git: git, what: "bare").branches.count == 1)
    }

    /// The report of the example in its states (an orphan branch, a stale pin, one tenant chosen) is the same bytes
    /// whether the snapshot lists the module branches (as before) or the observation reads them with the graphs;
    /// and audit starts one history listing per repository and no `for-each-ref` in a module mirror.
    @Test func auditReadsEachModuleInOneListingAndReportsTheSame() throws {
        let sandbox = try GitSandbox()
        let plain = try sandbox.gitRunner()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .afterUpdates)
        let workspace = try Workspace.locate(from: example.workspace, git: plain)
        let when = Date(timeIntervalSince1970: 0)
        _ = try AuditRun(generatedAt: when).run(
            workspace: workspace, fetch: true, wait: false, console: nil)
        // An orphan (Article has a branch t1, t1 does not customise it) and a module branch ahead of its pin.
        try sandbox.git(["branch", "t1", "general_dev"], in: example.remotes + "/Article.git")
        let clone = sandbox.path("push")
        try sandbox.git(["clone", "-q", "-b", "t2", example.remotes + "/Customer.git", clone])
        try sandbox.git(["commit", "-q", "--allow-empty", "-m", "unpinned"], in: clone)
        try sandbox.git(["push", "-q", "origin", "t2"], in: clone)
        _ = try AuditRun(generatedAt: when).run(
            workspace: workspace, fetch: true, wait: false, console: nil)

        func report(_ tenants: [String], listed: Bool, git: Git) throws -> [UInt8] {
            let located = try Workspace.locate(from: example.workspace, git: git)
            var options = Snapshot.Options(purpose: .report, fetch: false, allowLocalRemotes: true)
            options.listModuleBranches = listed
            let snapshot = try Snapshot.load(workspace: located, options: options)
            #expect(snapshot.moduleBranchesListed == listed)
            return AuditJSONRenderer.renderBytes(
                try AuditRun(tenants: tenants, generatedAt: when).report(snapshot: snapshot))
        }
        for tenants in [[], ["t2"], ["t3"]] {
            let before = try report(tenants, listed: true, git: plain)
            let after = try report(tenants, listed: false, git: plain)
            #expect(before == after, "tenants \(tenants)")
            // Positive control: the states above are in the report.
            let text = String(decoding: after, as: UTF8.self)
            #expect(text.contains("orphan-branch"), "tenants \(tenants)")
        }
        #expect(String(decoding: try report([], listed: false, git: plain), as: UTF8.self).contains("stale-pin"))

        // git processes of the whole audit, by repository.
        let calls = Locked([[String]]())
        let traced = try sandbox.gitRunner().tracing(into: calls)
        let located = try Workspace.locate(from: example.workspace, git: traced)
        calls.withLock { $0 = [] }
        _ = try AuditRun(generatedAt: when).run(
            workspace: located, fetch: false, wait: false, console: nil)
        let mirrors = ["Infrastructure", "Article", "Customer", "Order"].map {
            "\(located.commonDirectory)/tenantctl/mirrors/\($0).git"
        }
        let byRepository = Self.byRepository(calls.current)
        for mirror in mirrors {
            let inMirror = byRepository[URL(fileURLWithPath: mirror).standardizedFileURL.path] ?? []
            #expect(inMirror.filter(Self.listsHistory).count == 1, "\(mirror): \(inMirror)")
            #expect(!inMirror.contains { $0.contains("for-each-ref") }, "\(mirror): \(inMirror)")
        }
        // Positive control: a snapshot that lists the branches runs for-each-ref in every mirror.
        calls.withLock { $0 = [] }
        _ = try Snapshot.load(
            workspace: located,
            options: Snapshot.Options(purpose: .report, fetch: false, allowLocalRemotes: true))
        let listing = Self.byRepository(calls.current)
        for mirror in mirrors {
            let inMirror = listing[URL(fileURLWithPath: mirror).standardizedFileURL.path] ?? []
            #expect(inMirror.contains { $0.contains("for-each-ref") }, "\(mirror): \(inMirror)")
        }
    }

    /// A call that lists a repository's commit graph: `rev-list --parents` or a `log` whose format has the parents.
    static func listsHistory(_ call: String) -> Bool {
        (call.contains(" rev-list ") && call.contains("--parents")) || (call.contains(" log ") && call.contains("%P"))
    }

    /// The calls (arguments joined by spaces) by the repository given with `-C`.
    static func byRepository(_ calls: [[String]]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for vector in calls {
            guard let index = vector.firstIndex(of: "-C"), index + 1 < vector.count else { continue }
            let directory = URL(fileURLWithPath: vector[index + 1]).standardizedFileURL.path
            result[directory, default: []].append(" " + vector.joined(separator: " ") + " ")
        }
        return result
    }
}

extension Git {
    /// This runner, recording every call's argument vector into `calls`.
    func tracing(into calls: Locked<[[String]]>) throws -> Git {
        try Git(
            executable: executable, environment: environment, allowLocalRemotes: allowLocalRemotes,
            trace: { vector, _ in calls.withLock { $0.append(vector) } })
    }
}
