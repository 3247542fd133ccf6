import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// A fixture around an `example` build: plain-git readers of its bare remotes.
protocol ExampleRemotes {
    var sandbox: GitSandbox { get }
    var example: ExampleResult { get }
}

extension ExampleRemotes {
    /// A bare remote of the example.
    func remote(_ name: String) -> String { "\(example.remotes)/\(name).git" }

    /// Repository → branch → commit of every remote (the modules and the superproject).
    func remoteBranches() throws -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for repository in RollFixture.repositories { result[repository] = try sandbox.branches(remote(repository)) }
        return result
    }

    /// Module path → pinned commit of a superproject branch on the remote (plain `ls-tree`).
    func pins(_ branch: String) throws -> [String: String] {
        try sandbox.gitlinks(on: branch, in: remote("Superproject"))
    }
}

/// An `example --stage after-updates` workspace and plain-git helpers to check it.
struct RollFixture: ExampleRemotes {
    static let modules = ["Infrastructure", "Article", "Customer", "Order"]
    static let repositories = modules + ["Superproject"]
    /// Fixed dates so that a dry run and a real run write the same commits.
    static let dates = ["GIT_AUTHOR_DATE": "1700000000 +0000", "GIT_COMMITTER_DATE": "1700000000 +0000"]

    let sandbox: GitSandbox
    let example: ExampleResult

    init(stage: ExampleStage = .afterUpdates, function: String = #function) throws {
        sandbox = try GitSandbox(function: function)
        example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: stage)
    }

    /// The fixture of an example already in `sandbox`.
    init(sandbox: GitSandbox, example: ExampleResult) {
        self.sandbox = sandbox
        self.example = example
    }

    var workspace: String { example.workspace }

    /// Runs `tenantctl roll …` in the workspace.
    func roll(_ arguments: [String] = [], environment: [String: String] = [:]) -> CLIResult {
        sandbox.tenantctl(["roll"] + arguments, in: workspace, environment: Self.dates.merging(environment) { $1 })
    }

    /// The user's view: status of the superproject and every submodule, HEADs and local branches.
    func userState() throws -> [String] {
        // Without --branch: roll may update the superproject's remote-tracking refs, nothing else.
        var state = [try sandbox.git(["status", "--porcelain=v2"], in: workspace)]
        state.append(try sandbox.git(["symbolic-ref", "HEAD"], in: workspace))
        state.append(try sandbox.git(["rev-parse", "HEAD"], in: workspace))
        state.append(
            try sandbox.git(["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"], in: workspace))
        for module in Self.modules {
            let path = "\(workspace)/Modules/\(module)"
            state.append(try sandbox.git(["status", "--porcelain=v2", "--branch"], in: path))
            state.append(try sandbox.git(["symbolic-ref", "HEAD"], in: path))
            state.append(try sandbox.git(["rev-parse", "HEAD"], in: path))
            state.append(
                try sandbox.git(["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"], in: path))
        }
        return state
    }

    func isAncestor(_ ancestor: String, _ descendant: String, in repository: String) throws -> Bool {
        try sandbox.gitResult(["merge-base", "--is-ancestor", ancestor, descendant], in: repository).status == 0
    }

    func parents(_ commit: String, in repository: String) throws -> [String] {
        try sandbox.git(["rev-list", "--parents", "-n", "1", commit], in: repository).split(separator: " ").dropFirst()
            .map(String.init)
    }

    /// The pin rule computed with plain git from the remotes: customised → tenant branch tip, else general_dev tip.
    func expectedPins(_ branch: String, customised: [String]) throws -> [String: String] {
        let tips = try remoteBranches()
        var pins: [String: String] = [:]
        for module in Self.modules {
            pins["Modules/\(module)"] = tips[module]?[customised.contains(module) ? branch : "general_dev"]
        }
        return pins
    }

    /// Commits a change of one file on a branch of a bare remote, through a temporary clone.
    @discardableResult
    func commitOnRemote(_ repository: String, branch: String, file: String, content: String) throws -> String {
        let clone = sandbox.path("clone-\(repository)-\(UUID().uuidString.prefix(6))")
        try sandbox.git(["clone", "-q", "-b", branch, remote(repository), clone])
        try content.write(toFile: "\(clone)/\(file)", atomically: true, encoding: .utf8)
        try sandbox.git(["add", "--", file], in: clone)
        try sandbox.git(["commit", "-q", "-m", "concurrent change of \(file)"], in: clone)
        try sandbox.git(["push", "-q", "origin", branch], in: clone)
        return try sandbox.git(["rev-parse", "HEAD"], in: clone)
    }

    static let customised = ["t1": [String](), "t2": ["Infrastructure", "Customer"], "t3": ["Order"]]
}

