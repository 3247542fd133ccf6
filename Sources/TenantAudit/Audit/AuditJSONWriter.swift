import Foundation

/// Writes an ``AuditReport`` as JSON with ``JSONBytes``, byte for byte what `JSONOutput.encode` (Foundation's
/// `JSONEncoder`, pretty-printed, sorted keys, slashes not escaped) writes for it.
///
/// Why: at 1000 tenants × 50 modules the report has 50,000 cells and 19 MB of JSON; `JSONEncoder` spent a quarter of
/// `audit --no-fetch --format json`'s CPU time on it (docs/PERFORMANCE.md). The keys are listed here in sorted
/// order, and `null` is written where the report's `encode(to:)` encodes a nil; `AuditJSONWriterTests` compares the
/// output with `JSONEncoder`'s for reports with every field shape.
enum AuditJSONWriter {
    static func render(_ report: AuditReport) -> String {
        String(decoding: bytes(report), as: UTF8.self)
    }

    /// The UTF-8 bytes of ``render(_:)``.
    static func bytes(_ report: AuditReport) -> [UInt8] {
        var all: [UInt8] = []
        write(report) { part in
            if all.isEmpty { all = part } else { all.append(contentsOf: part) }
        }
        return all
    }

    /// The bytes of ``bytes(_:)`` handed to `sink` in parts as they are written, in order: the tenants a part at a
    /// time (``tenantsPerPart``), so that the whole document (190 MB at 10,000 tenants × 50 modules) is never in
    /// memory at once, and the tenants of one part are written on every core.
    static func write(_ report: AuditReport, to sink: ([UInt8]) -> Void) {
        var json = JSONBytes(capacity: 1 << 16)
        json.object { json in
            if let cell = report.cell {
                json.key("cell")
                json.cell(cell)
            }
            json.findings(report.findings)
            json.member("generalBranch", report.generalBranch)
            json.member("modules", report.modules)
            json.key("reviews")
            json.array(report.reviews) { json, review in json.review(review) }
            json.member("schemaVersion", AuditReport.schemaVersion)
            if let source = report.source {
                json.key("source")
                json.object { json in
                    json.member("generalCommit", source.generalCommit)
                    json.member("generatedAt", source.generatedAt)
                    json.member("remote", source.remote)
                    json.member("tenantctlVersion", source.tenantctlVersion)
                    json.member("url", ifPresent: source.url)
                }
            }
            json.key("tenants")
            json.tenants(report.tenants, flush: sink)
        }
        sink(json.takeBytes())
    }

    /// Tenants written and handed on at a time: about 10 MB of JSON at 50 modules, enough to share out over the
    /// cores.
    static let tenantsPerPart = 512
}

extension JSONBytes {
    /// The tenants array, ``AuditJSONWriter/tenantsPerPart`` tenants at a time: each tenant's object is written on
    /// its own (shared out over the cores), the objects are joined in order and the bytes so far go to `flush`.
    fileprivate mutating func tenants(_ tenants: [TenantAudit], flush: ([UInt8]) -> Void) {
        let level = level + 1
        var start = 0
        array(
            joiningParts: {
                guard start < tenants.count else { return nil }
                let part = tenants[start..<min(start + AuditJSONWriter.tenantsPerPart, tenants.count)]
                start = part.endIndex
                return Concurrent.chunkedMap(Array(part), minimumChunk: 16) { tenant -> [UInt8] in
                    // About 400 bytes per cell.
                    var json = JSONBytes(capacity: 1024 + 512 * tenant.modules.count, level: level)
                    json.tenant(tenant)
                    return json.bytes
                }
            }, flush: flush)
    }

    // The cells' members with the writer's value functions called directly: at 50,000 cells the generic `member`
    // (a protocol witness per value) cost a fifth of the writer's time. The same bytes as `member`.

