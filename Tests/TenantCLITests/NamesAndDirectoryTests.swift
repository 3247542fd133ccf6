import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// Unknown tenants and modules are usage errors found before any module is fetched; `-C` decides where relative
/// output paths go.
@Suite(.tags(.slow), .notInTheFastSet) struct NamesAndDirectoryTests {
    static func example(_ sandbox: GitSandbox) throws -> ExampleResult {
        try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
    }

    @Test func unknownNamesAreUsageErrorsFoundBeforeAnyModuleIsFetched() throws {
        let sandbox = try GitSandbox()
        let workspace = try Self.example(sandbox).workspace
        let mirrors =
            try sandbox.git(["rev-parse", "--path-format=absolute", "--git-common-dir"], in: workspace)
            + "/tenantctl/mirrors"
        try? FileManager.default.removeItem(atPath: mirrors)
        let cases: [([String], String)] = [
            (["audit", "--tenant", "t22"], "unknown tenant t22"),
            (["compose", "t22", "--out", sandbox.path("out")], "unknown tenant t22"),
            (["tenant", "add", "Bad Name"], "invalid tenant id \"Bad Name\""),
            (["pin", "Infra"], "unknown module Infra; did you mean Infrastructure?"),
        ]
        for (arguments, message) in cases {
            let result = sandbox.tenantctl(arguments, in: workspace)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: mirrors), "\(arguments) fetched the modules")
        }
        #expect(sandbox.tenantctl(["audit", "--tenant", "t22"], in: workspace).stderr.contains("did you mean t2"))
        // Positive control: a known tenant fetches every module.
        let known = sandbox.tenantctl(["compose", "t2", "--out", sandbox.path("out")], in: workspace)
        #expect(known.status == 0, "\(known.stderr)")
        #expect(FileManager.default.fileExists(atPath: mirrors + "/Infrastructure.git/HEAD"))
    }

    @Test func auditOutputIsRelativeToDashC() throws {
        let sandbox = try GitSandbox()
        let workspace = try Self.example(sandbox).workspace
        try FileManager.default.createDirectory(atPath: sandbox.path("elsewhere"), withIntermediateDirectories: true)
        let audit = sandbox.tenantctl(
            ["-C", workspace, "audit", "--format", "markdown", "-o", "report.md"], in: sandbox.path("elsewhere"))
        #expect(audit.status == 0, "\(audit.stderr)")
        #expect(FileManager.default.fileExists(atPath: workspace + "/report.md"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("elsewhere/report.md")))
        // As compose --out does.
        let compose = sandbox.tenantctl(
            ["-C", workspace, "compose", "t2", "--out", "build/t2", "--no-fetch"], in: sandbox.path("elsewhere"))
        #expect(compose.status == 0, "\(compose.stderr)")
        #expect(FileManager.default.fileExists(atPath: workspace + "/build/t2/Tenant.xcconfig"))
    }
}
