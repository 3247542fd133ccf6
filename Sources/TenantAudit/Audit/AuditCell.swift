import Foundation

/// The symbols of one matrix cell, shared by the table and Markdown renderers.
enum AuditCell {
    /// The parts of a cell: `✎n` customised by n commits, `✎0` declared customised without commits of its own yet,
    /// `↓n` behind by n, `!` finding, `·` up to date, `?` unknown (no pin, unreadable).
    static func parts(ahead: Int?, behind: Int?, hasFinding: Bool, declared: Bool = false)
        -> [(text: String, style: Console.Style)]
    {
        var parts: [(text: String, style: Console.Style)] = []
        if let ahead, ahead > 0 || declared { parts.append(("✎\(ahead)", .cyan)) }
        if let behind, behind > 0 { parts.append(("↓\(behind)", .yellow)) }
        if hasFinding { parts.append(("!", .red)) }
        if parts.isEmpty { parts.append(ahead == nil && behind == nil ? ("?", .red) : ("·", .green)) }
        return parts
    }

    static func text(_ module: ModuleAudit, style: (String, Console.Style) -> String = { text, _ in text }) -> String {
        if module.findings.contains(where: { $0.code == .unreachableRemote }) {
            return module.active ? style("?", .red) : "(\(style("?", .red)))"
        }
        let body = parts(
            ahead: module.ahead, behind: module.behind, hasFinding: !module.findings.isEmpty,
            declared: module.customised
        )
        .map { style($0.text, $0.style) }.joined()
        return module.active ? body : "(\(body))"
    }

    static func text(_ superproject: SuperprojectAudit, style: (String, Console.Style) -> String = { text, _ in text })
        -> String
    {
        parts(ahead: superproject.ahead, behind: superproject.behind, hasFinding: !superproject.findings.isEmpty)
            .map { style($0.text, $0.style) }.joined()
    }

    /// The legend entries.
    static func legendItems(general: String) -> [String] {
        [
            "· up to date", "✎n customised by n commits", "↓n behind \(general) by n", "! finding", "? unknown",
            "(…) inactive", "✎0 customised, no own commits yet",
        ]
    }

    /// The legend as lines of at most `width` columns.
    static func legend(general: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for item in legendItems(general: general) {
            if !line.isEmpty && TextWidth.of(line + "   " + item) > width {
                lines.append(line)
                line = item
            } else {
                line = line.isEmpty ? item : line + "   " + item
            }
        }
        return lines + [line]
    }
}

extension ModuleAudit {
    /// Customised: commits of its own, or declared customised in the tenant file (a tenant branch with no commit of
    /// its own yet); shown as such by every renderer.
    var isCustomised: Bool { (ahead ?? 0) > 0 || (customised && ahead != nil) }
}
