import Foundation

/// The landings by squash or rebase that the remotes show, so that a clone without the journals of the review runs
/// (a fresh clone, a CI job, a colleague's clone) takes a tenant branch as containing what it landed, as the clone
/// that ran them does:
///
/// - the trailer: every commit a review roll proposes carries `Rolled-by: tenantctl <run-id> <general> <commit>`,
///   and a forge that squashes keeps the proposal's messages in the squash commit's message (GitHub, Gitea and
///   Bitbucket list them by default). A commit on a tenant branch's first-parent line that the general branch lacks
///   and whose message names a general commit took that commit's changes.
/// - the proposal branch (`<prefix>/<tenant>`), while the forge keeps it: its commit names the general commit it
///   rolled in, and the landing rule (``ReviewLanding``) finds where the tenant branch landed it by squash or rebase.
///
/// Either way a landing counts only as ``VirtualBase/apply(_:to:superproject:)`` says: while the branch has the
/// landed commit and the general branch the general commit.
extension VirtualBase {
    /// The words every commit of a review roll has in its message, before `<run-id> <general> <commit>`.
    static let trailer = "Rolled-by: tenantctl "

    /// Every landing by squash or rebase known: the run journals' (``landings(gitDirectory:generalBranch:)``) and
    /// those the remotes show, each once. `reviewing`: this roll proposes reviews (`roll --review`).
    static func landings(
        gitDirectory: String, state: RollState, snapshot: Snapshot, review: ReviewOptions, jobs: Int,
        reviewing: Bool = true
    ) throws -> [SquashedLanding] {
        var landings = try landings(gitDirectory: gitDirectory, generalBranch: state.generalBranch)
        let found = try remoteLandings(
            state: state, snapshot: snapshot, review: review, jobs: jobs,
            reviewsInUse: reviewing || !landings.isEmpty)
        for landing in found where !landings.contains(landing) {
            landings.append(landing)
        }
        return try withReviewRefLandings(landings, state: state, snapshot: snapshot, review: review, jobs: jobs)
    }

    /// The landings the remotes show (trailers and proposal branches), for every module mirror and the superproject.
    /// The trailers are read only where a review roll may have written them
    /// (``readsTrailers(manifest:inputs:reviewsInUse:)``); `reviewsInUse`: this roll proposes reviews, or this
    /// clone's journals recorded a landed one.
    static func remoteLandings(
        state: RollState, snapshot: Snapshot, review: ReviewOptions, jobs: Int, reviewsInUse: Bool = true
    ) throws -> [SquashedLanding] {
        let review = review.reading(state.project.manifest)
        let tenantBranches = Set(state.project.tenants.map(\.branch))
        var inputs: [Input] = []
        for (name, repository) in state.repositories.sorted(by: { $0.key < $1.key }) {
            guard let mirror = snapshot.existingMirror(of: name), let generalTip = repository.facts.generalTip else {
                continue
            }
            let graph = repository.facts.graph
            inputs.append(
                Input(
                    name: name, repository: mirror, branches: repository.branches, tenantBranches: tenantBranches,
                    containGeneral: repository.containGeneral, generalBranch: repository.facts.generalBranch,
                    generalTip: generalTip, prefix: review.prefix(of: name),
                    isAncestor: { graph.isAncestor($0, of: $1) }))
        }
        if let generalTip = state.superproject.branches[state.generalBranch] {
            inputs.append(
                Input(
                    name: RollPublication.superproject, repository: snapshot.superproject,
                    branches: state.superproject.branches, tenantBranches: tenantBranches,
                    containGeneral: state.superproject.containGeneral,
                    generalBranch: state.generalBranch, generalTip: generalTip,
                    prefix: review.prefix(of: RollPublication.superproject), isAncestor: nil))
        }
        let tenants = state.project.tenants.map { (id: $0.id, branch: $0.branch) }
        let trailers = readsTrailers(
            manifest: state.project.manifest, inputs: inputs, reviewsInUse: reviewsInUse)
        return try Concurrent.map(inputs, jobs: jobs) { input in
            try (trailers ? input.trailerLandings() : []) + input.proposalLandings(tenants: tenants)
        }
        .flatMap { $0 }
    }