@Suite(.tags(.slow), .notInTheFastSet) struct RollCommandTests {
    @Test func rollsTheThesisAF5AndAF6ToEveryTenant() throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        let userBefore = try fixture.userState()

        let result = fixture.roll()
        #expect(result.status == 0, "\(result.stderr)")
        let after = try fixture.remoteBranches()

        // Infrastructure t2 and Order t3: exactly one new commit each, a merge with the tenant branch first.
        for (module, branch) in [("Infrastructure", "t2"), ("Order", "t3")] {
            let repository = fixture.remote(module)
            let old = try #require(before[module]?[branch])
            let new = try #require(after[module]?[branch])
            let made = try fixture.sandbox.git(["rev-list", "--count", new, "^\(old)", "^general_dev"], in: repository)
            #expect(made == "1")
            #expect(try fixture.parents(new, in: repository) == [old, try #require(after[module]?["general_dev"])])
        }
        // Article needs no merge; Customer t2 already contains general_dev; general_dev of modules never moves.
        #expect(after["Article"] == before["Article"])
        #expect(after["Customer"] == before["Customer"])
        for module in RollFixture.modules { #expect(after[module]?["general_dev"] == before[module]?["general_dev"]) }

        // Every superproject branch pins what the rule says and contains general_dev; tenant branch first parent.
        let superproject = fixture.remote("Superproject")
        #expect(try fixture.pins("general_dev") == fixture.expectedPins("general_dev", customised: []))
        for (tenant, customised) in RollFixture.customised {
            #expect(try fixture.pins(tenant) == fixture.expectedPins(tenant, customised: customised), "\(tenant)")
            let tip = try #require(after["Superproject"]?[tenant])
            #expect(try fixture.isAncestor("general_dev", tip, in: superproject))
            #expect(try fixture.parents(tip, in: superproject).first == before["Superproject"]?[tenant])
            // Every pinned module commit is on its module remote.
            for (path, commit) in try fixture.pins(tenant) {
                let module = String(path.dropFirst("Modules/".count))
                #expect(
                    try fixture.sandbox.gitResult(["cat-file", "-e", "\(commit)^{commit}"], in: fixture.remote(module))
                        .status == 0)
            }
        }
        // Article's and Order's AF.5/AF.6 changes reach every tenant.
        #expect(try fixture.pins("t1")["Modules/Article"] == after["Article"]?["general_dev"])
        #expect(try fixture.isAncestor(try #require(after["Order"]?["general_dev"]), "t3", in: fixture.remote("Order")))
        // The message says what moved.
        let message = try fixture.sandbox.git(["log", "-1", "--format=%s", "t2"], in: superproject)
        #expect(message.hasPrefix("Roll general_dev into t2: Infrastructure "))
        // The user's working copy, HEADs and local branches are untouched.
        #expect(try fixture.userState() == userBefore)

        // A second roll changes nothing.
        let again = fixture.roll()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try fixture.remoteBranches() == after)
        #expect(again.stdout.contains("0 rolled, 3 up to date"))
    }

    @Test func aConflictInInfrastructureLeavesT2UnchangedEverywhere() throws {
        let fixture = try RollFixture()
        let file = "Sources/Infrastructure/StartScreenViewController.swift"
        try fixture.commitOnRemote("Infrastructure", branch: "t2", file: file, content: "// t2's own start screen\n")
        let before = try fixture.remoteBranches()

        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stderr)")
        let after = try fixture.remoteBranches()
        #expect(after["Infrastructure"]?["t2"] == before["Infrastructure"]?["t2"])
        #expect(after["Customer"]?["t2"] == before["Customer"]?["t2"])
        #expect(after["Superproject"]?["t2"] == before["Superproject"]?["t2"])
        #expect(after["Superproject"]?["t1"] != before["Superproject"]?["t1"])
        #expect(after["Superproject"]?["t3"] != before["Superproject"]?["t3"])
        #expect(after["Order"]?["t3"] != before["Order"]?["t3"])
        #expect(try fixture.pins("t3") == fixture.expectedPins("t3", customised: ["Order"]))

        let report = try JSONDecoder().decode(RollReport.self, from: Data(result.stdout.utf8))
        let t2 = try #require(report.tenants.first { $0.id == "t2" })
        #expect(t2.status == "conflict")
        #expect(t2.conflicts.contains { $0.repository == "Infrastructure" && $0.paths == [file] })
        #expect(report.tenants.filter { $0.status == "rolled" }.map(\.id) == ["t1", "t3"])
    }

    @Test func tenantFilterRollsOnlyThatTenantAndGeneralDev() throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        let result = fixture.roll(["--tenant", "t3"])
        #expect(result.status == 0, "\(result.stderr)")
        let after = try fixture.remoteBranches()
        #expect(after["Superproject"]?["t1"] == before["Superproject"]?["t1"])
        #expect(after["Superproject"]?["t2"] == before["Superproject"]?["t2"])
        #expect(after["Infrastructure"] == before["Infrastructure"])
        #expect(after["Superproject"]?["t3"] != before["Superproject"]?["t3"])
        #expect(after["Superproject"]?["general_dev"] != before["Superproject"]?["general_dev"])
        #expect(try fixture.pins("t3") == fixture.expectedPins("t3", customised: ["Order"]))
    }

    @Test func moduleFilterMovesOnlyArticlesPins() throws {
        let fixture = try RollFixture()
        let pinsBefore = try ["general_dev", "t1", "t2", "t3"].map { try fixture.pins($0) }
        let before = try fixture.remoteBranches()
        let result = fixture.roll(["--module", "Article"])
        #expect(result.status == 0, "\(result.stderr)")
        let after = try fixture.remoteBranches()
        #expect(after["Order"] == before["Order"])
        #expect(after["Infrastructure"] == before["Infrastructure"])
        for (branch, old) in zip(["general_dev", "t1", "t2", "t3"], pinsBefore) {
            var expected = old
            expected["Modules/Article"] = after["Article"]?["general_dev"]
            #expect(try fixture.pins(branch) == expected, "\(branch)")
        }
    }

    @Test func dryRunWritesNoRefAndPredictsTheRealRun() throws {
        let fixture = try RollFixture()
        let remotesBefore = try fixture.remoteBranches()
        let workspaceRefs = try fixture.sandbox.refs(fixture.workspace)
        let userBefore = try fixture.userState()

        let dry = fixture.roll(["--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try fixture.remoteBranches() == remotesBefore)
        #expect(try fixture.sandbox.refs(fixture.workspace) == workspaceRefs)
        #expect(try fixture.userState() == userBefore)
        let journal = RollJournal.directory(gitDirectory: fixture.workspace + "/.git")
        #expect(!FileManager.default.fileExists(atPath: journal))

        let real = fixture.roll(["--json"])
        #expect(real.status == 0, "\(real.stderr)")
        let predicted = try JSONDecoder().decode(RollReport.self, from: Data(dry.stdout.utf8))
        let done = try JSONDecoder().decode(RollReport.self, from: Data(real.stdout.utf8))
        #expect(predicted.dryRun && !done.dryRun)
        #expect(predicted.general.to == done.general.to && done.general.to != nil)
        #expect(predicted.tenants.map(\.to) == done.tenants.map(\.to))
        #expect(predicted.tenants.map(\.merges) == done.tenants.map(\.merges))
        #expect(predicted.tenants.map(\.status) == ["would-roll", "would-roll", "would-roll"])
        #expect(done.tenants.map(\.status) == ["rolled", "rolled", "rolled"])
        let after = try fixture.remoteBranches()
        for tenant in done.tenants { #expect(after["Superproject"]?[tenant.branch] == tenant.to) }
    }

    @Test func aRemoteThatMovedAfterTheFetchIsRejectedAndARerunConverges() throws {
        let fixture = try RollFixture()
        let superproject = fixture.remote("Superproject")
        // A commit someone else pushes to t1 while roll runs (made now, moved in by the shim before the first push).
        let tree = try fixture.sandbox.git(["rev-parse", "t1^{tree}"], in: superproject)
        let concurrent = try fixture.sandbox.git(
            ["commit-tree", tree, "-p", "t1", "-m", "concurrent"], in: superproject)
        let marker = fixture.sandbox.path("moved")
        let shim = try fixture.sandbox.writeExecutable(
            "bin/move-then-git",
            """
            #!/bin/sh
            case " $* " in
            *" push "*)
                if [ ! -e '\(marker)' ]; then
                    touch '\(marker)'
                    git --git-dir='\(superproject)' update-ref refs/heads/t1 \(concurrent)
                fi;;
            esac
            exec git "$@"

            """)
        let first = fixture.roll(["--git", shim, "--json"])
        #expect(first.status == 2, "\(first.stderr)")
        let report = try JSONDecoder().decode(RollReport.self, from: Data(first.stdout.utf8))
        #expect(report.tenants.first { $0.id == "t1" }?.status == "rejected")
        #expect(try fixture.remoteBranches()["Superproject"]?["t1"] == concurrent)

        let second = fixture.roll()
        #expect(second.status == 0, "\(second.stderr)")
        let t1 = try #require(try fixture.remoteBranches()["Superproject"]?["t1"])
        #expect(try fixture.isAncestor(concurrent, t1, in: superproject))
        for (tenant, customised) in RollFixture.customised {
            #expect(try fixture.pins(tenant) == fixture.expectedPins(tenant, customised: customised), "\(tenant)")
            #expect(try fixture.isAncestor("general_dev", tenant, in: superproject))
        }
        let settled = try fixture.remoteBranches()
        #expect(fixture.roll().status == 0)
        #expect(try fixture.remoteBranches() == settled)
    }

    @Test func undoRestoresThePreviousStateAndRefusesWhenARefMoved() throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        let result = fixture.roll(["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let runId = try #require(try JSONDecoder().decode(RollReport.self, from: Data(result.stdout.utf8)).runId)
        let rolled = try fixture.remoteBranches()
        #expect(rolled != before)

        // Someone moves t1 after the roll: undo refuses and changes nothing.
        let moved = try fixture.commitOnRemote("Superproject", branch: "t1", file: "Notes.txt", content: "later\n")
        let refused = fixture.roll(["--undo", runId])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("1 ref moved since (nothing was restored)"), "\(refused.stderr)")
        // What moved, and what to do.
        #expect(refused.stderr.contains("superproject refs/heads/t1 is now \(moved.prefix(7))"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Revert the roll's commits on those branches by hand"))
        var expected = rolled
        expected["Superproject"]?["t1"] = moved
        #expect(try fixture.remoteBranches() == expected)

        // Put t1 back where roll left it: undo restores every ref.
        try fixture.sandbox.git(
            ["update-ref", "refs/heads/t1", try #require(rolled["Superproject"]?["t1"])],
            in: fixture.remote("Superproject"))
        let undone = fixture.roll(["--undo", runId])
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try fixture.remoteBranches() == before)
        #expect(fixture.roll(["--undo", runId]).status == 1)
    }

    @Test func gitProcessesPerRepositoryAreBounded() throws {
        let fixture = try RollFixture()
        let shim = try GitShim(in: fixture.sandbox)
        let result = fixture.roll(["--git", shim.path])
        #expect(result.status == 0, "\(result.stderr)")
        var perRepository: [String: Int] = [:]
        let calls = try shim.calls()
        // One `cat-file --batch` on the superproject reads the project files and every branch's files and trees.
        let batches = calls.filter { $0.hasPrefix("-C \(fixture.workspace) ") && $0.hasSuffix(" cat-file --batch") }
        #expect(batches.count == 1, "\(batches)")
        for call in calls {
            let words = call.split(separator: " ")
            var repository = words.first == "-C" && words.count > 1 ? String(words[1]) : "(none)"
            // A mirror is made under `<Module>.git.partial-<id>` and renamed when fetched: the same repository.
            if let partial = repository.range(of: ".git.partial-") {
                repository = String(repository[..<partial.lowerBound]) + ".git"
            }
            perRepository[repository, default: 0] += 1
        }
        let superproject = perRepository[fixture.workspace] ?? 0
        // 20: including the identity `git commit` would use (author and committer, read strictly), commit.gpgSign and
        // the superproject's commit graph (which tenant branches its general branch took).
        #expect(superproject > 0 && superproject <= 20, "\(perRepository)")
        // 8 per module mirror: making it (two calls), its branches and its graph, one merge-tree, one fast-import,
        // one push and one ref transaction recording what it pushed. (A project that proposes reviews adds one `log
        // --grep` of the review trailer: `aRollWithoutReviewsReadsNoCommitMessage`.)
        for (repository, count) in perRepository where repository.hasSuffix(".git") {
            #expect(
                count <= 8,
                "\(repository): \(count) git processes: \(calls.filter { $0.hasPrefix("-C \(repository) ") })")
        }
    }

    /// The review trailer's scan (`git log --grep`, the landings a squash left for a clone without journals) runs
    /// only where a review roll can have written the trailer: not in a plain roll of a project that shows no review
    /// (no `review` settings, no proposal branch, no review in its journals); a review roll of the same project does
    /// read it, in every repository it rolls.
    @Test func aRollWithoutReviewsReadsNoCommitMessage() throws {
        let plain = try RollFixture()
        let plainShim = try GitShim(in: plain.sandbox)
        let rolled = plain.roll(["--git", plainShim.path])
        #expect(rolled.status == 0, "\(rolled.stderr)")
        let scans = try plainShim.calls().filter { $0.contains(" log ") && $0.contains(" --grep=") }
        #expect(scans.isEmpty, "a roll without reviews read the review trailer: \(scans)")

        // Positive control: a review roll of the same project reads it (the shim sees the call when it is made).
        let reviewed = try RollFixture()
        let reviewShim = try GitShim(in: reviewed.sandbox)
        let proposed = reviewed.roll(["--review", "--git", reviewShim.path])
        #expect((proposed.stdout + proposed.stderr).contains("review run:"), "\(proposed.stdout)\(proposed.stderr)")
        let reviewScans = try reviewShim.calls().filter { $0.contains(" log ") && $0.contains(" --grep=") }
        #expect(!reviewScans.isEmpty, "a review roll did not read the review trailer")
    }
}

@Suite struct RollPlainCloneTests {
    @Test func rollsFromAPlainCloneWhoseSubmodulesWereNeverInitialised() throws {
        let fixture = try RollFixture()
        let plain = fixture.sandbox.path("plain")
        try fixture.sandbox.git(["clone", "-q", "-b", "general_dev", fixture.remote("Superproject"), plain])
        let result = fixture.sandbox.tenantctl(["roll"], in: plain, environment: RollFixture.dates)
        #expect(result.status == 0, "\(result.stderr)")
        for (tenant, customised) in RollFixture.customised {
            #expect(try fixture.pins(tenant) == fixture.expectedPins(tenant, customised: customised), "\(tenant)")
        }
        #expect(try fixture.sandbox.git(["status", "--porcelain=v2"], in: plain) == "")
        // The working copy still pins what it pinned: roll moved only the remote branches.
        #expect(
            try fixture.sandbox.git(["rev-parse", "HEAD"], in: plain)
                != fixture.remoteBranches()["Superproject"]?["general_dev"])
    }
}

