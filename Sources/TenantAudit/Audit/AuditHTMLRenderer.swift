import Foundation

/// The audit as one self-contained HTML page: a tenants × modules heatmap with sticky
/// headers, a filter, sorting and a detail panel per cell.
///
/// The page loads nothing: inline CSS and one inline script, and a Content-Security-Policy that allows only that
/// script (by its hash) and inline styles, so a browser refuses every other resource and every injected script.
/// Every value from the repositories travels in one JSON data block and reaches the page through `textContent`
/// only; the block is pure ASCII without `<`, `>`, `&` (written as `\u003c` …), so no value can end the block.
/// Bidirectional-control and invisible characters, and control characters other than newline and tab, are shown
/// as `[U+202E]`. The script builds the table from the data, which keeps the file and the DOM small at 1000 × 50.
public enum AuditHTMLRenderer {
    /// Renders `report` with what `page` adds to it (gathered by ``AuditRun``). Runs no git.
    public static func render(_ report: AuditReport, page: AuditPage) -> String {
        render(
            report, tenantNames: page.tenantNames, modulePaths: page.modulePaths, commits: page.commits,
            drift: page.drift)
    }

    /// Renders `report`. `tenantNames` (tenant id → display name) and `modulePaths` (module name → path) add
    /// what the report does not carry; both are optional.
    public static func render(
        _ report: AuditReport, tenantNames: [String: String] = [:], modulePaths: [String: String] = [:],
        commits: AuditPageCommits? = nil, drift: AuditHistory? = nil
    ) -> String {
        let data = dataBlock(report, tenantNames: tenantNames, modulePaths: modulePaths, commits: commits)
        let summary = AuditTableRenderer.summary(report)
        let source = report.source?.line(generalBranch: report.generalBranch)
        let title = "tenantctl audit: " + (source ?? report.generalBranch)
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="tenantctl \(TenantKitInfo.version)">
            <title>\(htmlText(title))</title>
            <style>\(style)\(drift == nil ? "" : HistoryHTMLSection.style)</style>
            </head>
            <body>
            <header>
            <h1>tenantctl audit <span id="gb"></span></h1>
            <p id="sum">\(htmlText(summary))</p>\(source.map { "\n<p id=\"src\">\(htmlText($0))</p>" } ?? "")
            <div id="ctl"><label>Tenant <input id="ft" type="search" placeholder="id, name or branch" \
            autocomplete="off"></label> <label>Module <input id="fm" type="search" placeholder="name or path" \
            autocomplete="off"></label> <label>Sort <select id="so"><option value="file">file order</option>\
            <option value="behind">most behind</option><option value="custom">most customisations</option>\
            <option value="findings">most findings</option></select></label> <span id="cnt"></span></div>
            <p id="lg"><span class="m b0">·</span> up to date <span class="m b1">↓1</span> <span class="m b2">↓2</span> \
            <span class="m b3">↓5</span> <span class="m b4">↓20</span> behind by n \
            <span class="m b0 c">✎n</span> customised by n commits <span class="m b0 c">✎0</span> customised, no own \
            commits yet <span class="m b0 f">!</span> finding \
            <span class="m u">?</span> unknown <span class="m b0 i">·</span> inactive</p>
            <ul id="tf"></ul>\(reviewList(report))\(HistoryHTMLSection.render(drift))
            <noscript><p>This page builds its table with JavaScript. Without it: <code>tenantctl audit \
            --format markdown</code> or <code>--json</code>.</p></noscript>
            </header>
            <main id="w"><div id="g"><table id="x"></table></div>
            <aside id="p" hidden><button id="pc" type="button" aria-label="Close">×</button><h2 id="ph"></h2>\
            <dl id="pd"></dl></aside></main>
            <script type="application/json" id="d">\(data)</script>
            <script>\(script)</script>
            </body>
            </html>

            """
    }

    /// The reviews of review rolls (``AuditReport/reviews``) as a list under the header, each line escaped and its
    /// review's web address a link (``reviewLine(_:)``); nothing when there are none.
    static func reviewList(_ report: AuditReport) -> String {
        guard !report.reviews.isEmpty else { return "" }
        return "\n<section id=\"rv\"><h2>Reviews</h2><ul>"
            + report.reviews.map { "<li>\(reviewLine($0))</li>" }.joined() + "</ul></section>"
    }

    /// One review's line, escaped, with its address (an `https://` or `http://` one: no other scheme becomes a link)
    /// as a link that opens the review.
    static func reviewLine(_ review: AuditReview) -> String {
        let line = review.line
        guard let url = review.url, url.hasPrefix("https://") || url.hasPrefix("http://"),
            let range = line.range(of: " " + url)
        else { return htmlText(line) }
        let link = htmlText(url)
        return htmlText(String(line[..<range.lowerBound])) + " <a href=\"\(link)\">\(link)</a>"
            + htmlText(String(line[range.upperBound...]))
    }

    /// The policy: nothing may load; the one inline script runs by its hash; inline styles are allowed.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src '\(scriptHash)'; style-src 'unsafe-inline'; img-src data:; "
        + "base-uri 'none'; form-action 'none'"

    /// `sha256-` and the base64 SHA-256 of ``script`` (checked by `AuditHTMLRendererTests`; a browser refuses the
    /// script when it does not match).
    static let scriptHash = "sha256-Av+Ezbf0wOsL7sW0YY8qGg3mfdV+DfwaVWNtFdJkTf0="

    // MARK: - Data

    /// The JSON data block. Keys are short to keep 50,000 cells small:
    ///
    /// ```
    /// { "g": general branch, "sum": summary line,
    ///   "m": [[module name, path or ""]],
    ///   "s": [pins and branch names, each once],
    ///   "t": [[tenant id, display name or "", branch, superproject, cells, lists?]],
    ///   "f": [[code, message]] (findings of no cell),
    ///   "c": [[short id, author, subject]] (each commit once), "l": [[commit index]] (each list once),
    ///   "k": [commits listed per list, ranges read at most, cells left out, 1 when lists were read] }
    /// superproject = [ahead|null, behind|null, [changed files], [[code, message]]]
    /// cell = [pin index into s (-1: no pin), branch index into s, flags, ahead|null, behind|null,
    ///         [changed files], [[code, message]]]   (the two lists only when not empty)
    /// flags: 1 customised, 2 pin is the branch tip, 4 active, 8 unknown (the module remote was unreachable)
    /// lists = [[module index, "behind" list index or -1, "customised" list index or -1]] (only cells with a list)
    /// ```
    static func dataBlock(
        _ report: AuditReport, tenantNames: [String: String], modulePaths: [String: String],
        commits: AuditPageCommits? = nil, drift: AuditHistory? = nil
    ) -> String {
        var strings: [String] = []
        var stringIndex: [String: Int] = [:]
        func intern(_ value: String) -> Int {
            if let index = stringIndex[value] { return index }
            strings.append(value)
            stringIndex[value] = strings.count - 1
            return strings.count - 1
        }
        var commitRows: [String] = []
        var commitIndex: [String: Int] = [:]
        var listRows: [String] = []
        var listIndex: [[Int]: Int] = [:]
        func listed(_ list: [AuditCellCommits.Commit]?) -> Int {
            guard let list else { return -1 }
            let indices = list.map { commit -> Int in
                if let index = commitIndex[commit.id] { return index }
                commitRows.append(
                    "[\(jsonString(ObjectID.short(commit.id))),\(jsonString(commit.author)),"
                        + "\(jsonString(commit.subject))]")
                commitIndex[commit.id] = commitRows.count - 1
                return commitRows.count - 1
            }
            if let index = listIndex[indices] { return index }
            listRows.append("[" + indices.map(String.init).joined(separator: ",") + "]")
            listIndex[indices] = listRows.count - 1
            return listRows.count - 1
        }
        let moduleIndex = Dictionary(report.modules.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var tenants: [String] = []
        tenants.reserveCapacity(report.tenants.count)
        for tenant in report.tenants {
            let superproject = tenant.superproject
            let head = [
                jsonString(tenant.id), jsonString(tenantNames[tenant.id] ?? ""), jsonString(tenant.branch),
                "[\(dataNumber(superproject.ahead)),\(dataNumber(superproject.behind)),\(dataList(superproject.changedFiles ?? [])),"
                    + "\(dataFindings(superproject.findings))]",
            ]
            var cells: [String] = []
            cells.reserveCapacity(tenant.modules.count)
            var lists: [String] = []
            for module in tenant.modules {
                if let commits, let index = moduleIndex[module.module] {
                    let behind = listed(commits.behind(module)), customised = listed(commits.customised(module))
                    if behind >= 0 || customised >= 0 { lists.append("[\(index),\(behind),\(customised)]") }
                }
                var cell =
                    "[\(module.pin.map(intern) ?? -1),\(intern(module.branch)),\(flags(of: module)),"
                    + "\(dataNumber(module.ahead)),\(dataNumber(module.behind))"
                // The page shows the changed files, so audit computes them for it (nil only in a report made
                // without them).
                let changed = module.changedFiles ?? []
                if !changed.isEmpty || !module.findings.isEmpty {
                    cell += ",\(dataList(changed)),\(dataFindings(module.findings))"
                }
                cells.append(cell + "]")
            }
            tenants.append(
                "[" + head.joined(separator: ",") + ",[" + cells.joined(separator: ",") + "]"
                    + (lists.isEmpty ? "" : ",[" + lists.joined(separator: ",") + "]") + "]")
        }
        let modules = report.modules.map { "[\(jsonString($0)),\(jsonString(modulePaths[$0] ?? ""))]" }
        return "{\"g\":\(jsonString(report.generalBranch)),"
            + "\"m\":[\(modules.joined(separator: ","))],"
            + "\"s\":\(dataList(strings)),"
            + "\"t\":[\n\(tenants.joined(separator: ",\n"))\n],"
            + "\"f\":\(dataFindings(report.findings)),"
            + "\"c\":[\(commitRows.joined(separator: ",\n"))],"
            + "\"l\":[\(listRows.joined(separator: ","))],"
            + "\"k\":[\(AuditPageCommits.perCell),\(AuditPageCommits.rangeLimit),\(commits?.leftOut ?? 0),"
            + "\(commits == nil ? 0 : 1)]}"
    }

    /// A number of the data block, `null` when there is none.
    static func dataNumber(_ value: Int?) -> String { value.map(String.init) ?? "null" }

    /// A list of strings of the data block.
    static func dataList(_ values: [String]) -> String { "[" + values.map(jsonString).joined(separator: ",") + "]" }

    /// Findings of the data block: `[[code, message]]`.
    static func dataFindings(_ values: [AuditFinding]) -> String {
        "[" + values.map { "[\(jsonString($0.code.rawValue)),\(jsonString($0.message))]" }.joined(separator: ",")
            + "]"
    }

    /// A cell's flags: 1 customised, 2 pin is the branch tip, 4 active, 8 unknown (the module remote was
    /// unreachable).
    static func flags(of module: ModuleAudit) -> Int {
        var flags = 0
        if module.customised { flags |= 1 }
        if module.pinIsTip { flags |= 2 }
        if module.active { flags |= 4 }
        if module.findings.contains(where: { $0.code == .unreachableRemote }) { flags |= 8 }
        return flags
    }

    // MARK: - Escaping

    /// Whether `scalar` is shown as `[U+XXXX]`: bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
    /// U+2066–U+2069), zero-width and other invisible format characters (U+200B–U+200D, U+2060–U+2064, U+FEFF),
    /// and control characters other than newline and tab (C0, DEL, C1).
    static func shownAsCodePoint(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    /// `text` with every character of ``shownAsCodePoint(_:)`` replaced by `[U+XXXX]`.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: shownAsCodePoint) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if shownAsCodePoint(scalar) {
                out.append(contentsOf: String(format: "[U+%04X]", scalar.value).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// A JSON string literal that is safe inside `<script type="application/json">`: pure printable ASCII without
    /// `<`, `>`, `&`, `'` (everything else as `\uXXXX`, UTF-16 surrogate pairs above U+FFFF), after ``visible(_:)``.
    static func jsonString(_ text: String) -> String { JSONString.quoted(visible(text), .script) }

    /// `text` for an HTML text node or a quoted attribute, after ``visible(_:)``.
    static func htmlText(_ text: String) -> String {
        var out = ""
        for character in visible(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    // MARK: - Page

    static let style = """
        :root{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1a1a1a;background:#fff}
        html,body{height:100%;margin:0}
        body{display:flex;flex-direction:column}
        header{padding:.5rem 1rem;border-bottom:1px solid #ccc;flex:none}
        h1{font-size:1.2rem;margin:.2rem 0}
        #gb{font-weight:normal;color:#555}
        #sum,#lg{margin:.2rem 0}
        #lg{font-size:.8rem}
        #ctl{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin:.3rem 0}
        #ctl input{width:12rem}
        #cnt{color:#555}
        #tf{margin:.2rem 0;padding-left:1.2rem;max-height:6rem;overflow:auto;color:#9b1c1c}
        #tf:empty{display:none}
        #w{flex:1 1 auto;display:flex;min-height:8rem}
        #g{flex:1 1 auto;overflow:auto}
        table{border-collapse:separate;border-spacing:0}
        th,td{unicode-bidi:isolate;white-space:nowrap}
        thead th{position:sticky;top:0;z-index:2;background:#f4f4f4;border-bottom:1px solid #bbb;\
        padding:.2rem .3rem;font-weight:600;vertical-align:bottom;text-align:left}
        thead th.v{text-align:center}
        thead th.v span{display:inline-block;writing-mode:vertical-rl;transform:rotate(180deg);max-height:10rem;\
        overflow:hidden;text-overflow:ellipsis}
        thead th:first-child{left:0;z-index:3}
        tbody th{position:sticky;left:0;z-index:1;background:#fff;text-align:left;font-weight:600;\
        padding:0 .5rem 0 .3rem;border-right:1px solid #bbb;max-width:16rem;overflow:hidden;text-overflow:ellipsis}
        td{text-align:center;min-width:2.4rem;padding:.1rem .3rem;cursor:pointer;border:1px solid #fff;\
        font-variant-numeric:tabular-nums}
        tbody th,tbody td{height:22px;box-sizing:border-box;padding-top:0;padding-bottom:0;line-height:20px}
        tr.sp td{height:auto;padding:0;border:0;cursor:default}
        td.s{border-right:2px solid #bbb}
        #lg .m{display:inline-block;min-width:1.6rem;text-align:center;border-radius:2px}
        .b0{background:#dff3e4}.b1{background:#fff1b8}.b2{background:#ffd88a}.b3{background:#fba25c}
        .b4{background:#d9534f;color:#fff}.u{background:repeating-linear-gradient(45deg,#ddd 0 4px,#eee 4px 8px)}
        .c{box-shadow:inset 4px 0 #2b6cb0}.f{box-shadow:inset 0 0 0 2px #c53030;color:#9b1c1c;font-weight:700}
        .c.f{box-shadow:inset 4px 0 #2b6cb0,inset 0 0 0 2px #c53030}.b4.f{color:#fff}
        .i{background-image:repeating-linear-gradient(135deg,transparent 0 3px,rgba(255,255,255,.6) 3px 6px);\
        font-style:italic}.i,.i.b4,.i.b4.f{color:#000}
        td.sel{outline:2px solid #000;outline-offset:-2px}
        aside{flex:none;position:relative;width:min(26rem,45vw);overflow:auto;background:#fafafa;\
        border-left:1px solid #999;padding:.5rem 1rem}
        aside[hidden]{display:none}
        aside h2{font-size:1.05rem;margin:.2rem 1.5rem .5rem 0;overflow-wrap:anywhere}
        #pc{position:absolute;right:.4rem;top:.3rem;border:0;background:none;font-size:1.3rem;cursor:pointer}
        dl{margin:0}dt{font-weight:600;margin-top:.4rem}dd{margin:0 0 0 .8rem;overflow-wrap:anywhere;\
        white-space:pre-wrap;unicode-bidi:isolate}
        dd ul{margin:0;padding-left:1rem}code,.k{font-family:ui-monospace,Menlo,Consolas,monospace}
        .k{font-size:.85rem}
        ol.cm{margin:0;padding-left:0;list-style:none}ol.cm li{margin:.15rem 0}
        ol.cm code{color:#555;margin-right:.4rem}ol.cm .a{color:#555}
        .more{color:#555;font-style:italic}
        @media print{#g{overflow:visible}aside,#ctl{display:none}}
        """

    /// The script: reads the data block, the URL fragment (`#tenant=t2&module=Order&sort=behind&cell=t2/Order`),
    /// builds the table and the detail panel; every repository value is set with `textContent`.
    static let script = """
        "use strict";
        (function () {
          var D = JSON.parse(document.getElementById("d").textContent);
          var S = D.s, M = D.m, T = D.t;
          var $ = function (id) { return document.getElementById(id); };
          var ft = $("ft"), fm = $("fm"), so = $("so"), table = $("x"), panel = $("p");
          var cols = [], rows = [], selected = null, grid = $("g"), body = null, drawn = [-1, -1], RH = 22;
          var C = D.c || [], L = D.l || [], K = D.k || [10, 0, 0, 0];
          $("gb").textContent = "(" + D.g + ")";
          D.f.forEach(function (f) { var li = document.createElement("li"); li.textContent = f[0] + ": " + f[1];
            $("tf").appendChild(li); });
          function cell(t, i) { var c = T[t][4][i]; return c === undefined ? null : c; }
          function stats(t) {
            var sp = T[t][3], behind = sp[1] || 0, custom = (sp[0] || 0) > 0 ? 1 : 0, found = sp[3].length;
            T[t][4].forEach(function (c) {
              behind += c[4] || 0;
              if ((c[2] & 1) || (c[3] || 0) > 0) custom++;
              if (c[6]) found += c[6].length;
            });
            if (T[t][4].length === 0) found += 1;
            return [behind, custom, found];
          }
          var ST = T.map(function (_, t) { return stats(t); });
          function heat(behind) {
            return behind === 0 ? "b0" : behind === 1 ? "b1" : behind < 5 ? "b2" : behind < 20 ? "b3" : "b4";
          }
          function look(ahead, behind, found, unknown, declared) {
            if (unknown) return ["u", "?"];
            var text = "";
            if (ahead > 0 || (declared && ahead === 0)) text += "\\u270e" + ahead;
            if (behind > 0) text += "\\u2193" + behind;
            if (found) text += "!";
            if (ahead === null && behind === null) return ["u", text || "?"];
            return [heat(behind || 0), text || "\\u00b7"];
          }
          function terms(value) { return value.toLowerCase().split(/[\\s,]+/).filter(Boolean); }
          function matches(fields, words) {
            if (words.length === 0) return true;
            var text = fields.join("\\n").toLowerCase();
            return words.some(function (w) { return text.indexOf(w) >= 0; });
          }
          function build() {
            var tw = terms(ft.value), mw = terms(fm.value), sort = so.value;
            cols = [];
            M.forEach(function (m, i) { if (matches(m, mw)) cols.push(i); });
            rows = [];
            T.forEach(function (t, i) { if (matches([t[0], t[1], t[2]], tw)) rows.push(i); });
            var key = { behind: 0, custom: 1, findings: 2 }[sort];
            if (key !== undefined) rows.sort(function (a, b) { return ST[b][key] - ST[a][key] || a - b; });
            var head = document.createElement("thead"), hr = head.insertRow();
            var corner = document.createElement("th"); corner.textContent = "tenant"; hr.appendChild(corner);
            function vertical(text, title) {
              var th = document.createElement("th"), span = document.createElement("span");
              th.className = "v"; span.textContent = text; th.title = title; th.appendChild(span); hr.appendChild(th);
            }
            vertical("superproject", "the tenant's superproject branch");
            cols.forEach(function (i) { vertical(M[i][0], M[i][1] ? M[i][0] + " (" + M[i][1] + ")" : M[i][0]); });
            body = document.createElement("tbody");
            table.replaceChildren(head, body);
            drawn = [-1, -1];
            paint();
            $("cnt").textContent = rows.length + " of " + T.length + " tenants, " + cols.length + " of " + M.length
              + " modules; click a cell for its details";
          }
          // Only the rows in view (and a margin) are in the DOM: every row is RH pixels high, and one spacer row
          // above and one below stand for the others, so the scroll bar and the sticky headers behave as if the
          // whole table were there.
          function spacer(height) {
            var tr = document.createElement("tr"), td = tr.insertCell();
            tr.className = "sp"; td.colSpan = cols.length + 2; td.style.height = height + "px"; return tr;
          }
          function paint() {
            if (!body) return;
            var head = table.tHead ? table.tHead.offsetHeight : 0, view = grid.clientHeight || window.innerHeight || 800;
            var top = Math.max(0, grid.scrollTop - head), margin = 30;
            var first = Math.max(0, Math.floor(top / RH) - margin);
            var last = Math.min(rows.length, Math.ceil((top + view) / RH) + margin);
            if (first === drawn[0] && last === drawn[1]) return;
            drawn = [first, last];
            var part = document.createDocumentFragment();
            part.appendChild(spacer(first * RH));
            for (var k = first; k < last; k++) part.appendChild(line(rows[k]));
            part.appendChild(spacer((rows.length - last) * RH));
            body.replaceChildren(part);
            var drawnRow = body.rows[1];
            if (drawnRow && drawnRow.offsetHeight > 0 && drawnRow.offsetHeight !== RH) {
              RH = drawnRow.offsetHeight; drawn = [-1, -1]; paint(); return;
            }
            if (selected) mark();
          }
          // Scroll events come once per frame; paint() does nothing while the same rows are in view.
          function repaint() { paint(); }
          grid.addEventListener("scroll", repaint);
          window.addEventListener("resize", repaint);
          function line(t) {
              var row = T[t], tr = document.createElement("tr"), th = document.createElement("th");
              tr.dataset.t = t; th.scope = "row"; th.textContent = row[0];
              if (row[1]) th.title = row[1];
              tr.appendChild(th);
              var s = row[3], td = tr.insertCell(), l = look(s[0], s[1], s[3].length > 0, false);
              td.className = "s " + l[0] + (s[3].length ? " f" : ""); td.textContent = l[1];
              cols.forEach(function (i) {
                var c = cell(t, i), td = tr.insertCell();
                if (c === null) { td.className = "m u f"; td.textContent = "?"; return; }
                var l = look(c[3], c[4], !!(c[6] && c[6].length), (c[2] & 8) !== 0, (c[2] & 1) !== 0);
                td.className = "m " + l[0] + ((c[2] & 1) || c[3] > 0 ? " c" : "") + (c[6] && c[6].length ? " f" : "")
                  + (c[2] & 4 ? "" : " i");
                td.textContent = l[1];
              });
              return tr;
          }
          function add(dl, term, value, code) {
            var dt = document.createElement("dt"), dd = document.createElement("dd");
            dt.textContent = term;
            if (code) dd.className = "k";
            if (Array.isArray(value)) {
              if (value.length === 0) { dd.textContent = "none"; } else {
                var ul = document.createElement("ul");
                value.forEach(function (v) { var li = document.createElement("li"); li.textContent = v;
                  ul.appendChild(li); });
                dd.appendChild(ul);
              }
            } else { dd.textContent = value; }
            dl.appendChild(dt); dl.appendChild(dd);
          }
          function n(v) { return v === null || v === undefined ? "unknown" : String(v); }
          function sh(v) { return /^[A-Za-z0-9._@%+=:,/-]+$/.test(v) ? v : "'" + v.replace(/'/g, "'\\\\''") + "'"; }
          function lists(t, i) {
            var found = (T[t][5] || []).find(function (x) { return x[0] === i; });
            return found ? [found[1], found[2]] : [-1, -1];
          }
          function commits(dl, term, list, total, command) {
            var dt = document.createElement("dt"), dd = document.createElement("dd");
            dt.textContent = term + " (" + total + ")";
            dl.appendChild(dt); dl.appendChild(dd);
            if (list < 0) {
              var why = K[3] ? "not on this page (it lists " + K[1] + " commit ranges at most: those of cells with "
                + "findings first, then the ranges most cells share, then customised cells); " : "";
              dd.className = "more"; dd.textContent = why + "listed by: " + command; return;
            }
            var ol = document.createElement("ol"); ol.className = "cm";
            L[list].forEach(function (k) {
              var c = C[k], li = document.createElement("li"), id = document.createElement("code");
              var by = document.createElement("span");
              id.textContent = c[0]; by.className = "a"; by.textContent = " (" + c[1] + ")";
              li.appendChild(id); li.appendChild(document.createTextNode(c[2])); li.appendChild(by); ol.appendChild(li);
            });
            dd.appendChild(ol);
            if (total > L[list].length) {
              var more = document.createElement("p"); more.className = "more";
              more.textContent = "and " + (total - L[list].length) + " more: " + command; dd.appendChild(more);
            }
          }
          function findings(list) { return (list || []).map(function (f) { return f[0] + ": " + f[1]; }); }
          function show(t, i) {
            selected = [t, i];
            var row = T[t], dl = $("pd");
            dl.replaceChildren();
            if (i < 0) {
              $("ph").textContent = row[0] + " \\u2014 superproject";
              if (row[1]) add(dl, "name", row[1]);
              add(dl, "branch", row[2]);
              add(dl, "ahead of " + D.g, n(row[3][0])); add(dl, "behind " + D.g, n(row[3][1]));
              add(dl, "changed files (" + row[3][2].length + ")", row[3][2]);
              add(dl, "findings", findings(row[3][3]));
            } else {
              var c = cell(t, i), m = M[i];
              $("ph").textContent = row[0] + " \\u2014 " + m[0];
              if (row[1]) add(dl, "tenant name", row[1]);
              if (m[1]) add(dl, "path", m[1]);
              if (c === null) {
                add(dl, "findings", ["the tenant file is invalid: no cells (see the superproject cell)"]);
              } else {
                add(dl, "pin", c[0] < 0 ? "none" : S[c[0]], true);
                add(dl, "branch", S[c[1]]);
                add(dl, "findings", findings(c[6]));
                var ls = lists(t, i), command = "tenantctl audit --tenant " + sh(row[0]) + " --module " + sh(m[0]);
                if ((c[4] || 0) > 0) commits(dl, "behind " + D.g + ": its commits the pin lacks", ls[0], c[4], command);
                if ((c[3] || 0) > 0) commits(dl, "customised: the tenant's commits not on " + D.g, ls[1], c[3], command);
                add(dl, "customised", c[2] & 1 ? "yes (declared)" : "no");
                add(dl, "ahead of " + D.g, n(c[3])); add(dl, "behind " + D.g, n(c[4]));
                add(dl, "pin is the branch tip", c[2] & 2 ? "yes" : "no");
                add(dl, "active", c[2] & 4 ? "yes" : "no (not in the tenant's active set)");
                add(dl, "changed files (" + (c[5] || []).length + ")", c[5] || []);
              }
            }
            panel.hidden = false;
            mark();
            save();
          }
          function mark() {
            var old = table.querySelector("td.sel"); if (old) old.classList.remove("sel");
            if (!selected) return;
            var tr = table.querySelector('tr[data-t="' + selected[0] + '"]');
            var at = selected[1] < 0 ? 1 : cols.indexOf(selected[1]) + 2;
            if (tr && at > 0 && tr.cells[at]) tr.cells[at].classList.add("sel");
          }
          function hide() { selected = null; panel.hidden = true; mark(); save(); }
          function save() {
            var p = new URLSearchParams();
            if (ft.value) p.set("tenant", ft.value);
            if (fm.value) p.set("module", fm.value);
            if (so.value !== "file") p.set("sort", so.value);
            if (selected) p.set("cell", T[selected[0]][0] + "/" + (selected[1] < 0 ? "" : M[selected[1]][0]));
            var q = p.toString();
            try { history.replaceState(null, "", q ? "#" + q : location.pathname + location.search); } catch (e) {}
          }
          function reveal(t) {
            var at = rows.indexOf(t); if (at < 0) return;
            var head = table.tHead ? table.tHead.offsetHeight : 0, view = grid.clientHeight || 0;
            var y = head + at * RH;
            if (y < grid.scrollTop + head || y + RH > grid.scrollTop + view) {
              grid.scrollTop = Math.max(0, y - head - Math.floor((view - head) / 3));
            }
            paint();
          }
          table.addEventListener("click", function (e) {
            var td = e.target.closest("td"); if (!td || td.parentNode.dataset.t === undefined) return;
            var t = Number(td.parentNode.dataset.t), at = td.cellIndex;
            show(t, at === 1 ? -1 : cols[at - 2]);
          });
          $("pc").addEventListener("click", hide);
          document.addEventListener("keydown", function (e) { if (e.key === "Escape" && !panel.hidden) hide(); });
          var timer = null;
          function later() { clearTimeout(timer); timer = setTimeout(function () { build(); save(); }, 120); }
          ft.addEventListener("input", later); fm.addEventListener("input", later);
          so.addEventListener("change", function () { build(); save(); });
          var p = new URLSearchParams(location.hash.slice(1) || location.search.slice(1));
          ft.value = p.get("tenant") || p.get("filter") || ""; fm.value = p.get("module") || "";
          if (["file", "behind", "custom", "findings"].indexOf(p.get("sort")) >= 0) so.value = p.get("sort");
          build();
          var want = p.get("cell");
          if (want) {
            var cut = want.indexOf("/"), tid = want.slice(0, cut), mid = want.slice(cut + 1);
            var t = T.findIndex(function (r) { return r[0] === tid; });
            var i = mid === "" ? -1 : M.findIndex(function (m) { return m[0] === mid; });
            if (cut >= 0 && t >= 0 && (mid === "" || i >= 0)) { reveal(t); show(t, i); }
          }
          document.body.dataset.ready = "1";
        })();
        """
}
