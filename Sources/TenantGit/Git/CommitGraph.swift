import Foundation

/// How a commit relates to a base commit (a module's or the superproject's `general_dev`).
public struct Comparison: Sendable, Equatable {
    /// Non-merge commits reachable from the commit but not from the base.
    public var ahead: Int
    /// Commits (merges included) reachable from the base but not from the commit.
    public var behind: Int
    /// A best common ancestor (as `git merge-base` without `--all`); nil for unrelated histories.
    public var mergeBase: String?

    /// Creates a comparison.
    public init(ahead: Int, behind: Int, mergeBase: String?) {
        self.ahead = ahead
        self.behind = behind
        self.mergeBase = mergeBase
    }
}

/// A commit graph held in memory, loaded from one `git rev-list --parents --topo-order` listing.
///
/// Answers ahead/behind, merge-base and reachability questions for any number of (commit, base) pairs without
/// starting git again. The listing must be in topological order (every commit before its parents), which
/// `--topo-order` guarantees; the constructor checks it. Parents outside the listing (a shallow clone) are ignored
/// for walking but still count for "is a merge".
public struct CommitGraph: Sendable {
    /// Commit ids in listing order (children before parents).
    let ids: [String]
    /// Commit id → position in ``ids``.
    let positions: [String: Int32]
    /// Parent positions of each commit (only parents present in the listing).
    let parents: [[Int32]]
    /// Whether each commit has two or more parents.
    let isMerge: [Bool]
    /// The position of each commit's first parent; -1 when it has none in the listing.
    let firstParent: [Int32]

    /// Parses `git rev-list --parents --topo-order` output (`<commit> <parent>…` per line); nil when the text is
    /// not such a listing or is not in topological order.
    public init?(listing text: String) {
        self.init(listing: Data(text.utf8))
    }

    /// Parses the listing from git's bytes in one pass: one String per commit, none per parent field (at
    /// 1000 × 50 the listings hold hundreds of thousands of ids; docs/PERFORMANCE.md).
    public init?(listing data: Data) {
        guard let parsed = Self.parse(data, decorated: false) else { return nil }
        self.init(parsed)
    }

    private init(_ parsed: Parsed) {
        self.ids = parsed.ids
        self.positions = parsed.positions
        self.parents = parsed.parents
        self.isMerge = parsed.isMerge
        self.firstParent = parsed.firstParent
    }

    private struct Parsed {
        var ids: [String] = []
        var positions: [String: Int32] = [:]
        var parents: [[Int32]] = []
        var isMerge: [Bool] = []
        var firstParent: [Int32] = []
        /// With `decorated`: the branches the decorations name (`refs/heads/<name>`, a `HEAD -> ` dropped), by
        /// the position of the commit they are at.
        var branches: [(position: Int, name: String)] = []
        /// With `decorated`: a decoration that is not `refs/heads/…` was seen (`tag: refs/heads/…`: a branch at an
        /// annotated tag).
        var otherDecoration = false
    }

