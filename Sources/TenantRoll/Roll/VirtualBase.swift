import Foundation

/// What a proposal landed by squash or rebase leaves behind: the target branch has the general commit's changes but
/// not the commit, so by ancestry it never took it.
struct SquashedLanding: Sendable, Equatable {
    /// `superproject` or a module name.
    var repository: String
    /// The branch it landed into (`t2`).
    var branch: String
    /// The target's commit that landed it.
    var landed: String
    /// The general branch's commit it rolled in.
    var general: String
}

/// The virtual base: after a squash or rebase landing a tenant branch is taken as containing the general commit it
/// landed, so the next roll merges the general branch from there instead of from the old merge base (which would
/// conflict with the changes the squash already brought, wherever the general branch changed the same lines again).
///
/// The landings are read from the run journals (`roll --land` records each with its commit and method before it does
/// anything else, so a killed run keeps them) and from what the remotes show, for a clone without those journals
/// (``remoteLandings(state:snapshot:review:jobs:)``: the trailer a squash keeps, the proposal branch; and
/// ``withReviewRefLandings(_:state:snapshot:review:jobs:)``: the forges' own review refs, where a forge kind is
/// named). A landing counts for a branch while the branch still contains the landed commit and the general branch
/// still contains the general commit. The merge itself runs on a local commit
/// with the tenant branch's tree and two parents, the tenant branch's tip and that general commit: git then finds
/// that general commit as the merge base. It is never pushed: the merge commit written has the real parents.
enum VirtualBase {
    /// Every landing by squash or rebase recorded in the run journals of `gitDirectory`, except the general branch's
    /// own re-pin (nothing merges the general branch into itself). A journal that cannot be read is left out: the
    /// commands that list runs name it.
    static func landings(gitDirectory: String, generalBranch: String) throws -> [SquashedLanding] {
        var landings: [SquashedLanding] = []
        for run in try RunJournal.all(gitDirectory: gitDirectory).runs {
            for review in run.reviews ?? []
            where review.state == "landed" && ["squash", "rebase"].contains(review.method ?? "")
                && !review.isGeneralRepin && review.target != generalBranch
            {
                guard let landed = review.landed else { continue }
                let landing = SquashedLanding(
                    repository: review.repository, branch: review.target, landed: landed, general: review.general)
                if !landings.contains(landing) { landings.append(landing) }
            }
        }
        return landings
    }

    /// `landings` (the journals', the trailers', the proposal branches') and those the forges' own review refs show
    /// beyond them (``reviewRefLandings(state:snapshot:review:jobs:known:)``: only for repositories whose review
    /// settings name a forge kind), each once.
    static func withReviewRefLandings(
        _ landings: [SquashedLanding], state: RollState, snapshot: Snapshot, review: ReviewOptions, jobs: Int
    ) throws -> [SquashedLanding] {
        var landings = landings
        for landing in try reviewRefLandings(
            state: state, snapshot: snapshot, review: review, jobs: jobs, known: landings)
        where !landings.contains(landing) {
            landings.append(landing)
        }
        return landings
    }

    /// The general commit `tip` of a branch takes as contained by the landings of that branch: the latest general
    /// commit of a landing still on the branch, whose general commit the general branch still has (nil: none).
    static func general(
        of landings: [SquashedLanding], tip: String, generalTip: String, isAncestor: (String, String) throws -> Bool
    ) rethrows -> String? {
        var candidates: [String] = []
        for landing in landings where try isAncestor(landing.landed, tip) && isAncestor(landing.general, generalTip) {
            candidates.append(landing.general)
        }
        var latest: String?
        for candidate in candidates {
            guard let current = latest else {
                latest = candidate
                continue
            }
            if try current != candidate && isAncestor(current, candidate) { latest = candidate }
        }
        return latest
    }

