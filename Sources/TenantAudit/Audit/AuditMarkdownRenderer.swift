import Foundation

/// The audit as Markdown for a pull-request comment: the matrix as a table, then the findings.
public enum AuditMarkdownRenderer {
    /// Renders `report` as GitHub-flavoured Markdown.
    public static func render(_ report: AuditReport) -> String {
        let header = ["Tenant", "Superproject"] + report.modules
        var lines = ["### tenantctl audit", ""]
        if let source = report.source { lines += [escape(source.line(generalBranch: report.generalBranch)), ""] }
        lines += [
            "| " + header.map(escape).joined(separator: " | ") + " |",
            "|" + header.map { _ in " --- |" }.joined(),
        ]
        for tenant in report.tenants {
            var cells = [tenant.id, AuditCell.text(tenant.superproject)]
            cells +=
                tenant.modules.isEmpty ? report.modules.map { _ in "?" } : tenant.modules.map { AuditCell.text($0) }
            lines.append("| " + cells.map(escape).joined(separator: " | ") + " |")
        }
        lines += [
            "", "Legend: " + AuditCell.legendItems(general: report.generalBranch).map(escape).joined(separator: "; "),
        ]
        let customisations = AuditTableRenderer.customisationLines(report)
        if !customisations.isEmpty {
            lines += ["", "**Customisations**", ""] + customisations.map { "- " + escape($0) }
        }
        if !report.reviews.isEmpty {
            lines += ["", "**Reviews**", ""] + report.reviews.map { "- " + escape($0.line) }
        }
        let findings = report.allFindings
        if !findings.isEmpty || !report.findings.isEmpty {
            lines += ["", "**Findings**", ""]
            for finding in report.findings {
                lines.append("- `\(finding.code.rawValue)`: \(escape(finding.message))")
            }
            for item in findings {
                let place = item.module.map { "\(item.tenant)/\($0)" } ?? "\(item.tenant) (superproject)"
                lines.append("- **\(escape(place))** `\(item.finding.code.rawValue)`: \(escape(item.finding.message))")
            }
        }
        lines += ["", AuditTableRenderer.summary(report)]
        return lines.joined(separator: "\n")
    }

    /// Escapes characters that would break a table cell or start Markdown formatting, and control characters
    /// (``TerminalText``).
    static func escape(_ text: String) -> String {
        var out = ""
        for character in TerminalText.escaped(text) {
            if "|\\*_`[]<>".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
