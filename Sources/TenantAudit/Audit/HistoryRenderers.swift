import Foundation

/// `audit --history --format csv`: one row per point, tenant and module, for spreadsheets and dashboards.
public enum HistoryCSVRenderer {
    /// The header, exactly.
    public static let header = "date,tenant,module,pin,behind,ahead,added,removed"

    /// The rows under ``header``: points oldest first, tenants in file order, modules in manifest order; `pin` empty
    /// where the tenant or the module was absent, a number empty where it is unknown.
    public static func render(_ history: AuditHistory) -> String {
        var bytes: [UInt8] = []
        render(history) { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same, a point and tenant at a time into `sink` (at 1000 tenants × 50 modules × 25 points a million rows:
    /// never whole in memory), without the last line break.
    public static func render(_ history: AuditHistory, to sink: ([UInt8]) -> Void) {
        sink(Array(header.utf8))
        let modules = history.modules.map(field)
        for (column, point) in history.points.enumerated() {
            let date = AuditHistory.timestamp(point)
            for tenant in history.tenants {
                let sample = tenant.points[column]
                let prefix = date + "," + field(tenant.id) + ","
                var chunk = ""
                for (module, cell) in zip(modules, sample.cells) {
                    chunk +=
                        "\n" + prefix + module + "," + (cell.pin ?? "") + "," + number(cell.behind) + ","
                        + number(cell.ahead) + "," + number(cell.added) + "," + number(cell.removed)
                }
                sink(Array(chunk.utf8))
            }
        }
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
        var bytes: [UInt8] = []
        try render(history) { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The document a tenant at a time into `sink` (at 1000 × 50 × 25 points it is hundreds of megabytes: never
    /// whole in memory): keys sorted, one tenant per line, without the last line break.
    public static func render(_ history: AuditHistory, to sink: ([UInt8]) -> Void) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let document = Document(history)
        func value(_ key: String, _ encoded: Data, last: Bool = false) {
            sink(Array("  \"\(key)\" : ".utf8) + Array(encoded) + Array((last ? "\n" : ",\n").utf8))
        }
        sink(Array("{\n".utf8))
        value("generalBranch", try encoder.encode(document.generalBranch))
        value("modules", try encoder.encode(document.modules))
        value("points", try encoder.encode(document.points))
        value("schemaVersion", try encoder.encode(document.schemaVersion))
        value("source", try document.source.map { try encoder.encode($0) } ?? Data("null".utf8))
        sink(Array("  \"tenants\" : [".utf8))
        let dates = history.points.map(AuditHistory.timestamp)
        for (index, tenant) in history.tenants.enumerated() {
            var bytes = Array((index == 0 ? "\n    " : ",\n    ").utf8)
            write(tenant, modules: history.modules, dates: dates, to: &bytes)
            sink(bytes)
        }
        sink(Array((history.tenants.isEmpty ? "]\n}" : "\n  ]\n}").utf8))
    }

    /// One tenant as the encoder would write it (keys sorted, compact), by hand: a million cells through
    /// `JSONEncoder` took most of the run.
    static func write(_ tenant: HistoryTenant, modules: [String], dates: [String], to bytes: inout [UInt8]) {
        func text(_ value: String) { bytes += Array(value.utf8) }
        func string(_ value: String?) {
            guard let value else { return text("null") }
            JSONString.append(value, .file, to: &bytes)
        }
        func number(_ value: Int?) { text(value.map(String.init) ?? "null") }
        text("{\"branch\":")
        string(tenant.branch)
        text(",\"id\":")
        string(tenant.id)
        text(",\"series\":[")
        for (offset, point) in tenant.points.enumerated() {
            text(offset == 0 ? "{\"added\":" : ",{\"added\":")
            number(point.added)
            text(",\"ahead\":")
            number(point.ahead)
            text(",\"behind\":")
            number(point.behind)
            text(",\"behindDays\":")
            number(point.behindDays)
            text(",\"date\":")
            string(dates[offset])
            text(",\"modules\":[")
            for (column, cell) in point.cells.enumerated() {
                text(column == 0 ? "{\"added\":" : ",{\"added\":")
                number(cell.added)
                text(",\"ahead\":")
                number(cell.ahead)
                text(",\"behind\":")
                number(cell.behind)
                text(",\"module\":")
                string(modules[column])
                text(",\"pin\":")
                string(cell.pin)
                text(",\"removed\":")
                number(cell.removed)
                text("}")
            }
            text("],\"present\":" + (point.present ? "true" : "false") + ",\"removed\":")
            number(point.removed)
            text("}")
        }
        text("]}")
    }

    /// The document's fields before its tenants.
    struct Document: Encodable {
        var schemaVersion = AuditHistory.schemaVersion
        var generalBranch: String
        var modules: [String]
        var points: [String]
        var source: AuditSource?

        init(_ history: AuditHistory) {
            generalBranch = history.generalBranch
            modules = history.modules
            points = history.points.map(AuditHistory.timestamp)
            source = history.source
        }
    }
}
