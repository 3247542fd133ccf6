import Foundation

/// `roll --undo <run>`: puts back the remote refs a journalled run changed — exactly the ones that landed — while
/// nobody moved them since.
public struct RollUndo {
    let workspace: Workspace
    let git: Git
    /// The undo's own journalled run: each restore push is a step of it.
    let transaction: Transaction?

    public init(workspace: Workspace, git: Git, transaction: Transaction? = nil) {
        self.workspace = workspace
        self.git = git
        self.transaction = transaction
    }

    /// Restores every ref of the run that landed. Refuses, changing nothing, when one moved since. The superproject
    /// is restored first (so it never pins a module commit that is gone from the module's remote), then the modules;
    /// each repository's outcome is recorded in the journal as it lands, so a rejected or interrupted undo can be
    /// run again and goes on where it stopped.
    public func run(runId: String) throws -> [PushOutcome] { try undo(runId: runId).outcomes }

    /// What an undo did: each repository's push, and every ref it moved back (from the roll's value to the old one).
    public struct Result: Sendable, Equatable, Encodable {
        /// One ref moved back.
        public struct Move: Sendable, Equatable, Encodable {
            /// `superproject` or a module name.
            public var repository: String
            /// Full ref name on the remote.
            public var ref: String
            /// The value the roll had pushed.
            public var from: String
            /// The value put back (nil: the roll created the ref, so it was deleted).
            public var to: String?
        }

        /// Format version of this JSON.
        public var schemaVersion = 1
        /// The run undone.
        public var runId: String
        /// Each repository's restore push.
        public var outcomes: [PushOutcome]
        /// Every ref moved back (only of accepted pushes).
        public var moved: [Move]
        /// The proposals in a forge's review namespace, which no push takes back (``ReviewLeft``).
        public var reviewsLeft: [ReviewLeft] = []
    }

    /// Restores every ref of the run that landed (see ``run(runId:)``) and reports every ref it moved.
    public func undo(runId: String) throws -> Result {
        var journal = try readRoll(runId)
        // Entries that may have landed: published, or unknown (the push broke off); not the ones already undone.
        let candidates = journal.entries.indices.filter {
            journal.entries[$0].published != false && journal.entries[$0].undone != true
                && !Self.isReviewPush(journal.entries[$0].ref)
        }
        let reviewsLeft = Self.reviewsLeft(journal)
        let order = Self.order(candidates.map { journal.entries[$0].repository })
        var survey = try self.survey(candidates, order: order, journal: &journal)
        guard survey.moved.isEmpty else {
            throw RollError(
                "refusing to undo roll \(runId): \(English.count(survey.moved.count, "ref")) moved since (nothing was "
                    + "restored):\n" + survey.moved.map { "  " + $0 }.joined(separator: "\n")
                    + "\nsomeone pushed on top of the roll; undoing would throw that work away. Revert the roll's "
                    + "commits on those branches by hand (git revert), or roll again.")
        }
        let finishedBefore = journal.entries.contains { $0.undone == true }
        guard !survey.toRestore.isEmpty || finishedBefore || !reviewsLeft.isEmpty else {
            try appendToRoll(survey.learned, runId: runId)
            throw RollError("roll \(runId) published nothing; nothing to undo")
        }
        try recordPlannedRestores(survey.toRestore, order: order, journal: journal)
        let restored = try restore(
            survey.toRestore, order: order, journal: &journal, learned: &survey.learned, runId: runId)
        if journal.entries.allSatisfy({ $0.published != true || $0.undone == true || Self.isReviewPush($0.ref) }) {
            survey.learned.append(.init(undoneAt: ISO8601DateFormatter().string(from: Date())))
        }
        try appendToRoll(survey.learned, runId: runId)
        return Result(
            runId: runId, outcomes: restored.outcomes, moved: restored.moved, reviewsLeft: reviewsLeft)
    }

    /// The journal of the run to undo: a roll (or a `resolve --continue`, which publishes like one) not undone yet.
    func readRoll(_ runId: String) throws -> RollJournal {
        let journal = try RollJournal.read(gitDirectory: workspace.commonDirectory, runId: runId)
        guard journal.undoneAt == nil else { throw RollError("roll \(runId) was already undone") }
        // A `resolve --continue` publishes like roll and records its pushes in its own journal.
        guard journal.commandName == "roll" || journal.commandName == "resolve" else {
            throw RollError(
                "run \(runId) is a `tenantctl \(journal.commandName)` run, not a roll: --undo takes back rolls and "
                    + "the publications of `tenantctl resolve --continue` only (`tenantctl runs` lists the runs with "
                    + "their commands)")
        }
        return journal
    }

    /// What the remotes show of the entries that may have landed.
    struct Survey {
        /// The entries still at the roll's value: to restore.
        var toRestore: [Int] = []
        /// The refs moved since the roll, each described: the undo refuses.
        var moved: [String] = []
        /// What the undo learns of the roll's refs, appended to the roll's journal.
        var learned: [RunJournal.Line] = []
    }