    private static func parse(_ data: Data, decorated: Bool) -> Parsed? {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Parsed? in
            parse(buffer.bindMemory(to: UInt8.self), decorated: decorated)
        }
    }

    /// `decorated`: every line is `<commit> <parent>…`, a NUL and the commit's decorations (``loadBranches``);
    /// otherwise a line is `<commit> <parent>…` alone.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, decorated: Bool) -> Parsed? {
        let newline = UInt8(ascii: "\n")
        let space = UInt8(ascii: " ")
        // Pass 1: the commit of every line (parents refer to later lines, so all ids are needed first).
        var lines: [(start: Int, end: Int)] = []
        var decorations: [(line: Int, start: Int, end: Int)] = []
        var position = 0
        let count = bytes.count
        while position < count {
            var end = position
            while end < count && bytes[end] != newline { end += 1 }
            if end > position {
                if decorated {
                    // The graph's fields end at the NUL; a line without one is not the decorated listing.
                    var separator = position
                    while separator < end && bytes[separator] != 0 { separator += 1 }
                    guard separator < end else { return nil }
                    if separator + 1 < end { decorations.append((lines.count, separator + 1, end)) }
                    lines.append((position, separator))
                } else {
                    lines.append((position, end))
                }
            }
            position = end + 1
        }
        var result = Parsed()
        result.ids.reserveCapacity(lines.count)
        result.positions.reserveCapacity(lines.count)
        result.parents.reserveCapacity(lines.count)
        result.isMerge.reserveCapacity(lines.count)
        result.firstParent.reserveCapacity(lines.count)
        var parentFields: [[(Int, Int)]] = []
        parentFields.reserveCapacity(lines.count)
        for (index, line) in lines.enumerated() {
            var fields: [(Int, Int)] = []
            var start = line.start
            while start < line.end {
                var end = start
                while end < line.end && bytes[end] != space { end += 1 }
                if end > start { fields.append((start, end)) }
                start = end + 1
            }
            guard let first = fields.first, isObjectID(bytes, first) else { return nil }
            let id = string(bytes, first)
            guard result.positions.updateValue(Int32(index), forKey: id) == nil else { return nil }
            result.ids.append(id)
            parentFields.append(Array(fields.dropFirst()))
        }
        for (index, fields) in parentFields.enumerated() {
            var list: [Int32] = []
            var first: Int32 = -1
            for (offset, field) in fields.enumerated() {
                guard isObjectID(bytes, field) else { return nil }
                guard let parent = result.positions[string(bytes, field)] else { continue }
                guard parent > index else { return nil }  // a parent listed before its child
                if offset == 0 { first = parent }
                list.append(parent)
            }
            result.parents.append(list)
            result.isMerge.append(fields.count > 1)
            result.firstParent.append(first)
        }
        for decoration in decorations {
            readDecoration(bytes, decoration.start, decoration.end, at: decoration.line, into: &result)
        }
        return result
    }

    /// One commit's `%D` (full ref names separated by `, `; a ref name holds no space) read from git's bytes: each
    /// `refs/heads/<name>` (after a `HEAD -> `) as a branch at `position`, anything else marks
    /// ``Parsed/otherDecoration``. No String but the branch names (at 1000 tenants a module lists hundreds).
    private static func readDecoration(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, at position: Int, into result: inout Parsed
    ) {
        var entry = start
        while entry < end {
            var stop = entry
            while stop < end && !(bytes[stop] == UInt8(ascii: ",") && stop + 1 < end && bytes[stop + 1] == 32) {
                stop += 1
            }
            if stop > entry {
                var name = entry
                if hasPrefix(bytes, name, stop, headArrow) { name += headArrow.count }
                if hasPrefix(bytes, name, stop, headsPrefix) {
                    let branch = string(bytes, (name + headsPrefix.count, stop))
                    if branch != "HEAD" { result.branches.append((position, branch)) }
                } else {
                    result.otherDecoration = true
                }
            }
            entry = stop + 2
        }
    }

    private static let headArrow = Array("HEAD -> ".utf8)
    private static let headsPrefix = Array("refs/heads/".utf8)

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ prefix: [UInt8])
        -> Bool
    {
        guard end - start >= prefix.count else { return false }
        for (offset, byte) in prefix.enumerated() where bytes[start + offset] != byte { return false }
        return true
    }

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ field: (Int, Int)) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[field.0..<field.1]), as: UTF8.self)
    }

    private static func isObjectID(_ bytes: UnsafeBufferPointer<UInt8>, _ field: (Int, Int)) -> Bool {
        let length = field.1 - field.0
        guard length == 40 || length == 64 else { return false }
        for index in field.0..<field.1 {
            let byte = bytes[index]
            guard (byte >= 48 && byte <= 57) || (byte >= 97 && byte <= 102) else { return false }
        }
        return true
    }

    /// Loads the graph of everything reachable from `tips` with one `rev-list --parents --topo-order` (tips that are
    /// not in the repository are skipped).
    public static func load(tips: [String], repository: String, git: Git, what: String) throws -> CommitGraph {
        let input = Data(tips.map { $0 + "\n" }.joined().utf8)
        let arguments = ["rev-list", "--parents", "--topo-order", "--ignore-missing", "--stdin"]
        let output = try git.run(arguments, in: repository, input: input, context: "read the commit graph of \(what)")
        guard let graph = CommitGraph(listing: output.stdout) else {
            throw GitError(
                context: "read the commit graph of \(what)",
                kind: .unparseableOutput(detail: "rev-list --parents output not in topological order"),
                command: git.command(arguments, in: repository), directory: repository, output: output)
        }
        return graph
    }

    /// The branches of `repository` and the graph of everything reachable from them and from `more` (commits that
    /// are not in the repository are skipped), from one listing: `git log --branches` of the graph as
    /// ``load(tips:repository:git:what:)`` lists it, with the full names of the branches at each commit after a NUL
    /// (`%D`, git's decorations, limited to `refs/heads/`: a list of ref names separated by `, `, unambiguous because
    /// a ref name holds no space). What a separate `for-each-ref` and `rev-list` would give, in one process.
    ///
    /// A branch whose ref names no commit is not in a commit listing: at an annotated tag (git shows it as
    /// `tag: refs/heads/…` at the tagged commit) the branches are read with one more process, `for-each-ref`, to
    /// have its value as the remote has it; one at a tree or a blob is not seen. A repository without branches
    /// lists only `more` (git falls back to no `HEAD` when `--stdin` was given).
    public static func loadBranches(more: [String], repository: String, git: Git, what: String) throws
        -> (branches: [String: String], graph: CommitGraph)
    {
        let input = Data(more.map { $0 + "\n" }.joined().utf8)
        let arguments = [
            "log", "--branches", "--topo-order", "--ignore-missing", "--no-color", "--no-show-signature",
            "--decorate=full", "--decorate-refs=refs/heads/", "--format=tformat:%H %P%x00%D", "--stdin",
        ]
        let context = "read the branches and the commit graph of \(what)"
        let output = try git.run(arguments, in: repository, input: input, context: context)
        guard let parsed = parse(output.stdout, decorated: true) else {
            throw GitError(
                context: context,
                kind: .unparseableOutput(detail: "log --topo-order output not in topological order or not decorated"),
                command: git.command(arguments, in: repository), directory: repository, output: output)
        }
        let graph = CommitGraph(parsed)
        var branches: [String: String] = [:]
        branches.reserveCapacity(parsed.branches.count)
        for (position, name) in parsed.branches { branches[name] = graph.ids[position] }
        // `tag: refs/heads/…`: a branch at an annotated tag.
        guard parsed.otherDecoration else { return (branches, graph) }
        return (try GitRefs.branches(under: "refs/heads/", in: repository, git: git, what: what), graph)
    }

    /// The number of commits in the graph.
    public var count: Int { ids.count }

    /// Whether the graph holds `commit`.
    public func contains(_ commit: String) -> Bool { positions[commit] != nil }

    /// Compares `commit` with `base` (e.g. a pin with `general_dev`); nil when either is not in the graph.
    ///
    /// Walks both histories together in topological order and stops as soon as every commit still queued is
    /// reachable from both, so the cost follows the size of the difference, not of the history.
    public func compare(_ commit: String, with base: String) -> Comparison? {
        guard let start = positions[commit], let other = positions[base] else { return nil }
        let fromCommit: UInt8 = 1
        let fromBase: UInt8 = 2
        let both: UInt8 = 3
        var flags: [Int32: UInt8] = [:]
        var queue = MinHeap()
        var singles = 0
        flags[start, default: 0] |= fromCommit
        flags[other, default: 0] |= fromBase
        for node in Set([start, other]) {
            queue.push(node)
            if flags[node] != both { singles += 1 }
        }
        var result = Comparison(ahead: 0, behind: 0, mergeBase: nil)
        while let node = queue.pop() {
            let flag = flags[node] ?? 0
            if flag == both {
                if result.mergeBase == nil { result.mergeBase = ids[Int(node)] }
            } else {
                singles -= 1
                if flag == fromCommit {
                    if !isMerge[Int(node)] { result.ahead += 1 }
                } else {
                    result.behind += 1
                }
            }
            for parent in parents[Int(node)] {
                let old = flags[parent] ?? 0
                let new = old | flag
                if old == 0 {
                    flags[parent] = new
                    queue.push(parent)
                    if new != both { singles += 1 }
                } else if new != old {
                    // Parents come after their children, so a flagged parent is still queued.
                    flags[parent] = new
                    if new == both { singles -= 1 }
                }
            }
            if singles == 0 && result.mergeBase != nil { break }
        }
        return result
    }

    /// Whether `ancestor` is reachable from `descendant` (a commit counts as its own ancestor).
    public func isAncestor(_ ancestor: String, of descendant: String) -> Bool {
        guard let target = positions[ancestor], let start = positions[descendant] else { return false }
        guard start <= target else { return false }
        var seen: Set<Int32> = [start]
        var stack = [start]
        while let node = stack.popLast() {
            if node == target { return true }
            for parent in parents[Int(node)] where parent <= target && !seen.contains(parent) {
                seen.insert(parent)
                stack.append(parent)
            }
        }
        return false
    }

    /// The first-parent line from `tip` (the commits a branch was made of, in order), without merge commits when
    /// `merges` is false; empty when `tip` is not in the graph.
    public func firstParentLine(from tip: String, merges: Bool = true) -> [String] {
        guard var position = positions[tip] else { return [] }
        var line: [String] = []
        while position >= 0 {
            if merges || !isMerge[Int(position)] { line.append(ids[Int(position)]) }
            position = firstParent[Int(position)]
        }
        return line
    }

    /// Commits made on a tenant branch that the general branch took (a tenant branch merged back): the non-merge
    /// commits of the tenant branch's first-parent line that are not on the general branch's first-parent line but
    /// are reachable from the general branch. Empty when either tip is not in the graph. The one rule of roll, audit
    /// and verify (`tenant-merged-back`).
    public func tenantOnlyCommits(of tenantTip: String, reachableFrom generalTip: String) -> [String] {
        guard let general = history(of: generalTip) else { return [] }
        return tenantOnlyCommits(of: tenantTip, in: general)
    }

    /// What a general branch holds (its first-parent line and everything reachable), computed once and asked for many
    /// tenant branches.
    public struct GeneralHistory: Sendable {
        fileprivate let line: [Bool]
        fileprivate let reachable: [Bool]
    }

    /// The history of `generalTip`; nil when it is not in the graph.
    public func history(of generalTip: String) -> GeneralHistory? {
        guard var position = positions[generalTip] else { return nil }
        var line = [Bool](repeating: false, count: ids.count)
        while position >= 0 {
            line[Int(position)] = true
            position = firstParent[Int(position)]
        }
        var reachable = [Bool](repeating: false, count: ids.count)
        if let start = positions[generalTip] { reachable[Int(start)] = true }
        for index in 0..<ids.count where reachable[index] {
            for parent in parents[index] { reachable[Int(parent)] = true }
        }
        return GeneralHistory(line: line, reachable: reachable)
    }

    /// ``tenantOnlyCommits(of:reachableFrom:)`` against a general history computed once.
    public func tenantOnlyCommits(of tenantTip: String, in general: GeneralHistory) -> [String] {
        guard var position = positions[tenantTip] else { return [] }
        var commits: [String] = []
        while position >= 0 {
            let index = Int(position)
            if !isMerge[index] && !general.line[index] && general.reachable[index] { commits.append(ids[index]) }
            position = firstParent[index]
        }
        return commits
    }

    /// What is reachable from some tips, by position in the graph: asked for one commit at a time without a set of
    /// every reachable id (a module of 1000 tenants has thousands of commits and a few hundred pins to ask about).
    public struct Reachability: Sendable {
        fileprivate let positions: [String: Int32]
        fileprivate let marked: [Bool]

        /// Whether `commit` is in the graph and reachable from the tips.
        public func contains(_ commit: String) -> Bool {
            guard let position = positions[commit] else { return false }
            return marked[Int(position)]
        }
    }

    /// What is reachable from any of `tips` (one pass over the graph, no string made or hashed but the tips').
    public func reachability(from tips: some Sequence<String>) -> Reachability {
        var marked = [Bool](repeating: false, count: ids.count)
        for tip in tips {
            if let position = positions[tip] { marked[Int(position)] = true }
        }
        for index in 0..<ids.count where marked[index] {
            for parent in parents[index] { marked[Int(parent)] = true }
        }
        return Reachability(positions: positions, marked: marked)
    }

    /// Every commit reachable from any of `tips` (one pass over the graph).
    public func reachable(from tips: some Sequence<String>) -> Set<String> {
        var marked = [Bool](repeating: false, count: ids.count)
        for tip in tips {
            if let position = positions[tip] { marked[Int(position)] = true }
        }
        var result: Set<String> = []
        for index in 0..<ids.count where marked[index] {
            result.insert(ids[index])
            for parent in parents[index] { marked[Int(parent)] = true }
        }
        return result
    }
}

/// A binary min-heap of graph positions (smallest position = closest to the tips in topological order).
struct MinHeap {
    private var items: [Int32] = []

    mutating func push(_ value: Int32) {
        items.append(value)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child] < items[parent] else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Int32? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < items.count && items[left] < items[smallest] { smallest = left }
                if right < items.count && items[right] < items[smallest] { smallest = right }
                if smallest == parent { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }
}
