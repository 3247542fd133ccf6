import Foundation

extension RunJournal {
    /// One proposal of a review roll: a commit pushed to a proposal branch for a person to review and a forge to land
    /// into the tenant's branch. Written before its push and rewritten after each answer.
    public struct Review: Sendable, Equatable, Codable {
        /// `superproject` or a module name.
        public var repository: String
        /// The tenant it rolls (`general_dev` for the general branch's re-pin).
        public var tenant: String
        /// The branch it lands into (`t2`).
        public var target: String
        /// The proposal's ref on the remote (`refs/heads/tenantctl/roll/t2`).
        public var ref: String
        /// The target's tip the proposal was computed on.
        public var base: String?
        /// The general branch's commit it rolls in.
        public var general: String
        /// The proposed commit.
        public var proposed: String
        /// `proposed` (pushed, no answer yet), `open`, `landed`, `conflict`, `closed`, `superseded`, `rejected`, or
        /// `waiting` (a superproject proposal that waits for its module proposals to land).
        public var state: String
        /// The target's commit that landed it.
        public var landed: String?
        /// How it landed: `merge`, `fast-forward`, `squash`, `rebase`.
        public var method: String?
        /// The review's address, as the `create` command printed it, or as the forge printed it in its answer to the
        /// push.
        public var url: String?
        /// The ref the forge keeps the review under (`refs/pull/3/head`, `refs/changes/01/1/2`), read back from the
        /// forge after a push into its review namespace (`refs/for/…`).
        public var reviewRef: String?
        /// True from just before the `create` command runs for it until its answer is recorded: when a run stops in
        /// between (killed, or the command stopped at its time limit), nobody knows whether the forge opened the
        /// review, so the command is not run again for this proposal branch (it would open a second one).
        public var createStarted: Bool?
        /// False for a proposal branch pushed with nothing that opens its review (kind `branch` without a `create`
        /// command): the report says `pushed, no review opened`. Reports only; the journal does not keep it.
        public var reviewOpened: Bool?
        /// For such a proposal branch: the host's web address that opens its review (a compare page), where the
        /// remote is a known host. Reports only.
        public var compare: String?
        /// The forge kind it was proposed with (`branch`, `agit`, `gitlab`, `gerrit`): every later push of its
        /// repository in the run (`roll --land`, `resolve --review`, a re-run) proposes the same way. Nil in a
        /// journal written before the kind was recorded (``inferredForge``).
        public var forge: String?

        /// Whether this is the general branch's re-pin (a superproject proposal of the general branch's own
        /// commit: it rolls in what it proposes).
        public var isGeneralRepin: Bool { repository == "superproject" && general == proposed }

        /// The forge kind: the recorded one, else what the proposal ref says (`refs/for/<t>%topic=` Gerrit,
        /// `refs/for/<t>` AGit); nil for a proposal branch of a journal that did not record it (branch or GitLab).
        public var inferredForge: String? {
            if let forge { return forge }
            guard ref.hasPrefix("refs/for/") else { return nil }
            return ref.contains("%") ? "gerrit" : "agit"
        }

        public init(
            repository: String, tenant: String, target: String, ref: String, base: String?, general: String,
            proposed: String, state: String
        ) {
            self.repository = repository
            self.tenant = tenant
            self.target = target
            self.ref = ref
            self.base = base
            self.general = general
            self.proposed = proposed
            self.state = state
        }
    }
}