    private mutating func tenant(_ tenant: TenantAudit) {
        object { json in
            json.field("branch", tenant.branch)
            json.field("id", tenant.id)
            json.key("modules")
            // The cells stand one level below the array's: their template is made once per tenant.
            let template = CellTemplate(level: json.level + 1, strings: json.format)
            json.array(tenant.modules) { json, module in json.written { template.write(module, to: &$0) } }
            json.key("superproject")
            json.object { json in
                json.field("ahead", tenant.superproject.ahead)
                json.field("behind", tenant.superproject.behind)
                json.field("changedFiles", tenant.superproject.changedFiles)
                if let contained = tenant.superproject.contained { json.field("contained", contained) }
                json.findings(tenant.superproject.findings)
            }
        }
    }

    private mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    private mutating func field(_ name: StaticString, _ value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }

    private mutating func field(_ name: StaticString, _ value: Int?) {
        key(name)
        if let value { int(value) } else { null() }
    }

    private mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    private mutating func field(_ name: StaticString, _ value: [String]?) {
        key(name)
        if let value { strings(value) } else { null() }
    }

    /// The `findings` member.
    fileprivate mutating func findings(_ findings: [AuditFinding]) {
        key("findings")
        findingsArray(findings)
    }

    /// The findings' array, without its key.
    fileprivate mutating func findingsArray(_ findings: [AuditFinding]) {
        array(findings) { json, finding in
            json.object { json in
                json.field("code", finding.code.rawValue)
                json.field("message", finding.message)
            }
        }
    }

    /// One review, its keys sorted (`null` where ``AuditReview`` encodes a nil).
    fileprivate mutating func review(_ review: AuditReview) {
        object { json in
            json.member("days", review.days)
            json.member("forge", review.forge)
            json.member("from", review.from)
            json.member("general", review.general)
            json.member("landed", review.landed)
            json.member("method", review.method)
            json.member("number", review.number)
            json.member("proposed", review.proposed)
            json.member("ref", review.ref)
            json.member("repository", review.repository)
            json.member("runId", review.runId)
            json.member("since", review.since)
            json.member("state", review.state)
            json.member("target", review.target)
            json.member("tenant", review.tenant)
            json.member("url", review.url)
        }
    }

    /// One cell's commits: two commit lists, each with its total.
    fileprivate mutating func cell(_ cell: AuditCellCommits) {
        object { json in
            json.commits("behind", cell.behind, "behindTotal", cell.behindTotal)
            json.commits("customised", cell.customised, "customisedTotal", cell.customisedTotal)
            json.member("generalBranch", cell.generalBranch)
            json.member("generalCommit", cell.generalCommit)
            json.member("module", cell.module)
            json.member("pin", cell.pin)
            json.member("tenant", cell.tenant)
        }
    }

    /// A commit list and its total: `"<name>" : [...], "<name>Total" : n`.
    private mutating func commits(
        _ name: StaticString, _ list: [AuditCellCommits.Commit], _ totalName: StaticString, _ total: Int
    ) {
        key(name)
        array(list) { json, commit in
            json.object { json in
                json.member("author", commit.author)
                json.member("id", commit.id)
                json.member("subject", commit.subject)
            }
        }
        member(totalName, total)
    }
}

/// One cell's object from its fixed bytes: the keys with the separators, new lines and indentation before them are
/// made once for a level, and a cell appends them with its values between (50,000 cells at 1000 × 50: a call per key
/// and separator was most of the writer's time). The bytes are those the writer's `object` and `member` functions
/// write for the cell (``AuditJSONWriterTests`` compares them with `JSONEncoder`'s).
struct CellTemplate {
    /// The level of the cell's object (its members one deeper).
    let level: Int
    /// How the strings are escaped: the writer's.
    let format: JSONString.Format
    /// `{` or `,`, a new line and the members' indentation, the key and ` : `, in key order.
    private let active, ahead, behind, branch, changedFiles, contained, customised, findings, module, pin,
        pinIsTip: [UInt8]
    /// A new line and the members' indentation (an empty array's closing line, a list's elements one deeper).
    private let memberLine: [UInt8]
    /// A new line, the object's indentation and `}`.
    private let end: [UInt8]

