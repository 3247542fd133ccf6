import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// `init` on a plain submodule superproject (no tenantctl files), then `verify` of what it wrote.
@Suite struct LifecycleInitTests {
    /// Two modules A and B (B has a branch t1), a superproject with branches general_dev, t1 (pins B@t1) and t2.
    static func plainProject(_ sandbox: GitSandbox) throws -> String {
        for name in ["A", "B"] {
            try sandbox.makeRepository("src/\(name)", branch: "general_dev", files: ["\(name).txt": "\(name)\n"])
        }
        try sandbox.git(["checkout", "-q", "-b", "t1"], in: sandbox.path("src/B"))
        try sandbox.commit(in: "src/B", file: "B.txt", content: "B for t1\n", message: "t1: B")
        for name in ["A", "B"] {
            try sandbox.git(["clone", "-q", "--bare", sandbox.path("src/\(name)"), sandbox.path("remotes/\(name).git")])
        }
        try sandbox.git(["init", "-q", "--bare", "-b", "general_dev", sandbox.path("remotes/Super.git")])
        let work = sandbox.path("work")
        try sandbox.git(["clone", "-q", sandbox.path("remotes/Super.git"), work])
        try sandbox.git(["checkout", "-q", "-b", "general_dev"], in: work)
        try sandbox.write("work/README", "app\n")
        try sandbox.git(["add", "README"], in: work)
        for name in ["A", "B"] {
            try sandbox.git(
                ["submodule", "add", "-q", "-b", "general_dev", "../\(name).git", "Modules/\(name)"], in: work)
        }
        try sandbox.git(["commit", "-q", "-m", "modules"], in: work)
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: work)
        try sandbox.git(["checkout", "-q", "-b", "t1"], in: work)
        try sandbox.git(["checkout", "-q", "origin/t1"], in: work + "/Modules/B")
        try sandbox.git(["add", "Modules/B"], in: work)
        try sandbox.git(["commit", "-q", "-m", "t1: pin B@t1"], in: work)
        try sandbox.git(["push", "-q", "origin", "t1"], in: work)
        try sandbox.git(["checkout", "-q", "-b", "t2", "general_dev"], in: work)
        try sandbox.commit(in: "work", file: "README", content: "app for t2\n", message: "t2 branding")
        try sandbox.git(["push", "-q", "origin", "t2"], in: work)
        try sandbox.git(["checkout", "-q", "general_dev"], in: work)
        try sandbox.git(["submodule", "update", "-q"], in: work)
        return work
    }

    @Test func initWritesFilesThatVerifyAccepts() throws {
        let sandbox = try GitSandbox()
        let work = try Self.plainProject(sandbox)
        let run = sandbox.tenantctl(["init", "-C", work])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("wrote modules.json"))
        #expect(run.stdout.contains("wrote Tenants/t1.json"))
        #expect(run.stdout.contains("wrote Tenants/t2.json"))
        let manifest = try sandbox.read("work/modules.json")
        #expect(manifest.contains("\"url\": \"../A.git\""))
        #expect(manifest.contains("\"generalBranch\": \"general_dev\""))
        #expect(try sandbox.read("work/Tenants/t1.json").contains("\"customised\": [\"B\"]"))
        #expect(try sandbox.read("work/Tenants/t2.json").contains("\"customised\": []"))
        // Only new, untracked files: nothing tracked changed.
        let status = try sandbox.git(["status", "--porcelain", "-uall"], in: work)
        #expect(Set(status.split(separator: "\n")) == ["?? Tenants/t1.json", "?? Tenants/t2.json", "?? modules.json"])

        try sandbox.git(["add", "modules.json", "Tenants"], in: work)
        try sandbox.git(["commit", "-q", "-m", "adopt with tenantctl"], in: work)
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: work)
        let verify = sandbox.tenantctl(["verify", "-C", work])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("the repositories agree"))
    }

    @Test func initNeverOverwritesAndHonoursTheGlob() throws {
        let sandbox = try GitSandbox()
        let work = try Self.plainProject(sandbox)
        try sandbox.write("work/modules.json", "mine\n")
        let run = sandbox.tenantctl(["init", "-C", work, "--tenants", "t1"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("kept  modules.json (exists; not overwritten)"))
        #expect(try sandbox.read("work/modules.json") == "mine\n")
        #expect(run.stdout.contains("wrote Tenants/t1.json"))
        #expect(!FileManager.default.fileExists(atPath: work + "/Tenants/t2.json"))
        let again = sandbox.tenantctl(["init", "-C", work, "--tenants", "t1"])
        #expect(again.status == 0)
        #expect(!again.stdout.contains("wrote"))
    }

    @Test func initRefusesAProjectWithoutSubmodules() throws {
        let sandbox = try GitSandbox()
        let dir = try sandbox.makeRepository("plain")
        let run = sandbox.tenantctl(["init", "-C", dir])
        #expect(run.status == 1)
        #expect(run.stderr.contains("has no .gitmodules"))
        #expect(try sandbox.git(["status", "--porcelain", "-uall"], in: dir).isEmpty)
    }

    /// Without --tenants every branch but the general one is a tenant: init says how many it took and how to take
    /// only some, with a glob from the branches' own names that runs as printed; with --tenants it says nothing.
    @Test func initSaysHowManyBranchesItTookAndHowToNarrowThem() throws {
        let sandbox = try GitSandbox()
        let work = try Self.plainProject(sandbox)
        for branch in ["release-30", "release-31"] {
            try sandbox.git(["push", "-q", "origin", "general_dev:refs/heads/\(branch)"], in: work)
        }
        let run = sandbox.tenantctl(["init", "-C", work])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let said = try #require(lines.firstIndex { $0.hasPrefix("4 tenants:") }, "\(run.stdout)")
        #expect(lines[said].contains("every branch but general_dev"), "\(run.stdout)")
        let command = lines[said + 1].trimmingCharacters(in: .whitespaces)
        #expect(
            command == "rm -r \(work)/Tenants && tenantctl init -C \(work) --tenants 'release-*'", "\(run.stdout)")
        // It runs as printed (tenantctl here in-process): only the matching branches are tenants then.
        try FileManager.default.removeItem(atPath: work + "/Tenants")
        let narrowed = sandbox.tenantctl(["init", "-C", work, "--tenants", "release-*"])
        #expect(narrowed.status == 0, "\(narrowed.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: work + "/Tenants").sorted() == [
                "release-30.json", "release-31.json",
            ])
        #expect(!narrowed.stdout.contains("tenants:"), "\(narrowed.stdout)")
    }

    /// Outside any repository init says so as every other command does, not git's raw `fatal:`.
    @Test func initOutsideARepositoryIsRefusedInWords() throws {
        let sandbox = try GitSandbox()
        let directory = sandbox.path("not-a-repository")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The positive control: another command there.
        let status = sandbox.tenantctl(["status"], in: directory)
        #expect(status.status == 1 && status.stderr.contains("no tenantctl superproject at or above"))
        let run = sandbox.tenantctl(["init"], in: directory)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(!run.stderr.contains("fatal:"), "\(run.stderr)")
        #expect(
            run.stderr.hasPrefix(
                "error: no git repository at or above \(directory): init adopts an existing submodule superproject"),
            "\(run.stderr)")
        #expect(run.stderr.contains("tenantctl example <dir>"), "\(run.stderr)")
    }
}
