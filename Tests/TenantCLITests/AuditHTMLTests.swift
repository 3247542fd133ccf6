import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantAudit

/// A headless Chromium for the browser tests: Debian's `chromium` (installed by `.ci/run`), `chromium-browser` or
/// Google Chrome, the first found on PATH.
enum HeadlessBrowser {
    static let names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

    static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in names {
            for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }()

    static let skipReason: Comment = """
        no chromium, chromium-browser or google-chrome on PATH: the page is not checked in a browser \
        (.ci/run installs Debian's chromium)
        """

    /// Runs the browser headless on `file` (with `fragment` after `#`) with `arguments`; its own profile in the
    /// sandbox; at most 120 s.
    static func run(_ sandbox: GitSandbox, _ file: String, fragment: String = "", _ arguments: [String]) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let browser = try #require(path)
        let url = URL(fileURLWithPath: file).absoluteString + (fragment.isEmpty ? "" : "#" + fragment)
        return try sandbox.run(
            "/usr/bin/env",
            [
                "timeout", "120", browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=\(sandbox.path(".browser-profile"))",
            ] + arguments + [url])
    }

    /// The DOM after the page's script ran.
    static func dumpDOM(_ sandbox: GitSandbox, _ file: String, fragment: String = "") throws -> String {
        let result = try run(sandbox, file, fragment: fragment, ["--dump-dom"])
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        return result.stdout
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// A fragment value, percent-encoded.
    static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
    }
}