    init(level: Int, strings format: JSONString.Format) {
        self.level = level
        self.format = format
        let indent = [UInt8](repeating: UInt8(ascii: " "), count: 2 * (level + 1))
        func key(_ name: String, first: Bool = false) -> [UInt8] {
            (first ? [UInt8(ascii: "{")] : [UInt8(ascii: ",")]) + [UInt8(ascii: "\n")] + indent
                + Array("\"\(name)\" : ".utf8)
        }
        active = key("active", first: true)
        ahead = key("ahead")
        behind = key("behind")
        branch = key("branch")
        changedFiles = key("changedFiles")
        contained = key("contained")
        customised = key("customised")
        findings = key("findings")
        module = key("module")
        pin = key("pin")
        pinIsTip = key("pinIsTip")
        memberLine = [UInt8(ascii: "\n")] + indent
        end = [UInt8(ascii: "\n")] + [UInt8](repeating: UInt8(ascii: " "), count: 2 * level) + [UInt8(ascii: "}")]
    }

    func write(_ cell: ModuleAudit, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: active)
        Self.bool(cell.active, to: &bytes)
        bytes.append(contentsOf: ahead)
        Self.int(cell.ahead, to: &bytes)
        bytes.append(contentsOf: behind)
        Self.int(cell.behind, to: &bytes)
        bytes.append(contentsOf: branch)
        JSONString.append(cell.branch, format, to: &bytes)
        bytes.append(contentsOf: changedFiles)
        if let files = cell.changedFiles { strings(files, to: &bytes) } else { Self.null(to: &bytes) }
        // Only a cell a squash or rebase landing left has it (``ModuleAudit/contained``).
        if let value = cell.contained {
            bytes.append(contentsOf: contained)
            JSONString.append(value, format, to: &bytes)
        }
        bytes.append(contentsOf: customised)
        Self.bool(cell.customised, to: &bytes)
        bytes.append(contentsOf: findings)
        if cell.findings.isEmpty {
            emptyArray(to: &bytes)
        } else {
            // Rare: written by the writer itself, at the members' level.
            var json = JSONBytes(capacity: 256 * cell.findings.count, level: level + 1, strings: format)
            json.findingsArray(cell.findings)
            bytes.append(contentsOf: json.bytes)
        }
        bytes.append(contentsOf: module)
        JSONString.append(cell.module, format, to: &bytes)
        bytes.append(contentsOf: pin)
        if let value = cell.pin { JSONString.append(value, format, to: &bytes) } else { Self.null(to: &bytes) }
        bytes.append(contentsOf: pinIsTip)
        Self.bool(cell.pinIsTip, to: &bytes)
        bytes.append(contentsOf: end)
    }

    /// `[`, the strings one level below the members, `]` (an empty array: an empty line inside).
    private func strings(_ values: [String], to bytes: inout [UInt8]) {
        guard !values.isEmpty else { return emptyArray(to: &bytes) }
        bytes.append(UInt8(ascii: "["))
        for (offset, value) in values.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: memberLine)
            bytes.append(UInt8(ascii: " "))
            bytes.append(UInt8(ascii: " "))
            JSONString.append(value, format, to: &bytes)
        }
        bytes.append(contentsOf: memberLine)
        bytes.append(UInt8(ascii: "]"))
    }

    private func emptyArray(to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: memberLine)
        bytes.append(UInt8(ascii: "]"))
    }

    private static func bool(_ value: Bool, to bytes: inout [UInt8]) {
        let text: StaticString = value ? "true" : "false"
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private static func null(to bytes: inout [UInt8]) {
        let text: StaticString = "null"
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private static func int(_ value: Int?, to bytes: inout [UInt8]) {
        guard let value else { return null(to: &bytes) }
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }
}
