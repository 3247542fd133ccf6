import Foundation
import TenantKit

/// The demo's review round on the example: one more general change, and a forge's merge button that lands the
/// review roll's proposals (every branch under the proposal prefix, merged into the branch it is named after by a
/// merge commit, as a forge does on its own server: no push, no hook).
extension ExampleBuilder {
    /// The general change of the review round: Order's general branch documents its QR code.
    public static let reviewChange = ExampleCommit(
        message: "Order: document the QR code on the order confirmation",
        files: ["Docs/QRCode.md": "The order confirmation shows a QR code with the order number.\n"])

    /// Lands ``reviewChange`` on Order's `general_dev` in `remotes`; returns its new tip.
    @discardableResult
    public func landReviewChange(remotes: String) throws -> String? {
        try land([("Order", [Self.reviewChange])], remotes: remotes)["Order"]
    }

    /// The forge lands every proposal branch (`refs/heads/<prefix>/<target>`) of the repositories `names` in
    /// `remotes` into its target by a merge commit whose committer is the forge; a proposal its target contains
    /// already is left. Returns `<repository> <target>` of each landing, in order.
    public func landProposals(_ names: [String], remotes: String, prefix: String) throws -> [String] {
        let forge = "The Forge <forge@forge.invalid> 1764000000 +0000"
        var landed: [String] = []
        for name in names {
            let repository = remote(name, in: remotes)
            let what = "land the proposals of \(name)"
            let proposals = try repository.refs(["refs/heads/\(prefix)/"], what: what)
            for (ref, proposal) in proposals.sorted(by: { $0.key < $1.key }) {
                let target = String(ref.dropFirst("refs/heads/\(prefix)/".count))
                guard
                    let tip = try repository.objectID(of: "refs/heads/\(target)", peeledTo: .commit, context: what)?
                        .hex,
                    try !repository.isAncestor(proposal, of: tip, context: what)
                else { continue }
                guard let merged = try repository.mergeTrees([(tip, proposal)], what: name).first,
                    merged.clean
                else {
                    throw ExampleError(
                        description: "the forge cannot merge \(ref) into \(target) of \(name): it conflicts")
                }
                let commit = try repository.writeCommit(
                    CommitSpec(tree: merged.tree, parents: [tip, proposal], message: "Merge \(ref) into \(target)"),
                    identity: CommitIdentity(author: forge, committer: forge)
                ).hex
                try repository.updateRef(
                    "refs/heads/\(target)", to: commit, from: tip, message: "forge: merge \(ref)", context: what)
                landed.append("\(name) \(target)")
            }
        }
        return landed
    }
}
