import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// docs/ci.md: every tenantctl line of its GitHub Actions and GitLab CI examples, run as written (with `sh`, the
/// built tenantctl on PATH) in the checkout that system makes by default, on the example at `after-updates`.
@Suite(.tags(.slow), .notInTheFastSet) struct CIGuideTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The example's lines of one section (`## GitHub Actions`, `## GitLab CI`) that run tenantctl or set a commit
    /// identity: `run:` values and `script:` items, as written.
    static func commands(section: String, in markdown: String) throws -> [String] {
        let start = try #require(markdown.range(of: "## \(section)\n"))
        let rest = markdown[start.upperBound...]
        let body = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        var commands: [String] = []
        for raw in body.split(separator: "\n") {
            var line = raw.trimmingCharacters(in: .whitespaces)
            for prefix in ["- run: ", "run: ", "- "] where line.hasPrefix(prefix) {
                line = String(line.dropFirst(prefix.count))
                break
            }
            let runsTenantctl =
                line.hasPrefix("tenantctl ") || line.contains("; tenantctl ") || line.contains("$(tenantctl ")
            if runsTenantctl || line.hasPrefix("git config --global user.") { commands.append(line) }
        }
        return commands
    }

    /// Runs one line of the guide in `directory`; returns its exit status and output.
    /// `shell` is `/bin/sh`, or `bash -e` as GitHub Actions runs a `run:` step; `bin` replaces the built
    /// tenantctl's directory on PATH.
    static func run(
        _ line: String, in directory: String, sandbox: GitSandbox, environment: [String: String] = [:],
        shell: [String] = ["/bin/sh"], bin: String? = nil
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let binary = try #require(TenantctlBinary.path())
        let bin = bin ?? URL(fileURLWithPath: binary).deletingLastPathComponent().path
        return try sandbox.run(
            shell[0],
            Array(shell.dropFirst()) + ["-c", "cd \"$1\" || exit 99; shift; eval \"$1\"", "sh", directory, line],
            extraEnvironment: environment.merging(["PATH": bin + ":" + (sandbox.environment["PATH"] ?? "")]) { $1 })
    }

    /// GitHub's default shell for `run:` steps.
    static let githubShell = ["/bin/bash", "-e"]

    /// actions/checkout@v4 with its defaults on a push to `branch`.
    static func githubCheckout(_ name: String, branch: String, url: String, sandbox: GitSandbox) throws -> String {
        let directory = sandbox.path(name)
        let sha = try sandbox.git(["ls-remote", url, "refs/heads/\(branch)"]).prefix(40)
        try sandbox.git(["init", "-q", directory])
        try sandbox.git(["remote", "add", "origin", url], in: directory)
        try sandbox.git(
            [
                "-c", "protocol.version=2", "fetch", "-q", "--no-tags", "--prune", "--no-recurse-submodules",
                "--depth=1", "origin", "+\(sha):refs/remotes/origin/\(branch)",
            ], in: directory)
        try sandbox.git(["checkout", "-q", "--force", "-B", branch, "refs/remotes/origin/\(branch)"], in: directory)
        return directory
    }

    /// GitLab's default fetch strategy: the pipeline branch's refspec, depth 20, detached HEAD.
    static func gitlabCheckout(_ name: String, branch: String, url: String, sandbox: GitSandbox) throws -> String {
        let directory = sandbox.path(name)
        try sandbox.git(["init", "-q", directory])
        try sandbox.git(["remote", "add", "origin", url], in: directory)
        try sandbox.git(
            [
                "fetch", "-q", "--depth", "20", "--prune", "origin",
                "+refs/heads/\(branch):refs/remotes/origin/\(branch)",
            ],
            in: directory)
        try sandbox.git(["checkout", "-q", "-f", "--detach", "refs/remotes/origin/\(branch)"], in: directory)
        return directory
    }

    @Test func theExamplesRunInEachSystemsDefaultCheckout() throws {
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/ci.md"), encoding: .utf8)
        let github = try Self.commands(section: "GitHub Actions", in: guide)
        let gitlab = try Self.commands(section: "GitLab CI", in: guide)
        let ghAudit = try #require(github.first { $0.hasPrefix("tenantctl audit") })
        let ghRoll = try #require(github.first { $0.contains("tenantctl roll") })
        let ghHTML = try #require(github.first { $0.contains("--format html") })
        let ghCompose = try #require(github.first { $0.hasPrefix("tenantctl compose") })
        let ghList = try #require(github.first { $0.contains("tenantctl tenant list") })
        let ghSwitch = try #require(github.first { $0.hasPrefix("tenantctl switch") })
        let glAudit = try #require(gitlab.first { $0.hasPrefix("tenantctl audit") })
        let glRoll = try #require(gitlab.first { $0.hasPrefix("tenantctl roll") })
        #expect(gitlab.filter { $0.hasPrefix("git config --global user.") }.count == 2)
        // The docs no longer ask for a deep checkout.
        #expect(!guide.contains("{ fetch-depth: 0"))

        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .afterUpdates)
        let url = "file://" + example.remotes + "/Superproject.git"
        let superproject = example.remotes + "/Superproject.git"

        // GitHub: the gate fails (tenants are behind) with the matrix in audit.md.
        let gate = try Self.githubCheckout("gh-audit", branch: "general_dev", url: url, sandbox: sandbox)
        let audit = try Self.run(ghAudit, in: gate, sandbox: sandbox)
        #expect(audit.status == 2, "\(audit.stderr)")
        // The reports name the time they were made: compared without that line (`general_dev at … on origin …`).
        func withoutSource(_ report: String) -> String {
            report.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("general\\_dev at ") }.joined(separator: "\n")
        }
        let table = withoutSource(try String(contentsOfFile: gate + "/audit.md", encoding: .utf8))
        #expect(table.contains("| t3 |"))
        // The tenant matrix and a build job's switch.
        let outputs = gate + "/github-output"
        let list = try Self.githubCheckout("gh-tenants", branch: "general_dev", url: url, sandbox: sandbox)
        let listed = try Self.run(ghList, in: list, sandbox: sandbox, environment: ["GITHUB_OUTPUT": outputs])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(try String(contentsOfFile: outputs, encoding: .utf8) == "matrix=[\"t1\",\"t2\",\"t3\"]\n")
        let build = try Self.githubCheckout("gh-build", branch: "general_dev", url: url, sandbox: sandbox)
        let composed = try Self.run(
            ghCompose.replacingOccurrences(of: "${{ matrix.tenant }}", with: "t3"), in: build, sandbox: sandbox,
            shell: Self.githubShell)
        #expect(composed.status == 0, "\(composed.stderr)")
        #expect(FileManager.default.fileExists(atPath: build + "/build/t3/ActiveModules.json"))
        // The HTML report (audit --format html) once audit has it; the step runs after the gate.
        if sandbox.tenantctl(["audit", "--help"]).stdout.contains("html") {
            let html = try Self.run(ghHTML, in: gate, sandbox: sandbox, shell: Self.githubShell)
            #expect(html.status == 0 || html.status == 2, "\(html.stderr)")
            #expect(FileManager.default.fileExists(atPath: gate + "/audit.html"))
        } else {
            print("CIGuideTests: skipped `\(ghHTML)`: this build's audit has no --format html yet")
        }
        let switched = try Self.run(
            ghSwitch.replacingOccurrences(of: "${{ matrix.tenant }}", with: "t3"), in: build, sandbox: sandbox)
        #expect(switched.status == 0, "\(switched.stderr)")
        #expect(
            try sandbox.git(["rev-parse", "HEAD"], in: build)
                == (try sandbox.git(["rev-parse", "t3"], in: superproject)))
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: build + "/Modules/Order") == "t3")

        // GitLab: the gate's report in a detached, one-branch, depth-20 checkout equals GitHub's.
        let glGate = try Self.gitlabCheckout("gl-audit", branch: "general_dev", url: url, sandbox: sandbox)
        let glReport = try Self.run(glAudit, in: glGate, sandbox: sandbox)
        #expect(glReport.status == 2, "the gate fails while tenants are behind: \(glReport.stderr)")
        let glTable = withoutSource(try String(contentsOfFile: glGate + "/audit.md", encoding: .utf8))
        #expect(glTable == table)
        // Positive control: both name the general branch's commit they describe.
        #expect(try String(contentsOfFile: glGate + "/audit.md", encoding: .utf8).contains("general\\_dev at "))

        // GitHub's scheduled roll rolls every tenant; GitLab's roll afterwards finds nothing to do.
        let before = try sandbox.git(["rev-parse", "t3"], in: superproject)
        let rollDir = try Self.githubCheckout("gh-roll", branch: "general_dev", url: url, sandbox: sandbox)
        let rolled = try Self.run(ghRoll, in: rollDir, sandbox: sandbox, shell: Self.githubShell)
        #expect(rolled.stdout.contains("exit=0"), "\(rolled.stdout)\(rolled.stderr)")
        #expect(rolled.status == 0)
        #expect(try sandbox.git(["rev-parse", "t3"], in: superproject) != before)
        let glRollDir = try Self.gitlabCheckout("gl-roll", branch: "general_dev", url: url, sandbox: sandbox)
        for line in gitlab where line.hasPrefix("git config --global user.") {
            #expect(try Self.run(line, in: glRollDir, sandbox: sandbox).status == 0)
        }
        let glRolled = try Self.run(glRoll, in: glRollDir, sandbox: sandbox)
        #expect(glRolled.status == 0, "\(glRolled.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: glRollDir + "/roll.json")))
                as? [String: Any])
        #expect((report["tenants"] as? [[String: Any]])?.count == 3)
        let after = try Self.run(
            ghAudit, in: try Self.githubCheckout("gh-after", branch: "general_dev", url: url, sandbox: sandbox),
            sandbox: sandbox)
        #expect(after.status == 0, "\(after.stderr)")
    }

    /// GitHub's roll step keeps the report and the exit status when the roll ends with conflicts (exit 2): with
    /// `bash -e` a plain `tenantctl roll …; echo` would stop before the echo.
    @Test func theRollStepReportsExit2AndKeepsTheReport() throws {
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/ci.md"), encoding: .utf8)
        let roll = try #require(
            try Self.commands(section: "GitHub Actions", in: guide).first { $0.contains("tenantctl roll") })
        #expect(
            guide.contains(
                "- if: always()\n        uses: actions/upload-artifact@v4\n        with: { name: roll-report"))
        let sandbox = try GitSandbox()
        // A tenantctl that ends like a roll with conflicts: a report, exit 2.
        let bin = sandbox.path("fake-bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try "#!/bin/sh\necho '{\"conflicts\": 1}'\nexit 2\n".write(
            toFile: bin + "/tenantctl", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin + "/tenantctl")
        let work = sandbox.path("work")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let result = try Self.run(roll, in: work, sandbox: sandbox, shell: Self.githubShell, bin: bin)
        #expect(result.status == 2)
        #expect(result.stdout.contains("exit=2"), "\(result.stdout)")
        #expect(try String(contentsOfFile: work + "/roll.json", encoding: .utf8).contains("conflicts"))
        // The old step stopped before its echo: the reason for the change.
        let old = try Self.run(
            "tenantctl roll --json > roll.json; echo \"exit=$?\"", in: work, sandbox: sandbox,
            shell: Self.githubShell, bin: bin)
        #expect(!old.stdout.contains("exit="))
    }
}
