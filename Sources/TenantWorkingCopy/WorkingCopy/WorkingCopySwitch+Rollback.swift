import Foundation

extension WorkingCopySwitch {
    /// Puts back what a stopped switch (its run journal's records) changed, then ends its journal (`aborted`,
    /// finished by this run); returns the repositories it put back.
    ///
    /// Only where the stopped switch ran: from another worktree it refuses, naming that worktree and the command that
    /// puts it back there; when that worktree no longer exists, nothing is put back and that is said. Every
    /// repository is looked at before anything moves, and each step is undone only while its object is exactly what
    /// the switch left (``PutBack``): a change of the user's in any repository refuses the whole put-back, naming the
    /// file, and a commit of the user's is kept and named.
    func recover(_ stopped: StoppedSwitch) throws -> [String] {
        // Stopped before it changed anything: nothing to put back, wherever it ran.
        guard !stopped.moved.isEmpty else {
            try stopped.settle(by: transaction?.runId, in: workspace)
            return []
        }
        if let worktree = stopped.worktree, !Self.sameDirectory(worktree, workspace.root) {
            guard FileManager.default.fileExists(atPath: (worktree as NSString).appendingPathComponent(".git")) else {
                console?.progress(
                    "a switch to \(stopped.target) stopped part-way in the worktree \(worktree), which no longer "
                        + "exists: nothing of it is put back, and nothing here is touched")
                try removeBranchesLeft(by: stopped)
                try stopped.settle(by: transaction?.runId, in: workspace)
                return []
            }
            let rerun =
                stopped.run.rerunCommand(currentWorktree: workspace.root)
                ?? "tenantctl runs --abort \(stopped.run.runId)"
            throw WorkingCopyRefusal(
                action: "switch here",
                problems: [
                    WorkingCopyProblem(
                        repository: "superproject", path: worktree,
                        reason: "a switch to \(stopped.target) stopped part-way in that worktree (run "
                            + "\(stopped.run.runId)); it is put back only there, nothing of this worktree was touched; run `\(rerun)` "
                            + "(it puts that worktree back, then switches it), then run this command again")
                ])
        }
        let result = try rollBack(stopped.repositories, target: stopped.target) { putBack in
            console?.progress(
                "a switch to \(stopped.target) stopped part-way; putting back what it changed "
                    + "(\(putBack.joined(separator: ", ")))")
        }
        try stopped.settle(by: transaction?.runId, in: workspace, putBack: result.putBack)
        return result.putBack
    }

    /// The superproject branches a switch stopped in a worktree that is gone had created (branches are shared by
    /// every worktree; its module checkouts went with the worktree): each is deleted when it still points where the
    /// switch left it and no worktree has it checked out (compare-and-swap: git refuses when it moved), else kept
    /// and named.
    func removeBranchesLeft(by stopped: StoppedSwitch) throws {
        let superproject = workspace.superproject
        for record in stopped.repositories
        where record.repository == "superproject" && record.started && record.branchTipBefore == nil {
            let ref = "refs/heads/" + record.branch
            guard
                let now = try superproject.objectID(of: ref, context: "read \(record.branch) in the superproject")?.hex
            else {
                continue
            }
            let here = try superproject.headBranch(context: "read the superproject's branch")
            let elsewhere = try superproject.branchesInOtherWorktrees(gitDirectory: workspace.gitDirectory)[
                record.branch]
            if now == record.target && here != record.branch && elsewhere == nil {
                try superproject.deleteRef(
                    ref, expected: now, message: "tenantctl switch: branch left by stopped run \(stopped.run.runId)",
                    context: "delete \(record.branch), which the stopped switch created")
                console?.progress(
                    "deleted branch \(record.branch) (at \(ObjectID.short(now))), which that switch had created")
            } else {
                let why =
                    now != record.target
                    ? "it is now at \(ObjectID.short(now)), the switch left it at \(ObjectID.short(record.target))"
                    : "it is checked out in \(here == record.branch ? "this worktree" : elsewhere ?? "a worktree")"
                console?.progress("kept branch \(record.branch), which that switch had created: \(why)")
            }
        }
    }

