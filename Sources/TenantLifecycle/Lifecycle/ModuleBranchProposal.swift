import Foundation

/// `init`'s `branches` proposals: a tenant whose pin of a module is off the module's general branch, in a module
/// without a branch named after the tenant, follows the one other branch of the module that has the pin (a release
/// line's `release/5.5.6`, a customer fork's own branch).
public struct ModuleBranchProposal: Sendable, Equatable {
    /// The tenant's superproject branch.
    public var tenantBranch: String
    /// The module.
    public var module: String
    /// The module branch the tenant follows.
    public var branch: String
    /// The tenant's pin of the module.
    public var pin: String
    /// Why: the pin is on this branch only, or at its head.
    public var reason: String

    public init(tenantBranch: String, module: String, branch: String, pin: String, reason: String) {
        self.tenantBranch = tenantBranch
        self.module = module
        self.branch = branch
        self.pin = pin
        self.reason = reason
    }

    /// What init found for one module of the tenant branches: the proposals, and the pins off the general branch it
    /// could not map (on several branches, or on none), worded for init's output.
    public struct Found: Sendable, Equatable {
        public var proposals: [ModuleBranchProposal]
        public var unmapped: [String]

        public init(proposals: [ModuleBranchProposal] = [], unmapped: [String] = []) {
            self.proposals = proposals
            self.unmapped = unmapped
        }
    }

    /// The proposals for `module`: `pins` (superproject branch → the branch's pin of the module), `branches` (the
    /// module's branches → tips, as on its remote), `graph` (the module's commit graph of those tips and the pins),
    /// `general` its general branch; `tenantBranches` the superproject branches that become tenants (no branch of
    /// the module named after one of them is proposed: that name is the tenant's own). A tenant with a module branch
    /// of its own name is customised there and gets no proposal. Pure: no git.
    ///
    /// The branch proposed has the pin; when several do, the one whose head the pin is. Two tenants that would
    /// follow the same branch get none (a module branch has one tenant).
    public static func propose(
        module: String, pins: [String: String], branches: [String: String], graph: CommitGraph, general: String,
        tenantBranches: Set<String>
    ) -> Found {
        var found = Found()
        guard let generalTip = branches[general] else { return found }
        let others = branches.filter { $0.key != general && !tenantBranches.contains($0.key) }
        var proposed: [ModuleBranchProposal] = []
        for (tenantBranch, pin) in pins.sorted(by: { $0.key < $1.key }) {
            guard branches[tenantBranch] == nil, graph.contains(pin), !graph.isAncestor(pin, of: generalTip) else {
                continue
            }
            let having = others.filter { graph.isAncestor(pin, of: $0.value) }.keys.sorted()
            let atHead = having.filter { others[$0] == pin }
            let short = ObjectID.short(pin)
            if having.count == 1, let branch = having.first {
                proposed.append(
                    ModuleBranchProposal(
                        tenantBranch: tenantBranch, module: module, branch: branch, pin: pin,
                        reason: "its pin \(short) is not on \(general) and is on \(branch) only"))
            } else if atHead.count == 1, let branch = atHead.first {
                proposed.append(
                    ModuleBranchProposal(
                        tenantBranch: tenantBranch, module: module, branch: branch, pin: pin,
                        reason: "its pin \(short) is not on \(general) and is the head of \(branch) (also on "
                            + having.filter { $0 != branch }.joined(separator: ", ") + ")"))
            } else if having.isEmpty {
                found.unmapped.append(
                    "\(tenantBranch): \(module) pin \(short) is not on \(general) nor on any other branch of the "
                        + "module; push it to a branch and map it with tenantctl customize --branch")
            } else {
                found.unmapped.append(
                    "\(tenantBranch): \(module) pin \(short) is on \(English.count(having.count, "branch", "branches")) "
                        + "(\(having.joined(separator: ", "))); map the one the tenant follows with tenantctl "
                        + "customize --branch")
            }
        }
        let byBranch = Dictionary(grouping: proposed, by: \.branch)
        for proposal in proposed {
            let sharing = byBranch[proposal.branch] ?? []
            if sharing.count == 1 {
                found.proposals.append(proposal)
            } else if sharing.first == proposal {
                found.unmapped.append(
                    "\(sharing.map(\.tenantBranch).joined(separator: ", ")): \(module) pins are on \(proposal.branch), "
                        + "which one tenant only can follow; map it for one of them with tenantctl customize --branch")
            }
        }
        return found
    }
}