/// `tenantctl audit --format html` on real repositories: the page's bytes with hostile names (escaped) and,
/// where a browser is installed, the DOM after the script ran and a screenshot.
@Suite(.tags(.slow), .notInTheFastSet) struct AuditHTMLTests {
    static let displayName =
        "</script><script>alert(1)</script> \"Evil\" 'Tenant' &amp; \u{202E}gnp.exe\u{2066}x\u{2069} <b>bold</b>"
    static let tenantId = "e<b>&\"'"
    static let tenantBranch = "evil/</script><script>alert(2)<\u{202B}\"&'"
    static let moduleName = "X<i>&\"'"
    static let modulePath = "Extra/</script><script>alert(3)</script>"
    static let fileName = "x</script><script>alert(4)</script>\u{202E}vsc.csv"
    static let bidi: [Unicode.Scalar] =
        (0x202A...0x202E).compactMap(Unicode.Scalar.init)
        + (0x2066...0x2069).compactMap(Unicode.Scalar.init)

    /// The example before the updates, then, with plain git: a tenant whose id, display name and (missing)
    /// branch are hostile, a module whose name and path are hostile (no tenant pins it: `not-pinned` names the
    /// path), and a file with a hostile name in t2's Customer customisation (pinned: a changed file).
    static func hostileWorkspace(_ sandbox: GitSandbox) throws -> ExampleResult {
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let workspace = example.workspace
        let customer = workspace + "/Modules/Customer"
        try sandbox.git(["checkout", "-q", "-B", "t2", "origin/t2"], in: customer)
        let file = customer + "/" + fileName
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: file))
        try sandbox.git(["add", "-A"], in: customer)
        try sandbox.git(["commit", "-q", "-m", "hostile <script>alert(5)</script> \u{202E}"], in: customer)
        try sandbox.git(["push", "-q", "origin", "HEAD:t2"], in: customer)
        try sandbox.git(["checkout", "-q", "-B", "t2", "origin/t2"], in: workspace)
        try sandbox.git(["add", "Modules/Customer"], in: workspace)
        try sandbox.git(["commit", "-q", "-m", "pin the hostile file"], in: workspace)
        try sandbox.git(["push", "-q", "origin", "HEAD:t2"], in: workspace)
        try sandbox.git(["checkout", "-q", "general_dev"], in: workspace)

        let tenant: [String: Any] = [
            "id": tenantId, "name": displayName, "branch": tenantBranch, "modules": ["Infrastructure"],
            "customised": [String](),
        ]
        try JSONSerialization.data(withJSONObject: tenant, options: [.sortedKeys])
            .write(to: URL(fileURLWithPath: workspace + "/Tenants/\(tenantId).json"))
        let manifestURL = URL(fileURLWithPath: workspace + "/modules.json")
        var manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        var modules = try #require(manifest["modules"] as? [[String: Any]])
        modules.append(["name": moduleName, "path": modulePath, "url": "../Order.git", "dependsOn": [String]()])
        manifest["modules"] = modules
        try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]).write(to: manifestURL)
        try sandbox.git(["add", "-A", "--", "Tenants", "modules.json"], in: workspace)
        try sandbox.git(["commit", "-q", "-m", "hostile tenant and module"], in: workspace)
        try sandbox.git(["push", "-q", "origin", "HEAD:general_dev"], in: workspace)
        return example
    }

    /// Every string in a decoded JSON value.
    static func strings(in value: Any) -> [String] {
        if let string = value as? String { return [string] }
        if let array = value as? [Any] { return array.flatMap { strings(in: $0) } }
        if let object = value as? [String: Any] { return object.values.flatMap { strings(in: $0) } }
        return []
    }

    func containsBidi(_ text: String) -> Bool { text.unicodeScalars.contains { Self.bidi.contains($0) } }

    @Test func aHostileWorkspaceIsEscapedInTheBytesOfThePage() throws {
        let sandbox = try GitSandbox()
        let example = try Self.hostileWorkspace(sandbox)
        // The audit sees every hostile value (positive control for the escaping checks below; the file name is a
        // changed file, in the JSON with --changed-files).
        let json = sandbox.tenantctl(["audit", "--json", "--changed-files"], in: example.workspace)
        #expect(json.status == 0, "\(json.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8))
        let strings = Self.strings(in: report).joined(separator: "\n")
        for value in [Self.tenantId, Self.tenantBranch, Self.moduleName, Self.modulePath, Self.fileName] {
            #expect(strings.contains(value), "\(value)")
        }

        let result = sandbox.tenantctl(
            ["audit", "--format", "html", "-o", "report.html"], in: example.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("wrote \(example.workspace)/report.html"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: example.workspace + "/report.html"))
        let html = try #require(String(data: bytes, encoding: .utf8))
        #expect(HeadlessBrowser.count("<script", in: html.lowercased()) == 2)
        #expect(HeadlessBrowser.count("</script", in: html.lowercased()) == 2)
        for raw in ["alert(1)", "alert(2)", "alert(3)", "alert(4)"] {
            // Each value is in the page, only in its escaped form.
            #expect(html.contains(raw), "\(raw) did not reach the page")
            #expect(!html.contains("<script>\(raw)"), "\(raw) is markup")
        }
        #expect(html.contains("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"))
        #expect(!html.contains("<b>bold") && !html.contains("<i>&") && !html.contains("&amp;amp;"))
        #expect(!containsBidi(html))
        #expect(html.contains("[U+202E]gnp.exe[U+2066]x[U+2069]") && html.contains("[U+202B]"))
        for forbidden in ["http://", "https://", "src=", "href="] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }

        guard HeadlessBrowser.path != nil else {
            print("skipped the browser part: \(HeadlessBrowser.skipReason)")
            return
        }
        let cell = HeadlessBrowser.encoded("\(Self.tenantId)/Infrastructure")
        let dom = try HeadlessBrowser.dumpDOM(sandbox, example.workspace + "/report.html", fragment: "cell=\(cell)")
        // The script ran (the policy's hash matched) and injected nothing.
        #expect(dom.contains("data-ready=\"1\""))
        #expect(HeadlessBrowser.count("<script", in: dom.lowercased()) == 2)
        #expect(!dom.contains("<b>bold") && !dom.contains("<i>&"))
        #expect(dom.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; \"Evil\" 'Tenant' &amp;amp;"))
        #expect(dom.contains("[U+202E]gnp.exe"))
        #expect(dom.contains("<th scope=\"row\""))
        #expect(HeadlessBrowser.count("<td class=\"m ", in: dom) == 4 * 5)
    }

    @Test func outputFileHoldsWhatStandardOutputWouldPrint() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .afterUpdates)
        // One fetch fills the module mirrors; the runs below read them as they are.
        #expect(sandbox.tenantctl(["audit", "-q"], in: example.workspace).status == 0)
        // The report's time is SOURCE_DATE_EPOCH when set: the same bytes from two runs.
        let epoch = ["SOURCE_DATE_EPOCH": "1800000000"]
        for format in ["json", "markdown", "html", "table"] {
            let printed = sandbox.tenantctl(
                ["audit", "--no-fetch", "--format", format], in: example.workspace, environment: epoch)
            #expect(printed.status == 0, "\(printed.stderr)")
            #expect(format == "table" || printed.stdout.contains("2027-01-15T08:00:00Z"), "\(format)")
            let written = sandbox.tenantctl(
                ["audit", "--no-fetch", "--format", format, "--output", "../report.\(format)"], in: example.workspace,
                environment: epoch)
            #expect(written.status == 0, "\(written.stderr)")
            #expect(written.stdout == "wrote \(sandbox.path("erp/report.\(format)"))\n")
            #expect(try sandbox.read("erp/report.\(format)") == printed.stdout, "\(format)")
        }
        let html = try sandbox.read("erp/report.html")
        #expect(html.hasPrefix("<!doctype html>") && html.hasSuffix("</html>\n\n"))
        // -q keeps the file and drops the line; a missing directory is an error that names it.
        let quiet = sandbox.tenantctl(
            ["audit", "--no-fetch", "--format", "html", "-q", "-o", "q.html"], in: example.workspace)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty)
        #expect(FileManager.default.fileExists(atPath: example.workspace + "/q.html"))
        let missing = sandbox.tenantctl(
            ["audit", "--no-fetch", "--format", "html", "-o", "nowhere/a.html"], in: example.workspace)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("error: cannot write \(example.workspace)/nowhere/a.html: the directory"))
    }

    /// The example after the updates with only t3 rolled: t1 and t2 are behind, t2 and t3 customise, t2 has
    /// inactive modules.
    static func rolledExample(_ sandbox: GitSandbox) throws -> ExampleResult {
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .afterUpdates)
        let roll = sandbox.tenantctl(["roll", "--tenant", "t3"], in: example.workspace)
        #expect(roll.status == 0, "\(roll.stderr)")
        return example
    }

    @Test(.enabled(if: HeadlessBrowser.path != nil, HeadlessBrowser.skipReason))
    func theBrowserBuildsEveryCellFiltersAndShowsTheDetailPanel() throws {
        let sandbox = try GitSandbox()
        let example = try Self.rolledExample(sandbox)
        let page = sandbox.path("audit.html")
        let result = sandbox.tenantctl(["audit", "--format", "html", "-o", page], in: example.workspace)
        #expect(result.status == 0, "\(result.stderr)")

        let all = try HeadlessBrowser.dumpDOM(sandbox, page)
        #expect(all.contains("data-ready=\"1\""))
        #expect(HeadlessBrowser.count("<tr data-t=", in: all) == 3)
        #expect(HeadlessBrowser.count("<td class=\"m ", in: all) == 3 * 4)
        #expect(HeadlessBrowser.count("<td class=\"s ", in: all) == 3)
        // t1 is behind in Infrastructure, Article and Order by one commit; t2's Article and Order are inactive.
        #expect(all.contains("<td class=\"m b1\">↓1</td>"))
        #expect(all.contains("<td class=\"m b1 i\">↓1</td>"))
        #expect(all.contains("<td class=\"m b1 c\">✎1↓1</td>"))
        #expect(all.contains("<td class=\"m b0 c\">✎2</td>"))
        #expect(all.contains("3 of 3 tenants, 4 of 4 modules"))

        let filtered = try HeadlessBrowser.dumpDOM(sandbox, page, fragment: "tenant=t2")
        #expect(HeadlessBrowser.count("<tr data-t=", in: filtered) == 1)
        #expect(filtered.contains("<tr data-t=\"1\">"))
        #expect(HeadlessBrowser.count("<td class=\"m ", in: filtered) == 4)
        #expect(filtered.contains("1 of 3 tenants, 4 of 4 modules"))

        let columns = try HeadlessBrowser.dumpDOM(sandbox, page, fragment: "module=order&sort=custom")
        #expect(HeadlessBrowser.count("<td class=\"m ", in: columns) == 3)
        // Sorted by customisations: t2 (2 modules) before t3 (1) before t1 (0).
        let order = ["<tr data-t=\"1\">", "<tr data-t=\"2\">", "<tr data-t=\"0\">"].compactMap {
            columns.range(of: $0)?.lowerBound
        }
        #expect(order.count == 3 && order == order.sorted())

        let customer = try sandbox.git(["rev-parse", "t2"], in: example.remotes + "/Customer.git")
        let detail = try HeadlessBrowser.dumpDOM(sandbox, page, fragment: "cell=t2/Customer")
        #expect(detail.contains("<aside id=\"p\">"))
        #expect(detail.contains("<h2 id=\"ph\">t2 — Customer</h2>"))
        #expect(detail.contains("<dd class=\"k\">\(customer)</dd>"))
        #expect(detail.contains("<li>MyStrings.csv</li>"))
        #expect(detail.contains("<td class=\"m b0 c sel\">✎3</td>"))
        // Without a cell in the fragment the panel stays hidden.
        #expect(all.contains("<aside id=\"p\" hidden=\"\">"))
    }

    @Test(.enabled(if: HeadlessBrowser.path != nil, HeadlessBrowser.skipReason))
    func theDetailPanelListsTheCellsCommitsAsTheTerminalDoes() throws {
        let sandbox = try GitSandbox()
        let example = try Self.rolledExample(sandbox)
        let page = sandbox.path("audit.html")
        #expect(sandbox.tenantctl(["audit", "--format", "html", "-o", page], in: example.workspace).status == 0)
        // The same cell's commits as `audit --tenant t2 --module Order --json` lists them.
        let json = sandbox.tenantctl(
            ["audit", "--no-fetch", "--tenant", "t2", "--module", "Infrastructure", "--json"], in: example.workspace)
        #expect(json.status == 0, "\(json.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let cell = try #require(report["cell"] as? [String: Any])
        let behind = try #require(cell["behind"] as? [[String: Any]])
        let customised = try #require(cell["customised"] as? [[String: Any]])
        #expect(behind.count == 1 && customised.count == 1, "\(cell)")

        let dom = try HeadlessBrowser.dumpDOM(sandbox, page, fragment: "cell=t2/Infrastructure")
        #expect(dom.contains("<h2 id=\"ph\">t2 — Infrastructure</h2>"))
        #expect(dom.contains("<dt>behind general_dev: its commits the pin lacks (1)</dt>"), "\(dom.suffix(3000))")
        #expect(dom.contains("<dt>customised: the tenant's commits not on general_dev (1)</dt>"))
        for commit in behind + customised {
            let id = try #require(commit["id"] as? String)
            let subject = try #require(commit["subject"] as? String)
            let author = try #require(commit["author"] as? String)
            #expect(
                dom.contains(
                    "<li><code>\(ObjectID.short(id))</code>\(subject)<span class=\"a\"> (\(author))</span></li>"),
                "\(subject)")
        }
        // Positive control for the lists being the cell's own: t1's Infrastructure is behind by the same commit and
        // has no customisation; t3 (rolled) lists nothing.
        // (The panel only: the page's script holds the same words.)
        func panel(_ dom: String) -> String {
            guard let start = dom.range(of: "<aside"), let end = dom.range(of: "</aside>") else { return "" }
            return String(dom[start.lowerBound..<end.upperBound])
        }
        let t1 = panel(try HeadlessBrowser.dumpDOM(sandbox, page, fragment: "cell=t1/Infrastructure"))
        #expect(t1.contains(try #require(behind.first?["subject"] as? String)) && t1.contains("(1)</dt><dd><ol"))
        #expect(
            !t1.contains("customised: the tenant's commits")
                && !t1.contains("<code>\(ObjectID.short(customised[0]["id"] as? String ?? "-"))"))
        let t3 = panel(try HeadlessBrowser.dumpDOM(sandbox, page, fragment: "cell=t3/Infrastructure"))
        #expect(t3.contains("<h2 id=\"ph\">t3 — Infrastructure</h2>") && !t3.contains("its commits the pin lacks"))
    }

    /// A list longer than the page keeps ends with "and N more" and the command; a cell whose lists were left out
    /// (over the page's limit) names the command instead.
    @Test(.enabled(if: HeadlessBrowser.path != nil, HeadlessBrowser.skipReason))
    func aLongListEndsWithTheCommandAndALeftOutCellNamesIt() throws {
        let sandbox = try GitSandbox()
        let general = String(repeating: "9", count: 40)
        func cell(_ module: String, pin: Character, behind: Int) -> ModuleAudit {
            ModuleAudit(
                module: module, pin: String(repeating: pin, count: 40), branch: "general_dev", customised: false,
                ahead: 0, behind: behind, pinIsTip: false, active: true, changedFiles: [], findings: [])
        }
        let report = AuditReport(
            generalBranch: "general_dev", modules: ["A", "B"],
            tenants: [
                TenantAudit(
                    id: "t 1", branch: "t1",
                    superproject: SuperprojectAudit(ahead: 0, behind: 0, changedFiles: [], findings: []),
                    modules: [cell("A", pin: "a", behind: 15), cell("B", pin: "b", behind: 2)])
            ], findings: [])
        let commits = (1...AuditPageCommits.perCell).map {
            AuditCellCommits.Commit(id: String(format: "%040d", $0), author: "Dev", subject: "change \($0)")
        }
        let range = AuditPageCommits.behindRange(module: "A", pin: String(repeating: "a", count: 40), general: general)
        let page = sandbox.path("synthetic.html")
        try AuditHTMLRenderer.render(
            report,
            commits: AuditPageCommits(
                lists: [range: commits], generalCommits: ["A": general, "B": general], leftOut: 1)
        ).write(toFile: page, atomically: true, encoding: .utf8)

        let long = try HeadlessBrowser.dumpDOM(sandbox, page, fragment: "cell=t%201/A")
        #expect(HeadlessBrowser.count("<ol class=\"cm\"><li>", in: long) == 1)
        #expect(HeadlessBrowser.count("<li><code>", in: long) == AuditPageCommits.perCell)
        #expect(long.contains("and 5 more: tenantctl audit --tenant 't 1' --module A"), "\(long.suffix(1500))")
        let left = try HeadlessBrowser.dumpDOM(sandbox, page, fragment: "cell=t%201/B")
        #expect(left.contains("<h2 id=\"ph\">t 1 — B</h2>"))
        #expect(
            left.contains("not on this page") && left.contains("listed by: tenantctl audit --tenant 't 1' --module B"))
        #expect(!left.contains("<li><code>"))
    }

    /// The screenshots in docs/images (made by `scripts/screenshots`, in the same state): the file name, the page,
    /// the fragment and the window size.
    static let screenshots: [(file: String, fragment: String, width: Int, height: Int)] = [
        ("audit-html.png", "cell=t2/Infrastructure", 1000, 700),
        ("audit-html-100x20.png", "cell=t0001/M001", 1280, 800),
    ]

    /// The page's geometry after the script ran, from a copy of the page with a measuring script (the policy
    /// removed, as the copy's script has no hash in it): how many tenant ids are cut (narrower than their text,
    /// or reach out of the window or under the panel), whether the panel is open inside the window, and how many
    /// commits it lists inside the window.
    static func measure(_ sandbox: GitSandbox, _ page: String, fragment: String, width: Int, height: Int) throws
        -> [String: String]
    {
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let policy = try #require(
            html.range(of: #"<meta http-equiv="Content-Security-Policy"[^>]*>"#, options: .regularExpression))
        let probe = """
            <script>(function () { var b = document.body, cut = 0, rows = document.querySelectorAll("tbody th");
            var p = document.getElementById("p"), r = p.getBoundingClientRect();
            var right = p.hidden ? window.innerWidth : r.left;
            rows.forEach(function (th) { var box = th.getBoundingClientRect();
              if (th.scrollWidth > th.clientWidth || box.left < 0 || box.right > right + 1) cut++; });
            b.dataset.rows = rows.length; b.dataset.cut = cut;
            b.dataset.panel = p.hidden ? "hidden" : (r.left >= 0 && r.right <= window.innerWidth + 1 && r.width > 200 ? "inside" : "outside");
            var seen = 0; p.querySelectorAll("ol.cm li").forEach(function (li) { var box = li.getBoundingClientRect();
              if (box.top >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth + 1) seen++; });
            b.dataset.commits = seen; })();</script>
            """
        let copy = page + ".measured.html"
        try html.replacingCharacters(in: policy, with: "").replacingOccurrences(of: "</body>", with: probe + "</body>")
            .write(toFile: copy, atomically: true, encoding: .utf8)
        let result = try HeadlessBrowser.run(
            sandbox, copy, fragment: fragment, ["--dump-dom", "--window-size=\(width),\(height)"])
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        var values: [String: String] = [:]
        for name in ["ready", "rows", "cut", "panel", "commits"] {
            if let range = result.stdout.range(of: #"data-\#(name)="[^"]*""#, options: .regularExpression) {
                values[name] = String(result.stdout[range].split(separator: "\"")[1])
            }
        }
        return values
    }

    /// The page of the two screenshots, in the state they show (the rolled example; 100 × 20 from
    /// `scripts/bench/generate`).
    static func screenshotPage(_ sandbox: GitSandbox, _ file: String) throws -> String {
        let page = sandbox.path("audit.html")
        if file == "audit-html.png" {
            let example = try rolledExample(sandbox)
            #expect(sandbox.tenantctl(["audit", "--format", "html", "-o", page], in: example.workspace).status == 0)
        } else {
            let workspace = try LargeWorkspace.generate(sandbox, tenants: 100, modules: 20)
            let audit = sandbox.tenantctl(
                ["audit", "--allow-local-remotes", "--format", "html", "-o", page], in: workspace)
            #expect(audit.status == 0, "\(audit.stderr)")
        }
        return page
    }

    /// Each screenshot's page in its state: the panel open inside the window, commits listed, no tenant id cut;
    /// then the screenshot itself, a PNG of the stated size. With `TENANTCTL_SCREENSHOTS=<dir>` it is also copied
    /// there (how `scripts/screenshots` makes docs/images).
    @Test(
        .enabled(if: HeadlessBrowser.path != nil, HeadlessBrowser.skipReason),
        arguments: [0, 1])
    func theScreenshotsShowTheDetailPanelWithCommits(_ index: Int) throws {
        let shot = Self.screenshots[index]
        let sandbox = try GitSandbox()
        let page = try Self.screenshotPage(sandbox, shot.file)
        let seen = try Self.measure(sandbox, page, fragment: shot.fragment, width: shot.width, height: shot.height)
        #expect(seen["ready"] == "1")
        #expect(seen["panel"] == "inside", "\(seen)")
        #expect(Int(seen["commits"] ?? "") ?? 0 >= 1, "\(seen)")
        #expect(Int(seen["rows"] ?? "") ?? 0 >= 3, "\(seen)")
        #expect(seen["cut"] == "0", "tenant ids cut: \(seen)")
        // Positive control for the clipping check: a narrow first column cuts the ids.
        let narrow = try String(contentsOfFile: page, encoding: .utf8).replacingOccurrences(
            of: "max-width:16rem", with: "max-width:16rem;display:inline-block;width:8px")
        try narrow.write(toFile: page + ".narrow.html", atomically: true, encoding: .utf8)
        let cut = try Self.measure(
            sandbox, page + ".narrow.html", fragment: shot.fragment, width: shot.width, height: shot.height)
        #expect(Int(cut["cut"] ?? "") ?? 0 > 0, "\(cut)")

        let png = sandbox.path(shot.file)
        let result = try HeadlessBrowser.run(
            sandbox, page, fragment: shot.fragment,
            ["--screenshot=\(png)", "--window-size=\(shot.width),\(shot.height)", "--hide-scrollbars"])
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        let size = try #require(PNGFile.size(of: png))
        #expect(size.width == shot.width && size.height == shot.height)
        if let directory = ProcessInfo.processInfo.environment["TENANTCTL_SCREENSHOTS"] {
            let target = directory + "/" + shot.file
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: png, toPath: target)
        }
    }
}

