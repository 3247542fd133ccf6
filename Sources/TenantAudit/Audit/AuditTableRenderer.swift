import Foundation

/// How the terminal table shows the tenants.
public enum AuditTableView: Sendable {
    /// Every cell: the tenants × modules matrix, a legend and the customisations.
    case matrix
    /// One line per tenant that needs attention, those with findings first: counts and the cells with findings or
    /// customisations; the tenants with nothing to see in one line.
    case compact
}

/// The audit as a terminal table: a tenants × modules matrix (or its compact view), a legend, customisations and
/// findings.
public enum AuditTableRenderer {
    /// Above this many tenants the table is compact unless the matrix is asked for (`audit --matrix`).
    public static let compactAbove = 30

    /// Renders `report`; colour only when `console.color` is on. The matrix and the text below it are fitted to
    /// `width` columns (default: the console's width); a matrix wider than that is printed in blocks of module
    /// columns, each with the tenant ids (nothing is cut). `view` defaults to the matrix up to ``compactAbove``
    /// tenants, the compact view above. `summary` (`audit --summary`): the table and the one-line summary alone,
    /// without the legend, customisations and findings.
    public static func render(
        _ report: AuditReport, console: Console, width: Int? = nil, view: AuditTableView? = nil, summary: Bool = false
    ) -> String {
        let width = width ?? console.width
        let view = view ?? (report.tenants.count > compactAbove ? .compact : .matrix)
        if summary {
            let table =
                view == .compact
                ? compact(report, console: console, width: width, alone: true)
                : [matrixTable(report, console: console, width: width)]
            return (table + ["", Self.summary(report)]).joined(separator: "\n")
        }
        var lines =
            view == .compact
            ? compact(report, console: console, width: width) : matrix(report, console: console, width: width)
        if !report.reviews.isEmpty {
            lines += ["", console.styled("Reviews:", .bold)]
            lines += report.reviews.flatMap {
                wrap(TerminalText.escaped($0.line), width: width, first: "  ", rest: "      ")
            }
        }
        let findings = report.allFindings
        if !findings.isEmpty || !report.findings.isEmpty {
            lines += ["", console.styled("Findings:", .bold)]
            for finding in report.findings {
                lines += wrap(
                    "\(console.styled(finding.code.rawValue, .red)): \(TerminalText.escaped(finding.message))",
                    width: width, first: "  ",
                    rest: "      ")
            }
            for item in findings {
                let place = item.module.map { "\(item.tenant)/\($0)" } ?? "\(item.tenant) (superproject)"
                let text = "\(place): \(item.finding.code.rawValue): \(TerminalText.escaped(item.finding.message))"
                let wrapped = wrap(text, width: width, first: "  ", rest: "      ")
                let code = item.finding.code.rawValue
                lines += wrapped.enumerated().map { index, line in
                    index == 0
                        ? line.replacingOccurrences(of: ": \(code):", with: ": \(console.styled(code, .red)):") : line
                }
            }
        }
        lines += ["", Self.summary(report)]
        if view == .compact {
            lines += wrap(
                "A compact view of \(English.count(report.tenants.count, "tenant")): tenantctl audit --matrix shows "
                    + "every cell.", width: width, first: "", rest: "  ")
        }
        if let cell = report.cell { lines += ["", cell.render()] }
        return lines.joined(separator: "\n")
    }

    /// The compact view: a line per tenant with something to see (findings first, then the most behind), then the
    /// others in one line.
    static func compact(_ report: AuditReport, console: Console, width: Int, alone: Bool = false) -> [String] {
        struct Row {
            var tenant: TenantAudit
            var behind: Int
            var most: Int
            var customised: Int
            var findings: Int
            var cells: [String]
        }
        let style: (String, Console.Style) -> String = { console.styled($0, $1) }
        let rows = report.tenants.map { tenant -> Row in
            var behind = (tenant.superproject.behind ?? 0) > 0 ? 1 : 0
            var most = tenant.superproject.behind ?? 0
            var customised = 0
            var findings = tenant.superproject.findings.count
            var cells: [String] = []
            if !tenant.superproject.findings.isEmpty {
                cells.append(
                    "superproject " + tenant.superproject.findings.map(\.code.rawValue).joined(separator: " "))
            }
            for module in tenant.modules {
                if (module.behind ?? 0) > 0 { behind += 1 }
                most = max(most, module.behind ?? 0)
                if module.isCustomised { customised += 1 }
                findings += module.findings.count
                guard !module.findings.isEmpty || module.isCustomised else { continue }
                var text = TerminalText.escaped(module.module) + " " + AuditCell.text(module, style: style)
                if !module.findings.isEmpty {
                    text += " " + module.findings.map(\.code.rawValue).joined(separator: " ")
                }
                cells.append(text)
            }
            return Row(
                tenant: tenant, behind: behind, most: most, customised: customised, findings: findings, cells: cells)
        }
        let shown = rows.enumerated().filter { $0.element.behind + $0.element.customised + $0.element.findings > 0 }
            .sorted {
                ($0.element.findings, $0.element.most, -$0.offset) > ($1.element.findings, $1.element.most, -$1.offset)
            }
            .map(\.element)
        let quiet = rows.filter { $0.behind + $0.customised + $0.findings == 0 }.map(\.tenant.id)
        var lines: [String] = []
        if !shown.isEmpty {
            let table = TextTable(
                header: ["TENANT", "FINDINGS", "BEHIND", "MOST", "CUSTOMISED", "CELLS"],
                rows: shown.map { row in
                    [
                        row.tenant.id, "\(row.findings)", "\(row.behind)", row.most > 0 ? "↓\(row.most)" : "-",
                        "\(row.customised)", row.cells.isEmpty ? "-" : row.cells.joined(separator: ", "),
                    ]
                })
            lines.append(table.render(width: width, ascii: console.ascii))
            if alone { return lines }
            lines += wrap(
                "FINDINGS and CUSTOMISED count cells, BEHIND the cells behind \(report.generalBranch), MOST the most "
                    + "commits one cell lacks; CELLS are the ones with findings or customisations.",
                width: width, first: "", rest: "  ")
        }
        if !quiet.isEmpty {
            lines.append("")
            lines += wrap(
                "\(English.count(quiet.count, "tenant")) up to date, nothing customised, no findings: "
                    + quiet.joined(separator: ", "), width: width, first: "", rest: "  ")
        }
        return lines
    }

