import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Workspaces of many tenants from `scripts/bench/generate` (every tenant one commit behind in every module, 10 %
/// of the pairs customised; t0001 customises only M001, t0002 only M002).
enum LargeWorkspace {
    static let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/bench/generate").path

    /// Generates `tenants` × `modules` in the sandbox (`customised`: the percentage of customised pairs, the
    /// generator's default if nil); returns the workspace.
    static func generate(_ sandbox: GitSandbox, tenants: Int, modules: Int, customised: Int? = nil) throws -> String {
        let directory = sandbox.path("bench-\(tenants)x\(modules)")
        let percent = customised.map { ["--customised", "\($0)"] } ?? []
        let generated = try sandbox.run(
            "/usr/bin/env",
            ["python3", generator, "--tenants", "\(tenants)", "--modules", "\(modules)"] + percent + [directory])
        #expect(generated.status == 0, "\(generated.stderr)")
        return directory + "/workspace"
    }
}

/// 1000 tenants: the compact views of audit and roll --dry-run fit the terminal and name every tenant whole; the
/// HTML page holds only the rows in view and still reaches the last tenant.
///
/// The views are about the number of tenants (a line or a row each) and how many customised cells a tenant has
/// (what wraps in the compact view). So `swift test` generates 1000 tenants × 10 modules with half the pairs
/// customised: five customised cells a tenant on average, as at 1000 × 50 with the generator's 10 %, at a fifth of
/// the repositories and pins to read. `TENANTCTL_LARGE_WORKSPACE=1000x50` (set by `scripts/fault-sweep`) checks
/// the same views at 1000 × 50, 10 % customised.
@Suite(.tags(.slow), .notInTheFastSet) struct LargeWorkspaceTests {
    static let ids = (1...1000).map { String(format: "t%04d", $0) }

    /// The number of modules and the percentage of customised pairs: 10 and 50, or 50 and the generator's 10 with
    /// `TENANTCTL_LARGE_WORKSPACE=1000x50`.
    static let shape: (modules: Int, customised: Int) =
        ProcessInfo.processInfo.environment["TENANTCTL_LARGE_WORKSPACE"] == "1000x50" ? (50, 10) : (10, 50)

    /// The last module's name (`M010`, `M050`).
    static var lastModule: String { String(format: "M%03d", shape.modules) }

    /// The workspace is generated and audited once (the audit fills the module mirrors and writes the page), then
    /// each view is checked with --no-fetch.
    @Test func aThousandTenantsInTheCompactViewsAndThePage() throws {
        let sandbox = try GitSandbox()
        let workspace = try LargeWorkspace.generate(
            sandbox, tenants: 1000, modules: Self.shape.modules, customised: Self.shape.customised)
        let page = sandbox.path("audit-1000x\(Self.shape.modules).html")
        let audit = sandbox.tenantctl(
            ["audit", "--allow-local-remotes", "--format", "html", "-o", page], in: workspace)
        #expect(audit.status == 0, "\(audit.stderr)")
        try auditsCompactViewAndMatrix(sandbox, workspace)
        try rollDryRunsCompactView(sandbox, workspace)
        if HeadlessBrowser.path != nil {
            try thePageDrawsOnlyTheRowsInViewAndReachesTheLastTenant(sandbox, page)
        } else {
            print("skipped the browser part: \(HeadlessBrowser.skipReason)")
        }
    }

    /// The words that start a line and are followed by a space (a line that names a tenant starts with its id and a
    /// space): looked up once, instead of a search of every line for each of the 1000 ids.
    static func firstWords(_ lines: [String]) -> Set<String> {
        Set(lines.compactMap { line in line.firstIndex(of: " ").map { String(line[..<$0]) } })
    }

    func auditsCompactViewAndMatrix(_ sandbox: GitSandbox, _ workspace: String) throws {
        for columns in [60, 80, 200] {
            let compact = sandbox.tenantctl(
                ["audit", "--no-fetch", "--allow-local-remotes", "-C", workspace],
                environment: ["COLUMNS": "\(columns)"], terminal: true)
            #expect(compact.status == 0, "\(compact.stderr)")
            let lines = compact.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("TENANT  FINDINGS  BEHIND") == true, "\(columns): \(lines.first ?? "")")
            #expect(lines.allSatisfy { TextWidth.of($0) <= columns }, "\(columns) columns")
            // A tenant a line, more where its customised cells do not fit: at most two at 80 columns, at 60 about a
            // line per customised cell (the matrix would be 1000 rows in blocks of a few modules: at 60 columns more
            // than 12,000 lines).
            #expect(lines.count < (columns < 80 ? 6 : 2) * 1000 + 100, "\(columns): \(lines.count) lines")
            // Positive control: at 60 columns the customised cells of most tenants do not fit on their line.
            #expect(columns > 60 || lines.count > 2000, "\(columns): \(lines.count) lines, nothing wrapped")
            let named = Self.firstWords(lines)
            for id in Self.ids { #expect(named.contains(id), "\(columns): \(id)") }
            #expect(compact.stdout.contains("tenantctl audit --matrix"))
            // A cell of the CELLS column (`M036 ✎2↓1`) is never split across two lines: no line ends in a module
            // name alone.
            let split = lines.filter { $0.range(of: #"M0\d\d$"#, options: .regularExpression) != nil }
            #expect(split.isEmpty, "\(columns): \(split.prefix(3))")
        }
        // The matrix in a pipe: a row per tenant, nothing cut.
        let piped = sandbox.tenantctl(
            ["audit", "--matrix", "--no-fetch", "--allow-local-remotes", "-C", workspace],
            environment: ["COLUMNS": "60"])
        #expect(piped.status == 0, "\(piped.stderr)")
        let rows = piped.stdout.split(separator: "\n").filter { $0.hasPrefix("t") && !$0.contains(":") }
        #expect(rows.count == 1000)
        #expect(piped.stdout.split(separator: "\n").first?.contains(Self.lastModule) == true)
        #expect(!TableLayoutTests.isCut(piped.stdout))
    }

    func rollDryRunsCompactView(_ sandbox: GitSandbox, _ workspace: String) throws {
        let roll = sandbox.tenantctl(
            ["roll", "--dry-run", "--no-fetch", "--allow-local-remotes", "-C", workspace],
            environment: ["COLUMNS": "80"], terminal: true)
        #expect(roll.status == 0 || roll.status == 2, "\(roll.stderr)")
        let lines = roll.stdout.split(separator: "\n").map(String.init)
        #expect(roll.stdout.contains("A compact view of 1000 tenants"), "\(roll.stdout.suffix(600))")
        #expect(lines.allSatisfy { TextWidth.of($0) <= 80 })
        #expect(lines.count < 2500, "\(lines.count) lines")
        let named = Self.firstWords(lines)
        for id in Self.ids { #expect(named.contains(id), "\(id)") }
    }

    func thePageDrawsOnlyTheRowsInViewAndReachesTheLastTenant(_ sandbox: GitSandbox, _ page: String) throws {
        let html = try String(contentsOfFile: page, encoding: .utf8)
        // Every tenant is in the page's data.
        for id in ["t0001", "t0500", "t1000"] { #expect(html.contains("[\"\(id)\"")) }
        #expect(html.utf8.count < 3_000_000, "\(html.utf8.count) bytes")

        let top = try HeadlessBrowser.dumpDOM(sandbox, page)
        #expect(top.contains("data-ready=\"1\""))
        let cells = HeadlessBrowser.count("<td class=\"m ", in: top)
        let rows = HeadlessBrowser.count("<tr data-t=", in: top)
        // A screenful and a margin, not 1000 rows of a cell per module.
        let modules = Self.shape.modules
        #expect(rows > 10 && rows < 200, "\(rows) rows")
        #expect(cells == rows * modules && cells < 1000 * modules / 5, "\(cells) cells")
        #expect(top.contains(">t0001</th>") && !top.contains(">t1000</th>"))
        #expect(top.contains("1000 of 1000 tenants, \(modules) of \(modules) modules"))

        // A link to the last tenant's cell scrolls there: the row is drawn, the panel open with its commits.
        let last = try HeadlessBrowser.dumpDOM(sandbox, page, fragment: "cell=t1000/\(Self.lastModule)")
        #expect(last.contains(">t1000</th>"))
        #expect(!last.contains(">t0001</th>"))
        #expect(HeadlessBrowser.count("<tr data-t=", in: last) < 200)
        #expect(last.contains("<h2 id=\"ph\">t1000 — \(Self.lastModule)</h2>"))
        #expect(last.contains("its commits the pin lacks (1)</dt>") && last.contains("<ol class=\"cm\"><li><code>"))
        #expect(last.contains("class=\"m b1") && last.contains(" sel\""))

        // Scrolling to the end draws the last rows (a copy of the page with a script that scrolls the table after
        // load, sends the scroll event a headless browser does not, and notes the last row drawn; the policy
        // removed, as the copy's script has no hash in it).
        let policy = try #require(
            html.range(of: #"<meta http-equiv="Content-Security-Policy"[^>]*>"#, options: .regularExpression))
        let probe = """
            <script>window.addEventListener("load", function () { var g = document.getElementById("g");
            g.scrollTop = g.scrollHeight; g.dispatchEvent(new Event("scroll")); setTimeout(function () { var ths = document.querySelectorAll("tbody th");
            document.body.dataset.last = ths.length ? ths[ths.length - 1].textContent : "none";
            document.body.dataset.drawn = ths.length; }, 1000); });</script>
            """
        let scrolled = page + ".scrolled.html"
        try html.replacingCharacters(in: policy, with: "").replacingOccurrences(
            of: "</body>", with: probe + "</body>"
        ).write(toFile: scrolled, atomically: true, encoding: .utf8)
        let end = try HeadlessBrowser.run(
            sandbox, scrolled, ["--dump-dom", "--window-size=1280,800", "--virtual-time-budget=20000"])
        let body = end.stdout.range(of: "<body[^>]*>", options: .regularExpression).map { String(end.stdout[$0]) }
        #expect(end.stdout.contains("data-last=\"t1000\""), "\(body ?? String(end.stdout.suffix(300)))")
        #expect(end.stdout.range(of: #"data-drawn="[0-9]{1,3}""#, options: .regularExpression) != nil)

        // The filter still searches every tenant.
        let filtered = try HeadlessBrowser.dumpDOM(sandbox, page, fragment: "tenant=t0999")
        #expect(HeadlessBrowser.count("<tr data-t=", in: filtered) == 1)
        #expect(filtered.contains(">t0999</th>"))
    }
}
