import Foundation

/// What a module repository says about the commits superproject branches pin: the commit each pin names (an
/// annotated tag is peeled) and whether the remote has it on a branch or a tag. One rule for roll, audit and verify
/// (`missing-commit`).
public struct ModulePins: Sendable, Equatable {
    /// Pin → the commit it names (the pin itself for a commit, the tagged commit for an annotated tag); a pin whose
    /// object the mirror does not have is absent.
    public var commits: [String: String]
    /// The pins whose commit is reachable from a branch or a tag of the module's remote.
    public var onRemote: Set<String>

    public init(commits: [String: String] = [:], onRemote: Set<String> = []) {
        self.commits = commits
        self.onRemote = onRemote
    }

    /// The commit a pin names, or the pin when unknown.
    public func commit(_ pin: String) -> String { commits[pin] ?? pin }

    /// Resolves `pins` against a mirror (`repository`) whose `graph` was loaded with its branch tips and the pins.
    ///
    /// git processes: none when every pin is on a branch (the usual case); otherwise one `cat-file --batch`, one
    /// `for-each-ref` of the tags and one `rev-list` of what the tags reach.
    public static func resolve(
        _ pins: Set<String>, graph: CommitGraph, branchTips: Set<String>, repository: GitRepository, what: String
    ) throws -> ModulePins {
        var result = ModulePins()
        // By position in the graph: no set of every commit the branches reach (thousands of ids per module).
        let onBranches = graph.reachability(from: branchTips)
        for pin in pins where graph.contains(pin) {
            result.commits[pin] = pin
            if onBranches.contains(pin) { result.onRemote.insert(pin) }
        }
        let open = pins.subtracting(result.onRemote).sorted()
        guard !open.isEmpty else { return result }
        let tags = try repository.refs(["refs/tags/"], what: what)
        let tagNames = tags.keys.sorted()
        let batch = try repository.openBatch()
        let peeled = try batch.objects(open.map { $0 + "^{commit}" } + tagNames.map { $0 + "^{commit}" })
        try batch.close()
        var tagCommits: Set<String> = []
        for (index, object) in peeled.enumerated() {
            guard let object, object.type == "commit" else { continue }
            if index < open.count {
                result.commits[open[index]] = object.id
            } else {
                tagCommits.insert(object.id)
            }
        }
        var fromTags: CommitGraph.Reachability?
        let candidates = open.compactMap { result.commits[$0] }
        if !tagCommits.isEmpty && !candidates.isEmpty {
            let tagGraph = try repository.commitGraph(tips: tagCommits.sorted(), what: what + " (tags)")
            fromTags = tagGraph.reachability(from: tagCommits)
        }
        for pin in open {
            guard let commit = result.commits[pin] else { continue }
            if onBranches.contains(commit) || fromTags?.contains(commit) == true { result.onRemote.insert(pin) }
        }
        return result
    }
}
