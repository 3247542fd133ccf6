import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// status right after tenantctl's own pushes compares with what the remote now has (what plain git's `rev-parse` and
/// `ls-remote` say), never with the copy of the remote fetched before the push; `status --fetch` reads the remotes
/// afresh.
@Suite("status after tenantctl's own pushes", .tags(.slow), .notInTheFastSet)
struct StatusAfterPushTests {
    func superproject(_ result: CLIResult) throws -> StatusReport.Superproject {
        try JSONDecoder().decode(StatusReport.self, from: Data(result.stdout.utf8)).superproject
    }

    @Test func afterPinPushTheSuperprojectIsLevelWithItsRemote() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        try sandbox.commit(in: "workspace/Modules/Customer", file: "Fix.swift", content: "// fix\n")
        let pin = sandbox.tenantctl(["pin", "Customer", "--push"], in: fixture.workspace)
        #expect(pin.status == 0, "\(pin.stderr)")
        // Control: plain git says the remote's t2 is HEAD.
        let head = try sandbox.git(["rev-parse", "HEAD"], in: fixture.workspace)
        #expect(try sandbox.git(["rev-parse", "origin/t2"], in: fixture.workspace) == head)
        #expect(try sandbox.git(["rev-parse", "refs/heads/t2"], in: sandbox.path("remotes/Superproject.git")) == head)

        let json = sandbox.tenantctl(["status", "--json"], in: fixture.workspace)
        #expect(json.status == 0, "\(json.stderr)")
        let report = try superproject(json)
        #expect(report.ahead == 0 && report.behind == 0, "\(report)")
        #expect(report.remote?.relation == "up-to-date", "\(report)")
        let text = sandbox.tenantctl(["status"], in: fixture.workspace)
        #expect(text.stdout.contains("origin/t2: ahead 0, behind 0"), "\(text.stdout)")
        let short = sandbox.tenantctl(["status", "--short"], in: fixture.workspace)
        #expect(short.stdout.split(separator: "\n").first == "## t2...origin/t2  tenant: t2", "\(short.stdout)")
    }

    /// A tenant command pushes module branches from tenantctl's mirrors: each module checkout then has the pushed
    /// branches as `origin/<branch>`, as `git push` would have left them.
    @Test func afterTenantAddTheModuleCheckoutsKnowThePushedBranches() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let added = example.tenantctl(["tenant", "add", "t8", "--from", "t2"])
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        var pushed = 0
        for module in LifecycleExample.modules {
            guard let tip = try example.branches(module)["t8"] else { continue }
            pushed += 1
            let copy = try sandbox.git(
                ["rev-parse", "--verify", "--quiet", "refs/remotes/origin/t8"],
                in: "\(example.workspace)/Modules/\(module)")
            #expect(copy == tip, "\(module)")
        }
        // Control: the command pushed at least one module branch.
        #expect(pushed > 0)
    }

    @Test func statusFetchReadsTheRemotesAfresh() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        // Someone else moves the superproject's t2 and Customer's t2 on.
        try fixture.pushColour("t2 blue", on: "t2")
        try sandbox.git(["switch", "-q", "t2"], in: sandbox.path("src/Customer"))
        try sandbox.commit(in: "src/Customer", file: "Remote.swift", content: "// r\n")
        try sandbox.git(["push", "-q", sandbox.path("remotes/Customer.git"), "t2"], in: sandbox.path("src/Customer"))

        // Control: without --fetch, status compares with what was last fetched.
        let stale = try JSONDecoder().decode(
            StatusReport.self, from: Data(sandbox.tenantctl(["status", "--json"], in: fixture.workspace).stdout.utf8))
        #expect(stale.superproject.behind == 0, "\(stale.superproject)")
        #expect(stale.modules.first { $0.module == "Customer" }?.remote?.behind == 0)

        let fresh = sandbox.tenantctl(["status", "--fetch", "--json"], in: fixture.workspace)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        let report = try JSONDecoder().decode(StatusReport.self, from: Data(fresh.stdout.utf8))
        #expect(report.superproject.behind == 1, "\(report.superproject)")
        #expect(report.modules.first { $0.module == "Customer" }?.remote?.behind == 1)
    }
}

/// After a roll, status shows the superproject branch behind the remote branch the roll moved.
@Suite("status after a roll", .tags(.slow), .notInTheFastSet)
struct StatusAfterRollTests {
    @Test func afterARollTheSuperprojectIsBehindWhatTheRollPushed() throws {
        let fixture = try RollFixture()
        let sandbox = fixture.sandbox
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        let roll = fixture.roll()
        #expect(roll.status == 0, "\(roll.stderr)")
        // Control: the remote's t2 moved on; plain git counts the commits the local t2 lacks.
        let remoteTip = try sandbox.git(["rev-parse", "refs/heads/t2"], in: fixture.remote("Superproject"))
        let behind = try sandbox.git(["rev-list", "--count", "HEAD.." + remoteTip], in: fixture.workspace)
        #expect(behind != "0")

        let json = sandbox.tenantctl(["status", "--json"], in: fixture.workspace)
        #expect(json.status == 0, "\(json.stderr)")
        let report = try JSONDecoder().decode(StatusReport.self, from: Data(json.stdout.utf8)).superproject
        #expect(report.behind.map(String.init) == behind, "\(report)")
        #expect(report.ahead == 0, "\(report)")
    }

    /// The module lines too: each checked-out module branch the roll moved is counted against the remote's branch as
    /// plain git counts it against `ls-remote`.
    @Test func afterARollTheModuleLinesCountAgainstWhatTheRollPushed() throws {
        let fixture = try RollFixture()
        let sandbox = fixture.sandbox
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        let roll = fixture.roll()
        #expect(roll.status == 0, "\(roll.stderr)")
        let json = sandbox.tenantctl(["status", "--json"], in: fixture.workspace)
        #expect(json.status == 0, "\(json.stderr)")
        let report = try JSONDecoder().decode(StatusReport.self, from: Data(json.stdout.utf8))
        var moved = 0
        for module in report.modules {
            let branch = try #require(module.branch, "\(module)")
            let head = try #require(module.head, "\(module)")
            let remote = fixture.remote(module.module)
            let listed = try sandbox.git(["ls-remote", remote, "refs/heads/\(branch)"], in: fixture.workspace)
            let tip = try #require(listed.split(separator: "\t").first.map(String.init), "\(module.module): \(listed)")
            let counts = try sandbox.git(["rev-list", "--left-right", "--count", "\(head)...\(tip)"], in: remote)
                .split(whereSeparator: { $0 == "\t" || $0 == " " }).compactMap { Int($0) }
            #expect(counts.count == 2, "\(counts)")
            if counts.count == 2 && counts[1] > 0 { moved += 1 }
            #expect(module.remote?.ahead == counts.first && module.remote?.behind == counts.last, "\(module)")
        }
        // Control: the roll moved at least one module branch that is checked out.
        #expect(moved > 0, "\(report.modules)")
    }
}
