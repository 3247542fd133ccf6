import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

@Suite struct ExampleCommandTests {
    /// Local remotes are not allowed by the environment: `example` allows them for its own directories.
    static let noLocalRemotes = ["TENANTCTL_ALLOW_LOCAL_REMOTES": ""]

    @Test func createsTheExampleRelativeToDashCAndReportsJSON() throws {
        let sandbox = try GitSandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("base"), withIntermediateDirectories: true)
        let result = sandbox.tenantctl(
            ["example", "-C", "base", "erp", "--stage", "after-updates", "--json"], environment: Self.noLocalRemotes)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(ExampleResult.self, from: Data(result.stdout.utf8))
        #expect(report.directory == sandbox.path("base/erp"))
        #expect(report.stage == .afterUpdates)
        #expect(Set(report.branches["Superproject"]?.keys ?? [:].keys) == ["general_dev", "t1", "t2", "t3"])
        let remote = try sandbox.git(["rev-parse", "t3"], in: sandbox.path("base/erp/remotes/Order.git"))
        #expect(report.branches["Order"]?["t3"] == remote)
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: report.workspace) == "general_dev")
    }

    @Test func printsASummaryAndRefusesANonEmptyDirectory() throws {
        let sandbox = try GitSandbox()
        let first = sandbox.tenantctl(["example", sandbox.path("erp")], environment: Self.noLocalRemotes)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Created the ERP example (stage before-updates)"))
        #expect(first.stdout.contains("Infrastructure") && first.stdout.contains("t2 "))
        let second = sandbox.tenantctl(["example", sandbox.path("erp")])
        #expect(second.status == 1)
        #expect(second.stderr.contains("error: refusing to create the example in \(sandbox.path("erp"))"))
        #expect(second.stdout.isEmpty)
    }

    @Test func helpHasAbstractDiscussionAndExample() {
        let sandbox = try? GitSandbox()
        let help = sandbox?.tenantctl(["example", "--help"])
        #expect(help?.status == 0)
        let text = help?.stdout ?? ""
        #expect(text.contains("Create the thesis' ERP example"))
        #expect(text.contains("--stage"))
        #expect(text.contains("tenantctl example /tmp/erp --stage after-updates"))
        let usage = sandbox?.tenantctl(["example", "/tmp/x", "--stage", "later"])
        #expect(usage?.status == 64)
    }
}
