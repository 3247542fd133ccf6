import Foundation
import TenantKit
import Testing

@testable import TenantWorkingCopy

/// `pin`'s decisions without git: each refusal and each rule of what it pins and where the pin commit goes.
@Suite struct PinPlannerTests {
    static let pin = String(repeating: "a", count: 40)
    static let head = String(repeating: "b", count: 40)
    static let superHead = String(repeating: "c", count: 40)
    static let remoteTip = String(repeating: "d", count: 40)

    static let modules = [
        Module(name: "Infrastructure", path: "Modules/Infrastructure", url: "../Infrastructure.git"),
        Module(name: "Article", path: "Modules/Article", url: "../Article.git"),
    ]

    /// t2 customises Article; t1 customises nothing.
    static func project() throws -> Project {
        try Project(
            manifest: ModuleManifest(modules: modules),
            tenants: [
                Tenant(id: "t1", modules: ["Infrastructure", "Article"], customised: [], file: "Tenants/t1.json"),
                Tenant(
                    id: "t2", modules: ["Infrastructure", "Article"], customised: ["Article"], file: "Tenants/t2.json"),
            ])
    }

    static func state(_ path: String, branch: String?, head: String?, entries: [PorcelainStatus.Entry] = [])
        -> RepositoryState
    {
        RepositoryState(
            path: path, gitDirectory: path + "/.git", status: PorcelainStatus(oid: head, head: branch, entries: entries)
        )
    }

    /// The superproject on `branch` at `superHead`, pinning both modules at `pin`; Article checked out on
    /// `articleBranch` at `articleHead` with `unpushed` commits; Infrastructure at its pin.
    static func observation(
        branch: String? = "t2", names: [String] = [], articleBranch: String? = "t2", articleHead: String? = head,
        unpushed: Int = 0, remoteHasBranch: Bool? = nil, behindRemote: Int? = nil, stopped: Set<String>? = nil,
        superEntries: [PorcelainStatus.Entry] = [], initialised: Bool = true
    ) throws -> PinObservation {
        var checkouts = [
            "Infrastructure": PinObservation.Checkout(
                state: state("/w/Modules/Infrastructure", branch: "general_dev", head: pin), pinned: pin)
        ]
        if initialised {
            checkouts["Article"] = PinObservation.Checkout(
                state: state("/w/Modules/Article", branch: articleBranch, head: articleHead), pinned: pin,
                publication: PinObservation.Publication(
                    unpushed: unpushed, remoteHasBranch: remoteHasBranch, behindRemote: behindRemote))
        }
        return PinObservation(
            project: try project(), names: names,
            superproject: state("/w", branch: branch, head: superHead, entries: superEntries),
            pins: ["Modules/Infrastructure": pin, "Modules/Article": pin], stoppedRecords: stopped, checkouts: checkouts
        )
    }

    static func reasons(_ plan: PinPlan) -> [String] { plan.problems.map(\.reason) }

    // MARK: what it pins

