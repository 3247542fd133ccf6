import Foundation
import TenantKit
import TenantTestSupport
import Testing

@Suite struct DemoTests {
    @Test func demoTellsTheStoryAndChecksItsKeyFacts() throws {
        let sandbox = try GitSandbox()
        let result = sandbox.tenantctl(["demo"], environment: ["TENANTCTL_ALLOW_LOCAL_REMOTES": "0", "NO_COLOR": "1"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let out = result.stdout
        // Every step ran the real command.
        for command in [
            "$ tenantctl tenant list", "$ tenantctl audit", "$ tenantctl switch t2", "$ tenantctl audit --check",
            "$ tenantctl roll --dry-run", "$ tenantctl roll", "$ tenantctl compose t1", "$ tenantctl compose t2",
            "$ tenantctl resolve t2", "$ git -C Modules/Infrastructure add Strings.csv", "$ tenantctl status",
            "$ tenantctl resolve --continue",
        ] {
            #expect(out.contains(command), "missing \(command)")
        }
        // The thesis' evaluation: merges only where a customised module's general_dev moved.
        #expect(out.contains("Module merges this roll needed: Infrastructure 1, Article 0, Customer 0, Order 1"))
        #expect(out.contains("3 tenants × 4 modules: 3 behind, 0 findings."))
        // The drift over time: the example's dated history, week by week, every tenant behind since 2013-01-31.
        #expect(out.contains("$ tenantctl audit --history --since 2012-12-15 --until 2013-03-15 --every week"))
        #expect(
            out.contains("Drift from general_dev, 2012-12-15 to 2013-03-15 (14 points), most grown first"), "\(out)")
        #expect(out.hasSuffix("docs/adopting.md brings your own superproject.\n"))
        // compose: t1 has Order's QR code library, t2 does not and speaks German with its own messages.
        #expect(
            out.contains(
                "t1's TenantDependencies has the QR code library (Order is active); t2's lacks it. t2 in German: "
                    + "\"customer.validation.name\" = \"Bitte den Kundennamen eingeben.\";"))
        let audits = out.components(separatedBy: "$ tenantctl audit --check")
        // The end: roll leaves t2 conflicted, resolve finishes it, audit is clean again.
        #expect(out.contains("2 rolled, 0 up to date, 1 with conflicts"), "\(out)")
        #expect(out.contains("Infrastructure  t2           conflict    Strings.csv"), "\(out)")
        #expect(out.contains("resolved t2: published"), "\(out)")
        #expect(audits.count == 5)
        // The customisations are shown once (the first audit); the later audits print their table alone.
        #expect(out.components(separatedBy: "Customisations:").count == 2, "\(out)")
        #expect(audits.last?.contains("3 tenants × 4 modules: 0 behind, 0 findings.") == true)
        #expect(out.contains("3 would roll, 0 up to date"))
        #expect(out.contains("3 rolled, 0 up to date, 0 with conflicts, 0 blocked, 0 rejected; 2 module merges"))
        #expect(!out.contains("\u{1B}["), "no colour without a terminal")
        // The review round: proposals (75), the forge lands them, --land follows until everything landed.
        for command in ["$ tenantctl roll --review", "$ tenantctl roll --land"] {
            #expect(out.contains(command), "missing \(command)")
        }
        #expect(out.components(separatedBy: "$ tenantctl roll --land\n").count == 3, "two --land: \(out)")
        #expect(out.contains("the forge merged: Order t3, Superproject general_dev"), "\(out)")
        #expect(out.contains("the forge merged: Superproject t1, Superproject t2, Superproject t3"), "\(out)")
        #expect(out.contains("review run "), "\(out)")
        // The story's prose is wrapped at 80 columns off a terminal (a terminal's own width on one), so no line of it
        // breaks mid-word on a terminal of the usual width: the lines after a step's title, up to its first command
        // or an indented listing (a table of commits, which is not wrapped).
        var inProse = false
        for line in out.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.first?.isNumber == true && line.contains(". ") {
                inProse = true
            } else if line.isEmpty || line.hasPrefix("$ ") || line.hasPrefix("  ") {
                inProse = false
            } else if inProse {
                #expect(TextWidth.of(String(line)) <= 80, "wider than 80: \(line)")
            }
        }
        // The temporary directory is gone.
        // The prose is wrapped: a long temporary directory (macOS's /var/folders/…) starts on the next line.
        let marker = "local bare remotes in"
        let range = try #require(out.range(of: marker))
        let remotes = String(
            out[range.upperBound...].drop { $0 == " " || $0 == "\n" }.prefix { $0 != " " && $0 != "\n" }
        )
        .trimmingCharacters(in: CharacterSet(charactersIn: "."))
        #expect(remotes.hasSuffix("/remotes"))
        #expect(!FileManager.default.fileExists(atPath: remotes))
    }

    @Test(.tags(.slow), .notInTheFastSet) func keepLeavesAWorkspaceOnT2WithEveryTenantRolled() throws {
        let sandbox = try GitSandbox()
        let dir = sandbox.path("kept")
        let result = sandbox.tenantctl(["demo", "--keep", dir])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: dir + "/workspace") == "t2")
        let remote = dir + "/remotes/Superproject.git"
        for tenant in ["t1", "t2", "t3"] {
            #expect(
                try sandbox.gitResult(["merge-base", "--is-ancestor", "general_dev", tenant], in: remote).status == 0)
        }
        #expect(result.stdout.contains("cd \(dir)/workspace && tenantctl status"))
    }
}
