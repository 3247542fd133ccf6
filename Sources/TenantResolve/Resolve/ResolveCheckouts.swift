import Foundation

/// What resolve reads and ensures in the working copy's repositories beyond switch: start points, module commits.
enum ResolveCheckouts {
    /// Where a repository stands now: its checked-out branch, HEAD and local branches.
    static func startPoint(repository: String, in checkout: GitRepository, relativePath: String) throws
        -> ResolveState.StartPoint
    {
        guard try CheckoutPresence.of(checkout) == .repository else {
            return ResolveState.StartPoint(
                repository: repository, path: relativePath, initialised: false, headBranch: nil, head: nil,
                branches: [:])
        }
        let symbolic = try checkout.headBranchRef(context: "read the branch of \(repository)")
        let head = try checkout.objectID(of: "HEAD", context: "read the HEAD of \(repository)")?.hex
        let branches = try checkout.branches(under: "refs/heads/", what: repository)
        let branch = symbolic.flatMap { $0.hasPrefix("refs/heads/") ? String($0.dropFirst("refs/heads/".count)) : nil }
        return ResolveState.StartPoint(
            repository: repository, path: relativePath, initialised: true, headBranch: branch, head: head,
            branches: branches)
    }

    /// Every repository of the resolution as it stands now (its branch and HEAD): the before-state of a run's
    /// journal, read before the run changes anything.
    static func before(_ state: ResolveState, workspace: Workspace) throws -> [RunJournal.Before] {
        try state.startPoints.map { start in
            let checkout = workspace.repository(relative: start.path)
            guard try CheckoutPresence.of(checkout) == .repository else {
                return RunJournal.Before(repository: start.repository, branch: nil, head: nil)
            }
            let symbolic = try checkout.headBranchRef(context: "read the branch of \(start.repository)")
            return RunJournal.Before(
                repository: start.repository,
                branch: symbolic.flatMap {
                    $0.hasPrefix("refs/heads/") ? String($0.dropFirst("refs/heads/".count)) : nil
                },
                head: try checkout.objectID(of: "HEAD", context: "read the HEAD of \(start.repository)")?.hex)
        }
    }

    /// Fetches `origin` in a module checkout unless it already has every commit of `commits`.
    static func ensureCommits(_ commits: [String], in checkout: GitRepository, module: String, console: Console?)
        throws
    {
        for commit in commits where try !checkout.hasCommit(commit) {
            console?.progress("fetching \(module)")
            try checkout.fetchOrigin(prune: false, module: module)
            for commit in commits where try !checkout.hasCommit(commit) {
                throw ResolveError(
                    .refused,
                    "commit \(ObjectID.short(commit)) is not in \(module) even after fetching origin; is it pushed?")
            }
            return
        }
    }
}
