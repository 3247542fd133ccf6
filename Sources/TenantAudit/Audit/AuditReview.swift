import Foundation

/// One review of a review roll as audit shows it: whose cell it is, where it was proposed, how far it is and what it
/// rolls in. The superproject pins ``landed`` once it landed, never ``proposed``.
public struct AuditReview: Sendable, Equatable, Encodable {
    /// The tenant (the general branch's name for the general branch's re-pin).
    public var tenant: String
    /// `superproject` or a module name: with ``tenant``, the cell.
    public var repository: String
    /// The branch it lands into.
    public var target: String
    /// `branch`, `agit`, `gitlab` or `gerrit`.
    public var forge: String
    /// Where it was pushed: the proposal branch (`refs/heads/tenantctl/roll/t2`) or the forge's ref (`refs/for/t2`).
    public var ref: String
    /// `proposed`, `open`, `waiting`, `landed`, `conflict`, `closed`, `rejected`.
    public var state: String
    /// The review run that follows it.
    public var runId: String
    /// When that run started (ISO 8601).
    public var since: String
    /// Whole days since then, at the report's time.
    public var days: Int?
    /// The review's number on the forge, where known.
    public var number: Int?
    /// The review's address, where known.
    public var url: String?
    /// The general branch's commit it rolls in.
    public var general: String
    /// The proposed commit; nil for a landing seen on the remotes whose proposal they no longer show.
    public var proposed: String?
    /// The target's commit that landed it: what the superproject pins.
    public var landed: String?
    /// How it landed: `merge`, `fast-forward`, `squash`, `rebase`.
    public var method: String?
    /// Where audit learnt of it: `journal` (a run journal of this clone) or `remotes` (a landing by squash or rebase
    /// that the remotes show: the trailer of the commit that landed it, the proposal branch, the forge's review ref).
    public var from: String

    public init(_ review: ObservedReview, now: Date) {
        tenant = review.tenant
        repository = review.repository
        target = review.target
        forge = review.forge
        ref = review.ref
        state = review.state
        runId = review.runId
        since = review.since
        days = review.days(until: now)
        number = review.number
        url = review.url
        general = review.general
        proposed = review.proposed
        landed = review.landed
        method = review.method
        from = review.seenOnRemotes ? "remotes" : "journal"
    }

    /// The proposal as a person names it: the branch without `refs/heads/`, or the forge's ref.
    public var proposal: String { ref.hasPrefix("refs/heads/") ? String(ref.dropFirst("refs/heads/".count)) : ref }

    /// What a cell says of it: `review #12 open 3d`, `landed squash 9f1e2d0`, `conflict`, `waiting`.
    public var summary: String {
        switch state {
        case "landed":
            return "landed \(method ?? "") \(ObjectID.short(landed ?? ""))"
        case "proposed", "open":
            return ["review", number.map { "#\($0)" }, "open", days.map { "\($0)d" }].compactMap { $0 }
                .joined(separator: " ")
        default:
            return state
        }
    }

    /// One line for the lists under the matrix: the cell, the summary, the forge, the proposal and what it rolls in.
    public var line: String {
        let cell = repository == Finding.superproject ? "\(tenant) (superproject)" : "\(tenant)/\(repository)"
        return "\(cell): \(summary) — \(forge) \(proposal) into \(target), rolls in \(ObjectID.short(general))"
            + (landed == nil ? proposed.map { ", proposes \(ObjectID.short($0))" } ?? "" : "")
            + (url.map { " \($0)" } ?? "")
            + (from == "remotes" ? " (seen on the remotes)" : "")
    }

    enum CodingKeys: String, CodingKey {
        case tenant, repository, target, forge, ref, state, runId, since, days, number, url, general, proposed, landed
        case method, from
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tenant, forKey: .tenant)
        try container.encode(repository, forKey: .repository)
        try container.encode(target, forKey: .target)
        try container.encode(forge, forKey: .forge)
        try container.encode(ref, forKey: .ref)
        try container.encode(state, forKey: .state)
        try container.encode(runId, forKey: .runId)
        try container.encode(since, forKey: .since)
        try container.encode(days, forKey: .days)
        try container.encode(number, forKey: .number)
        try container.encode(url, forKey: .url)
        try container.encode(general, forKey: .general)
        try container.encode(proposed, forKey: .proposed)
        try container.encode(landed, forKey: .landed)
        try container.encode(method, forKey: .method)
        try container.encode(from, forKey: .from)
    }
}