    /// Whether two paths name the same directory (symbolic links resolved).
    static func sameDirectory(_ one: String, _ other: String) -> Bool {
        func resolved(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        return one == other || resolved(one) == resolved(other)
    }

    /// Puts every repository the records say was started back where it was, modules first (last changed first),
    /// the superproject last. Every started repository is looked at before the first one moves, each step is
    /// compared with what the switch left (``putBackStep(_:)``), and only that goes back: a repository holding a
    /// change of the user's (a file edited, a commit) is kept as it is and named, and the others are put back.
    /// Repositories the switch had not started changing are not looked at. `starting` runs once everything was
    /// looked at, before the first change, with the repositories that go back (not when none does). Returns the
    /// repositories put back and those kept as they are (after saying why).
    @discardableResult
    func rollBack(
        _ repositories: [StoppedSwitch.Repository], target: String, starting: ([String]) -> Void = { _ in }
    ) throws -> (putBack: [String], kept: [String]) {
        var steps: [PutBack] = []
        var kept: [String] = []
        for repository in repositories where repository.started { try putBackStoppedMove(repository) }
        for repository in repositories where repository.started {
            var step = try putBackStep(repository)
            if !step.problems.isEmpty {
                // The user's work is in it: nothing of it moves.
                kept.append(step.name)
                step.kept.append(
                    "\(step.name): kept as it is, not put back: it holds changes of yours, changed since the switch "
                        + "to \(target) stopped and not by it (\(step.problems.map(\.path).joined(separator: ", ")))")
                step.restoresCheckout = false
                step.revertsBranch = nil
                step.removes = []
                step.deinitialises = false
            } else if !step.kept.isEmpty && !step.restoresCheckout && !step.deinitialises {
                kept.append(step.name)
            }
            steps.append(step)
        }
        steps.removeAll(where: \.untouched)
        let putBack = steps.map(\.name).filter { !kept.contains($0) }
        if !putBack.isEmpty { starting(putBack) }
        for step in steps.reversed() { try apply(step) }
        for note in steps.flatMap(\.kept) { console?.warn(note) }
        return (putBack, kept)
    }

    /// A module checkout move the stopped switch (or the put-back of one) had begun and not finished: killed between
    /// pointing the checkout's `core.worktree` at the new path and renaming the directory, or between the rename and
    /// writing its `.git` file again (no git call comes between them). Git cannot work in such a checkout; its
    /// pointer is set to where the checkout is (``StoppedCheckoutMove``), and that is said. The rest of the put-back
    /// then finds it there, whole, and compares it as usual: a checkout holding the user's changes is kept and named.
    private func putBackStoppedMove(_ repository: StoppedSwitch.Repository) throws {
        guard let from = repository.movedFrom else { return }
        let old = workspace.path(from)
        let new = workspace.path(repository.path)
        let outside = gitRepository(at: workspace.root)
        defer { reconnectNested(repository, between: old, and: new, outside: outside) }
        guard let repair = try StoppedCheckoutMove.repair(between: old, and: new, outside: outside) else { return }
        if case .gitFileRewritten(let checkout, _) = repair {
            // What the move does last: the directories the old path leaves empty go.
            let other = checkout == new ? old : new
            ModuleCheckoutMove.removeEmptyParents(of: other, below: workspace.root)
        }
        let root = workspace.root + "/"
        let relative = { (path: String) in path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path }
        console?.warn(
            "\(repository.repository): the move of its checkout between \(from) and \(repository.path) had stopped "
                + "half-way: \(repair.description(relative: relative))")
    }

    /// The nested checkouts of a module whose checkout a stopped switch was moving (or had moved, the move's last
    /// step, pointing the nested checkouts' links at the new place, not finished): wherever the module's checkout is
    /// now, whole, each nested checkout's links are pointed at where it is (``NestedCheckoutLinks``), and that is
    /// said. What cannot be read is said and left: the put-back then names what git cannot work in.
    private func reconnectNested(
        _ repository: StoppedSwitch.Repository, between old: String, and new: String, outside: GitRepository
    ) {
        let (checkout, other) =
            FileManager.default.fileExists(atPath: (new as NSString).appendingPathComponent(".git"))
            ? (new, old) : (old, new)
        do {
            guard try CheckoutPresence.of(gitRepository(at: checkout)) == .repository else { return }
            let reconnected = try NestedCheckoutLinks.reconnect(in: checkout, movedFrom: other, outside: outside)
            guard !reconnected.isEmpty else { return }
            console?.warn(
                "\(repository.repository): the links of its nested checkouts "
                    + "(\(reconnected.map(\.path).joined(separator: ", "))) still named where the stopped switch had "
                    + "moved its checkout from; they name where they are again")
        } catch {
            console?.warn(
                "\(repository.repository): the links of its nested checkouts could not be set right: \(error)")
        }
    }

    /// What putting one repository back does, decided before anything moves.
    struct PutBack {
        /// The repository's name.
        var name: String
        /// Its record.
        var repository: StoppedSwitch.Repository
        /// Its checkout now.
        var path: String
        /// Changes of the user's that forbid putting anything back (the put-back refuses, naming them).
        var problems: [WorkingCopyProblem] = []
        /// What stays as the user left it, said after the put-back.
        var kept: [String] = []
        /// HEAD, index and files go back to the commit it had: they hold nothing but the two commits' contents.
        var restoresCheckout = false
        /// The branch the switch moved or created goes back: to this value (nil: deleted), from the one it wrote.
        var revertsBranch: (to: String?, from: String)? = nil
        /// Files of the target a stopped checkout wrote that are untracked once HEAD is back (their contents are
        /// the target's).
        var removes: [String] = []
        /// A module the switch cloned, with no change of the user's: not initialised again.
        var deinitialises = false
        /// Started, but no step of the switch landed and it is clean, on the branch and commit it had: nothing to
        /// put back.
        var untouched = false
    }

    /// Decides how one repository goes back, comparing each object with what the stopped switch left.
    private func putBackStep(_ repository: StoppedSwitch.Repository) throws -> PutBack {
        let name = repository.repository
        if repository.initialises { return try clonePutBackStep(repository) }
        let path = try checkoutPath(repository)
        var step = PutBack(name: name, repository: repository, path: path)
        guard try CheckoutPresence.of(gitRepository(at: path)) == .repository, let before = repository.headBefore else {
            return step
        }
        let checkout = gitRepository(at: path)
        let head = try checkout.objectID(of: "HEAD", context: "read HEAD of \(name)")?.hex
        let headRef = try checkout.headBranchRef(context: "read the branch of \(name)")
        // A submodule modules.json does not name is checked out detached: no branch of its own.
        let branchRef = repository.branch.isEmpty ? nil : "refs/heads/\(repository.branch)"
        let branchValue = try branchRef.flatMap {
            try checkout.objectID(of: $0, context: "read \(repository.branch) in \(name)")?.hex
        }
        // What the switch left: the values its landed steps recorded; for a step under way when it stopped, where it
        // was taking the repository.
        let target = branchRef.flatMap { repository.landed[$0] } ?? repository.landed["HEAD"] ?? repository.target
        let branchKept = try putBackBranch(
            repository, checkout: checkout, value: branchValue, target: target, step: &step)

        // HEAD, index and files: back only from the commit it had or the one the switch wrote, on the branch it had
        // or the switch's branch, with nothing in the index or the files but those two commits' contents.
        let headAtTheSwitchsCommit = head.map { $0 == before || $0 == target } ?? false
        let headOnTheSwitchsBranch =
            headRef == nil || headRef == branchRef || headRef == repository.branchBefore.map { "refs/heads/\($0)" }
        let headIsTheSwitchs = headAtTheSwitchsCommit && headOnTheSwitchsBranch && !(branchKept && headRef == branchRef)
        guard headIsTheSwitchs else {
            if !(branchKept && headRef == branchRef) {
                step.kept.append(
                    "\(name): HEAD is at \(try described(head ?? "", in: checkout, name: name))"
                        + (headRef.map { " on \(Self.shortBranch($0))" } ?? "")
                        + ", not where the stopped switch left it: left as it is")
            }
            if headRef == branchRef { step.revertsBranch = nil }
            step.problems += try RepositoryState.inspect(gitRepository(at: path), superproject: repository.path.isEmpty)
                .problems(repository: name, relativePath: repository.path)
            return step
        }
        if let branchBefore = repository.branchBefore, headRef != "refs/heads/\(branchBefore)" {
            let value = try checkout.objectID(
                of: "refs/heads/\(branchBefore)", context: "read \(branchBefore) in \(name)")?.hex
            guard value == before else {
                step.kept.append(
                    "\(name): branch \(branchBefore) moved since the switch stopped (it is at "
                        + "\(try described(value ?? "", in: checkout, name: name))): HEAD left as it is")
                if headRef == branchRef { step.revertsBranch = nil }
                return step
            }
        }
        if step.revertsBranch == nil, !branchKept, try isUntouched(repository, head: head, headRef: headRef) {
            step.untouched = true
            return step
        }
        let files = try leftovers(in: checkout, before: before, target: target, repository: repository)
        step.problems += files.user
        step.removes = files.targetFiles
        step.restoresCheckout = true
        return step
    }

    /// The branch the switch moved or created: back (`step.revertsBranch`) only while it is at the value the switch
    /// wrote (`target`). Returns whether it is kept: moved since, or checked out in another worktree (named in
    /// `step.kept`).
    private func putBackBranch(
        _ repository: StoppedSwitch.Repository, checkout: GitRepository, value branchValue: String?, target: String,
        step: inout PutBack
    ) throws -> Bool {
        let name = repository.repository
        let tip = repository.branchTipBefore
        guard let value = branchValue, value != tip else { return false }
        let elsewhere =
            repository.path.isEmpty
            ? try checkout.branchesInOtherWorktrees(gitDirectory: workspace.gitDirectory)[repository.branch] : nil
        if let elsewhere {
            step.kept.append("\(name): branch \(repository.branch) is checked out in the worktree \(elsewhere): kept")
            return true
        }
        if value == target {
            step.revertsBranch = (tip, target)
            return false
        }
        step.kept.append(
            "\(name): branch \(repository.branch) is at \(try described(value, in: checkout, name: name)), "
                + "a commit the stopped switch did not make: kept"
                + (tip == nil ? " (the switch had created the branch; it is not deleted)" : ""))
        return true
    }

    /// Whether a repository the switch had started is as it was before: no step landed there, HEAD on the branch
    /// and at the commit it had, its checkout where it was (not moved), nothing changed in it (the switch stopped
    /// before its checkout began).
    private func isUntouched(_ repository: StoppedSwitch.Repository, head: String?, headRef: String?) throws -> Bool {
        guard repository.landed.isEmpty, head == repository.headBefore,
            headRef == repository.branchBefore.map({ "refs/heads/\($0)" })
        else { return false }
        if let from = repository.movedFrom, try checkoutPath(repository) != workspace.path(from) { return false }
        return try RepositoryState.inspect(
            gitRepository(at: try checkoutPath(repository)), superproject: repository.path.isEmpty
        ).problems(repository: repository.repository, relativePath: repository.path).isEmpty
    }

    /// A module the stopped switch cloned: deinitialised again only with no change of the user's (no changed,
    /// untracked or ignored file: refused, naming it; no commit no remote holds: kept, naming it).
    private func clonePutBackStep(_ repository: StoppedSwitch.Repository) throws -> PutBack {
        let name = repository.repository
        let path = workspace.path(repository.path)
        var step = PutBack(name: name, repository: repository, path: path)
        let present = try CheckoutPresence.of(gitRepository(at: path)) == .repository
        if !present && repository.branch.isEmpty {
            // A nested or unnamed submodule whose clone is gone (its module put back already): nothing to put back.
            step.untouched = true
            return step
        }
        if present {
            let checkout = gitRepository(at: path)
            let files = try usersFiles(in: checkout, name: name)
            step.problems = files.sorted().map { file in
                WorkingCopyProblem(
                    repository: name, path: repository.path + "/" + file,
                    reason: "changed since the switch that cloned module \(name) stopped, and not by it; commit or "
                        + "stash it, then run the switch again")
            }
            // A nested submodule's recorded commit may be missing from its clone (the reason its update stopped):
            // then every commit of the clone's own that no remote holds is the user's.
            let missing = try repository.branch.isEmpty && !checkout.hasCommit(repository.target)
            let pinned = missing ? nil : repository.target
            if let commit = try checkout.commitOnNoRemote(
                beyond: pinned, context: "look for commits of your own in \(name)")
            {
                step.kept.append(
                    "\(name): the module the stopped switch cloned holds \(try described(commit, in: checkout, name: name)), "
                        + "which no remote has: kept cloned")
                return step
            }
        }
        step.deinitialises = step.problems.isEmpty
        return step
    }

    /// The files of a checkout the stopped switch cloned that are not exactly what its HEAD has. A nested submodule
    /// that differs only because the switch's own recursive update stopped (not initialised, or a checkout of its
    /// own with no changed file and no commit that no remote holds) is the switch's, not the user's; anything in it
    /// of the user's is named with its path inside the module.
    private func usersFiles(in checkout: GitRepository, name: String) throws -> [String] {
        let files = try checkout.filesNotAtHead(context: "list the changed files of \(name)")
        guard !files.isEmpty else { return [] }
        let head = try checkout.treeEntries("HEAD", context: "list the files of HEAD in \(name)")
        var users: [String] = []
        for file in files {
            let trimmed = file.hasSuffix("/") ? String(file.dropLast()) : file
            guard let entry = head[trimmed], entry.hasPrefix("160000 ") else {
                users.append(file)
                continue
            }
            let nestedPath = (checkout.path as NSString).appendingPathComponent(trimmed)
            switch try CheckoutPresence.of(gitRepository(at: nestedPath)) {
            case .notInitialised:
                continue
            case .notARepository:
                users.append(file)
            case .repository:
                let nested = gitRepository(at: nestedPath)
                // A file of its HEAD missing from disk holds nothing of the user's (HEAD has it): what a recursive
                // update whose checkout stopped leaves behind.
                let inner = try usersFiles(in: nested, name: name + "/" + trimmed).filter {
                    FileManager.default.fileExists(atPath: (nestedPath as NSString).appendingPathComponent($0))
                }
                users += inner.map { trimmed + "/" + $0 }
                // The pin itself may be missing there (the reason the recursive update stopped): then every
                // commit of the nested checkout's own not on a remote is the user's.
                let pinned = String(entry.split(separator: " ").last ?? "")
                let known = try nested.hasCommit(pinned) ? pinned : nil
                if try nested.commitOnNoRemote(
                    beyond: known, context: "look for commits of your own in \(name)/\(trimmed)") != nil
                {
                    users.append(file)
                }
            }
        }
        return users
    }

    /// The files of a checkout whose index entry or contents are neither the `before` commit's nor the `target`'s
    /// (the user's: named, with the reason), and the untracked files whose contents are the target's at a path the
    /// `before` commit does not have (a stopped checkout's). Submodules are left out: each module is looked at on
    /// its own.
    private func leftovers(
        in checkout: GitRepository, before: String, target: String, repository: StoppedSwitch.Repository
    ) throws -> (user: [WorkingCopyProblem], targetFiles: [String]) {
        let name = repository.repository
        try checkout.refreshIndex(
            ignoringSubmodules: repository.path.isEmpty, context: "refresh the index of \(name)")
        let old = try checkout.treeEntries(before, context: "list the files of \(ObjectID.short(before)) in \(name)")
        let new = try checkout.treeEntries(target, context: "list the files of \(ObjectID.short(target)) in \(name)")
        let index = try checkout.indexEntries(context: "read the index of \(name)")
        func isGitlink(_ entry: String?) -> Bool { entry?.hasPrefix("160000 ") ?? false }
        func id(_ entry: String?) -> String? { entry.flatMap { $0.split(separator: " ").last.map(String.init) } }
        var user: [String: String] = [:]
        for path in index.unmerged { user[path] = "has a merge conflict" }
        for path in Set(old.keys).union(new.keys).union(index.entries.keys) {
            let entry = index.entries[path]
            if isGitlink(entry) || isGitlink(old[path]) || isGitlink(new[path]) || index.unmerged.contains(path) {
                continue
            }
            if entry != old[path] && entry != new[path] { user[path] = "staged" }
        }
        let differing = try checkout.filesDifferingFromIndex(context: "list the changed files of \(name)")
            .filter { !isGitlink(index.entries[$0]) && user[$0] == nil }
        let root = checkout.path
        func exists(_ path: String) -> Bool {
            var directory: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: (root as NSString).appendingPathComponent(path), isDirectory: &directory)
                && !directory.boolValue
        }
        let present = differing.filter(exists)
        let hashes = Dictionary(
            uniqueKeysWithValues: zip(
                present, try checkout.hashFiles(present, context: "read the changed files of \(name)")))
        for path in differing where hashes[path] != id(old[path]) && hashes[path] != id(new[path]) {
            user[path] = hashes[path] == nil ? "deleted" : "edited"
        }
        let untracked = try checkout.untrackedFiles().filter { !$0.hasSuffix("/") && exists($0) }
        let untrackedHashes = try checkout.hashFiles(untracked, context: "read the untracked files of \(name)")
        var targetFiles: [String] = []
        for (path, hash) in zip(untracked, untrackedHashes) {
            if let entry = old[path] {
                if hash != id(entry) { user[path] = "untracked where the commit it goes back to has a file" }
            } else if hash == id(new[path]) {
                targetFiles.append(path)
            } else if new[path] != nil, !isGitlink(new[path]),
                try isStartOfTargetFile(path, in: checkout, target: target, name: name)
            {
                // A checkout the disk stopped half-way through writing the target's file.
                targetFiles.append(path)
            }
        }
        func join(_ file: String) -> String { repository.path.isEmpty ? file : repository.path + "/" + file }
        let problems = user.keys.sorted().map { file in
            WorkingCopyProblem(
                repository: name, path: join(file),
                reason: "changed since the switch stopped, and not by it (\(user[file] ?? "changed"): its contents "
                    + "are neither \(ObjectID.short(before))'s nor \(ObjectID.short(target))'s); commit or stash it, "
                    + "then run the switch again")
        }
        return (problems, targetFiles.sorted())
    }

