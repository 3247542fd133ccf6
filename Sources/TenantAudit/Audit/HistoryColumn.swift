import Foundation

/// One module's cells at every point, for every tenant: the general branch's first-parent line read once for all
/// points, each distinct (pin, general commit) pair compared once (in one dated walk of the module's history, only
/// for the pairs the cache does not hold), the lines of each distinct (pin, merge base) pair counted once.
struct HistoryColumn: Sendable {
    /// Tenant × point.
    var cells: [[HistoryCell]]
    /// Tenant × point: the committer date of the oldest general commit the pin lacks (nil: none, or unknown).
    var oldestBehind: [[Int?]]
    /// The module's cache with what this read added.
    var cache = HistoryCache.Module()

    private struct Pair: Hashable {
        var pin: String
        var general: String
        var key: String { HistoryCache.Module.key(pin, general) }
    }

    /// `pins`: tenant × point, the pin of the module's path (nil: absent, or no gitlink there).
    static func read(
        _ module: Module, general: String, pins: [[String?]], points: [Int], snapshot: Snapshot,
        cache: HistoryCache.Module
    ) throws -> HistoryColumn {
        var result = HistoryColumn(
            cells: pins.map { row in row.map { HistoryCell(pin: $0) } },
            oldestBehind: pins.map { row in row.map { _ in nil } }, cache: cache)
        let distinctPins = Set(pins.flatMap { $0.compactMap { $0 } })
        guard !distinctPins.isEmpty, let mirror = snapshot.existingMirror(of: module.name),
            let generalTip = snapshot.moduleBranches[module.name]?[general]
        else { return result }
        let what = "module \(module.name)"
        let line = try mirror.datedHistory(tips: [generalTip], what: what, firstParent: true)
            .firstParentLine(from: generalTip)
        let generalAt = points.map { DatedHistory.commit(at: $0, on: line) }
        var wanted = Set<Pair>()
        for row in pins.indices {
            for column in points.indices {
                guard let pin = pins[row][column], let base = generalAt[column] else { continue }
                wanted.insert(Pair(pin: pin, general: base))
            }
        }
        try compare(wanted.filter { cache.comparisons[$0.key] == nil }, into: &result.cache, mirror: mirror, what: what)
        try countLines(wanted, into: &result.cache, mirror: mirror, what: what)
        for row in pins.indices {
            for column in points.indices {
                guard let pin = pins[row][column], let base = generalAt[column],
                    let comparison = result.cache.comparisons[Pair(pin: pin, general: base).key]
                else { continue }
                result.cells[row][column].behind = comparison.comparison.behind
                result.cells[row][column].ahead = comparison.comparison.ahead
                result.oldestBehind[row][column] = comparison.oldestBehind
                guard let mergeBase = comparison.comparison.mergeBase else { continue }
                let count =
                    mergeBase == pin
                    ? LineCount(added: 0, removed: 0) : result.cache.lines[HistoryCache.Module.key(pin, mergeBase)]
                result.cells[row][column].added = count?.added
                result.cells[row][column].removed = count?.removed
            }
        }
        return result
    }

    /// Compares the `missing` pairs in one dated walk of the module's history (the general branch and their pins).
    private static func compare(
        _ missing: Set<Pair>, into cache: inout HistoryCache.Module, mirror: GitRepository, what: String
    ) throws {
        guard !missing.isEmpty else { return }
        let tips = Set(missing.map(\.general)).sorted() + Set(missing.map(\.pin)).sorted()
        let history = try mirror.datedHistory(tips: tips, what: what)
        for pair in missing {
            guard let comparison = history.compare(pair.pin, with: pair.general) else { continue }
            cache.comparisons[pair.key] = comparison
            cache.changed = true
        }
    }

    /// Counts, with one `diff-tree`, the lines of the (pin, merge base) pairs of `pairs` the cache lacks (also where
    /// the comparison came from the cache and its lines did not).
    private static func countLines(
        _ pairs: Set<Pair>, into cache: inout HistoryCache.Module, mirror: GitRepository, what: String
    ) throws {
        var lineKeys = Set<Pair>()
        for pair in pairs {
            guard let base = cache.comparisons[pair.key]?.comparison.mergeBase, base != pair.pin,
                cache.lines[HistoryCache.Module.key(pair.pin, base)] == nil
            else { continue }
            lineKeys.insert(Pair(pin: pair.pin, general: base))
        }
        guard !lineKeys.isEmpty else { return }
        cache.changed = true
        let ordered = lineKeys.sorted { ($0.pin, $0.general) < ($1.pin, $1.general) }
        let counts = try mirror.lineCounts(between: ordered.map { ($0.pin, $0.general) }, what: what)
        for (key, count) in zip(ordered, counts) { cache.lines[key.key] = count }
    }
}
