import Foundation
import TenantKit
import TenantTestSupport
import Testing

@Suite struct AuditCommitGraphTests {
    /// A history with forks, merges in both directions and a criss-cross; returns the repository and named commits.
    func history(_ sandbox: GitSandbox) throws -> (repository: String, commits: [String]) {
        let repository = try sandbox.makeRepository("graph", branch: "general_dev")
        var commits: [String] = []
        func commit(_ label: String) throws {
            commits.append(try sandbox.commit(in: "graph", file: "\(label).txt", content: label, message: label))
        }
        func merge(_ branch: String) throws {
            try sandbox.git(["merge", "-q", "--no-ff", "-m", "merge \(branch)", branch], in: repository)
            commits.append(try sandbox.git(["rev-parse", "HEAD"], in: repository))
        }
        func checkout(_ branch: String, create: Bool = false) throws {
            try sandbox.git(["checkout", "-q"] + (create ? ["-b"] : []) + [branch], in: repository)
        }
        try commit("g1")
        try checkout("t1", create: true)
        try commit("a1")
        try commit("a2")
        try checkout("general_dev")
        try commit("g2")
        try checkout("t1")
        try merge("general_dev")
        try commit("a3")
        try checkout("t2", create: true)
        try commit("b1")
        try checkout("general_dev")
        try commit("g3")
        try checkout("x", create: true)
        try commit("x1")
        try checkout("general_dev")
        try merge("x")
        try checkout("t2")
        try merge("general_dev")
        try checkout("general_dev")
        try merge("t1")  // a tenant merged back: its commits are now on general_dev
        try commit("g4")
        return (repository, commits)
    }

    @Test func aheadBehindAndMergeBaseAgreeWithGit() throws {
        let sandbox = try GitSandbox()
        let (repository, commits) = try history(sandbox)
        let listing = try sandbox.git(["rev-list", "--parents", "--topo-order", "--all"], in: repository)
        let graph = try #require(CommitGraph(listing: listing))
        #expect(graph.count == Int(try sandbox.git(["rev-list", "--count", "--all"], in: repository)))
        for a in commits {
            for b in commits {
                let comparison = try #require(graph.compare(a, with: b))
                let ahead = Int(try sandbox.git(["rev-list", "--count", "--no-merges", "\(b)..\(a)"], in: repository))
                let behind = Int(try sandbox.git(["rev-list", "--count", "\(a)..\(b)"], in: repository))
                #expect(comparison.ahead == ahead, "\(a) vs \(b)")
                #expect(comparison.behind == behind, "\(a) vs \(b)")
                let bases = try sandbox.git(["merge-base", "--all", a, b], in: repository).split(separator: "\n")
                #expect(bases.map(String.init).contains(comparison.mergeBase ?? "none"), "\(a) vs \(b)")
                let ancestor = try sandbox.gitResult(["merge-base", "--is-ancestor", a, b], in: repository).status == 0
                #expect(graph.isAncestor(a, of: b) == ancestor, "\(a) ancestor of \(b)")
            }
        }
        let t2 = try sandbox.git(["rev-parse", "t2"], in: repository)
        let reachable = graph.reachable(from: [t2])
        #expect(reachable.count == Int(try sandbox.git(["rev-list", "--count", "t2"], in: repository)))
        // The same answers by position, for every commit of the graph and one it lacks.
        let reachability = graph.reachability(from: [t2])
        let all = try sandbox.git(["rev-list", "--all"], in: repository).split(separator: "\n").map(String.init)
        for commit in all { #expect(reachability.contains(commit) == reachable.contains(commit), "\(commit)") }
        #expect(all.contains { !reachability.contains($0) })
        #expect(!reachability.contains(String(repeating: "0", count: 40)))
        #expect(graph.compare(t2, with: String(repeating: "0", count: 40)) == nil)
    }

    @Test func rejectsListingsThatAreNotTopologicalOrMalformed() throws {
        let a = String(repeating: "a", count: 40)
        let b = String(repeating: "b", count: 40)
        #expect(CommitGraph(listing: "\(a) \(b)\n\(b)\n") != nil)
        #expect(CommitGraph(listing: "\(b)\n\(a) \(b)\n") == nil)  // parent before child
        #expect(CommitGraph(listing: "\(a) \(b)\n\(a)\n") == nil)  // duplicate
        #expect(CommitGraph(listing: "not-a-commit\n") == nil)
        #expect(CommitGraph(listing: "")?.count == 0)
        // A parent outside the listing (shallow) is ignored but still makes the commit a merge.
        let c = String(repeating: "c", count: 40)
        let graph = try #require(CommitGraph(listing: "\(a) \(b) \(c)\n\(b)\n"))
        #expect(graph.compare(a, with: b) == Comparison(ahead: 0, behind: 0, mergeBase: b))
    }

    @Test func diffTreeRawParserSplitsCommitsAndSkipsGitlinks() {
        let pin = String(repeating: "1", count: 40)
        let other = String(repeating: "2", count: 40)
        let zero = String(repeating: "0", count: 40)
        let records = [
            pin, ":100644 100644 \(zero) \(zero) M", "a b/ü.txt",
            ":160000 160000 \(zero) \(zero) M", "Modules/X",
            other, ":000000 100644 \(zero) \(zero) A", "new",
        ]
        let data = Data((records.joined(separator: "\0") + "\0").utf8)
        #expect(ChangedPaths.parseDiffTreeRaw(data) == [pin: ["a b/ü.txt"], other: ["new"]])
        #expect(ChangedPaths.parseDiffTreeRaw(Data(":100644 100644 x y M\0p\0".utf8)) == nil)  // change before a commit
        #expect(ChangedPaths.parseDiffTreeRaw(Data()) == [:])
    }
}
