import Foundation

/// One proposal of a review roll as the run journal has it (read by the command that audits; the observation holds
/// only facts): where it was proposed, how far it is, and what it rolls in. ``FindingJudge`` decides what it means.
public struct ObservedReview: Sendable, Equatable {
    /// The review run that proposed it last (or took it over).
    public var runId: String
    /// When that run started (ISO 8601).
    public var since: String
    /// The forge kind it was proposed for (`branch`, `agit`, `gitlab`, `gerrit`).
    public var forge: String
    /// `superproject` or a module name.
    public var repository: String
    /// The tenant it rolls (the general branch's name for the general branch's re-pin).
    public var tenant: String
    /// The branch it lands into.
    public var target: String
    /// Where it was pushed (`refs/heads/tenantctl/roll/t2`, `refs/for/t2`).
    public var ref: String
    /// `proposed`, `open`, `waiting`, `landed`, `conflict`, `closed`, `rejected`.
    public var state: String
    /// The general branch's commit it rolls in.
    public var general: String
    /// The proposed commit; nil for a landing seen on the remotes whose proposal they no longer show (only the
    /// trailer of the commit that landed it names what it rolled in).
    public var proposed: String?
    /// The target's commit that landed it.
    public var landed: String?
    /// How it landed: `merge`, `fast-forward`, `squash`, `rebase`.
    public var method: String?
    /// The review's address, when known.
    public var url: String?
    /// Whether its run is still followed (waiting for reviews, or stopped half-way); false for a run that ended.
    public var followed = true
    /// Whether it was learnt from what the remotes show (a landing by squash or rebase: the trailer of the landed
    /// commit, the proposal branch, the forge's review ref), not from a run journal of this clone.
    public var seenOnRemotes = false

    public init(
        runId: String, since: String, forge: String, repository: String, tenant: String, target: String, ref: String,
        state: String, general: String, proposed: String?
    ) {
        self.runId = runId
        self.since = since
        self.forge = forge
        self.repository = repository
        self.tenant = tenant
        self.target = target
        self.ref = ref
        self.state = state
        self.general = general
        self.proposed = proposed
    }

    /// Whether people still have to act on it: pushed and open, or a superproject proposal waiting for its module
    /// proposals.
    public var isOpen: Bool { ["proposed", "open", "waiting"].contains(state) }

    /// Whether it landed by a squash or a rebase: the target has its changes but not the general commit by ancestry.
    public var landedWithoutAncestry: Bool { state == "landed" && ["squash", "rebase"].contains(method ?? "") }

    /// The review's number on the forge, where its ref or address says it (`refs/pull/12/head`,
    /// `refs/merge-requests/12/head`, `refs/changes/34/1234/1`, `…/pull/12`, `…/merge_requests/12`).
    public var number: Int? {
        for text in [url, ref].compactMap({ $0 }) {
            let parts = text.split(separator: "/").map(String.init)
            for (index, part) in parts.enumerated().dropLast()
            where ["pull", "pulls", "merge-requests", "merge_requests", "changes"].contains(part) {
                // Gerrit's refs/changes/<last two digits>/<number>/<patch set>.
                let at = part == "changes" && parts.count > index + 2 ? index + 2 : index + 1
                if let number = Int(parts[at]) { return number }
            }
        }
        return nil
    }

    /// The proposal as a person names it: the branch without `refs/heads/`, or the forge's ref.
    public var proposal: String { ref.hasPrefix("refs/heads/") ? String(ref.dropFirst("refs/heads/".count)) : ref }

    /// The forge kind a proposal ref was pushed for when nothing else says it: `refs/for/<t>%topic=…` is Gerrit's,
    /// `refs/for/<t>` AGit's, a branch `branch` (GitLab's is a branch too: its kind comes from `modules.json`).
    public static func forgeKind(ofRef ref: String) -> String {
        if ref.hasPrefix("refs/for/") { return ref.contains("%") ? "gerrit" : "agit" }
        return "branch"
    }

    /// Whole days between `since` (ISO 8601) and `now`; nil when `since` does not parse.
    public func days(until now: Date) -> Int? {
        guard let start = ISO8601DateFormatter().date(from: since) else { return nil }
        return max(0, Int(now.timeIntervalSince(start) / 86_400))
    }
}
