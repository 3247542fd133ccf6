import Foundation

/// `audit --history --format csv`: one row per point, tenant and module, for spreadsheets and dashboards.
public enum HistoryCSVRenderer {
    /// The header, exactly.
    public static let header = "date,tenant,module,pin,behind,ahead,added,removed"

    /// The rows under ``header``: points oldest first, tenants in file order, modules in manifest order; `pin` empty
    /// where the tenant or the module was absent, a number empty where it is unknown.
    public static func render(_ history: AuditHistory) -> String {
        var lines = [header]
        for (column, point) in history.points.enumerated() {
            let date = AuditHistory.timestamp(point)
            for tenant in history.tenants {
                let sample = tenant.points[column]
                for (module, cell) in zip(history.modules, sample.cells) {
                    let fields = [
                        date, tenant.id, module, cell.pin ?? "", number(cell.behind), number(cell.ahead),
                        number(cell.added), number(cell.removed),
                    ]
                    lines.append(fields.map(field).joined(separator: ","))
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    static func number(_ value: Int?) -> String { value.map(String.init) ?? "" }

    /// A field quoted as RFC 4180 says where it holds a comma, a quote or a line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// `audit --history --format json` (`docs/schemas/audit-history.schema.json`): every field always present, unknown
/// as null.
public enum HistoryJSONRenderer {
    public static func render(_ history: AuditHistory) throws -> String {
        try JSONOutput.encode(Document(history))
    }

    struct Document: Encodable {
        var schemaVersion = AuditHistory.schemaVersion
        var generalBranch: String
        var modules: [String]
        var points: [String]
        var source: AuditSource?
        var tenants: [Tenant]

        init(_ history: AuditHistory) {
            generalBranch = history.generalBranch
            modules = history.modules
            points = history.points.map(AuditHistory.timestamp)
            source = history.source
            tenants = history.tenants.map { tenant in
                Tenant(
                    id: tenant.id, branch: tenant.branch,
                    series: zip(history.points, tenant.points).map { time, point in
                        Sample(
                            date: AuditHistory.timestamp(time), present: point.present, behind: point.behind,
                            ahead: point.ahead, added: point.added, removed: point.removed,
                            behindDays: point.behindDays,
                            modules: zip(history.modules, point.cells).map { module, cell in
                                Cell(
                                    module: module, pin: cell.pin, behind: cell.behind, ahead: cell.ahead,
                                    added: cell.added, removed: cell.removed)
                            })
                    })
            }
        }
    }

    struct Tenant: Encodable {
        var id: String
        var branch: String
        var series: [Sample]
    }

    struct Sample: Encodable {
        var date: String
        var present: Bool
        var behind, ahead, added, removed, behindDays: Int?
        var modules: [Cell]

        enum CodingKeys: String, CodingKey { case date, present, behind, ahead, added, removed, behindDays, modules }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(date, forKey: .date)
            try container.encode(present, forKey: .present)
            try container.encode(behind, forKey: .behind)
            try container.encode(ahead, forKey: .ahead)
            try container.encode(added, forKey: .added)
            try container.encode(removed, forKey: .removed)
            try container.encode(behindDays, forKey: .behindDays)
            try container.encode(modules, forKey: .modules)
        }
    }

    struct Cell: Encodable {
        var module: String
        var pin: String?
        var behind, ahead, added, removed: Int?

        enum CodingKeys: String, CodingKey { case module, pin, behind, ahead, added, removed }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(module, forKey: .module)
            try container.encode(pin, forKey: .pin)
            try container.encode(behind, forKey: .behind)
            try container.encode(ahead, forKey: .ahead)
            try container.encode(added, forKey: .added)
            try container.encode(removed, forKey: .removed)
        }
    }
}
