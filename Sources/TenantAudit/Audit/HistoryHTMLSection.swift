import Foundation

/// The audit page's "Drift over time" section (`audit --history --format html`): one small inline SVG chart per
/// tenant (no script: the page's Content-Security-Policy stays as it is), the tenants whose distance grew most
/// first. Legible at 1000 tenants as the compact table is: the tenants whose distance changed or who are behind get a
/// chart (at most ``chartsShown``), the others are counted on one line.
public enum HistoryHTMLSection {
    /// The most charts a page draws.
    public static let chartsShown = 60
    static let width = 200
    static let height = 44

    /// The section (a `<details>` element, open), or nothing without a history.
    public static func render(_ history: AuditHistory?) -> String {
        guard let history, let first = history.points.first, let last = history.points.last else { return "" }
        let ordered = history.tenantsByGrowth
        // The tenants whose distance changed at some point, or who are behind at the last.
        let moving = ordered.filter { tenant in
            guard let (first, last) = tenant.span else { return false }
            return (last.behind ?? 0) > 0
                || tenant.points.contains { $0.present && ($0.behind != first.behind || $0.lines != first.lines) }
        }
        let charted = moving.prefix(chartsShown)
        var out = "\n<details id=\"dr\" open><summary>Drift over time</summary>"
        out += "<p class=\"dl\">\(AuditHTMLRenderer.htmlText(HistoryTableRenderer.day(first))) to "
        out += "\(AuditHTMLRenderer.htmlText(HistoryTableRenderer.day(last))), \(history.points.count) points; "
        out += "<span class=\"kb\">━</span> behind (commits of the general branch lacked) "
        out += "<span class=\"kl\">━</span> lines of the customisation (added + removed), each scaled to its "
        out += "tenant's largest value; a gap: the tenant did not exist yet. The tenants whose distance grew most "
        out += "first.</p><div class=\"dg\">"
        for tenant in charted { out += chart(tenant, points: history.points.count) }
        out += "</div>"
        let rest = ordered.count - charted.count
        if rest > 0 {
            let unchanged = ordered.count - moving.count
            var parts: [String] = []
            if moving.count > charted.count { parts.append("\(moving.count - charted.count) more that moved") }
            if unchanged > 0 { parts.append("\(unchanged) whose distance stayed at 0") }
            out +=
                "<p class=\"dl\">And \(parts.joined(separator: ", ")): tenantctl audit --history shows every one.</p>"
        }
        return out + "</details>"
    }

    /// One tenant's chart: `behind` and the lines as two polylines, a title with the first and last values.
    static func chart(_ tenant: HistoryTenant, points: Int) -> String {
        let behind = tenant.points.map(\.behind)
        let lines = tenant.points.map { $0.present ? $0.lines : nil }
        let span = tenant.span
        let firstBehind = span?.first.behind ?? 0
        let lastBehind = span?.last.behind ?? 0
        let caption =
            "\(tenant.id): behind \(firstBehind) → \(lastBehind), lines \(span?.first.lines ?? 0) → "
            + "\(span?.last.lines ?? 0), \(span?.last.behindDays ?? 0) days"
        let text = AuditHTMLRenderer.htmlText(AuditHTMLRenderer.visible(caption))
        return "<figure><svg width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" "
            + "aria-label=\"\(text)\"><title>\(text)</title>"
            + "<line x1=\"0\" y1=\"\(height - 1)\" x2=\"\(width)\" y2=\"\(height - 1)\" stroke=\"#bbb\"/>"
            + polylines(lines, colour: "#2b6cb0", points: points) + polylines(behind, colour: "#c53030", points: points)
            + "</svg><figcaption>\(text)</figcaption></figure>"
    }

    /// The known values as polylines (a gap where a value is unknown), scaled to the largest.
    static func polylines(_ values: [Int?], colour: String, points: Int) -> String {
        let high = max(1, values.compactMap { $0 }.max() ?? 1)
        var out = ""
        var run: [String] = []
        func flush() {
            if run.count == 1 { run.append(run[0]) }
            if !run.isEmpty {
                out +=
                    "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" points=\"\(run.joined(separator: " "))\"/>"
            }
            run = []
        }
        for (index, value) in values.enumerated() {
            guard let value else {
                flush()
                continue
            }
            let x = points > 1 ? index * (width - 4) / (points - 1) + 2 : width / 2
            let y = (height - 3) - value * (height - 6) / high
            run.append("\(x),\(y)")
        }
        flush()
        return out
    }

    /// The section's CSS (added to the page's inline style).
    public static let style = """
        #dr{margin:.3rem 0}#dr summary{font-weight:600;cursor:pointer}\
        .dl{font-size:.8rem;margin:.2rem 0;color:#333}.kb{color:#c53030}.kl{color:#2b6cb0}\
        .dg{display:flex;flex-wrap:wrap;gap:.3rem .8rem;max-height:14rem;overflow:auto}\
        .dg figure{margin:0;width:200px}.dg figcaption{font-size:.72rem;overflow:hidden;text-overflow:ellipsis;\
        white-space:nowrap;unicode-bidi:isolate}
        """
}
