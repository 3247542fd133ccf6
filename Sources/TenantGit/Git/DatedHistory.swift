import Foundation

/// A ``CommitGraph`` with every commit's committer date (seconds since 1970), from one
/// `git log --topo-order --format=%H %ct %P` listing: what a branch was at a past moment (its first-parent line) and
/// how a commit compared with a base then, for any number of moments, without starting git again.
public struct DatedHistory: Sendable {
    /// The graph (positions as in the listing).
    public let graph: CommitGraph
    /// Committer date of each commit, by position in ``graph``.
    let dates: [Int]

    /// Parses `<commit> <committer date> <parent>…` lines in topological order; nil when the text is not such a
    /// listing.
    public init?(listing data: Data) {
        var stripped = Data()
        stripped.reserveCapacity(data.count)
        var dates: [Int] = []
        var valid = true
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            let bytes = buffer.bindMemory(to: UInt8.self)
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                defer { start = end + 1 }
                guard end > start else { continue }
                // `<id> <date>`: the id is kept, the date parsed and left out of the graph's listing.
                var idEnd = start
                while idEnd < end && bytes[idEnd] != UInt8(ascii: " ") { idEnd += 1 }
                var dateEnd = idEnd + 1
                var date = 0
                var digits = 0
                while dateEnd < end && bytes[dateEnd] != UInt8(ascii: " ") {
                    let byte = bytes[dateEnd]
                    guard byte >= 48 && byte <= 57 else {
                        valid = false
                        return
                    }
                    date = date * 10 + Int(byte - 48)
                    digits += 1
                    dateEnd += 1
                }
                guard idEnd < end, digits > 0 else {
                    valid = false
                    return
                }
                dates.append(date)
                stripped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<idEnd]))
                if dateEnd < end { stripped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[dateEnd..<end])) }
                stripped.append(UInt8(ascii: "\n"))
            }
        }
        guard valid, let graph = CommitGraph(listing: stripped), graph.count == dates.count else { return nil }
        self.graph = graph
        self.dates = dates
    }

    /// The committer date of `commit`, or nil when the history does not hold it.
    public func date(of commit: String) -> Int? {
        graph.positions[commit].map { dates[Int($0)] }
    }

    /// The first-parent line from `tip`, newest first, each commit with its committer date; empty when `tip` is not
    /// in the history.
    public func firstParentLine(from tip: String) -> [DatedCommit] {
        guard var position = graph.positions[tip] else { return [] }
        var line: [DatedCommit] = []
        while position >= 0 {
            line.append(DatedCommit(id: graph.ids[Int(position)], date: dates[Int(position)]))
            position = graph.firstParent[Int(position)]
        }
        return line
    }

    /// The commit a branch whose first-parent line is `line` (newest first) was at `time`: its newest commit whose
    /// committer date is at or before `time` (as `git rev-list -1 --first-parent --before=<time>`); nil when none is.
    public static func commit(at time: Int, on line: [DatedCommit]) -> String? {
        line.first { $0.date <= time }?.id
    }

    /// Compares `commit` with `base` as ``CommitGraph/compare(_:with:)`` does, with the committer date of the oldest
    /// commit of `base` that `commit` lacks; nil when either is not in the history.
    public func compare(_ commit: String, with base: String) -> DatedComparison? {
        guard let start = graph.positions[commit], let other = graph.positions[base] else { return nil }
        let fromCommit: UInt8 = 1
        let fromBase: UInt8 = 2
        let both: UInt8 = 3
        var flags: [Int32: UInt8] = [start: fromCommit]
        flags[other, default: 0] |= fromBase
        var queue = MinHeap()
        var singles = 0
        for node in Set([start, other]) {
            queue.push(node)
            if flags[node] != both { singles += 1 }
        }
        var result = DatedComparison(
            comparison: Comparison(ahead: 0, behind: 0, mergeBase: nil), oldestBehind: nil)
        while let node = queue.pop() {
            let flag = flags[node] ?? 0
            if flag == both {
                if result.comparison.mergeBase == nil { result.comparison.mergeBase = graph.ids[Int(node)] }
            } else {
                singles -= 1
                if flag == fromCommit {
                    if !graph.isMerge[Int(node)] { result.comparison.ahead += 1 }
                } else {
                    result.comparison.behind += 1
                    let date = dates[Int(node)]
                    result.oldestBehind = min(result.oldestBehind ?? date, date)
                }
            }
            for parent in graph.parents[Int(node)] {
                let old = flags[parent] ?? 0
                let new = old | flag
                if old == 0 {
                    flags[parent] = new
                    queue.push(parent)
                    if new != both { singles += 1 }
                } else if new != old {
                    flags[parent] = new
                    if new == both { singles -= 1 }
                }
            }
            if singles == 0 && result.comparison.mergeBase != nil { break }
        }
        return result
    }

    /// Loads the history of everything reachable from `tips` (tips not in the repository are skipped) with one
    /// `git log --topo-order` (git lists nothing for no tip: `--stdin` leaves `HEAD` out).
    /// With `firstParent`, only the first-parent lines (`--first-parent`: what a branch was at each moment, without
    /// the history its merges brought in).
    static func load(tips: [String], repository: GitRepository, what: String, firstParent: Bool = false) throws
        -> DatedHistory
    {
        let context = "read the dated history of \(what)"
        let arguments =
            ["log", "--topo-order", "--ignore-missing", "--no-color", "--no-show-signature"]
            + (firstParent ? ["--first-parent"] : []) + ["--format=tformat:%H %ct %P", "--stdin"]
        let input = Data(tips.map { $0 + "\n" }.joined().utf8)
        let output = try repository.run(arguments, context: context, input: input)
        guard let history = DatedHistory(listing: output.stdout) else {
            throw repository.unparseable(
                arguments, output: output, detail: "log --topo-order output not in topological order",
                context: context)
        }
        return history
    }
}

/// A commit and its committer date (seconds since 1970).
public struct DatedCommit: Sendable, Equatable {
    public var id: String
    public var date: Int

    public init(id: String, date: Int) {
        self.id = id
        self.date = date
    }
}

/// ``Comparison`` with the committer date of the oldest base commit the compared commit lacks (nil: it lacks none).
public struct DatedComparison: Sendable, Equatable {
    public var comparison: Comparison
    public var oldestBehind: Int?

    public init(comparison: Comparison, oldestBehind: Int?) {
        self.comparison = comparison
        self.oldestBehind = oldestBehind
    }
}

extension GitRepository {
    /// The dated history of everything reachable from `tips` (``DatedHistory/load(tips:repository:what:)``).
    public func datedHistory(tips: [String], what: String, firstParent: Bool = false) throws -> DatedHistory {
        try DatedHistory.load(tips: tips, repository: self, what: what, firstParent: firstParent)
    }
}
