import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantCLI

/// Refusals and reports on real projects stay short: a module's many changed files are one line per kind, a clone
/// never checked out is one line with the command that checks it out.
@Suite struct WallsOfTextTests {
    /// As `git clone --no-checkout` leaves a module: nothing in the index, no file in the working tree.
    static func neverCheckedOut(_ module: String, sandbox: GitSandbox) throws {
        try sandbox.git(["read-tree", "--empty"], in: module)
        for file in try FileManager.default.contentsOfDirectory(atPath: module) where file != ".git" {
            try FileManager.default.removeItem(atPath: module + "/" + file)
        }
    }

    @Test func aCloneNeverCheckedOutIsOneLineWithTheCommandThatChecksItOut() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        let module = fixture.workspace + "/Modules/Article"
        let files = try sandbox.git(["ls-tree", "-r", "--name-only", "HEAD"], in: module).split(separator: "\n")
        try Self.neverCheckedOut(module, sandbox: sandbox)
        let run = sandbox.tenantctl(["switch", "t2"], in: fixture.workspace)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").filter { $0.contains("Article") }
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(
            lines.first?.contains(
                "\(files.count) files staged for deletion and none of them in the working tree: a clone that was "
                    + "never checked out") == true, "\(run.stderr)")
        let command = try #require(run.stderr.range(of: "check it out with: ").map { run.stderr[$0.upperBound...] })
            .prefix { $0 != "\n" }
        #expect(command == "git -C \(module) checkout -f HEAD", "\(run.stderr)")
        // It runs as printed, and the switch goes through then.
        #expect(try sandbox.run("/bin/sh", ["-c", String(command)]).status == 0)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
    }

    @Test func manyChangedFilesOfOneModuleAreOneLinePerKind() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        let module = fixture.workspace + "/Modules/Article"
        for index in 1...12 { try sandbox.write("workspace/Modules/Article/new\(index).txt", "\(index)\n") }
        try sandbox.git(["add", "."], in: module)
        let run = sandbox.tenantctl(["switch", "t2"], in: fixture.workspace)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").filter { $0.contains("Article") }
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(lines.first?.contains("12 staged files (") == true, "\(run.stderr)")
        // A few files are still listed one by one (the positive control of the grouping's threshold).
        try sandbox.git(["reset", "-q"], in: module)
        for index in 3...12 { try FileManager.default.removeItem(atPath: module + "/new\(index).txt") }
        try sandbox.git(["add", "."], in: module)
        let few = sandbox.tenantctl(["switch", "t2"], in: fixture.workspace)
        #expect(few.stderr.split(separator: "\n").filter { $0.contains("staged file;") }.count == 2, "\(few.stderr)")
    }

    /// A submodule modules.json does not name whose remote cannot be fetched: the refusal keeps git's lines, indented
    /// under the problem, and names the submodule by its path, never by tenantctl's internal name for its mirror.
    @Test func aSubmoduleWhoseRemoteCannotBeFetchedKeepsGitsLinesAndNoInternalName() throws {
        let fixture = try SwitchCloneFixture()
        let sandbox = fixture.sandbox
        let seed = try sandbox.seedRepository("Extra", remotes: fixture.example.remotes)
        try sandbox.git(["push", "-q", "origin", "master"], in: seed)
        let clone = sandbox.path("t1-clone")
        try sandbox.git(["clone", "-q", "-b", "t1", fixture.example.remotes + "/Superproject.git", clone])
        try sandbox.git(["submodule", "add", "-q", "../Extra.git", "Vendor/Deps/Extra"], in: clone)
        try sandbox.git(["commit", "-q", "-m", "add Extra with plain git"], in: clone)
        try sandbox.git(["push", "-q", "origin", "t1"], in: clone)
        try FileManager.default.removeItem(atPath: fixture.example.remotes + "/Extra.git")
        let refused = fixture.tenantctl(["switch", "t1"])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        let lines = refused.stderr.split(separator: "\n")
        let problem = try #require(lines.firstIndex { $0.contains("Vendor/Deps/Extra") }, "\(refused.stderr)")
        #expect(!refused.stderr.contains("unnamed-") && !refused.stderr.contains("%2F"), "\(refused.stderr)")
        // git's own lines follow, each on its own indented line (not one line of hundreds of characters).
        #expect(lines.count > problem + 2, "\(refused.stderr)")
        #expect(
            lines.dropFirst(problem + 1).contains { $0.hasPrefix("    ") && $0.contains("git said:") },
            "\(refused.stderr)")
        #expect(
            lines.contains { $0.hasPrefix("      ") && $0.hasSuffix("fatal: Could not read from remote repository.") })
        #expect(!lines.contains { $0.contains("git said:") && $0.contains("fatal:") }, "\(refused.stderr)")
        // What a person can act on: the submodule's path and URL and the command that checks the remote; never the
        // mirror's directory (internal, and not on disk after the failed fetch) or the command that fetched into it.
        let url = fixture.example.remotes + "/Extra.git"
        #expect(
            lines.contains {
                $0.hasSuffix("fetch the submodule at Vendor/Deps/Extra from \(url) failed (git exited with status 128)")
            },
            "\(refused.stderr)")
        #expect(!refused.stderr.contains("command:"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("tenantctl/mirrors") && !refused.stderr.contains(".partial"))
        let check = try #require(lines.first { $0.contains("`git ls-remote -- ") }, "\(refused.stderr)")
        let command = try #require(VerifyNextStepTests.commands(String(check)).first, "\(check)")
        #expect(command == "git ls-remote -- \(url)", "\(check)")
        // It runs as printed: it fails while the remote is gone, and once the remote is back it passes, and so
        // does the switch.
        #expect(try ResolveTransactionTests.runAsPrinted(command, in: fixture.workspace, sandbox: sandbox).status != 0)
        try sandbox.git(["init", "-q", "--bare", url])
        try sandbox.git(["push", "-q", url, "master"], in: seed)
        let checked = try ResolveTransactionTests.runAsPrinted(command, in: fixture.workspace, sandbox: sandbox)
        #expect(checked.status == 0, "\(checked.stderr)")
        let switched = fixture.tenantctl(["switch", "t1"])
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
    }

    /// verify on a project with many release lines: the same finding on eight branches is one line naming them,
    /// information is not marked as a failure, and every kind found has a line saying what to do.
    @Test func verifyGroupsAFindingToldTheSameWayOnSeveralBranches() {
        let branches = (28...35).map { "release/\($0).0" }
        let findings =
            branches.map { branch in
                Finding(
                    code: .unnamedSubmodule,
                    message: "branch \(branch) pins a submodule at deps/ftl-sdk (abc1234) that modules.json does not "
                        + "name", tenant: branch.replacingOccurrences(of: "/", with: "-"),
                    repository: Finding.superproject, branch: branch)
            } + [
                Finding(
                    code: .movedPath, message: "branch t1 has M at a/b, master at c/d (the module moved)",
                    repository: Finding.superproject, branch: "t1"),
                Finding(
                    code: .stalePin, message: "t2 pins M off its branch", tenant: "t2", module: "M", repository: "M",
                    branch: "t2"),
            ]
        let lines = VerifyTextReport.lines(findings, mark: { $0 ? "i " : "✗ " })
        #expect(lines.count == 6, "\(lines)")
        #expect(
            lines.first
                == "✗ the branch pins a submodule at deps/ftl-sdk (abc1234) that modules.json does not name "
                + "[unnamed-submodule: repository superproject, 8 branches: \(branches.joined(separator: ", ")), "
                + "tenants \(branches.map { $0.replacingOccurrences(of: "/", with: "-") }.joined(separator: ", "))]",
            "\(lines)")
        #expect(lines[1].hasPrefix("i branch t1 has M"), "\(lines)")
        #expect(lines[2].hasPrefix("✗ t2 pins M off its branch [stale-pin: repository M, branch t2, module M"))
        #expect(lines[3].hasPrefix("next (unnamed-submodule): "))
        #expect(lines[4].hasPrefix("next (moved-path): nothing to fix"))
        #expect(
            lines[5] == "next (stale-pin): pin the branch's head: `tenantctl switch t2`, then `tenantctl pin M --push`")
        // The same finding on one branch keeps its own words.
        let one = VerifyTextReport.lines(Array(findings.prefix(1)), mark: { _ in "" })
        #expect(one.first?.hasPrefix("branch release/28.0 pins") == true, "\(one)")
    }
}
