import Foundation

/// The landings the forges' own review refs show: a forge keeps every review it opened under a ref of its own
/// (GitHub's and Gitea's `refs/pull/<n>/head`, Bitbucket's `refs/pull-requests/<n>/from`, GitLab's
/// `refs/merge-requests/<n>/head`, Gerrit's `refs/changes/<nn>/<n>/<patch set>`) after it landed it and deleted the
/// proposal branch. So a clone without the journals of the review runs still finds a landing by squash whose message
/// dropped the trailer once the branch is gone: the review ref's commit names the general commit it rolled in, and
/// the landing rule (``ReviewLanding``) finds where the tenant branch took it.
///
/// Read only for the repositories whose review settings name a forge kind (`--forge`, the `review` object of
/// `modules.json` or of the module) and that have a tenant branch behind the general tip: one `fetch` of the forge's
/// review namespace into tenantctl's copy (``GitRepository/reviewRefCache``; none without a fetch) and one `log` of
/// the copies per such repository, then the landing rule for the newest review of each tenant branch that proposed
/// to it, older ones only until one landed.
extension VirtualBase {
    /// The ref patterns a forge of `kind` keeps its reviews under.
    static func reviewRefPatterns(_ kind: ReviewForge) -> [String] {
        switch kind {
        case .branch: ["refs/pull/*/head", "refs/pull-requests/*/from"]
        case .agit: ["refs/pull/*/head"]
        case .gitlab: ["refs/merge-requests/*/head"]
        case .gerrit: ["refs/changes/*"]
        }
    }

    /// The forge kind the review settings name for `repository` (`--forge`, the module's `review.forge`, the
    /// manifest's); nil when none names one (then no review ref is read).
    static func namedForge(of repository: String, review: ReviewOptions) -> ReviewForge? {
        review.forge ?? review.settings(of: repository).forge
    }

    /// The landings by squash or rebase the forges' review refs show in the repositories of `state` (module mirrors
    /// and the superproject), except those `known` has already (the journals', the trailers', the proposal
    /// branches'). The review refs are fetched first when `snapshot` was fetched.
    static func reviewRefLandings(
        state: RollState, snapshot: Snapshot, review: ReviewOptions, jobs: Int, known: [SquashedLanding]
    ) throws -> [SquashedLanding] {
        let review = review.reading(state.project.manifest)
        let inputs = reviewRefInputs(state: state, snapshot: snapshot, review: review)
        guard !inputs.isEmpty else { return [] }
        let tenants = state.project.tenants.map { (id: $0.id, branch: $0.branch) }
        return try Concurrent.map(inputs, jobs: jobs) { entry in
            if snapshot.fetched {
                try entry.input.repository.fetchReviewRefs(
                    entry.patterns, from: entry.remote,
                    context:
                        "fetch the reviews \(entry.input.name)'s forge keeps (\(entry.patterns.joined(separator: " ")))"
                )
            }
            return try entry.input.reviewRefLandings(patterns: entry.patterns, tenants: tenants, known: known)
                .map(\.landing)
        }
        .flatMap { $0 }
    }

    /// One repository whose forge's review refs are read: what it is, the patterns, and the remote to fetch them
    /// from.
    struct ReviewRefInput: Sendable {
        var input: Input
        var patterns: [String]
        var remote: String
    }

    /// The repositories of `state` whose review settings name a forge kind and that have a tenant branch behind the
    /// general tip (`review` has read the manifest).
    static func reviewRefInputs(state: RollState, snapshot: Snapshot, review: ReviewOptions) -> [ReviewRefInput] {
        let tenantBranches = Set(state.project.tenants.map(\.branch))
        var inputs: [ReviewRefInput] = []
        for (name, repository) in state.repositories.sorted(by: { $0.key < $1.key }) {
            guard let kind = namedForge(of: name, review: review), let mirror = snapshot.existingMirror(of: name),
                let generalTip = repository.facts.generalTip, let url = snapshot.specs[name]?.url
            else { continue }
            let graph = repository.facts.graph
            let input = Input(
                name: name, repository: mirror, branches: repository.branches, tenantBranches: tenantBranches,
                containGeneral: repository.containGeneral, generalBranch: repository.facts.generalBranch,
                generalTip: generalTip, prefix: review.prefix(of: name), isAncestor: { graph.isAncestor($0, of: $1) })
            guard !input.behind.isEmpty else { continue }
            inputs.append(ReviewRefInput(input: input, patterns: reviewRefPatterns(kind), remote: url))
        }
        if let kind = namedForge(of: RollPublication.superproject, review: review),
            let generalTip = state.superproject.branches[state.generalBranch]
        {
            let input = Input(
                name: RollPublication.superproject, repository: snapshot.superproject,
                branches: state.superproject.branches, tenantBranches: tenantBranches,
                containGeneral: state.superproject.containGeneral, generalBranch: state.generalBranch,
                generalTip: generalTip, prefix: review.prefix(of: RollPublication.superproject), isAncestor: nil)
            if !input.behind.isEmpty {
                inputs.append(
                    ReviewRefInput(
                        input: input, patterns: reviewRefPatterns(kind), remote: snapshot.workspace.remoteName))
            }
        }
        return inputs
    }

