import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantCLI

/// The clones CI systems and people really make (shallow, single-branch, partial, a worktree), each made with
/// plain git: audit, the roll plan and switch must answer exactly as in a full clone.
@Suite(.tags(.slow), .notInTheFastSet) struct CloneKindTests {
    enum Kind: String, CaseIterable, Sendable {
        /// `git clone --depth 1` (implies a single branch).
        case depthOne
        /// actions/checkout: `git init`, `fetch --depth=1` of one commit into one remote-tracking ref, `checkout -B`.
        case githubActions
        /// GitLab's default: a refspec for one branch, depth 20, detached HEAD.
        case gitlab
        /// `git clone --filter=blob:none`.
        case partial
        /// A `git worktree` of a full clone.
        case worktree
        /// `git clone --bare` and a worktree of it.
        case bareWorktree
    }

    /// Makes a clone of `kind` of the superproject at `url`; returns the directory to run tenantctl in.
    static func makeClone(_ kind: Kind, url: String, remotes: String, sandbox: GitSandbox) throws -> String {
        let directory = sandbox.path(kind.rawValue)
        switch kind {
        case .depthOne:
            try sandbox.git(["clone", "-q", "--depth", "1", url, directory])
        case .githubActions:
            let sha = try sandbox.git(["rev-parse", "t2"], in: remotes + "/Superproject.git")
            try sandbox.git(["init", "-q", directory])
            try sandbox.git(["remote", "add", "origin", url], in: directory)
            try sandbox.git(["config", "--local", "gc.auto", "0"], in: directory)
            try sandbox.git(
                [
                    "-c", "protocol.version=2", "fetch", "-q", "--no-tags", "--prune", "--no-recurse-submodules",
                    "--depth=1", "origin", "+\(sha):refs/remotes/origin/t2",
                ], in: directory)
            try sandbox.git(["checkout", "-q", "--force", "-B", "t2", "refs/remotes/origin/t2"], in: directory)
        case .gitlab:
            let sha = try sandbox.git(["rev-parse", "t3"], in: remotes + "/Superproject.git")
            try sandbox.git(["init", "-q", directory])
            try sandbox.git(["remote", "add", "origin", url], in: directory)
            try sandbox.git(
                [
                    "fetch", "-q", "origin", "--depth", "20", "--prune", "--quiet",
                    "+refs/heads/t3:refs/remotes/origin/t3",
                ], in: directory)
            try sandbox.git(["checkout", "-q", "-f", sha], in: directory)
        case .partial:
            try sandbox.git(["config", "uploadpack.allowFilter", "true"], in: remotes + "/Superproject.git")
            try sandbox.git(["clone", "-q", "--filter=blob:none", "-b", "general_dev", url, directory])
            #expect(try sandbox.git(["config", "remote.origin.promisor"], in: directory) == "true")
        case .worktree:
            let main = sandbox.path("worktree-main")
            try sandbox.git(["clone", "-q", "-b", "general_dev", url, main])
            try sandbox.git(["worktree", "add", "-q", "--detach", directory, "origin/general_dev"], in: main)
        case .bareWorktree:
            let bare = sandbox.path("bare.git")
            try sandbox.git(["clone", "-q", "--bare", url, bare])
            try sandbox.git(["worktree", "add", "-q", directory, "general_dev"], in: bare)
        }
        return directory
    }

    /// What a clone answers: audit JSON, the roll plan (timing removed), and the working copy after `switch t3`.
    struct Answers: Equatable {
        var audit: String
        var roll: String
        var switched: [String]
    }

    static func answers(in directory: String, sandbox: GitSandbox) throws -> Answers {
        let audit = sandbox.tenantctl(["audit", "--json"], in: directory)
        #expect(audit.status == 0, "\(audit.stderr)")
        // The report's `source` names this clone's remote URL and the time: the answers are the rest.
        let auditAnswers = try withoutSource(audit.stdout)
        // The planned commits' ids depend on the time: fix it.
        let date = "1700000000 +0000"
        let roll = sandbox.tenantctl(
            ["roll", "--dry-run", "--json"], in: directory,
            environment: ["GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date])
        #expect(roll.status == 0, "\(roll.stderr)")
        let switched = sandbox.tenantctl(["switch", "t3"], in: directory)
        #expect(switched.status == 0, "\(switched.stderr)")
        var state = [
            try sandbox.git(["symbolic-ref", "HEAD"], in: directory),
            try sandbox.git(["rev-parse", "HEAD"], in: directory),
        ]
        for module in AuditCommandTests.modules {
            let path = directory + "/Modules/" + module
            state.append(
                module + " " + (try sandbox.git(["symbolic-ref", "HEAD"], in: path)) + " "
                    + (try sandbox.git(["rev-parse", "HEAD"], in: path)))
        }
        return Answers(audit: auditAnswers, roll: try normalised(roll.stdout), switched: state)
    }

    /// Gives the superproject a history a shallow clone cannot see: two commits on general_dev after the tenants
    /// branched, one more on t2.
    static func moveBranches(url: String, sandbox: GitSandbox) throws {
        let work = sandbox.path("move")
        try sandbox.git(["clone", "-q", "-b", "general_dev", url, work])
        for index in 1...2 {
            try sandbox.write("move/Notes\(index).txt", "general \(index)\n")
            try sandbox.git(["add", "Notes\(index).txt"], in: work)
            try sandbox.git(["commit", "-q", "-m", "general \(index)"], in: work)
        }
        try sandbox.git(["checkout", "-q", "-b", "t2", "origin/t2"], in: work)
        try sandbox.write("move/T2Notes.txt", "t2\n")
        try sandbox.git(["add", "T2Notes.txt"], in: work)
        try sandbox.git(["commit", "-q", "-m", "t2 only"], in: work)
        try sandbox.git(["push", "-q", "origin", "general_dev", "t2"], in: work)
    }

    /// The audit report without its `source` (which names the clone's remote and the time it was made), after
    /// checking that it is there.
    static func withoutSource(_ json: String) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["source"] != nil, "the report names no source")
        object["source"] = nil
        return String(
            decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]),
            as: UTF8.self)
    }

    /// The roll report without its timing.
    static func normalised(_ json: String) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        object["elapsedSeconds"] = nil
        return String(
            decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]),
            as: UTF8.self)
    }

    @Test(arguments: Kind.allCases)
    func answersEqualAFullClone(kind: Kind) throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .afterUpdates)
        let url = "file://" + example.remotes + "/Superproject.git"
        try Self.moveBranches(url: url, sandbox: sandbox)
        let full = sandbox.path("full")
        try sandbox.git(["clone", "-q", "-b", "general_dev", url, full])
        let expected = try Self.answers(in: full, sandbox: sandbox)
        // The reference is right: t2's superproject is 2 ahead of general_dev and 2 behind (plain git says so).
        let t2 = try AuditCommandTests().tenant(
            try #require(try JSONSerialization.jsonObject(with: Data(expected.audit.utf8)) as? [String: Any]), "t2")
        let superproject = try #require(t2["superproject"] as? [String: Any])
        #expect(superproject["ahead"] as? Int == 2)
        #expect(superproject["behind"] as? Int == 2)
        #expect(expected.switched.first == "refs/heads/t3")

        let clone = try Self.makeClone(kind, url: url, remotes: example.remotes, sandbox: sandbox)
        let actual = try Self.answers(in: clone, sandbox: sandbox)
        #expect(actual.audit == expected.audit)
        #expect(actual.roll == expected.roll)
        #expect(actual.switched == expected.switched)
        // The user's own refs are untouched: tenantctl fetched into its own namespace.
        let userRemoteRefs = try sandbox.git(
            ["for-each-ref", "--format=%(refname)", "refs/remotes/origin/"], in: clone)
        if kind == .depthOne {
            #expect(!userRemoteRefs.contains("refs/remotes/origin/t1"))
        }
        #expect(
            try sandbox.git(["for-each-ref", "--format=%(refname)", "refs/tenantctl/remotes/origin/"], in: clone)
                .split(separator: "\n").count == 4)
    }
}