@Suite(.tags(.slow), .notInTheFastSet) struct RollModuleSetTests {
    /// Removes Order on general_dev of the superproject remote (manifest, tenant files, .gitmodules, gitlink).
    static func removeOrder(_ fixture: RollFixture) throws {
        let clone = fixture.sandbox.path("edit")
        let sandbox = fixture.sandbox
        try sandbox.git(["clone", "-q", "-b", "general_dev", fixture.remote("Superproject"), clone])
        let modules = """
            { "version": 1, "generalBranch": "general_dev", "modules": [
              { "name": "Infrastructure", "path": "Modules/Infrastructure", "url": "../Infrastructure.git", "dependsOn": [] },
              { "name": "Article", "path": "Modules/Article", "url": "../Article.git", "dependsOn": ["Infrastructure"] },
              { "name": "Customer", "path": "Modules/Customer", "url": "../Customer.git", "dependsOn": ["Infrastructure"] } ] }

            """
        try modules.write(toFile: clone + "/modules.json", atomically: true, encoding: .utf8)
        for tenant in ["t1", "t3"] {
            let file = """
                { "id": "\(tenant)", "modules": ["Infrastructure", "Article", "Customer"], "customised": [] }

                """
            try file.write(toFile: clone + "/Tenants/\(tenant).json", atomically: true, encoding: .utf8)
        }
        try sandbox.git(["config", "-f", ".gitmodules", "--remove-section", "submodule.Order"], in: clone)
        try sandbox.git(["add", ".gitmodules"], in: clone)
        try sandbox.git(["rm", "-q", "--cached", "Modules/Order"], in: clone)
        try sandbox.git(["commit", "-q", "-am", "Remove the Order module"], in: clone)
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: clone)
    }

    @Test func aRemovedModuleLeavesEveryTenantExceptTheOneThatCustomisedIt() throws {
        let fixture = try RollFixture()
        try Self.removeOrder(fixture)
        let before = try fixture.remoteBranches()
        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stderr)")
        let report = try JSONDecoder().decode(RollReport.self, from: Data(result.stdout.utf8))
        let t3 = try #require(report.tenants.first { $0.id == "t3" })
        #expect(t3.status == "conflict")
        #expect(t3.conflicts.contains { $0.repository == "superproject" && $0.paths == ["Modules/Order"] })
        let after = try fixture.remoteBranches()
        #expect(after["Superproject"]?["t3"] == before["Superproject"]?["t3"])
        for tenant in ["t1", "t2"] {
            #expect(after["Superproject"]?[tenant] != before["Superproject"]?[tenant])
            #expect(try fixture.pins(tenant)["Modules/Order"] == nil, "\(tenant)")
            #expect(
                try fixture.sandbox.git(["show", "\(tenant):.gitmodules"], in: fixture.remote("Superproject")).contains(
                    "Order") == false)
        }
    }
}