    @Test func pinsAModuleWhoseHeadLeftItsPinOnTheBranchTheTenantTakesItFrom() throws {
        let observation = try Self.observation()
        #expect(PinPlanner.candidates(observation).map(\.module.name) == ["Article"])
        let plan = PinPlanner.plan(observation, push: false, toGeneral: false)
        #expect(plan.problems.isEmpty)
        #expect(
            plan.changes == [
                PinReport.Change(
                    module: "Article", path: "Modules/Article", old: Self.pin, new: Self.head, pushed: false)
            ])
        #expect(plan.moduleBranches.isEmpty)
        #expect(plan.before.map(\.repository) == ["superproject", "Article"])
        #expect(plan.step == .commit)
    }

    @Test func aModuleAtItsPinIsNotPinned() throws {
        let plan = PinPlanner.plan(try Self.observation(articleHead: Self.pin), push: false, toGeneral: false)
        #expect(plan.changes.isEmpty && plan.problems.isEmpty)
        #expect(plan.step == .nothing)
        #expect(!PinPlanner.readsRemote(plan, push: false))
        #expect(PinPlanner.readsRemote(plan, push: true))
    }

    @Test func theReRunOfAStoppedPinPinsOnlyWhatThatRunRecorded() throws {
        let observation = try Self.observation(stopped: ["superproject", "Infrastructure"])
        #expect(PinPlanner.candidates(observation).isEmpty)
        #expect(PinPlanner.plan(observation, push: false, toGeneral: false).changes.isEmpty)
        let recorded = try Self.observation(stopped: ["superproject", "Article"])
        #expect(PinPlanner.plan(recorded, push: false, toGeneral: false).changes.map(\.module) == ["Article"])
    }

    @Test func aGitlinkStagedAtAModulesHeadDoesNotBlockButAnyOtherChangeDoes() throws {
        let gitlink = PorcelainStatus.Entry(
            kind: .changed, indexStatus: "M", worktreeStatus: ".",
            submodule: PorcelainStatus.SubmoduleState(commitChanged: true, modified: false, untracked: false),
            path: "Modules/Article")
        let own = PinPlanner.plan(try Self.observation(superEntries: [gitlink]), push: false, toGeneral: false)
        #expect(own.problems.isEmpty)
        let file = PorcelainStatus.Entry(kind: .changed, indexStatus: "M", worktreeStatus: ".", path: "README.md")
        let other = PinPlanner.plan(try Self.observation(superEntries: [file]), push: false, toGeneral: false)
        #expect(other.problems.map(\.path) == ["README.md"])
    }

    @Test func unpushedCommitsArePushedFromTheModuleBranchWithPush() throws {
        let plan = PinPlanner.plan(
            try Self.observation(unpushed: 2, remoteHasBranch: true), push: true, toGeneral: false)
        #expect(plan.problems.isEmpty)
        #expect(plan.moduleBranches == ["Article": "t2"])
    }

    @Test func theGeneralBranchIsPushedFromATenantViewOnlyWithToGeneral() throws {
        // t1 does not customise Article: it takes it from general_dev.
        let observation = try Self.observation(
            branch: "t1", articleBranch: "general_dev", unpushed: 1, remoteHasBranch: true)
        let refused = PinPlanner.plan(observation, push: true, toGeneral: false)
        #expect(Self.reasons(refused).count == 1)
        #expect(Self.reasons(refused).first?.contains("--to-general") == true)
        #expect(PinPlanner.plan(observation, push: true, toGeneral: true).problems.isEmpty)
        // From the general view the general branch is its own.
        let general = try Self.observation(
            branch: "general_dev", articleBranch: "general_dev", unpushed: 1, remoteHasBranch: true)
        #expect(PinPlanner.plan(general, push: true, toGeneral: false).problems.isEmpty)
    }

    // MARK: each refusal

    @Test func refusesADetachedSuperproject() throws {
        let plan = PinPlanner.plan(try Self.observation(branch: nil), push: false, toGeneral: false)
        #expect(Self.reasons(plan).first?.hasPrefix("detached HEAD; switch to a tenant first") == true)
        #expect(plan.refusal?.description.contains("pin on a detached HEAD") == true)
        #expect(!PinPlanner.readsRemote(plan, push: true))
    }

    @Test func refusesABranchThatIsNeitherGeneralNorATenants() throws {
        let plan = PinPlanner.plan(try Self.observation(branch: "feature"), push: false, toGeneral: false)
        #expect(Self.reasons(plan).contains("branch feature is neither general_dev nor a tenant's branch"))
        #expect(plan.refusal?.description.contains("pin on feature") == true)
    }

    @Test func refusesAnUnknownModuleName() throws {
        let plan = PinPlanner.plan(try Self.observation(names: ["Nope"]), push: false, toGeneral: false)
        #expect(Self.reasons(plan) == ["no module named Nope"])
    }

    @Test func refusesANamedModuleThatIsNotInitialisedAndSkipsAnUnnamedOne() throws {
        let named = PinPlanner.plan(
            try Self.observation(names: ["Article"], initialised: false), push: false, toGeneral: false)
        #expect(Self.reasons(named) == ["not initialised"])
        let all = PinPlanner.plan(try Self.observation(initialised: false), push: false, toGeneral: false)
        #expect(all.problems.isEmpty && all.changes.isEmpty)
    }

    @Test func refusesADetachedModule() throws {
        let plan = PinPlanner.plan(try Self.observation(articleBranch: nil), push: false, toGeneral: false)
        #expect(Self.reasons(plan) == ["detached HEAD; check out t2 and commit there first"])
        #expect(plan.changes.isEmpty)
    }

    @Test func refusesAModuleOnAnotherBranchThanTheTenantTakesItFrom() throws {
        let plan = PinPlanner.plan(try Self.observation(articleBranch: "general_dev"), push: false, toGeneral: false)
        #expect(Self.reasons(plan) == ["on branch general_dev, but t2 takes Article from t2"])
    }

    @Test func refusesUnpushedCommitsWithoutPush() throws {
        let plan = PinPlanner.plan(try Self.observation(unpushed: 3), push: false, toGeneral: false)
        #expect(
            Self.reasons(plan) == [
                "commit \(ObjectID.short(Self.head)) is not on the module's remote (3 unpushed); push it first or run "
                    + "with --push"
            ])
    }

    @Test func refusesToRecreateAModuleBranchTheRemoteLacks() throws {
        let plan = PinPlanner.plan(
            try Self.observation(unpushed: 1, remoteHasBranch: false), push: true, toGeneral: false)
        #expect(Self.reasons(plan).first?.hasPrefix("branch t2 does not exist on the remote of Article") == true)
    }

    @Test func refusesAModuleBranchBehindItsRemoteBeforeAnyPushNamingTheMerge() throws {
        let plan = PinPlanner.plan(
            try Self.observation(unpushed: 1, remoteHasBranch: true, behindRemote: 2), push: true, toGeneral: false)
        let reason = try #require(Self.reasons(plan).first)
        #expect(reason.hasPrefix("branch t2 is behind origin/t2: the remote has 2 commits"), "\(reason)")
        #expect(reason.contains("`git -C Modules/Article merge --no-edit origin/t2`"), "\(reason)")
        // Positive control: not behind, nothing refused.
        let control = PinPlanner.plan(
            try Self.observation(unpushed: 1, remoteHasBranch: true, behindRemote: 0), push: true, toGeneral: false)
        #expect(control.problems.isEmpty)
    }

    @Test func refusesToRecreateTheSuperprojectBranchTheRemoteLacks() throws {
        let plan = PinPlanner.plan(try Self.observation(), push: true, toGeneral: false)
        #expect(PinPlanner.readsRemote(plan, push: true))
        let landed = PinPlanner.land(plan, remote: PinRemoteObservation(tip: nil), push: true)
        #expect(Self.reasons(landed).first?.hasPrefix("branch t2 does not exist on the remote") == true)
        // Without --push there is nothing to recreate: the pin commit stays local.
        #expect(PinPlanner.land(plan, remote: PinRemoteObservation(tip: nil), push: false).problems.isEmpty)
    }

    @Test func refusesWhatTheRemoteRelationRefuses() throws {
        let plan = PinPlanner.plan(try Self.observation(), push: false, toGeneral: false)
        let problem = WorkingCopyProblem(repository: "superproject", path: "", reason: "diverged")
        let landed = PinPlanner.land(
            plan, remote: PinRemoteObservation(tip: Self.remoteTip, relation: .refused(problem)), push: false)
        #expect(landed.problems == [problem])
        #expect(landed.remoteBefore == Self.remoteTip)
    }

    @Test func refusesToPublishLocalCommitsThatPinUnpushedModuleCommits() throws {
        let plan = PinPlanner.plan(try Self.observation(articleHead: Self.pin), push: true, toGeneral: false)
        #expect(PinPlanner.publishesAhead(plan, push: true))
        let problem = WorkingCopyProblem(repository: "Article", path: "Modules/Article", reason: "unpushed pin")
        let landed = PinPlanner.land(
            plan, remote: PinRemoteObservation(tip: Self.remoteTip, relation: .ahead, unpublishedPins: [problem]),
            push: true)
        #expect(landed.problems == [problem])
        #expect(landed.unpublished == Self.superHead)
    }

    // MARK: where the pin commit goes

    @Test func aPinCommitAheadOfTheRemoteWithNothingToPinIsPublishedWithPush() throws {
        let plan = PinPlanner.plan(try Self.observation(articleHead: Self.pin), push: true, toGeneral: false)
        let landed = PinPlanner.land(
            plan, remote: PinRemoteObservation(tip: Self.remoteTip, relation: .ahead), push: true)
        #expect(landed.step == .publish(Self.superHead))
        #expect(landed.remoteBefore == Self.remoteTip)
    }

    @Test func aPinAfterARollLandsOnTheRemoteTipOrCatchesUp() throws {
        let plan = PinPlanner.plan(try Self.observation(), push: false, toGeneral: false)
        let change = PinReport.Change(
            module: "Article", path: "Modules/Article", old: Self.remoteTip, new: Self.head, pushed: false)
        let landing = PinLanding(remoteTip: Self.remoteTip, changes: [change], behind: ["Infrastructure"])
        let moved = PinPlanner.land(
            plan, remote: PinRemoteObservation(tip: Self.remoteTip, relation: .moved(landing)), push: false)
        #expect(moved.step == .land(landing))
        #expect(moved.changes == [change])
        let done = PinLanding(remoteTip: Self.remoteTip, changes: [], behind: [])
        let caughtUp = PinPlanner.land(
            plan, remote: PinRemoteObservation(tip: Self.remoteTip, relation: .moved(done)), push: false)
        #expect(caughtUp.step == .catchUp(done))
    }

    @Test func aPublishedBranchCommitsLocally() throws {
        let plan = PinPlanner.plan(try Self.observation(), push: true, toGeneral: false)
        let landed = PinPlanner.land(
            plan, remote: PinRemoteObservation(tip: Self.superHead, relation: .published), push: true)
        #expect(landed.problems.isEmpty && landed.step == .commit)
        #expect(PinPlanner.land(plan, remote: nil, push: true) == plan)
    }
}
