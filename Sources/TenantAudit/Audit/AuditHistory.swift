import Foundation

/// What `tenantctl audit --history` found: every tenant's cells at points in time (the divergence over time).
public struct AuditHistory: Sendable, Equatable {
    /// The version of the JSON's schema (`docs/schemas/audit-history.schema.json`).
    public static let schemaVersion = 1

    /// The shared development branch everything is compared with.
    public var generalBranch: String
    /// The modules shown, in manifest order.
    public var modules: [String]
    /// The points in time, oldest first (seconds since 1970, UTC).
    public var points: [Int]
    /// The tenants, in tenant-file order.
    public var tenants: [HistoryTenant]
    /// What the history describes (the general branch's commit now, the remote, when, which tenantctl), or nil.
    public var source: AuditSource?

    /// Creates a history.
    public init(
        generalBranch: String, modules: [String], points: [Int], tenants: [HistoryTenant], source: AuditSource? = nil
    ) {
        self.generalBranch = generalBranch
        self.modules = modules
        self.points = points
        self.tenants = tenants
        self.source = source
    }

    /// `time` as `2026-11-24T04:30:00Z`.
    public static func timestamp(_ time: Int) -> String {
        AuditSource.timestamp(Date(timeIntervalSince1970: TimeInterval(time)))
    }

    /// The tenants ordered by how much their distance grew from the first point to the last: the change of
    /// `behind` first, then of the customisation's lines (added + removed), then tenant-file order.
    public var tenantsByGrowth: [HistoryTenant] {
        tenants.enumerated().sorted { left, right in
            let (a, b) = (left.element.growth, right.element.growth)
            if a.behind != b.behind { return a.behind > b.behind }
            if a.lines != b.lines { return a.lines > b.lines }
            return left.offset < right.offset
        }.map(\.element)
    }
}

/// One tenant's series: a ``HistoryPoint`` per point of the history.
public struct HistoryTenant: Sendable, Equatable {
    public var id: String
    public var branch: String
    /// One per point of the history, in the same order.
    public var points: [HistoryPoint]

    public init(id: String, branch: String, points: [HistoryPoint]) {
        self.id = id
        self.branch = branch
        self.points = points
    }

    /// The tenant's first and last present point (nil when it is absent at every point).
    public var span: (first: HistoryPoint, last: HistoryPoint)? {
        guard let first = points.first(where: \.present), let last = points.last(where: \.present) else { return nil }
        return (first, last)
    }

    /// The change of `behind` and of the customisation's lines (added + removed) from the first present point to
    /// the last (0 when absent everywhere).
    public var growth: (behind: Int, lines: Int) {
        guard let (first, last) = span else { return (0, 0) }
        return ((last.behind ?? 0) - (first.behind ?? 0), last.lines - first.lines)
    }
}

/// One tenant at one point: its cells (one per module of the history) and their sums.
public struct HistoryPoint: Sendable, Equatable {
    /// Whether the tenant existed then: its branch had a first-parent commit of its own (not on the general
    /// branch) at or before the point. An absent tenant has cells without pins.
    public var present: Bool
    /// One per module of the history, in the same order.
    public var cells: [HistoryCell]
    /// The age in whole days, at the point, of the oldest general commit the tenant lacked in any module (0 when it
    /// lacked none; nil when absent).
    public var behindDays: Int?

    public init(present: Bool, cells: [HistoryCell], behindDays: Int?) {
        self.present = present
        self.cells = cells
        self.behindDays = behindDays
    }

    /// The sum of the cells' `behind` (nil when absent or no cell is known).
    public var behind: Int? { sum(\.behind) }
    public var ahead: Int? { sum(\.ahead) }
    public var added: Int? { sum(\.added) }
    public var removed: Int? { sum(\.removed) }
    /// The customisation's lines, added + removed (0 when absent).
    public var lines: Int { (added ?? 0) + (removed ?? 0) }

    private func sum(_ field: KeyPath<HistoryCell, Int?>) -> Int? {
        guard present else { return nil }
        let known = cells.compactMap { $0[keyPath: field] }
        return known.isEmpty ? nil : known.reduce(0, +)
    }
}
