import Foundation

/// `audit --history` in the terminal and as Markdown: per tenant one row with the trend of `behind` and of the
/// customisation's lines (added + removed) as sparklines, the values at the first and the last point and the change,
/// the tenants whose distance grew most first.
public enum HistoryTableRenderer {
    /// The widest a sparkline gets: more points are drawn by the largest value of each share of them.
    public static let sparklineWidth = 12
    static let unicodeLevels = Array("▁▂▃▄▅▆▇█")
    static let asciiLevels = Array("_.-~=+*#")

    /// Whether the sparklines' block characters can be shown: the locale (`LC_ALL`, else `LC_CTYPE`, else `LANG`)
    /// names UTF-8 and the terminal is not `dumb`.
    public static func unicode(environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lowered = locale.lowercased()
        return (lowered.contains("utf-8") || lowered.contains("utf8")) && environment["TERM"] != "dumb"
    }

    /// `values` as a sparkline of at most `width` characters, scaled from the smallest to the largest known value; an
    /// unknown value (the tenant absent) is a space.
    public static func sparkline(_ values: [Int?], width: Int = sparklineWidth, unicode: Bool) -> String {
        let levels = unicode ? unicodeLevels : asciiLevels
        var sampled: [Int?] = values
        if values.count > width {
            sampled = (0..<width).map { index in
                values[(index * values.count / width)..<((index + 1) * values.count / width)].compactMap { $0 }.max()
            }
        }
        let known = sampled.compactMap { $0 }
        guard let low = known.min(), let high = known.max() else { return String(repeating: " ", count: sampled.count) }
        return String(
            sampled.map { value -> Character in
                guard let value else { return " " }
                guard high > low else { return levels[0] }
                return levels[(value - low) * (levels.count - 1) / (high - low)]
            })
    }

    /// The rows, a heading line first; fits 80 columns for tenant ids up to 12 characters (longer ones are cut).
    public static func render(_ history: AuditHistory, unicode: Bool) -> String {
        let span = spanLine(history)
        let idWidth = min(12, max(6, history.tenants.map { TerminalText.escaped($0.id).count }.max() ?? 0))
        let sparkWidth = min(sparklineWidth, max(1, history.points.count))
        let arrow = unicode ? "→" : ">"
        var lines = [span, ""]
        lines.append(
            pad("tenant", idWidth) + "  " + pad("behind", sparkWidth + 16) + "  "
                + pad("lines (added+removed)", sparkWidth + 19) + " days")
        for tenant in history.tenantsByGrowth {
            let id = TerminalText.escaped(tenant.id)
            let shownID = id.count > idWidth ? String(id.prefix(idWidth - 1)) + (unicode ? "…" : "~") : id
            let behind = tenant.points.map(\.behind)
            let changed = tenant.points.map { $0.present ? $0.lines : nil }
            let span = tenant.span
            let row =
                pad(shownID, idWidth) + "  "
                + pad(sparkline(behind, width: sparkWidth, unicode: unicode), sparkWidth) + " "
                + values(span.map { ($0.first.behind ?? 0, $0.last.behind ?? 0) }, width: 4, arrow: arrow) + "  "
                + pad(sparkline(changed, width: sparkWidth, unicode: unicode), sparkWidth) + " "
                + values(span.map { ($0.first.lines, $0.last.lines) }, width: 5, arrow: arrow) + " "
                + left(span.map { String($0.last.behindDays ?? 0) } ?? "-", 4)
            lines.append(row)
        }
        if history.tenants.isEmpty { lines.append("(no tenant)") }
        lines += ["", "days: age of the oldest general commit lacked at the end; a blank: absent."]
        return lines.joined(separator: "\n")
    }

    /// `first→last  +change` in `width`-wide numbers (`-` when the tenant is absent everywhere).
    static func values(_ pair: (first: Int, last: Int)?, width: Int, arrow: String) -> String {
        guard let (first, last) = pair else { return pad("-", 2 * width + 8) }
        let change = last - first
        return left(String(first), width) + arrow + pad(String(last), width) + " "
            + left(change > 0 ? "+\(change)" : String(change), width + 1)
    }

    /// What the history describes: `general_dev, 2025-12-08 to 2026-12-08, 13 points; …`.
    static func spanLine(_ history: AuditHistory) -> String {
        guard let first = history.points.first, let last = history.points.last else { return "No points in time." }
        return "Drift from \(history.generalBranch), \(day(first)) to \(day(last)) (\(history.points.count) "
            + "point\(history.points.count == 1 ? "" : "s")), most grown first"
    }

    static func day(_ time: Int) -> String { String(AuditHistory.timestamp(time).prefix(10)) }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func left(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// The same as a Markdown table for a pull-request comment (block characters: Markdown is read in a browser).
    public static func markdown(_ history: AuditHistory) -> String {
        var lines = ["### tenantctl audit --history", ""]
        if let source = history.source {
            lines += [AuditMarkdownRenderer.escape(source.line(generalBranch: history.generalBranch)), ""]
        }
        lines += [AuditMarkdownRenderer.escape(spanLine(history)), ""]
        lines += [
            "| Tenant | Behind | First → last | Lines (added+removed) | First → last | Days |",
            "| --- | --- | ---: | --- | ---: | ---: |",
        ]
        for tenant in history.tenantsByGrowth {
            let span = tenant.span
            func change(_ pair: (Int, Int)?) -> String {
                guard let (first, last) = pair else { return "-" }
                let delta = last - first
                return "\(first) → \(last) (\(delta > 0 ? "+" : "")\(delta))"
            }
            let cells = [
                AuditMarkdownRenderer.escape(tenant.id),
                "`" + sparkline(tenant.points.map(\.behind), unicode: true) + "`",
                change(span.map { ($0.first.behind ?? 0, $0.last.behind ?? 0) }),
                "`" + sparkline(tenant.points.map { $0.present ? $0.lines : nil }, unicode: true) + "`",
                change(span.map { ($0.first.lines, $0.last.lines) }),
                span.map { String($0.last.behindDays ?? 0) } ?? "-",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