    /// `state` with the landings applied: a branch whose landing brought the general branch's tip counts as
    /// containing it (nothing to merge), and every other branch with a landing names its general commit as the base
    /// of its next merge (``ModuleRepositoryState/squashed``). Module ancestry comes from the module's graph already
    /// read; the superproject's, for its branches that have a landing, from `superproject`.
    static func apply(_ landings: [SquashedLanding], to state: RollState, superproject: GitRepository) throws
        -> RollState
    {
        guard !landings.isEmpty else { return state }
        var state = state
        for (name, repository) in state.repositories {
            let mine = landings.filter { $0.repository == name }
            guard !mine.isEmpty, let generalTip = repository.facts.generalTip else { continue }
            let graph = repository.facts.graph
            for (branch, tip) in repository.branches where !repository.containGeneral.contains(branch) {
                let onBranch = mine.filter { $0.branch == branch }
                guard
                    let general = general(
                        of: onBranch, tip: tip, generalTip: generalTip, isAncestor: { graph.isAncestor($0, of: $1) })
                else { continue }
                if graph.isAncestor(generalTip, of: general) {
                    state.repositories[name]?.containGeneral.insert(branch)
                } else {
                    state.repositories[name]?.squashed[branch] = general
                }
            }
        }
        let mine = landings.filter { $0.repository == RollPublication.superproject }
        guard !mine.isEmpty, let generalTip = state.superproject.branches[state.generalBranch] else { return state }
        for (branch, tip) in state.superproject.branches where !state.superproject.containGeneral.contains(branch) {
            let onBranch = mine.filter { $0.branch == branch }
            guard !onBranch.isEmpty else { continue }
            let context = "check whether the superproject's \(branch) took a landing by squash or rebase"
            let general = try general(
                of: onBranch, tip: tip, generalTip: generalTip,
                isAncestor: { try superproject.isAncestor($0, of: $1, context: context) })
            if let general, general == generalTip {
                state.superproject.containGeneral.insert(branch)
            } else if let general {
                state.superproject.squashed[branch] = general
            }
        }
        return state
    }

    /// The (ours, theirs) pairs to merge for `merges` of one module repository: a merge whose tenant branch took a
    /// general commit by squash or rebase (``ModuleMerge/virtualGeneral``) merges on a virtual base written now (one
    /// object per such merge, unsigned, in `repository`); every other merge on its tenant branch's tip.
    static func pairs(_ merges: [ModuleMerge], in repository: GitRepository, identity: CommitIdentity) throws
        -> [(ours: String, theirs: String)]
    {
        let virtual = merges.indices.filter { merges[$0].virtualGeneral != nil }
        guard !virtual.isEmpty else { return merges.map { ($0.ours.hex, $0.theirs.hex) } }
        var specs: [CommitSpec] = []
        for index in virtual {
            let merge = merges[index]
            guard let general = merge.virtualGeneral else { continue }
            let tree = try repository.tree(
                of: merge.ours.hex, context: "read the tree of \(merge.module)'s \(merge.branch) for its virtual base")
            specs.append(
                CommitSpec(
                    tree: tree, parents: [merge.ours.hex, general.hex],
                    message: "Virtual base: \(merge.branch) took \(general.short) by squash or rebase "
                        + "(local only, never pushed)"))
        }
        var unsigned = identity
        unsigned.signs = false
        let bases = try repository.writeCommits(specs, identity: unsigned)
        var ours = merges.map(\.ours.hex)
        for (index, base) in zip(virtual, bases) { ours[index] = base.hex }
        return zip(ours, merges).map { ($0, $1.theirs.hex) }
    }

    /// The (ours, theirs) pairs of the superproject's merges of `general` into the tenant branches of `tenants` (each
    /// with its tip): a tenant branch that took a general commit by squash or rebase (``TenantPlan/virtualGeneral``)
    /// merges on a virtual base written now in `superproject`, every other on its tip.
    static func pairs(
        _ tenants: [TenantPlan], general: String, in superproject: GitRepository, identity: CommitIdentity
    ) throws -> [(ours: String, theirs: String)] {
        let theirs = try RollPlanner.commitID(general, "the superproject's general tip")
        let merges = tenants.compactMap { tenant -> ModuleMerge? in
            guard let tip = tenant.tip else { return nil }
            var merge = ModuleMerge(
                module: RollPublication.superproject, tenant: tenant.tenant.id, branch: tenant.tenant.branch,
                ours: tip, theirs: theirs)
            merge.virtualGeneral = tenant.virtualGeneral
            return merge
        }
        return try pairs(merges, in: superproject, identity: identity)
    }
}