    /// Reads each candidate entry's ref on its remote, repository by repository in `order`; marks in `journal` the
    /// entries that never landed and those an earlier undo already put back.
    func survey(_ candidates: [Int], order: [String], journal: inout RollJournal) throws -> Survey {
        var survey = Survey()
        for repository in order {
            let group = candidates.filter { journal.entries[$0].repository == repository }
            let current = try remoteValues(of: group.map { journal.entries[$0] }, repository: repository)
            for index in group {
                let entry = journal.entries[index]
                let value = current[entry.ref]
                if value == entry.new {
                    survey.toRestore.append(index)
                } else if entry.published != true && value == entry.old {
                    journal.entries[index].published = false  // it never landed
                    survey.learned.append(
                        .init(answer: .init(repository: repository, refs: [entry.ref], published: false)))
                } else if value == entry.old && entry.old != entry.new {
                    // Put back by an undo stopped after this push, before it could say so.
                    journal.entries[index].undone = true
                    survey.learned.append(.init(undone: .init(repository: repository, refs: [entry.ref])))
                } else {
                    survey.moved.append(
                        "\(repository) \(entry.ref) is now \(ObjectID.short(value, none: "deleted")), "
                            + "the roll left it at \(ObjectID.short(entry.new))")
                }
            }
        }
        return survey
    }

    /// Journals every restore this undo is about to push as its steps, in one write before the first push.
    func recordPlannedRestores(_ toRestore: [Int], order: [String], journal: RollJournal) throws {
        try transaction?.record(
            order.compactMap { repository in
                let group = toRestore.filter { journal.entries[$0].repository == repository }
                guard let first = group.first else { return nil }
                return (
                    repository, journal.entries[first].remote,
                    group.map {
                        RefUpdate(
                            ref: journal.entries[$0].ref, new: journal.entries[$0].old, old: journal.entries[$0].new)
                    }
                )
            }, published: nil, landed: nil)
    }

    /// Pushes the restores repository by repository in `order`, each outcome recorded in the undo's journal and
    /// what was put back (with `learned` before it) in the roll's; stops before the modules when the superproject's
    /// restore is refused.
    func restore(
        _ toRestore: [Int], order: [String], journal: inout RollJournal, learned: inout [RunJournal.Line],
        runId: String
    ) throws -> (outcomes: [PushOutcome], moved: [Result.Move]) {
        var outcomes: [PushOutcome] = []
        var movedBack: [Result.Move] = []
        for repository in order {
            let group = toRestore.filter { journal.entries[$0].repository == repository }
            guard !group.isEmpty else { continue }
            let entries = group.map { journal.entries[$0] }
            let updates = entries.map { RefUpdate(ref: $0.ref, new: $0.old, old: $0.new) }
            let outcome = try push(updates, repository: repository, remote: entries[0].remote)
            try transaction?.record(
                repository: repository, remote: entries[0].remote, refs: updates, published: outcome.accepted,
                landed: nil)
            outcomes.append(outcome)
            if outcome.accepted {
                for index in group { journal.entries[index].undone = true }
                movedBack += entries.map { Result.Move(repository: repository, ref: $0.ref, from: $0.new, to: $0.old) }
                learned.append(.init(undone: .init(repository: repository, refs: entries.map(\.ref))))
            }
            try appendToRoll(learned, runId: runId)
            learned = []
            // Modules must not go back while the superproject still pins their commits.
            if !outcome.accepted && repository == RollPublication.superproject { break }
        }
        return (outcomes, movedBack)
    }

    /// One repository's restore push to `remote` (as journalled), leased on the roll's values.
    func push(_ updates: [RefUpdate], repository: String, remote: String) throws -> PushOutcome {
        let from =
            repository == RollPublication.superproject
            ? workspace.root : ModuleMirrors(workspace: workspace, git: git).path(for: repository)
        return try AtomicPush.push(
            updates, repository: repository, from: from,
            to: try ModuleRemotes.reachable(remote, workspace: workspace, git: git), mode: .restore,
            tracking: repository == RollPublication.superproject
                ? try SuperprojectRemote.pushTracking(workspace, git: git) : [], git: git)
    }

    /// Appends what the undo learned or did to the journal of the roll it takes back (through ``Transaction``, the
    /// one writer of journals).
    private func appendToRoll(_ lines: [RunJournal.Line], runId: String) throws {
        guard !lines.isEmpty else { return }
        do {
            try Transaction.append(lines, toRun: runId, gitDirectory: workspace.commonDirectory)
        } catch {
            throw RollError(
                "cannot record in the journal of roll \(runId) what the undo did: \(error.description); free some "
                    + "space, then run `tenantctl roll --undo \(runId)` again")
        }
    }

    /// The superproject first, then the modules in reverse publishing order.
    static func order(_ repositories: [String]) -> [String] {
        var order: [String] = []
        for repository in repositories.reversed() where !order.contains(repository) { order.append(repository) }
        if let index = order.firstIndex(of: RollPublication.superproject) {
            order.remove(at: index)
            order.insert(RollPublication.superproject, at: 0)
        }
        return order
    }

    /// The remote's current value of every entry's ref, from one `ls-remote`.
    package func remoteValues(of entries: [RollJournal.Entry], repository: String) throws -> [String: String] {
        guard let recorded = entries.first?.remote else { return [:] }
        let remote = try ModuleRemotes.reachable(recorded, workspace: workspace, git: git)
        return try GitRepository(workspace.root, git: git).remoteValues(
            of: entries.map(\.ref), on: remote, context: "read the branches of \(repository) on its remote")
    }
}
