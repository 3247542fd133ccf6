import Foundation

/// `roll --undo <run>`: puts back the remote refs a journalled run changed — exactly the ones that landed — while
/// nobody moved them since.
public struct RollUndo {
    let workspace: Workspace
    /// The undo's own journalled run: each restore push is a step of it.
    let transaction: Transaction?

    /// The undo in `workspace`, with its runner.
    public init(workspace: Workspace, transaction: Transaction? = nil) {
        self.workspace = workspace
        self.transaction = transaction
    }

    /// Restores every ref of the run that landed. Refuses, changing nothing, when one moved since. The superproject
    /// is restored first (so it never pins a module commit that is gone from the module's remote), then the modules;
    /// each repository's outcome is recorded in the journal as it lands, so a rejected or interrupted undo can be
    /// run again and goes on where it stopped.
    public func run(runId: String) throws -> [PushOutcome] { try undo(runId: runId, keepingMoved: false).outcomes }

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
        /// The refs left as they are, each with why and what the user can do (an undo that goes on from one stopped
        /// half-way keeps a ref someone moved since, instead of refusing).
        public var kept: [Kept] = []
        /// The proposals in a forge's review namespace, which no push takes back (``ReviewLeft``).
        public var reviewsLeft: [ReviewLeft] = []
        /// The proposals of a review roll that the forge landed: not undone (``LandedLeft``).
        public var landedLeft: [LandedLeft] = []
    }

    /// A ref the undo leaves as it is.
    public struct Kept: Sendable, Equatable, Encodable {
        /// `superproject` or a module name.
        public var repository: String
        /// Full ref name on the remote.
        public var ref: String
        /// The value the roll had pushed.
        public var rollLeft: String
        /// Its value now (nil: deleted).
        public var now: String?
        /// Why it stays, and what the user can do about it.
        public var note: String

        /// One line for the report: the repository, the branch and the note.
        public var line: String {
            let name = ref.hasPrefix("refs/heads/") ? "branch " + ref.dropFirst("refs/heads/".count) : ref
            return "\(repository) \(name): \(note)"
        }
    }

    /// Restores every ref of the run that landed (see ``run(runId:)``) and reports every ref it moved.
    ///
    /// With `keepingMoved` (`roll --undo`), an undo of a roll that is already partly back (an undo stopped half-way,
    /// whose re-run this is) does not refuse for a ref someone moved since: refusing would no longer keep the roll
    /// whole, and would leave the stopped undo with no way out. It puts back every ref still where the roll left it,
    /// keeps and names each moved one (``Result/kept``), and ends; the modules go back only while every superproject
    /// ref of the roll is back (a superproject branch someone pushed on top of may still pin the roll's module
    /// commits). An undo that has put nothing back yet still refuses whole when a ref moved.
    public func undo(runId: String, keepingMoved: Bool = false) throws -> Result {
        var journal = try readRoll(runId)
        // Entries that may have landed: published, or unknown (the push broke off); not the ones already undone.
        let candidates = journal.entries.indices.filter {
            journal.entries[$0].published != false && journal.entries[$0].undone != true
                && !Self.isReviewPush(journal.entries[$0].ref)
        }
        let reviewsLeft = Self.reviewsLeft(journal)
        let order = Self.order(candidates.map { journal.entries[$0].repository })
        var survey = try self.survey(candidates, order: order, journal: &journal)
        let finishedBefore = journal.entries.contains { $0.undone == true }
        guard survey.moved.isEmpty || (keepingMoved && finishedBefore) else {
            // Nothing of the roll is back, so no stopped undo of it put anything back: they end with this refusal.
            let ended = keepingMoved ? try endStoppedUndos(of: runId) : []
            throw RollError(
                "refusing to undo roll \(runId): \(English.count(survey.moved.count, "ref")) moved since (nothing was "
                    + "restored):\n" + survey.moved.map { "  " + $0.movedLine }.joined(separator: "\n")
                    + "\nsomeone pushed on top of the roll; undoing would throw that work away. Revert the roll's "
                    + "commits on those branches by hand (git revert), or roll again."
                    + (ended.isEmpty
                        ? ""
                        : "\nthe stopped undo \(ended.joined(separator: ", ")) had put nothing back; it is ended "
                            + "(failed) and blocks nothing"))
        }
        let kept = Self.keep(&survey, journal: journal)
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
            runId: runId, outcomes: restored.outcomes, moved: restored.moved, kept: kept, reviewsLeft: reviewsLeft)
    }

    /// The refs an undo going on from a stopped one leaves as they are: each one moved since the roll, and, while a
    /// superproject ref of the roll stays, every module ref (taken out of `survey.toRestore`), since that superproject
    /// branch may still pin the roll's module commits.
    static func keep(_ survey: inout Survey, journal: RollJournal) -> [Kept] {
        var kept = survey.moved.map { moved in
            var note =
                "now \(ObjectID.short(moved.now, none: "deleted")), the roll left it at \(ObjectID.short(moved.rollLeft)): "
                + "someone pushed since, so it stays as it is with their work"
            if moved.now != nil {
                note +=
                    "; to take the roll's changes out of it too, revert the roll's commits there by hand (git revert)"
            }
            return Kept(
                repository: moved.repository, ref: moved.ref, rollLeft: moved.rollLeft, now: moved.now, note: note)
        }
        let superprojectKept = kept.filter { $0.repository == RollPublication.superproject }
        guard let first = superprojectKept.first else { return kept }
        let name = first.ref.hasPrefix("refs/heads/") ? String(first.ref.dropFirst("refs/heads/".count)) : first.ref
        for index in survey.toRestore where journal.entries[index].repository != RollPublication.superproject {
            let entry = journal.entries[index]
            kept.append(
                Kept(
                    repository: entry.repository, ref: entry.ref, rollLeft: entry.new, now: entry.new,
                    note: "still at the roll's \(ObjectID.short(entry.new)); not put back while the superproject's "
                        + "\(name) (moved since) may pin it"))
        }
        survey.toRestore.removeAll { journal.entries[$0].repository != RollPublication.superproject }
        return kept
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

    /// A ref of the roll someone moved since.
    struct Moved {
        var repository: String
        var ref: String
        /// What the roll left it at.
        var rollLeft: String
        /// Its value now (nil: deleted).
        var now: String?

        /// The refusal's line for it.
        var movedLine: String {
            "\(repository) \(ref) is now \(ObjectID.short(now, none: "deleted")), the roll left it at "
                + ObjectID.short(rollLeft)
        }
    }

    /// What the remotes show of the entries that may have landed.
    struct Survey {
        /// The entries still at the roll's value: to restore.
        var toRestore: [Int] = []
        /// The refs moved since the roll: a fresh undo refuses; one going on from a stopped undo keeps them.
        var moved: [Moved] = []
        /// What the undo learns of the roll's refs, appended to the roll's journal.
        var learned: [RunJournal.Line] = []
    }

    /// Reads each candidate entry's ref on its remote, repository by repository in `order`; marks in `journal` the
    /// entries that never landed and those an earlier undo already put back.
    func survey(_ candidates: [Int], order: [String], journal: inout RollJournal) throws -> Survey {
        var survey = Survey()
        let stopped = try stoppedRestores(of: journal.runId)
        for repository in order {
            let group = candidates.filter { journal.entries[$0].repository == repository }
            let current = try remoteValues(of: group.map { journal.entries[$0] }, repository: repository)
            var moved: [Int] = []
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
                    moved.append(index)
                }
            }
            for index in moved {
                let entry = journal.entries[index]
                // A stopped undo's restore push of this repository landed (atomic: every ref of it went back), and
                // someone pushed on this ref after it: the roll's commit is no longer on it.
                let restoredBefore = stopped.contains { push in
                    push.repository == repository && push.refs.contains(entry.ref)
                        && (push.landed
                            || journal.entries.contains {
                                $0.repository == repository && $0.undone == true && push.refs.contains($0.ref)
                            })
                }
                if restoredBefore {
                    journal.entries[index].undone = true
                    survey.learned.append(.init(undone: .init(repository: repository, refs: [entry.ref])))
                } else {
                    survey.moved.append(
                        Moved(repository: repository, ref: entry.ref, rollLeft: entry.new, now: current[entry.ref]))
                }
            }
        }
        return survey
    }

    /// A restore push of an undo that stopped half-way: its repository, the refs of that one atomic push, and
    /// whether the undo recorded that it landed.
    struct StoppedPush {
        var repository: String
        var refs: Set<String>
        var landed: Bool
    }

    /// The undos of `runId` that stopped half-way (unfinished), other than this one.
    func stoppedUndos(of runId: String) throws -> [RunJournal] {
        try RunJournal.unfinished(gitDirectory: workspace.commonDirectory).filter {
            $0.isUndo && RunJournal.undoTarget($0.arguments ?? []) == runId && $0.runId != transaction?.runId
        }
    }

    /// Ends the stopped undos of `runId` as failed, settled by this undo's run, once the remotes show that none of
    /// their restores landed; their ids.
    func endStoppedUndos(of runId: String) throws -> [String] {
        guard let transaction else { return [] }
        let undos = try stoppedUndos(of: runId)
        for undo in undos {
            do {
                try Transaction.settle(
                    undo.runId, state: .failed, by: transaction.runId, in: workspace.commonDirectory)
            } catch {
                throw RollError(
                    "cannot record in the journal of the stopped undo \(undo.runId) that it put nothing back: "
                        + "\(error.description); free some space, then run `tenantctl roll --undo \(runId)` again")
            }
        }
        return undos.map(\.runId)
    }

    /// The restore pushes of the undos of `runId` that stopped half-way (unfinished), one per undo and repository.
    func stoppedRestores(of runId: String) throws -> [StoppedPush] {
        var pushes: [StoppedPush] = []
        for undo in try stoppedUndos(of: runId) {
            for repository in Self.order(undo.entries.map(\.repository)) {
                let entries = undo.entries.filter { $0.repository == repository }
                pushes.append(
                    StoppedPush(
                        repository: repository, refs: Set(entries.map(\.ref)),
                        landed: entries.contains { $0.published == true }))
            }
        }
        return pushes
    }

    /// Journals every restore this undo is about to push as its steps, in one write before the first push.
    func recordPlannedRestores(_ toRestore: [Int], order: [String], journal: RollJournal) throws {
        try transaction?.record(
            try order.compactMap { repository in
                let group = toRestore.filter { journal.entries[$0].repository == repository }
                guard let first = group.first else { return nil }
                return (
                    repository, journal.entries[first].remote,
                    try group.map {
                        try RefUpdate(
                            checking: journal.entries[$0].ref, new: journal.entries[$0].old,
                            old: journal.entries[$0].new)
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
            let updates = try entries.map { try RefUpdate(checking: $0.ref, new: $0.old, old: $0.new) }
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
            ? workspace.superproject
            : workspace.superproject.repository(at: ModuleMirrors(workspace: workspace).path(for: repository))
        return try from.push(
            updates, as: repository, to: try ModuleRemotes.reachable(remote, workspace: workspace),
            mode: .restore,
            tracking: repository == RollPublication.superproject ? try SuperprojectRemote.pushTracking(workspace) : [])
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
        let remote = try ModuleRemotes.reachable(recorded, workspace: workspace)
        return try workspace.superproject.remoteValues(
            of: entries.map(\.ref), on: remote, context: "read the branches of \(repository) on its remote")
    }
}
