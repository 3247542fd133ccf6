import Foundation

extension WorkingCopySwitch {
    /// Puts back what a stopped switch (its run journal's records) changed, then ends its journal (`aborted`,
    /// finished by this run). Refuses, changing nothing, when a repository holds anything but the stopped switch's
    /// own leftovers: changes to files the switch did not touch are someone's work.
    func recover(_ stopped: StoppedSwitch) throws {
        if !stopped.moved.isEmpty {
            console?.progress(
                "a switch to \(stopped.target) stopped part-way; putting back what it changed "
                    + "(\(stopped.moved.joined(separator: ", ")))")
        }
        var problems: [WorkingCopyProblem] = []
        for repository in stopped.repositories where repository.started && !repository.initialises {
            problems += try foreignChanges(repository)
        }
        guard problems.isEmpty else {
            throw WorkingCopyRefusal(action: "put back the stopped switch to \(stopped.target)", problems: problems)
        }
        try rollBack(stopped.repositories)
        try stopped.settle(by: transaction?.runId, in: workspace)
    }

    /// Changes in a repository the records name that the switch cannot have made: tracked changes outside the
    /// paths that differ between where it was and where the switch was taking it. (Untracked files are kept by
    /// putting back, except new files at the target's paths, which the pre-flight found free.)
    private func foreignChanges(_ repository: StoppedSwitch.Repository) throws -> [WorkingCopyProblem] {
        let path = try checkoutPath(repository)
        guard try CheckoutPresence.of(path, git: git) == .repository, let before = repository.headBefore
        else { return [] }
        let touched = try GitRepository(path, git: git).changedPaths(
            from: before, to: repository.target,
            context: "list the files the switch changes in \(repository.repository)")
        let superproject = repository.path.isEmpty
        let state = try RepositoryState.inspect(path: path, git: git, superproject: superproject)
        let files = state.status.blockingEntries.filter { $0.submodule == nil || !superproject }.map(\.path)
        func join(_ file: String) -> String { repository.path.isEmpty ? file : repository.path + "/" + file }
        return files.filter { !touched.contains($0) }.sorted().map { file in
            WorkingCopyProblem(
                repository: repository.repository, path: join(file),
                reason: "changed since the switch stopped, and not by it; commit or stash it, then run the switch "
                    + "again")
        }
    }

    /// Puts every repository the records say was started back where it was, modules first (last changed first),
    /// the superproject last.
    func rollBack(_ repositories: [StoppedSwitch.Repository]) throws {
        for repository in repositories.reversed() where repository.started {
            try putBack(repository)
        }
    }

    /// One repository back to its branch and commit: the branch the switch moved or created is reset or deleted,
    /// HEAD, index and files return to the commit it had, and files of the target that a stopped checkout wrote
    /// (untracked now) are removed. The repository was clean before the switch.
    private func putBack(_ repository: StoppedSwitch.Repository) throws {
        let name = repository.repository
        if repository.initialises {
            // A module the switch cloned: not initialised again (its git directory stays, as after deinit).
            try GitRepository(workspace.root, git: git).deinitialiseSubmodule(
                repository.path, context: "put module \(name) back to not initialised")
            return
        }
        let path = try checkoutPath(repository)
        guard try CheckoutPresence.of(path, git: git) == .repository, let head = repository.headBefore else {
            return
        }

        let branchRef = "refs/heads/\(repository.branch)"
        let checkout = GitRepository(path, git: git)
        let message = "tenantctl switch: put back"
        if let tip = repository.branchTipBefore {
            try checkout.updateRef(
                branchRef, to: tip, message: message, context: "put \(repository.branch) back in \(name)")
        }
        if let branch = repository.branchBefore {
            try checkout.pointHead(
                at: "refs/heads/\(branch)", message: message, context: "put HEAD of \(name) back on \(branch)")
        } else {
            try checkout.detachHead(
                at: head, message: message, context: "put HEAD of \(name) back at \(ObjectID.short(head))")
        }
        try checkout.resetHard(to: head, context: "put the files of \(name) back at \(ObjectID.short(head))")
        // A checkout stopped before it wrote the index leaves the target's new files untracked: the pre-flight
        // found no untracked file there before, so they are the switch's.
        for file in try checkout.untrackedOverwrites(to: repository.target) {
            try? FileManager.default.removeItem(atPath: (path as NSString).appendingPathComponent(file))
        }
        if repository.branchTipBefore == nil && repository.branchBefore != repository.branch {
            try checkout.deleteRef(branchRef, context: "delete \(repository.branch) again in \(name)")
        }
        if let from = repository.movedFrom, path != workspace.path(from) {
            // A checkout the switch had moved goes back to where it was, with its branch and files.
            try ModuleCheckoutMove.move(from: path, to: workspace.path(from), git: git)
        }
    }

    /// Where the repository's checkout is now: for a module the switch moves, the new path once it got there,
    /// else the path it had.
    private func checkoutPath(_ repository: StoppedSwitch.Repository) throws -> String {
        let path = workspace.path(repository.path)
        guard let from = repository.movedFrom, try CheckoutPresence.of(path, git: git) != .repository else {
            return path
        }
        return workspace.path(from)
    }
}