extension RollModuleSetTests {
    @Test func aModuleAddedOnGeneralDevReachesEveryTenant() throws {
        let fixture = try RollFixture()
        let sandbox = fixture.sandbox
        // A new module repository with a general_dev branch, next to the other remotes.
        let source = try sandbox.makeRepository("payment-src", branch: "general_dev", files: ["Payment.swift": "//\n"])
        try sandbox.git(["clone", "-q", "--bare", source, fixture.remote("Payment")])
        let tip = try sandbox.git(["rev-parse", "HEAD"], in: source)
        let clone = sandbox.path("edit")
        try sandbox.git(["clone", "-q", "-b", "general_dev", fixture.remote("Superproject"), clone])
        var manifest = try String(contentsOfFile: clone + "/modules.json", encoding: .utf8)
        let last = try #require(manifest.range(of: "]", options: .backwards))
        manifest.replaceSubrange(
            last,
            with: """
                , { "name": "Payment", "path": "Modules/Payment", "url": "../Payment.git", "dependsOn": [] } ]
                """)
        try manifest.write(toFile: clone + "/modules.json", atomically: true, encoding: .utf8)
        try sandbox.git(["config", "-f", ".gitmodules", "submodule.Payment.path", "Modules/Payment"], in: clone)
        try sandbox.git(["config", "-f", ".gitmodules", "submodule.Payment.url", "../Payment.git"], in: clone)
        try sandbox.git(["update-index", "--add", "--cacheinfo", "160000,\(tip),Modules/Payment"], in: clone)
        try sandbox.git(["commit", "-q", "-am", "Add the Payment module"], in: clone)
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: clone)

        let result = fixture.roll()
        #expect(result.status == 0, "\(result.stderr)")
        for tenant in ["general_dev", "t1", "t2", "t3"] {
            #expect(try fixture.pins(tenant)["Modules/Payment"] == tip, "\(tenant)")
        }
    }
}
