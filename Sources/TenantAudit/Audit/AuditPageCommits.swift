import Foundation

/// The commits shown in the detail panels of the HTML page: per cell the general branch's commits the pin lacks
/// and the tenant's own commits (as `audit --tenant t2 --module Order` lists them, ``AuditCellCommits``), bounded
/// for a page of thousands of cells.
///
/// Each list is one commit range of one module, read once however many cells share it (every tenant that pins the
/// same commit has the same "behind" list), at most ``perCell`` commits of it; the report's counts give the totals.
/// At most ``rangeLimit`` ranges are read per page (one git process each): those of cells with findings first,
/// then the ranges shared by the most cells, then those of customised cells, then the rest, each in tenant file
/// order; a cell whose ranges do not fit keeps its counts and its panel names the command that lists its commits.
public struct AuditPageCommits: Sendable, Equatable {
    /// The commits of `module` reachable from `to` and not from `from`; merges left out unless `merges`.
    public struct Range: Hashable, Sendable {
        public var module: String
        public var from: String
        public var to: String
        public var merges: Bool
    }

    /// Where one module's commits are read: its general branch's tip and its repository (the module mirror).
    public struct Source: Sendable {
        public var generalCommit: String
        /// The module's mirror.
        public var repository: GitRepository

        public init(generalCommit: String, repository: GitRepository) {
            self.generalCommit = generalCommit
            self.repository = repository
        }
    }

    /// The most commits listed per list of a cell.
    public static let perCell = 10
    /// The most ranges (git processes) read per page.
    public static let rangeLimit = 400

    /// Every range read, with its newest ``perCell`` commits (newest first).
    public var lists: [Range: [AuditCellCommits.Commit]]
    /// The general branch's tip per module (the end of every "behind" range).
    public var generalCommits: [String: String]
    /// Cells that are behind or customised but got no lists (over ``rangeLimit``).
    public var leftOut: Int

    public init(
        lists: [Range: [AuditCellCommits.Commit]] = [:], generalCommits: [String: String] = [:], leftOut: Int = 0
    ) {
        self.lists = lists
        self.generalCommits = generalCommits
        self.leftOut = leftOut
    }

    /// The range of `module`'s general commits `pin` lacks.
    static func behindRange(module: String, pin: String, general: String) -> Range {
        Range(module: module, from: pin, to: general, merges: true)
    }

    /// The range of `pin`'s own commits (no merges) not on `module`'s general branch.
    static func customisedRange(module: String, pin: String, general: String) -> Range {
        Range(module: module, from: general, to: pin, merges: false)
    }

    /// The cell's "behind" list, nil when it was not read (nothing behind, unknown, or over the limit).
    public func behind(_ cell: ModuleAudit) -> [AuditCellCommits.Commit]? {
        guard let pin = cell.pin, let general = generalCommits[cell.module] else { return nil }
        return lists[Self.behindRange(module: cell.module, pin: pin, general: general)]
    }

    /// The cell's "customised" list, nil when it was not read.
    public func customised(_ cell: ModuleAudit) -> [AuditCellCommits.Commit]? {
        guard let pin = cell.pin, let general = generalCommits[cell.module] else { return nil }
        return lists[Self.customisedRange(module: cell.module, pin: pin, general: general)]
    }

    /// The ranges `cell` needs: "behind" when it is behind, "customised" when it has commits of its own.
    static func ranges(of cell: ModuleAudit, sources: [String: Source]) -> [Range] {
        guard let pin = cell.pin, let general = sources[cell.module]?.generalCommit else { return [] }
        var ranges: [Range] = []
        if (cell.behind ?? 0) > 0 { ranges.append(behindRange(module: cell.module, pin: pin, general: general)) }
        if (cell.ahead ?? 0) > 0 { ranges.append(customisedRange(module: cell.module, pin: pin, general: general)) }
        return ranges
    }

    /// The ranges to read for `report`, in the order of ``AuditPageCommits``: at most `limit`, and how many cells
    /// that need a list did not get it.
    static func plan(_ report: AuditReport, sources: [String: Source], limit: Int) -> (ranges: [Range], leftOut: Int) {
        let cells = report.tenants.flatMap(\.modules)
        let needed = cells.map { ranges(of: $0, sources: sources) }
        var sharing: [Range: Int] = [:]
        for range in needed.joined() { sharing[range, default: 0] += 1 }
        let shared = sharing.filter { $0.value > 1 }.keys
        let firstSeen = Dictionary(needed.joined().enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let byCells = shared.sorted {
            (sharing[$0, default: 0], -(firstSeen[$0] ?? 0)) > (sharing[$1, default: 0], -(firstSeen[$1] ?? 0))
        }
        let order =
            zip(cells, needed).filter { !$0.0.findings.isEmpty }.flatMap(\.1) + byCells
            + zip(cells, needed).filter { $0.0.customised || ($0.0.ahead ?? 0) > 0 }.flatMap(\.1)
            + needed.joined()
        var chosen: [Range] = []
        var known: Set<Range> = []
        for range in order where chosen.count < limit && !known.contains(range) {
            chosen.append(range)
            known.insert(range)
        }
        let leftOut = needed.filter { !$0.allSatisfy(known.contains) }.count
        return (chosen, leftOut)
    }

    /// Reads the lists of `report`'s cells from the modules' repositories (`sources`: module name → where), at
    /// most `jobs` git processes at a time.
    public static func load(
        _ report: AuditReport, sources: [String: Source], jobs: Int, limit: Int = rangeLimit
    ) throws -> AuditPageCommits {
        let plan = plan(report, sources: sources, limit: limit)
        let read = try Concurrent.map(plan.ranges, jobs: max(1, jobs)) { range -> [AuditCellCommits.Commit] in
            guard let repository = sources[range.module]?.repository else { return [] }
            return try repository.log(
                range: "\(range.from)..\(range.to)", limit: perCell, merges: range.merges,
                context: "read the commits of \(range.module) for the audit page")
        }
        var lists: [Range: [AuditCellCommits.Commit]] = [:]
        for (range, commits) in zip(plan.ranges, read) { lists[range] = commits }
        return AuditPageCommits(
            lists: lists, generalCommits: sources.mapValues(\.generalCommit), leftOut: plan.leftOut)
    }
}
