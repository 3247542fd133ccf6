import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// AtomicPush sends the branches it sets from staged refs with one pattern refspec: the remote gets exactly the
/// updates asked for, all or none, and the pushing repository keeps no staged ref.
@Suite(.tags(.slow), .notInTheFastSet) struct AtomicPushTests {
    /// A remote with `count` branches b00…, a clone of it (the pushing repository) with one new commit per branch.
    struct Fixture {
        let sandbox: GitSandbox
        let remote: String
        let local: String
        let git: Git
        /// Branch → (old, new).
        let commits: [String: (old: String, new: String)]

        func remoteBranches() throws -> [String: String] { try sandbox.branches(remote) }

        func localRefs() throws -> [String] {
            try sandbox.git(["for-each-ref", "--format=%(refname)"], in: local).split(separator: "\n").map(String.init)
        }

        func updates(_ names: [String]) throws -> [RefUpdate] {
            try names.map { try RefUpdate(checking: "refs/heads/" + $0, new: commits[$0]?.new, old: commits[$0]?.old) }
        }
    }

    func fixture(count: Int, function: String = #function) throws -> Fixture {
        let sandbox = try GitSandbox(function: function)
        let work = try sandbox.makeRepository("work")
        let base = try sandbox.git(["rev-parse", "HEAD"], in: work)
        let names = (0..<count).map { String(format: "b%02d", $0) }
        for name in names { try sandbox.git(["branch", name, base], in: work) }
        let remote = sandbox.path("remote.git")
        try sandbox.git(["clone", "-q", "--bare", work, remote])
        let local = sandbox.path("local.git")
        try sandbox.git(["clone", "-q", "--bare", remote, local])
        var commits: [String: (old: String, new: String)] = [:]
        let tree = try sandbox.git(["rev-parse", base + "^{tree}"], in: local)
        for name in names {
            let new = try sandbox.git(["commit-tree", tree, "-p", base, "-m", "on " + name], in: local)
            commits[name] = (base, new)
        }
        return Fixture(sandbox: sandbox, remote: remote, local: local, git: try sandbox.gitRunner(), commits: commits)
    }

    @Test func manyBranchesLandExactlyAndNothingStaysStaged() throws {
        let f = try fixture(count: 40)
        let refsBefore = try f.localRefs()
        let chosen = (0..<30).map { String(format: "b%02d", $0) }
        let outcome = try AtomicPush.push(
            f.updates(chosen), repository: "remote", from: f.local, to: f.remote, git: f.git)
        #expect(outcome.accepted)
        let branches = try f.remoteBranches()
        for name in chosen { #expect(branches[name] == f.commits[name]?.new) }
        // Branches not asked for are untouched, although the pattern could name every staged ref.
        for index in 30..<40 {
            let name = String(format: "b%02d", index)
            #expect(branches[name] == f.commits[name]?.old)
        }
        #expect(branches.count == 41)  // main + 40
        #expect(try f.localRefs() == refsBefore)
    }

    @Test func oneRefusedBranchPublishesNothingAndNothingStaysStaged() throws {
        let f = try fixture(count: 20)
        let refsBefore = try f.localRefs()
        // Somebody else moves b07 on the remote: our update of b07 is no longer a fast-forward.
        let tree = try f.sandbox.git(["rev-parse", "main^{tree}"], in: f.remote)
        let theirs = try f.sandbox.git(
            ["commit-tree", tree, "-p", f.commits["b07"]?.old ?? "", "-m", "theirs"], in: f.remote)
        try f.sandbox.git(["update-ref", "refs/heads/b07", theirs], in: f.remote)
        let before = try f.remoteBranches()
        let names = (0..<20).map { String(format: "b%02d", $0) }
        let outcome = try AtomicPush.push(
            f.updates(names), repository: "remote", from: f.local, to: f.remote, git: f.git)
        #expect(!outcome.accepted)
        #expect(outcome.detail.contains("refs/heads/b07"))
        #expect(try f.remoteBranches() == before)
        #expect(try f.localRefs() == refsBefore)
        // Positive control: without b07 the same push lands.
        let landed = try AtomicPush.push(
            f.updates(names.filter { $0 != "b07" }), repository: "remote", from: f.local, to: f.remote, git: f.git)
        #expect(landed.accepted)
        #expect(try f.remoteBranches()["b06"] == f.commits["b06"]?.new)
    }

    @Test func leasesAndDeletionsGoWithStagedBranches() throws {
        let f = try fixture(count: 14)
        let refsBefore = try f.localRefs()
        // Restore mode: b00 moves back to main's commit (not a fast-forward) under a lease, b01 is deleted under a
        // lease, b02…b11 move forward: ten branches to set, so they are staged.
        let base = f.commits["b00"]?.old ?? ""
        let forward = try AtomicPush.push(
            f.updates(["b00"]), repository: "remote", from: f.local, to: f.remote, git: f.git)
        #expect(forward.accepted)
        let onward = (2..<12).map { String(format: "b%02d", $0) }
        let updates =
            try [
                RefUpdate(checking: "refs/heads/b00", new: base, old: f.commits["b00"]?.new),
                RefUpdate(checking: "refs/heads/b01", new: nil, old: base),
            ] + f.updates(onward)
        let outcome = try AtomicPush.push(
            updates, repository: "remote", from: f.local, to: f.remote, mode: .restore, git: f.git)
        #expect(outcome.accepted)
        let branches = try f.remoteBranches()
        #expect(branches["b00"] == base)
        #expect(branches["b01"] == nil)
        for name in onward { #expect(branches[name] == f.commits[name]?.new) }
        #expect(try f.localRefs() == refsBefore)
        // A stale lease refuses the whole push, staged (9 branches) or named (2 branches).
        for count in [9, 2] {
            // b11's lease expects main's commit, but the remote has b11's new commit; the others would be created.
            var stale = [try RefUpdate(checking: "refs/heads/b11", new: base, old: base)]
            for index in 1..<count {
                stale.append(try RefUpdate(checking: "refs/heads/c\(index)", new: base, old: nil))
            }
            let refused = try AtomicPush.push(
                stale, repository: "remote", from: f.local, to: f.remote, mode: .restore, git: f.git)
            #expect(!refused.accepted, "\(count) branches")
            #expect(try f.remoteBranches() == branches, "\(count) branches")
            #expect(try f.localRefs() == refsBefore)
        }
    }

    @Test func manyBranchesGoAsOnePatternAFewByName() throws {
        let f = try fixture(count: 20)
        let pushes = Locked<[[String]]>([])
        let git = try Git(
            environment: f.sandbox.environment, allowLocalRemotes: true,
            trace: { vector, _ in if vector.contains("push") { pushes.withLock { $0.append(vector) } } })
        let few = (0..<(AtomicPush.stagingThreshold - 1)).map { String(format: "b%02d", $0) }
        let many = (few.count..<20).map { String(format: "b%02d", $0) }
        #expect(many.count >= AtomicPush.stagingThreshold)
        for names in [few, many] {
            let outcome = try AtomicPush.push(
                f.updates(names), repository: "remote", from: f.local, to: f.remote, git: git)
            #expect(outcome.accepted)
        }
        let vectors = pushes.current
        #expect(vectors.count == 2)
        let refspecs = vectors.map { vector in Array(vector.drop { $0 != "--" }.dropFirst(2)) }
        #expect(refspecs.first?.count == few.count)
        // A few: `<commit>:refs/heads/<branch>` each.
        let fewRefspecs = try f.updates(few).map { ($0.new?.hex ?? "") + ":" + $0.ref.name }
        #expect(refspecs.first == fewRefspecs)
        #expect(refspecs.last?.count == 1)
        #expect(refspecs.last?.first?.hasPrefix("refs/tenantctl/push/") == true)
        #expect(refspecs.last?.first?.hasSuffix("/*:refs/*") == true)
        let branches = try f.remoteBranches()
        for name in few + many { #expect(branches[name] == f.commits[name]?.new) }
    }

    /// A push asked to weigh its staging names the branches when the pushing repository holds few refs (matching
    /// them costs less than staging: two more git processes and two ref writes per branch), and still stages when
    /// branches × refs is large; with the same branches, a push not asked to weigh stages (the positive control).
    @Test func aRepositoryWithFewRefsNamesItsBranchesWhenAskedToWeigh() throws {
        let f = try fixture(count: 20)
        let vectors = Locked<[[String]]>([])
        let git = try Git(
            environment: f.sandbox.environment, allowLocalRemotes: true,
            trace: { vector, _ in vectors.withLock { $0.append(vector) } })
        let first = (0..<10).map { String(format: "b%02d", $0) }
        let second = (10..<20).map { String(format: "b%02d", $0) }
        #expect(first.count >= AtomicPush.stagingThreshold)
        let weighed = try AtomicPush.push(
            f.updates(first), repository: "remote", from: f.local, to: f.remote, weighStaging: true, git: git)
        #expect(weighed.accepted)
        let weighedCalls = vectors.current
        vectors.withLock { $0 = [] }
        let unweighed = try AtomicPush.push(
            f.updates(second), repository: "remote", from: f.local, to: f.remote, git: git)
        #expect(unweighed.accepted)
        let unweighedCalls = vectors.current
        func refspecs(_ calls: [[String]]) -> [String] {
            calls.first { $0.contains("push") }.map { Array($0.drop { $0 != "--" }.dropFirst(2)) } ?? []
        }
        func writes(_ calls: [[String]]) -> Int { calls.filter { $0.contains("update-ref") }.count }
        // Weighed: 10 branches × 21 refs: named one by one, nothing staged or removed.
        let firstRefspecs = try f.updates(first).map { ($0.new?.hex ?? "") + ":" + $0.ref.name }
        #expect(refspecs(weighedCalls) == firstRefspecs)
        #expect(writes(weighedCalls) == 0)
        // Not weighed: staged (one transaction to create, one to remove, in one `update-ref` process), one pattern
        // refspec.
        #expect(refspecs(unweighedCalls).count == 1)
        #expect(refspecs(unweighedCalls).first?.hasPrefix("refs/tenantctl/push/") == true)
        #expect(writes(unweighedCalls) == 1)
        let branches = try f.remoteBranches()
        for name in first + second { #expect(branches[name] == f.commits[name]?.new) }
        // The rule: below the threshold never, and from it by branches × refs.
        #expect(!AtomicPush.stages(AtomicPush.stagingThreshold - 1, localRefs: 1_000_000))
        #expect(AtomicPush.stages(AtomicPush.stagingThreshold, localRefs: nil))
        #expect(!AtomicPush.stages(123, localRefs: 124))
        #expect(AtomicPush.stages(123, localRefs: 1024))
        #expect(AtomicPush.stages(1001, localRefs: 2004))
    }

    /// A mirror that records its own push: staged or named, one `update-ref` process for the whole push (the staging,
    /// then the record of what landed with the removal of the staged refs, in one transaction); the mirror's branches
    /// are where the remote's are and nothing stays staged. A refused push records nothing.
    @Test func aMirrorRecordsItsPushInTheProcessThatStagedIt() throws {
        let f = try fixture(count: 30)
        let vectors = Locked<[[String]]>([])
        let git = try Git(
            environment: f.sandbox.environment, allowLocalRemotes: true,
            trace: { vector, _ in vectors.withLock { $0.append(vector) } })
        func writes() -> [[String]] { vectors.current.filter { $0.contains("update-ref") } }
        let staged = (0..<20).map { String(format: "b%02d", $0) }
        let named = (20..<23).map { String(format: "b%02d", $0) }
        for (names, weighStaging) in [(staged, false), (named, true)] {
            vectors.withLock { $0 = [] }
            let pushed = try AtomicPush.push(
                f.updates(names), repository: "remote", from: f.local, to: f.remote, weighStaging: weighStaging,
                recordingHere: true, git: git)
            #expect(pushed.outcome.accepted)
            #expect(pushed.recordFailure == nil, "\(String(describing: pushed.recordFailure))")
            #expect(writes().count == 1, "\(writes())")
            let mirror = try f.sandbox.branches(f.local)
            let remote = try f.remoteBranches()
            for name in names {
                #expect(mirror[name] == f.commits[name]?.new)
                #expect(remote[name] == f.commits[name]?.new)
            }
        }
        let refsAfterPushes = try f.localRefs()
        #expect(refsAfterPushes.allSatisfy { !$0.hasPrefix("refs/tenantctl/") }, "\(refsAfterPushes)")
        // A branch that would not fast-forward refuses the whole push: the mirror records nothing and removes what it
        // staged.
        let refused = (23..<30).map { String(format: "b%02d", $0) }
        let sideways = try RefUpdate(checking: "refs/heads/b00", new: f.commits["b01"]?.new, old: f.commits["b00"]?.new)
        let pushed = try AtomicPush.push(
            f.updates(refused) + [sideways], repository: "remote", from: f.local, to: f.remote, recordingHere: true,
            git: git)
        #expect(!pushed.outcome.accepted)
        let mirror = try f.sandbox.branches(f.local)
        for name in refused { #expect(mirror[name] == f.commits[name]?.old) }
        #expect(mirror["b00"] == f.commits["b00"]?.new)
        let refsAfterRefusal = try f.localRefs()
        #expect(refsAfterRefusal.allSatisfy { !$0.hasPrefix("refs/tenantctl/") }, "\(refsAfterRefusal)")
    }
}

/// The server's `remote:` lines are read by one rule, whether a push outcome or a git error reports them.
@Suite struct ServerMessagesTests {
    static let stderr =
        "remote: first        \nremote:\nremote: 10%\rremote: done  \nTo origin\n"
        + " ! [remote rejected] main\nerror: failed to push some refs\nremote: \u{1B}[Klast\u{1B}[K\n"
        + "remote: see https://ci:s3cret@git.example.com/help\n"
    static let expected = ["first", "done", "\u{1B}[Klast", "see https://ci:***@git.example.com/help"]

    @Test func aPushOutcomeReadsTheServerLines() {
        #expect(AtomicPush.remoteMessages(Self.stderr) == Self.expected)
    }

    @Test func aGitErrorReadsTheServerLines() {
        let error = GitError(
            context: "push", kind: .failed(status: 1), command: ["git", "push"], directory: nil, stderr: Self.stderr)
        #expect(error.remoteMessages == Self.expected)
    }

    /// Positive control: a line that is not the server's is not taken, whoever reads it.
    @Test func onlyTheServersLinesAreTaken() {
        let text = "To origin\nhint: remote: not a server line\nerror: remote: neither\n"
        #expect(ServerMessages.parse(text).isEmpty)
        #expect(ServerMessages.parse(text + "remote: yes\n") == ["yes"])
    }
}
