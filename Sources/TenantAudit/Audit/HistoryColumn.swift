import Foundation

/// One module's cells at every point, for every tenant: one dated walk of the module's history, each distinct
/// (pin, general commit) pair compared once, the lines of each distinct (pin, merge base) pair counted once.
struct HistoryColumn: Sendable {
    /// Tenant × point.
    var cells: [[HistoryCell]]
    /// Tenant × point: the committer date of the oldest general commit the pin lacks (nil: none, or unknown).
    var oldestBehind: [[Int?]]

    private struct Pair: Hashable {
        var pin: String
        var general: String
    }

    /// `pins`: tenant × point, the pin of the module's path (nil: absent, or no gitlink there).
    static func read(
        _ module: Module, general: String, pins: [[String?]], points: [Int], snapshot: Snapshot
    ) throws -> HistoryColumn {
        var result = HistoryColumn(
            cells: pins.map { row in row.map { HistoryCell(pin: $0) } },
            oldestBehind: pins.map { row in row.map { _ in nil } })
        let distinctPins = Set(pins.flatMap { $0.compactMap { $0 } })
        guard !distinctPins.isEmpty, let mirror = snapshot.existingMirror(of: module.name),
            let generalTip = snapshot.moduleBranches[module.name]?[general]
        else { return result }
        let history = try mirror.datedHistory(
            tips: [generalTip] + distinctPins.subtracting([generalTip]).sorted(), what: "module \(module.name)")
        let line = history.firstParentLine(from: generalTip)
        let generalAt = points.map { DatedHistory.commit(at: $0, on: line) }
        var compared: [Pair: DatedComparison] = [:]
        for row in pins.indices {
            for column in points.indices {
                guard let pin = pins[row][column], let base = generalAt[column] else { continue }
                let pair = Pair(pin: pin, general: base)
                if compared[pair] == nil, let comparison = history.compare(pin, with: base) {
                    compared[pair] = comparison
                }
            }
        }
        // The customisation's lines: from each distinct merge base to its pin, one `diff-tree` for all.
        var lineKeys: [Pair] = []
        var seen = Set<Pair>()
        for (pair, comparison) in compared {
            guard let base = comparison.comparison.mergeBase, base != pair.pin else { continue }
            let key = Pair(pin: pair.pin, general: base)
            if seen.insert(key).inserted { lineKeys.append(key) }
        }
        lineKeys.sort { ($0.pin, $0.general) < ($1.pin, $1.general) }
        let counts = try mirror.lineCounts(
            between: lineKeys.map { ($0.pin, $0.general) }, what: "module \(module.name)")
        var lines: [Pair: LineCount] = [:]
        for (key, count) in zip(lineKeys, counts) { lines[key] = count }
        for row in pins.indices {
            for column in points.indices {
                guard let pin = pins[row][column], let base = generalAt[column],
                    let comparison = compared[Pair(pin: pin, general: base)]
                else { continue }
                result.cells[row][column].behind = comparison.comparison.behind
                result.cells[row][column].ahead = comparison.comparison.ahead
                result.oldestBehind[row][column] = comparison.oldestBehind
                guard let mergeBase = comparison.comparison.mergeBase else { continue }
                let count =
                    mergeBase == pin
                    ? LineCount(added: 0, removed: 0) : lines[Pair(pin: pin, general: mergeBase)]
                result.cells[row][column].added = count?.added
                result.cells[row][column].removed = count?.removed
            }
        }
        return result
    }
}
