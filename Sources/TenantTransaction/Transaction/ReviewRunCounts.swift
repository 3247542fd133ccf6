import Foundation

/// How far a review roll's proposals are, as `runs` and `status` show it: counts by state, each proposal still
/// followed, and the way on while the run waits.
public struct ReviewRunCounts: Sendable, Codable, Equatable {
    /// One proposal still followed (not landed, superseded or abandoned).
    public struct Proposal: Sendable, Codable, Equatable {
        /// `superproject` or a module name.
        public var repository: String
        /// The tenant (the general branch's name for its re-pin).
        public var tenant: String
        /// The branch it lands into.
        public var target: String
        /// Where it was pushed.
        public var ref: String
        /// `proposed`, `open`, `waiting`, `queued` (waiting for a slot), `conflict`, `closed`, `rejected`.
        public var state: String
        /// For one closed without landing: the commands that go on (propose it again, or stop following it); nil
        /// otherwise.
        public var next: [String]?
    }

    /// The review run.
    public var runId: String
    /// Proposals pushed and open for review (`proposed`, `open`).
    public var open: Int
    /// Superproject proposals waiting for their module proposals to land.
    public var waiting: Int
    /// Proposals waiting for a slot (`queued`): held back by the `review` object's `maxOpen` or `perHour`, or by a
    /// forge's rate limit, until a later `roll --land`.
    public var slot = 0
    /// Proposals the forge landed.
    public var landed: Int
    /// Proposals that need a person: in conflict, closed without landing, or refused.
    public var attention: Int
    /// Proposals no longer followed because `roll --abandon` (or an undo) ended them.
    public var abandoned = 0
    /// The proposals still followed, in the journal's order.
    public var proposals: [Proposal]
    /// The command that follows the run on while it waits (`tenantctl roll --land`; with nothing open, the first way
    /// on of a proposal closed without landing, each of which ``proposals`` names); nil once it ended.
    public var next: String?

    /// The counts of `journal`'s proposals; nil for a run that is no review roll. `latest`: whether it is the newest
    /// waiting review run (`roll --land` without a run id follows it).
    public init?(_ journal: RunJournal, latest: Bool = true) {
        guard let reviews = journal.reviews else { return nil }
        runId = journal.runId
        open = reviews.filter { ["proposed", "open"].contains($0.state) }.count
        waiting = reviews.filter { $0.state == "waiting" }.count
        landed = reviews.filter { $0.state == "landed" }.count
        slot = reviews.filter { $0.state == "queued" }.count
        attention = reviews.filter { ["conflict", "closed", "rejected"].contains($0.state) }.count
        proposals = reviews.filter { !["landed", "superseded", "abandoned"].contains($0.state) }.map {
            let ways = $0.waysOn(runId: journal.runId)
            return Proposal(
                repository: $0.repository, tenant: $0.tenant, target: $0.target, ref: $0.ref, state: $0.state,
                next: ways.isEmpty ? nil : ways)
        }
        abandoned = reviews.filter { $0.state == "abandoned" }.count
        let following = reviews.contains { ["proposed", "open", "waiting", "queued", "conflict"].contains($0.state) }
        next =
            journal.state != .waiting
            ? nil
            : following || proposals.allSatisfy({ $0.next == nil })
                ? (latest ? "tenantctl roll --land" : "tenantctl roll --land \(journal.runId)")
                : proposals.compactMap(\.next?.first).first
    }

    /// `3 open, 2 waiting, 4 waiting for a slot, 1 landed, 1 needs attention, 2 abandoned` (the counts that are not 0; `no proposals` when
    /// all are).
    public var summary: String {
        let parts = [
            open > 0 ? "\(open) open" : nil, waiting > 0 ? "\(waiting) waiting" : nil,
            slot > 0 ? "\(slot) waiting for a slot" : nil,
            landed > 0 ? "\(landed) landed" : nil,
            attention > 0 ? "\(attention) need\(attention == 1 ? "s" : "") attention" : nil,
            abandoned > 0 ? "\(abandoned) abandoned" : nil,
        ].compactMap { $0 }
        return parts.isEmpty ? "no proposals" : parts.joined(separator: ", ")
    }

    /// The review runs of the journal directory of `gitDirectory` that wait for reviews, oldest first.
    public static func waiting(gitDirectory: String) throws -> [ReviewRunCounts] {
        let runs = try RunJournal.all(gitDirectory: gitDirectory).runs.filter { $0.state == .waiting }
        let newest = runs.filter { $0.reviews != nil }.map(\.runId).max()
        return runs.compactMap { ReviewRunCounts($0, latest: $0.runId == newest) }
    }

    /// What `status` prints of a waiting run: its counts and way on, then one line per proposal still followed.
    public func lines() -> [String] {
        ["review roll \(runId) is waiting: \(summary)" + (next.map { "; the way on: \($0)" } ?? "")]
            + proposals.map { proposal in
                let cell =
                    proposal.repository == "superproject"
                    ? "\(proposal.tenant) (superproject)" : "\(proposal.tenant)/\(proposal.repository)"
                let place =
                    proposal.ref.hasPrefix("refs/heads/")
                    ? String(proposal.ref.dropFirst("refs/heads/".count)) : proposal.ref
                let ways = proposal.next.map { ways in
                    "; propose it again: \(ways[0])" + (ways.count > 1 ? ", or stop following it: \(ways[1])" : "")
                }
                return "  \(cell): \(proposal.state), \(place) into \(proposal.target)" + (ways ?? "")
            }
    }
}