    /// Each `Rolled-by: tenantctl <run-id> <general> <commit>` line of a message: the run and the general commit.
    static func rolledBy(message: String) -> [(run: String, general: String)] {
        var found: [(run: String, general: String)] = []
        for line in message.split(whereSeparator: \.isNewline) {
            guard let range = line.range(of: trailer) else { continue }
            let words = line[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 3, ObjectID.isValid(String(words[2])) else { continue }
            found.append((String(words[0]), String(words[2])))
        }
        return found
    }

    /// The numbers of a review ref that order reviews, oldest first: the review's number, then the patch set
    /// (Gerrit's two-digit shard `refs/changes/<nn>/` left out, so that change 101 comes after change 2).
    static func reviewNumbers(_ ref: String) -> [Int] {
        let parts = ref.split(separator: "/").map(String.init)
        var numbers: [Int] = []
        for (index, part) in parts.enumerated() {
            guard let number = Int(part) else { continue }
            if index > 0, parts[index - 1] == "changes", index + 1 < parts.count, Int(parts[index + 1]) != nil {
                continue
            }
            numbers.append(number)
        }
        return numbers
    }

    /// A landing by squash or rebase with what the remotes show of its proposal.
    struct RemoteLanding: Sendable, Equatable {
        var landing: SquashedLanding
        /// The tenant whose branch took it.
        var tenant: String
        /// `squash` or `rebase`.
        var method: String
        /// The review run that proposed it, as the trailer names it.
        var runId: String?
        /// Where the proposal was seen: the proposal branch (`refs/heads/tenantctl/roll/t2`) or the forge's review ref
        /// (`refs/pull/12/head`); nil when only the trailer of the landed commit shows it.
        var ref: String?
        /// The proposed commit, where seen.
        var proposed: String?
    }
}

extension VirtualBase.Input {
    /// The landings the copies of the forge's review refs under `patterns` show, except those `known` has: per
    /// tenant branch behind the general tip, the review refs whose commit carries the trailer, newest first, until
    /// one landed on it (by merge or fast-forward: nothing to find; by squash or rebase: that landing). A review
    /// counts for a branch when the commit it proposed on is in the branch and the general commit it rolled in is in
    /// the general branch but not in the branch.
    func reviewRefLandings(patterns: [String], tenants: [(id: String, branch: String)], known: [SquashedLanding])
        throws -> [VirtualBase.RemoteLanding]
    {
        let behind = self.behind
        guard !behind.isEmpty, !patterns.isEmpty else { return [] }
        let context = "read the reviews \(name)'s forge keeps (\(patterns.joined(separator: " ")))"
        let found = try repository.reviewRefCommits(patterns, messageContaining: VirtualBase.trailer, context: context)
        guard !found.isEmpty else { return [] }
        let newestFirst = found.sorted {
            VirtualBase.reviewNumbers($1.tip).lexicographicallyPrecedes(VirtualBase.reviewNumbers($0.tip))
        }
        var landings: [VirtualBase.RemoteLanding] = []
        for tenant in tenants {
            guard let tip = behind[tenant.branch] else { continue }
            let knownGenerals = Set(
                known.filter { $0.repository == name && $0.branch == tenant.branch }.map(\.general))
            reviews: for commit in newestFirst {
                guard let rolled = VirtualBase.rolledBy(message: commit.message).first,
                    let base = commit.parents.first
                else { continue }
                // A landing known already, or a general commit the branch has by ancestry: nothing older counts.
                if knownGenerals.contains(rolled.general) { break reviews }
                guard try contains(tip, base, context: context),
                    try contains(generalTip, rolled.general, context: context)
                else { continue }
                if try contains(tip, rolled.general, context: context) { break reviews }
                let ref = "refs/" + commit.tip.dropFirst(GitRepository.reviewRefCache.count)
                let review = RunJournal.Review(
                    repository: name, tenant: tenant.id, target: tenant.branch, ref: ref, base: base,
                    general: rolled.general, proposed: commit.commit, state: "open")
                let followed = try ReviewLanding(repository: repository).follow(review, target: tip, proposal: nil)
                guard followed.state == "landed", let landed = followed.landed, let method = followed.method else {
                    continue
                }
                if ["squash", "rebase"].contains(method) {
                    landings.append(
                        VirtualBase.RemoteLanding(
                            landing: SquashedLanding(
                                repository: name, branch: tenant.branch, landed: landed, general: rolled.general),
                            tenant: tenant.id, method: method, runId: rolled.run, ref: ref, proposed: commit.commit))
                }
                break reviews
            }
        }
        return landings
    }
}
