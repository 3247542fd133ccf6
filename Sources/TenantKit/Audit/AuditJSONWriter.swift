import Foundation

/// Writes an ``AuditReport`` as JSON by hand, byte for byte what `JSONOutput.encode` (Foundation's `JSONEncoder`,
/// pretty-printed, sorted keys, slashes not escaped) writes for it.
///
/// Why: at 1000 tenants × 50 modules the report has 50,000 cells and 19 MB of JSON; `JSONEncoder` spent a quarter of
/// `audit --no-fetch --format json`'s CPU time on it (docs/PERFORMANCE.md). The keys are listed here in sorted
/// order; `AuditJSONWriterTests` compares the output with `JSONEncoder`'s for reports with every field shape.
enum AuditJSONWriter {
    static func render(_ report: AuditReport) -> String {
        String(decoding: bytes(report), as: UTF8.self)
    }

    /// The UTF-8 bytes of ``render(_:)``.
    static func bytes(_ report: AuditReport) -> [UInt8] {
        var writer = Writer()
        writer.object(indent: 0) { w in
            if let cell = report.cell {
                w.key("cell", 1)
                w.cell(cell, indent: 1)
                w.next()
            }
            w.key("findings", 1)
            w.findings(report.findings, indent: 1)
            w.next()
            w.key("generalBranch", 1)
            w.string(report.generalBranch)
            w.next()
            w.key("modules", 1)
            w.array(report.modules, indent: 1) { w, name, _ in w.string(name) }
            w.next()
            w.key("schemaVersion", 1)
            w.int(AuditReport.schemaVersion)
            w.next()
            if let source = report.source {
                w.key("source", 1)
                w.object(indent: 1) { w in
                    w.key("generalCommit", 2)
                    w.string(source.generalCommit)
                    w.next()
                    w.key("generatedAt", 2)
                    w.string(source.generatedAt)
                    w.next()
                    w.key("remote", 2)
                    w.string(source.remote)
                    w.next()
                    w.key("tenantctlVersion", 2)
                    w.string(source.tenantctlVersion)
                    if let url = source.url {
                        w.next()
                        w.key("url", 2)
                        w.string(url)
                    }
                }
                w.next()
            }
            w.key("tenants", 1)
            w.tenants(report.tenants, indent: 1)
        }
        return writer.bytes
    }

    private struct Writer {
        var bytes: [UInt8] = []

        init(capacity: Int = 1 << 20) { bytes.reserveCapacity(capacity) }

        /// The tenants array: each tenant's object is written on its own (shared out over the cores) and the
        /// objects are joined in order, the same bytes as ``array(_:indent:_:)`` writes.
        mutating func tenants(_ tenants: [TenantAudit], indent: Int) {
            let level = indent + 1
            let objects = Concurrent.chunkedMap(tenants, minimumChunk: 16) { tenant -> [UInt8] in
                // About 400 bytes per cell.
                var writer = Writer(capacity: 1024 + 512 * tenant.modules.count)
                writer.tenant(tenant, indent: level)
                return writer.bytes
            }
            raw("[\n")
            if objects.isEmpty {
                bytes.append(UInt8(ascii: "\n"))
            } else {
                bytes.reserveCapacity(bytes.count + objects.reduce(0) { $0 + $1.count + 2 * level + 2 } + 64)
                for (index, object) in objects.enumerated() {
                    if index > 0 { next() }
                    spaces(level)
                    bytes.append(contentsOf: object)
                }
                bytes.append(UInt8(ascii: "\n"))
            }
            spaces(indent)
            bytes.append(UInt8(ascii: "]"))
        }