/// Global options: `--remote <name>`, and every global option before the subcommand as git accepts them.
@Suite(.tags(.slow), .notInTheFastSet) struct GlobalOptionPlacementTests {
    @Test func remoteNotCalledOriginIsNamedWithRemote() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .afterUpdates)
        let clone = sandbox.path("clone")
        try sandbox.git([
            "clone", "-q", "-o", "upstream", "-b", "general_dev", example.remotes + "/Superproject.git", clone,
        ])
        let expected = sandbox.tenantctl(["audit", "--json"], in: example.workspace)
        #expect(expected.status == 0, "\(expected.stderr)")

        // Without --remote: a clear message naming the remotes there are, no raw git error.
        let missing = sandbox.tenantctl(["audit", "--json"], in: clone)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("has no remote 'origin' (its remotes: upstream; choose one with --remote"))
        #expect(!missing.stderr.contains("fatal:"))

        let audit = sandbox.tenantctl(["audit", "--json", "--remote", "upstream"], in: clone)
        #expect(audit.status == 0, "\(audit.stderr)")
        // The same answers; the report's source names the remote it used.
        #expect(try CloneKindTests.withoutSource(audit.stdout) == CloneKindTests.withoutSource(expected.stdout))
        let source = try #require(
            (try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any])?["source"]
                as? [String: Any])
        #expect(source["remote"] as? String == "upstream", "\(source)")
        #expect(
            try sandbox.git(["for-each-ref", "--format=%(refname)", "refs/tenantctl/remotes/upstream/"], in: clone)
                .split(separator: "\n").count == 4)
        // Before the subcommand too, and a roll pushes to that remote.
        let before = try sandbox.git(["rev-parse", "general_dev"], in: example.remotes + "/Superproject.git")
        let roll = sandbox.tenantctl(["--remote", "upstream", "roll"], in: clone)
        #expect(roll.status == 0, "\(roll.stderr)")
        #expect(try sandbox.git(["rev-parse", "general_dev"], in: example.remotes + "/Superproject.git") != before)
        let after = sandbox.tenantctl(["--remote=upstream", "audit", "--check"], in: clone)
        #expect(after.status == 0, "\(after.stderr)")

        let invalid = sandbox.tenantctl(["audit", "--remote", "-x"], in: clone)
        #expect(invalid.status == 64)
        let bad = sandbox.tenantctl(["audit", "--remote", "a..b"], in: clone)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--remote a..b"))
    }

    @Test func globalOptionsAreAcceptedBeforeTheSubcommand() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        // The report's time is fixed (SOURCE_DATE_EPOCH) so that the three runs can be compared byte for byte.
        let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]
        let after = sandbox.tenantctl(
            ["audit", "--json", "-C", example.workspace], in: sandbox.root, environment: epoch)
        #expect(after.status == 0, "\(after.stderr)")
        let before = sandbox.tenantctl(
            ["-C", example.workspace, "audit", "--json"], in: sandbox.root, environment: epoch)
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout == after.stdout)
        let mixed = sandbox.tenantctl(
            ["-C", example.workspace, "--quiet", "--color", "never", "audit", "--no-fetch", "--json"], in: sandbox.root,
            environment: epoch)
        #expect(mixed.status == 0, "\(mixed.stderr)")
        #expect(mixed.stdout == after.stdout)
        // Nested subcommands: the options go behind `tenant list`.
        let list = sandbox.tenantctl(["-C", example.workspace, "--json", "tenant", "list"], in: sandbox.root)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("\"t3\""))
        // The built executable too (argument handling of the real process).
        let process = try sandbox.tenantctlProcess(["-C", example.workspace, "status"], in: sandbox.root)
        #expect(process.status == 0, "\(process.stderr)")
        // Not a global option: still the parser's usage error.
        #expect(sandbox.tenantctl(["--tenant", "t1", "audit"], in: example.workspace).status == 64)
        // Control: without the move, a leading option is a usage error.
        #expect(
            GlobalOptions.movingLeadingOptions(["-C", "x", "audit", "--json"], root: Tenantctl.self)
                == ["audit", "-C", "x", "--json"])
        #expect(
            GlobalOptions.movingLeadingOptions(["-C", "x", "module", "add", "N"], root: Tenantctl.self)
                == ["module", "add", "-C", "x", "N"])
        #expect(GlobalOptions.movingLeadingOptions(["-C", "x"], root: Tenantctl.self) == ["-C", "x"])
    }
}

/// `--no-fetch` in a clone tenantctl never fetched in says so instead of naming missing branches.
@Suite struct NeverFetchedCloneTests {
    @Test func noFetchBeforeTheFirstFetchIsExplained() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let clone = sandbox.path("clone")
        try sandbox.git(["clone", "-q", "--depth", "1", "file://" + example.remotes + "/Superproject.git", clone])
        let early = sandbox.tenantctl(["audit", "--no-fetch"], in: clone)
        #expect(early.status == 1)
        #expect(early.stderr.contains("has not fetched the superproject's remote origin in this clone yet"))
        // Control: after one fetching run, --no-fetch reads what it fetched.
        #expect(sandbox.tenantctl(["audit"], in: clone).status == 0)
        #expect(sandbox.tenantctl(["audit", "--no-fetch"], in: clone).status == 0)
        #expect(try sandbox.git(["rev-parse", "--is-shallow-repository"], in: clone) == "false")
    }
}