    /// The matrix alone, in blocks of columns when it is wider than `width`.
    static func matrixTable(_ report: AuditReport, console: Console, width: Int) -> String {
        let style: (String, Console.Style) -> String = { console.styled($0, $1) }
        let header = ["TENANT", "SUPERPROJECT"] + report.modules
        let rows = report.tenants.map { tenant -> [String] in
            var row = [tenant.id, AuditCell.text(tenant.superproject, style: style)]
            if tenant.modules.isEmpty {
                row += report.modules.map { _ in "?" }
            } else {
                row += tenant.modules.map { AuditCell.text($0, style: style) }
            }
            return row
        }
        return TextTable(header: header, rows: rows, text: []).render(
            width: width, overflow: .columnBlocks, ascii: console.ascii)
    }

    /// The matrix, its legend and the customisations.
    static func matrix(_ report: AuditReport, console: Console, width: Int) -> [String] {
        var lines = [matrixTable(report, console: console, width: width), ""]
        lines += AuditCell.legend(general: report.generalBranch, width: width)
        let customisations = customisationLines(report)
        if !customisations.isEmpty {
            lines += ["", console.styled("Customisations:", .bold)]
            lines += customisations.flatMap {
                wrap(TerminalText.escaped($0), width: width, first: "  ", rest: "      ")
            }
        }
        return lines
    }

    /// One line per customisation: what it changes.
    static func customisationLines(_ report: AuditReport) -> [String] {
        var lines: [String] = []
        for tenant in report.tenants {
            let superFiles = tenant.superproject.changedFiles ?? []
            if let ahead = tenant.superproject.ahead, ahead > 0 || !superFiles.isEmpty {
                lines.append("\(tenant.id) (superproject): \(commits(ahead))\(files(superFiles))")
            }
            for module in tenant.modules {
                let changed = module.changedFiles ?? []
                guard module.isCustomised || !changed.isEmpty else { continue }
                let ahead = module.ahead ?? 0
                let what = ahead == 0 && module.customised ? "customised, no own commits yet" : commits(ahead)
                lines.append("\(tenant.id)/\(module.module): \(what)\(files(changed))")
            }
        }
        return lines
    }

    /// Word-wraps `text` to `width` columns; the first line starts with `first`, the others with `rest`.
    static func wrap(_ text: String, width: Int, first: String, rest: String) -> [String] {
        var lines: [String] = []
        var line = first
        var lineHasWord = false
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = lineHasWord ? line + " " + word : line + word
            if lineHasWord && TextWidth.of(candidate) > width {
                lines.append(line)
                line = rest + word
            } else {
                line = candidate
            }
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }

    static func commits(_ count: Int) -> String { count == 1 ? "1 commit" : "\(count) commits" }

    static func files(_ files: [String], limit: Int = 5) -> String {
        guard !files.isEmpty else { return "" }
        let shown = files.prefix(limit).joined(separator: ", ")
        return " — " + shown + (files.count > limit ? ", +\(files.count - limit) more" : "")
    }

    /// `3 tenants × 4 modules: 1 behind, 2 findings.`
    public static func summary(_ report: AuditReport) -> String {
        let behind = report.tenants.filter { tenant in
            (tenant.superproject.behind ?? 0) > 0 || tenant.modules.contains { ($0.behind ?? 0) > 0 }
        }.count
        let findings = report.allFindings.count + report.findings.count
        return "\(report.tenants.count) tenant\(report.tenants.count == 1 ? "" : "s") × \(report.modules.count) "
            + "module\(report.modules.count == 1 ? "" : "s"): \(behind) behind, "
            + "\(findings) finding\(findings == 1 ? "" : "s")."
    }
}