    /// Whether a trailer can be on a tenant branch: only a review roll writes `Rolled-by`, so the one `git log
    /// --grep` per repository runs only where the project shows that it proposes reviews — `reviewsInUse` (this
    /// roll proposes them, or this clone's journals recorded a landing), `modules.json` has a `review` object (the
    /// project's or a module's), or a proposal branch is on a remote. A plain roll of a project that shows none of
    /// these reads no commit message: with the branch forge's defaults and the proposal branch deleted, a squash
    /// landing is found by a review roll (`roll --review`) or once `modules.json` has a `review` object.
    static func readsTrailers(manifest: ModuleManifest, inputs: [Input], reviewsInUse: Bool) -> Bool {
        if reviewsInUse || manifest.review != nil || manifest.modules.contains(where: { $0.review != nil }) {
            return true
        }
        return inputs.contains { input in input.branches.keys.contains { $0.hasPrefix(input.prefix + "/") } }
    }

    /// The general commits a message says tenantctl rolled in: each `Rolled-by: tenantctl <run-id> <general>
    /// <commit>` line, wherever it stands (a squash commit lists the proposal's messages in its body, each a list
    /// item).
    static func rolledIn(message: String) -> [String] {
        var commits: [String] = []
        for line in message.split(whereSeparator: \.isNewline) {
            guard let range = line.range(of: trailer) else { continue }
            let words = line[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 3 else { continue }
            let commit = String(words[2])
            if ObjectID.isValid(commit) && !commits.contains(commit) { commits.append(commit) }
        }
        return commits
    }

    /// One repository to read landings in.
    struct Input: Sendable {
        /// `superproject` or the module's name.
        var name: String
        var repository: GitRepository
        /// Branch → tip, as on the remote (proposal branches too).
        var branches: [String: String]
        /// The tenants' branches: the only ones a landing is looked for on.
        var tenantBranches: Set<String>
        /// Branches that contain the general tip already: nothing to find for them.
        var containGeneral: Set<String>
        var generalBranch: String
        var generalTip: String
        /// The proposal branch prefix (`tenantctl/roll`).
        var prefix: String
        /// Ancestry from a graph already read (a module's); nil: ask git (the superproject).
        var isAncestor: (@Sendable (String, String) -> Bool)?

        /// The tenant branches that may have taken a general commit by squash or rebase: behind the general tip.
        var behind: [String: String] {
            branches.filter {
                tenantBranches.contains($0.key) && $0.key != generalBranch && !containGeneral.contains($0.key)
            }
        }

        /// Whether `ancestor` is in `descendant` (false when either is not a commit of the repository).
        func contains(_ descendant: String, _ ancestor: String, context: String) throws -> Bool {
            if let isAncestor { return isAncestor(ancestor, descendant) }
            guard try repository.objectID(of: ancestor, peeledTo: .commit, context: context) != nil else {
                return false
            }
            return try repository.isAncestor(ancestor, of: descendant, context: context)
        }

        /// The landings that trailers on the first-parent lines of the branches behind the general tip name: per
        /// tip, its newest commit with a trailer, for each general commit it names that the commit does not contain
        /// by ancestry already (a merge or fast-forward landing needs no virtual base).
        func trailerLandings() throws -> [SquashedLanding] {
            let behind = self.behind
            guard !behind.isEmpty else { return [] }
            let tips = Set(behind.values).sorted()
            let context = "read which tenant branches of \(name) took a general commit by squash or rebase"
            let found = try repository.firstParentCommits(
                of: tips, excluding: generalTip, messageContaining: VirtualBase.trailer, context: context)
            var newest: [String: GitRepository.FoundMessage] = [:]
            for commit in found where newest[commit.tip] == nil { newest[commit.tip] = commit }
            var landings: [SquashedLanding] = []
            for (tip, commit) in newest.sorted(by: { $0.key < $1.key }) {
                for general in VirtualBase.rolledIn(message: commit.message)
                where !commit.parents.contains(general) && general != commit.commit {
                    guard try contains(generalTip, general, context: context) else { continue }
                    for (branch, branchTip) in behind.sorted(by: { $0.key < $1.key }) where branchTip == tip {
                        landings.append(
                            SquashedLanding(
                                repository: name, branch: branch, landed: commit.commit, general: general))
                    }
                }
            }
            return landings
        }

        /// The landings the proposal branches still on the remote show: for each tenant behind the general tip
        /// with a proposal branch whose commit names the general commit it rolled in, where the landing rule finds
        /// that commit landed by squash or rebase.
        func proposalLandings(tenants: [(id: String, branch: String)]) throws -> [SquashedLanding] {
            try proposalRemoteLandings(tenants: tenants).map(\.landing)
        }
    }
}