/// A PNG's width and height, from its IHDR chunk; nil when the file is no PNG.
enum PNGFile {
    static func size(of path: String) -> (width: Int, height: Int)? {
        guard let data = FileManager.default.contents(atPath: path), data.count > 24,
            data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        else { return nil }
        let bytes = data.subdata(in: 16..<24).map { Int($0) }
        return (
            bytes[0] << 24 | bytes[1] << 16 | bytes[2] << 8 | bytes[3],
            bytes[4] << 24 | bytes[5] << 16 | bytes[6] << 8 | bytes[7]
        )
    }
}

/// The images the docs show are in docs/images, PNGs of the size the browser tests make them.
@Suite struct DocsImagesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func everyImageTheDocsShowIsAPNGOfTheStatedSize() throws {
        var referenced: Set<String> = []
        for doc in ["README.md", "docs/audit.md"] {
            let text = try String(contentsOfFile: Self.root + "/" + doc, encoding: .utf8)
            let pattern = try NSRegularExpression(pattern: #"\]\((?:docs/)?images/([^)]+)\)"#)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                referenced.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        #expect(referenced == Set(AuditHTMLTests.screenshots.map(\.file)), "\(referenced)")
        for shot in AuditHTMLTests.screenshots {
            let size = PNGFile.size(of: Self.root + "/docs/images/" + shot.file)
            #expect(
                size?.width == shot.width && size?.height == shot.height, "\(shot.file): \(String(describing: size))")
        }
        // Negative control: a file that is no PNG has no size.
        #expect(PNGFile.size(of: Self.root + "/README.md") == nil)
    }
}
