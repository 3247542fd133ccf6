import Foundation

/// What a forge holds in its review namespace, read back with `ls-remote`: a proposal pushed to `refs/for/…` is not
/// kept under that name but as AGit's `refs/pull/<n>/head` or Gerrit's `refs/changes/<nn>/<n>/<patch set>`. A re-run
/// adopts a review whose commit has the same parents and tree as the new proposal (the forge has it: no push); a
/// proposal that differs is pushed and updates the same review (the same topic, the same Change-Id). After a push,
/// the review ref that holds the pushed commit is recorded.
extension ReviewProposer {
    /// A commit as a proposal is compared: its parents and its tree.
    struct Shape: Equatable {
        var parents: [String]
        var tree: String
    }

    /// Where a forge of `kind` keeps its reviews; nil for the kinds that propose on branches.
    static func reviewNamespace(_ kind: ReviewForge) -> String? {
        switch kind {
        case .agit: "refs/pull/"
        case .gerrit: "refs/changes/"
        case .branch, .gitlab: nil
        }
    }

    /// The review refs the forge of `name` holds (ref → commit), from one `ls-remote` of its namespace.
    func reviewRefs(of name: String, snapshot: Snapshot, review: ReviewOptions) throws -> [String: String] {
        guard let namespace = Self.reviewNamespace(review.forge(of: name)) else { return [:] }
        return try repository(name, snapshot: snapshot).remoteValues(
            of: [namespace + "*"], on: remote(of: name, snapshot: snapshot),
            context: "read the reviews of \(name) on its forge (\(namespace)*)")
    }

    /// The proposals into a review namespace, each adopted (state `open`, the forge's commit, its review ref) when
    /// the forge holds a review of the same shape.
    func adoptReviews(_ reviews: [RunJournal.Review], snapshot: Snapshot, review: ReviewOptions) throws
        -> [RunJournal.Review]
    {
        var adopted = reviews
        let pending = adopted.indices.filter {
            adopted[$0].state == "proposed" && adopted[$0].ref.hasPrefix("refs/for/")
        }
        for name in Set(pending.map { adopted[$0].repository }).sorted() {
            let held = try reviewRefs(of: name, snapshot: snapshot, review: review)
            guard !held.isEmpty else { continue }
            let repository = try self.repository(name, snapshot: snapshot)
            let context = "compare the proposals of \(name) with the reviews its forge holds"
            var shapes: [String: Shape?] = [:]
            // A commit the forge holds that was never here (pushed by someone else) is no proposal of this run's.
            func shape(_ commit: String) throws -> Shape? {
                if let known = shapes[commit] { return known }
                var result: Shape?
                if try repository.refValue(commit, context: context) != nil {
                    result = Shape(
                        parents: try repository.parents(of: commit, context: context),
                        tree: try repository.tree(of: commit, context: context))
                }
                shapes[commit] = result
                return result
            }
            // The newest review first: the highest pull request or patch set number.
            let newestFirst = held.sorted {
                Self.reviewOrder($1.key).lexicographicallyPrecedes(Self.reviewOrder($0.key))
            }
            for index in pending where adopted[index].repository == name {
                guard let mine = try shape(adopted[index].proposed) else { continue }
                guard let match = try newestFirst.first(where: { try shape($0.value) == mine }) else { continue }
                if adopted[index].isGeneralRepin { adopted[index].general = match.value }
                adopted[index].proposed = match.value
                adopted[index].reviewRef = match.key
                adopted[index].state = "open"
            }
        }
        return adopted
    }

    /// The review ref that holds `commit` after its push into the review namespace of `name`; nil when the forge
    /// shows none (it keeps its reviews elsewhere).
    func reviewRef(holding commit: String, of name: String, snapshot: Snapshot, review: ReviewOptions) throws
        -> String?
    {
        try reviewRefs(of: name, snapshot: snapshot, review: review).filter { $0.value == commit }
            .max { Self.reviewOrder($0.key).lexicographicallyPrecedes(Self.reviewOrder($1.key)) }?.key
    }

    /// The numbers in a review ref (`refs/changes/01/1/2` → [1, 1, 2]), to order reviews and patch sets.
    static func reviewOrder(_ ref: String) -> [Int] {
        ref.split(separator: "/").compactMap { Int($0) }
    }
}
