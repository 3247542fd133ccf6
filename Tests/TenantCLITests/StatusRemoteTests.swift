import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// status compares with what switch fetched, never with stale `refs/remotes/…`, and shows each module branch and
/// the superproject against its remote: ahead, behind, diverged, gone.
@Suite("status against the remote", .tags(.slow), .notInTheFastSet)
struct StatusRemoteTests {
    static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/schemas/status.schema.json").path

    @Test func statusComparesWithWhatSwitchFetchedAndShowsEveryModuleAgainstItsRemote() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        // The remote t2 moves on; switch fast-forwards to it (fetching into tenantctl's refs), so the clone's
        // refs/remotes/origin/t2 stays behind.
        try fixture.pushColour("t2 green", on: "t2")
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        // Control: git's own remote-tracking ref is stale (one behind HEAD).
        #expect(try sandbox.git(["rev-list", "--count", "origin/t2..HEAD"], in: fixture.workspace) == "1")

        // Each module branch starts level with its remote branch (whatever the pin).
        for module in SwitchFixture.modules {
            try sandbox.git(["reset", "-q", "--hard", "@{upstream}"], in: fixture.module(module))
        }
        // Infrastructure (t2): a local commit → ahead 1.
        try sandbox.commit(in: "workspace/Modules/Infrastructure", file: "Local.swift", content: "// l\n")
        // Customer (t2): the remote moved on → behind 1.
        try sandbox.git(["switch", "-q", "t2"], in: sandbox.path("src/Customer"))
        try sandbox.commit(in: "src/Customer", file: "Remote.swift", content: "// r\n")
        try sandbox.git(["push", "-q", sandbox.path("remotes/Customer.git"), "t2"], in: sandbox.path("src/Customer"))
        try sandbox.git(["fetch", "-q", "origin"], in: fixture.module("Customer"))
        // Article (general_dev): both → diverged.
        try sandbox.commit(in: "src/Article", file: "Remote.swift", content: "// r\n")
        try sandbox.git(
            ["push", "-q", sandbox.path("remotes/Article.git"), "general_dev"], in: sandbox.path("src/Article"))
        try sandbox.git(["fetch", "-q", "origin"], in: fixture.module("Article"))
        try sandbox.commit(in: "workspace/Modules/Article", file: "Local.swift", content: "// l\n")
        // Order (general_dev): its upstream is a branch the remote no longer has → gone.
        try sandbox.git(["config", "branch.general_dev.merge", "refs/heads/vanished"], in: fixture.module("Order"))

        let json = sandbox.tenantctl(["status", "--json"], in: fixture.workspace)
        #expect(json.status == 0, "\(json.stderr)")
        #expect(try JSONSchemaCheck(contentsOf: Self.schema).violations(of: json.stdout) == [])
        let report = try JSONDecoder().decode(StatusReport.self, from: Data(json.stdout.utf8))
        #expect(report.superproject.ahead == 0 && report.superproject.behind == 0, "\(report.superproject)")
        #expect(report.superproject.remote?.relation == "up-to-date", "\(report.superproject)")
        func remote(_ module: String) -> StatusReport.RemoteStatus? {
            report.modules.first { $0.module == module }?.remote
        }
        #expect(remote("Infrastructure")?.relation == "ahead" && remote("Infrastructure")?.ahead == 1)
        #expect(remote("Customer")?.relation == "behind" && remote("Customer")?.behind == 1)
        #expect(remote("Article")?.relation == "diverged", "\(String(describing: remote("Article")))")
        #expect(remote("Order")?.relation == "gone" && remote("Order")?.upstream == "origin/vanished")

        let text = sandbox.tenantctl(["status"], in: fixture.workspace)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("origin/t2: ahead 0, behind 0"), "\(text.stdout)")
        // REMOTE names the remote branch only when it is not the usual origin/<branch>.
        let lines = text.stdout.split(separator: "\n").map(String.init)
        for (module, remote) in [
            ("Infrastructure", "ahead 1"), ("Customer", "behind 1"), ("Article", "diverged +1/-1"),
            ("Order", "origin/vanished: gone"),
        ] {
            let line = lines.first { $0.hasPrefix(module + " ") } ?? ""
            #expect(line.hasSuffix("  " + remote), "\(module) lacks '\(remote)': \(text.stdout)")
        }
    }

    /// A superproject branch deleted on the remote (and pruned by switch's fetch) is gone, not "ahead 0".
    @Test func aSuperprojectBranchDeletedOnTheRemoteIsGone() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t3"], in: fixture.workspace).status == 0)
        try sandbox.git(["push", "-q", "origin", "--delete", "t3"], in: sandbox.path("src/Superproject"))
        #expect(sandbox.tenantctl(["switch", "t3"], in: fixture.workspace).status == 0)
        let report = try JSONDecoder().decode(
            StatusReport.self, from: Data(sandbox.tenantctl(["status", "--json"], in: fixture.workspace).stdout.utf8))
        #expect(report.superproject.upstreamGone, "\(report.superproject)")
        #expect(report.superproject.remote?.relation == "gone")
    }
}