    /// Whether the file at `path` holds the start of the target's file there (a checkout stopped while writing it,
    /// by a full disk): its bytes are a prefix of the target's blob.
    private func isStartOfTargetFile(_ path: String, in checkout: GitRepository, target: String, name: String) throws
        -> Bool
    {
        let file = (checkout.path as NSString).appendingPathComponent(path)
        guard let contents = FileManager.default.contents(atPath: file) else { return false }
        let blob = try checkout.blob(path, at: target, context: "read \(path) of \(ObjectID.short(target)) in \(name)")
        return contents.count < blob.count && blob.prefix(contents.count) == contents
    }

    /// One repository back, as ``putBackStep(_:)`` decided: HEAD on the branch it had (or detached at the commit it
    /// had), the branch the switch moved or created back to its value (a compare-and-swap on the value the switch
    /// wrote), index and files at the commit it had, the target's untracked leftovers removed, a moved checkout
    /// moved back; a module the switch cloned deinitialised.
    private func apply(_ step: PutBack) throws {
        let name = step.name
        let repository = step.repository
        if step.deinitialises {
            // A module the switch cloned, holding nothing of the user's: not initialised again (its git directory
            // stays, as after deinit), by the repository it is a submodule of.
            let (owner, relative) = try owningRepository(of: repository.path)
            let what = name.hasPrefix("submodule ") ? name : "module \(name)"
            try owner.deinitialiseSubmodule(relative, context: "put \(what) back to not initialised")
            return
        }
        let checkout = gitRepository(at: step.path)
        let message = "tenantctl switch: put back"
        let branchRef = "refs/heads/\(repository.branch)"
        if step.restoresCheckout, let head = repository.headBefore {
            if let branch = repository.branchBefore {
                try checkout.pointHead(
                    at: "refs/heads/\(branch)", message: message, context: "put HEAD of \(name) back on \(branch)")
            } else {
                try checkout.detachHead(
                    at: head, message: message, context: "put HEAD of \(name) back at \(ObjectID.short(head))")
            }
        }
        if let revert = step.revertsBranch {
            if let value = revert.to {
                try checkout.updateRef(
                    branchRef, to: value, from: revert.from, message: message,
                    context: "put \(repository.branch) back in \(name)")
            } else {
                try checkout.deleteRef(
                    branchRef, expected: revert.from, message: message,
                    context: "delete \(repository.branch) again in \(name)")
            }
        }
        guard step.restoresCheckout, let head = repository.headBefore else { return }
        try checkout.resetHard(to: head, context: "put the files of \(name) back at \(ObjectID.short(head))")
        for file in step.removes {
            let path = (step.path as NSString).appendingPathComponent(file)
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw WorkspaceError(
                    "cannot remove \(path), a file the stopped switch wrote in \(name): \(DurableFile.reason(error)); "
                        + "remove it yourself, then run the switch again")
            }
        }
        if let from = repository.movedFrom, step.path != workspace.path(from) {
            // A checkout the switch had moved goes back to where it was, with its branch and files.
            try ModuleCheckoutMove.move(gitRepository(at: step.path), to: workspace.path(from))
        }
    }

    /// The repository a submodule at `path` (relative to the superproject root) belongs to, and its path there:
    /// the nearest checkout above it (a nested submodule's module), else the superproject.
    private func owningRepository(of path: String) throws -> (GitRepository, String) {
        let components = path.split(separator: "/").map(String.init)
        for count in stride(from: components.count - 1, to: 0, by: -1) {
            let above = components[..<count].joined(separator: "/")
            let candidate = gitRepository(at: workspace.path(above))
            if try CheckoutPresence.of(candidate) == .repository {
                return (candidate, components[count...].joined(separator: "/"))
            }
        }
        return (workspace.superproject, path)
    }

    /// `<short id> (<subject>)` of a commit, for a message.
    private func described(_ commit: String, in checkout: GitRepository, name: String) throws -> String {
        guard !commit.isEmpty else { return "no commit" }
        let subject = try checkout.subject(
            of: commit, context: "read the subject of \(ObjectID.short(commit)) in \(name)")
        return "\(ObjectID.short(commit)) (\(subject))"
    }

    /// `t2` for `refs/heads/t2`.
    static func shortBranch(_ ref: String) -> String {
        ref.hasPrefix("refs/heads/") ? String(ref.dropFirst("refs/heads/".count)) : ref
    }

    /// Where the repository's checkout is now: for a module the switch moves, the new path once it got there,
    /// else the path it had.
    private func checkoutPath(_ repository: StoppedSwitch.Repository) throws -> String {
        let path = workspace.path(repository.path)
        guard let from = repository.movedFrom, try CheckoutPresence.of(gitRepository(at: path)) != .repository else {
            return path
        }
        return workspace.path(from)
    }
}