        mutating func raw(_ text: StaticString) {
            text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        mutating func spaces(_ level: Int) {
            let count = 2 * level
            if count <= Self.blanks.count {
                bytes.append(contentsOf: Self.blanks[0..<count])
            } else {
                bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
            }
        }

        static let blanks = [UInt8](repeating: UInt8(ascii: " "), count: 32)

        /// `"key" : ` at `level`.
        /// One cell's commits (keys sorted as `JSONEncoder` sorts them).
        mutating func cell(_ cell: AuditCellCommits, indent: Int) {
            let level = indent + 1
            /// A commit list and its total: `"<name>" : [...], "<name>Total" : n`.
            func commits(
                _ w: inout Writer, _ name: StaticString, _ list: [AuditCellCommits.Commit], _ totalName: StaticString,
                _ total: Int
            ) {
                w.key(name, level)
                w.array(list, indent: level) { w, commit, inner in
                    w.object(indent: inner) { w in
                        w.key("author", inner + 1)
                        w.string(commit.author)
                        w.next()
                        w.key("id", inner + 1)
                        w.string(commit.id)
                        w.next()
                        w.key("subject", inner + 1)
                        w.string(commit.subject)
                    }
                }
                w.next()
                w.key(totalName, level)
                w.int(total)
                w.next()
            }
            object(indent: indent) { w in
                commits(&w, "behind", cell.behind, "behindTotal", cell.behindTotal)
                commits(&w, "customised", cell.customised, "customisedTotal", cell.customisedTotal)
                w.key("generalBranch", level)
                w.string(cell.generalBranch)
                w.next()
                w.key("generalCommit", level)
                w.string(cell.generalCommit)
                w.next()
                w.key("module", level)
                w.string(cell.module)
                w.next()
                w.key("pin", level)
                w.string(cell.pin)
                w.next()
                w.key("tenant", level)
                w.string(cell.tenant)
            }
        }

        mutating func key(_ name: StaticString, _ level: Int) {
            spaces(level)
            bytes.append(UInt8(ascii: "\""))
            raw(name)
            raw("\" : ")
        }

        /// The separator between two members or elements.
        mutating func next() { raw(",\n") }

        mutating func object(indent: Int, _ body: (inout Writer) -> Void) {
            raw("{\n")
            body(&self)
            bytes.append(UInt8(ascii: "\n"))
            spaces(indent)
            bytes.append(UInt8(ascii: "}"))
        }

        mutating func array<Element>(
            _ elements: [Element], indent: Int, _ body: (inout Writer, Element, Int) -> Void
        ) {
            raw("[\n")
            if elements.isEmpty {
                bytes.append(UInt8(ascii: "\n"))
            } else {
                for (index, element) in elements.enumerated() {
                    if index > 0 { next() }
                    spaces(indent + 1)
                    body(&self, element, indent + 1)
                }
                bytes.append(UInt8(ascii: "\n"))
            }
            spaces(indent)
            bytes.append(UInt8(ascii: "]"))
        }

        mutating func int(_ value: Int) {
            if value >= 0 && value < 10 {
                bytes.append(UInt8(ascii: "0") + UInt8(value))  // most counts are one digit
            } else {
                bytes.append(contentsOf: String(value).utf8)
            }
        }

        mutating func int(_ value: Int?) {
            if let value { int(value) } else { raw("null") }
        }

        mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

        mutating func string(_ value: String?) {
            guard let value else { return raw("null") }
            JSONBytes.appendString(value, to: &bytes)
        }

        mutating func strings(_ values: [String], indent: Int) {
            array(values, indent: indent) { w, value, _ in w.string(value) }
        }

        mutating func findings(_ findings: [AuditFinding], indent: Int) {
            array(findings, indent: indent) { w, finding, level in
                w.object(indent: level) { w in
                    w.key("code", level + 1)
                    w.string(finding.code.rawValue)
                    w.next()
                    w.key("message", level + 1)
                    w.string(finding.message)
                }
            }
        }

        mutating func tenant(_ tenant: TenantAudit, indent: Int) {
            let level = indent + 1
            object(indent: indent) { w in
                w.key("branch", level)
                w.string(tenant.branch)
                w.next()
                w.key("id", level)
                w.string(tenant.id)
                w.next()
                w.key("modules", level)
                w.array(tenant.modules, indent: level) { w, module, inner in w.module(module, indent: inner) }
                w.next()
                w.key("superproject", level)
                w.superproject(tenant.superproject, indent: level)
            }
        }

        mutating func superproject(_ audit: SuperprojectAudit, indent: Int) {
            let level = indent + 1
            object(indent: indent) { w in
                w.key("ahead", level)
                w.int(audit.ahead)
                w.next()
                w.key("behind", level)
                w.int(audit.behind)
                w.next()
                w.key("changedFiles", level)
                w.strings(audit.changedFiles, indent: level)
                w.next()
                w.key("findings", level)
                w.findings(audit.findings, indent: level)
            }
        }

        mutating func module(_ audit: ModuleAudit, indent: Int) {
            let level = indent + 1
            object(indent: indent) { w in
                w.key("active", level)
                w.bool(audit.active)
                w.next()
                w.key("ahead", level)
                w.int(audit.ahead)
                w.next()
                w.key("behind", level)
                w.int(audit.behind)
                w.next()
                w.key("branch", level)
                w.string(audit.branch)
                w.next()
                w.key("changedFiles", level)
                w.strings(audit.changedFiles, indent: level)
                w.next()
                w.key("customised", level)
                w.bool(audit.customised)
                w.next()
                w.key("findings", level)
                w.findings(audit.findings, indent: level)
                w.next()
                w.key("module", level)
                w.string(audit.module)
                w.next()
                w.key("pin", level)
                w.string(audit.pin)
                w.next()
                w.key("pinIsTip", level)
                w.bool(audit.pinIsTip)
            }
        }
    }
}
