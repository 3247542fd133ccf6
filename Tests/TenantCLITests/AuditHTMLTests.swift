import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

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

/// `tenantctl audit --format html` on real repositories: the page's bytes with hostile names (RELIABILITY 60) and,
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
        let example = try ExampleBuilder(git: try sandbox.gitRunner()).build(
            in: sandbox.path("erp"), stage: .beforeUpdates)
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
        // The audit sees every hostile value (positive control for the escaping checks below).
        let json = sandbox.tenantctl(["audit", "--json"], in: example.workspace)
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
        let example = try ExampleBuilder(git: try sandbox.gitRunner()).build(
            in: sandbox.path("erp"), stage: .afterUpdates)
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
        let example = try ExampleBuilder(git: try sandbox.gitRunner()).build(
            in: sandbox.path("erp"), stage: .afterUpdates)
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

    /// Writes a screenshot; with `TENANTCTL_AUDIT_SCREENSHOT=<png>` it is also copied there (how
    /// docs/images/audit-html.png is made).
    @Test(.enabled(if: HeadlessBrowser.path != nil, HeadlessBrowser.skipReason))
    func theBrowserWritesAScreenshot() throws {
        let sandbox = try GitSandbox()
        let example = try Self.rolledExample(sandbox)
        let page = sandbox.path("audit.html")
        #expect(sandbox.tenantctl(["audit", "--format", "html", "-o", page], in: example.workspace).status == 0)
        let png = sandbox.path("audit.png")
        let result = try HeadlessBrowser.run(
            sandbox, page, fragment: "cell=t2/Infrastructure",
            ["--screenshot=\(png)", "--window-size=1000,560", "--hide-scrollbars"])
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        let data = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // Width and height from the IHDR chunk.
        let size = data.subdata(in: 16..<24).map { Int($0) }
        #expect((size[0] << 24 | size[1] << 16 | size[2] << 8 | size[3]) == 1000)
        #expect((size[4] << 24 | size[5] << 16 | size[6] << 8 | size[7]) == 560)
        #expect(data.count > 10_000)
        if let target = ProcessInfo.processInfo.environment["TENANTCTL_AUDIT_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: png, toPath: target)
        }
    }
}
