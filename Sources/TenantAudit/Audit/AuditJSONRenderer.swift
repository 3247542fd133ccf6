import Foundation

/// The audit as JSON (`docs/audit-schema.json`): sorted keys, tenants and modules in file order.
public enum AuditJSONRenderer {
    /// Renders `report` as pretty JSON with sorted keys (the bytes `JSONOutput.encode(report)` writes, written by
    /// ``AuditJSONWriter``, which is an order of magnitude faster for large matrices).
    public static func render(_ report: AuditReport) throws -> String {
        AuditJSONWriter.render(report)
    }

    /// ``render(_:)``'s text as UTF-8 bytes, without making a String of them (for writing it out).
    public static func renderBytes(_ report: AuditReport) -> [UInt8] {
        AuditJSONWriter.bytes(report)
    }

    /// ``renderBytes(_:)`` handed to `sink` in parts, in order, as they are written: the whole text is never in
    /// memory at once (for writing a large report out).
    public static func render(_ report: AuditReport, to sink: ([UInt8]) -> Void) {
        AuditJSONWriter.write(report, to: sink)
    }
}
