import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// A superproject in the shape real desktop applications publish, made with plain git: general branch `master`, a
/// release line `release/30.0` as tenant, a root `.gitignore` of `/*` with exceptions, and a module moved between
/// branches: `release/30.0` pins `libdshowcapture` at `plugins/win-dshow/libdshowcapture`, `master` has moved it
/// (`git mv`, same submodule name and URL) to `deps/libdshowcapture/src` and added `deps/other/src` (a second path
/// ending in `src`). The release line then pinned a backport (libdshowcapture's second commit) at the old path, and
/// libdshowcapture's master moved on to a third.
struct PublishedSuperproject {
    let sandbox: GitSandbox
    /// `remotes/<name>.git`.
    let remotes: String
    /// The working clone of the superproject (on `master`).
    let work: String

    static let oldPath = "plugins/win-dshow/libdshowcapture"
    static let newPath = "deps/libdshowcapture/src"
    static let gitignore = "/*\n!/.gitignore\n!/.gitmodules\n!/plugins/\n!/deps/\n!/README\n"

    init(sandbox: GitSandbox, ignoreEverything: Bool = true) throws {
        self.sandbox = sandbox
        remotes = sandbox.path("remotes")
        work = sandbox.path("app")
        for name in ["libdshowcapture", "other"] {
            let seed = try sandbox.seedRepository(name, remotes: remotes)
            try sandbox.git(["push", "-q", "origin", "master"], in: seed)
        }
        try sandbox.git(["init", "-q", "--bare", "-b", "master", "\(remotes)/App.git"])
        try sandbox.git(["clone", "-q", "\(remotes)/App.git", work])
        try sandbox.write("app/README", "app\n")
        if ignoreEverything { try sandbox.write("app/.gitignore", Self.gitignore) }
        try sandbox.git(["add", "."], in: work)
        try sandbox.git(["submodule", "add", "-q", "../libdshowcapture.git", Self.oldPath], in: work)
        try sandbox.git(["commit", "-q", "-m", "app with libdshowcapture"], in: work)
        try sandbox.git(["push", "-q", "origin", "master:release/30.0"], in: work)
        // master moves the module (same submodule name, same URL) and adds another one ending in src.
        try FileManager.default.createDirectory(
            atPath: work + "/deps/libdshowcapture", withIntermediateDirectories: true)
        try sandbox.git(["mv", Self.oldPath, Self.newPath], in: work)
        try sandbox.git(["submodule", "add", "-q", "../other.git", "deps/other/src"], in: work)
        try sandbox.git(["commit", "-q", "-m", "move libdshowcapture to deps, add other"], in: work)
        try sandbox.git(["push", "-q", "origin", "master"], in: work)
        // A backport on the release line: libdshowcapture 2, pinned at the old path; then master moves on.
        let backport = try commitModule("libdshowcapture", "Backport.txt")
        let release = sandbox.path("release-clone")
        try sandbox.git(["clone", "-q", "--branch", "release/30.0", "\(remotes)/App.git", release])
        try sandbox.write("release-clone/README", "app 30.0.1\n")
        try sandbox.git(["add", "README"], in: release)
        try sandbox.git(["update-index", "--cacheinfo", "160000,\(backport),\(Self.oldPath)"], in: release)
        try sandbox.git(["commit", "-q", "-m", "30.0.1 with the backport"], in: release)
        try sandbox.git(["push", "-q", "origin", "release/30.0"], in: release)
        try commitModule("libdshowcapture", "Feature.txt")
    }

    /// Commits a new file on a module's master and pushes it; returns the commit.
    @discardableResult
    func commitModule(_ name: String, _ file: String) throws -> String {
        let seed = sandbox.path("seed-\(name)")
        try sandbox.write("seed-\(name)/\(file)", "\(file)\n")
        try sandbox.git(["add", file], in: seed)
        try sandbox.git(["commit", "-q", "-m", file], in: seed)
        try sandbox.git(["push", "-q", "\(remotes)/\(name).git", "master"], in: seed)
        return try sandbox.git(["rev-parse", "HEAD"], in: seed)
    }

    /// A module's branch tip on its remote.
    func tip(_ module: String, _ branch: String = "master") throws -> String {
        try sandbox.git(["rev-parse", "refs/heads/\(branch)"], in: "\(remotes)/\(module).git")
    }

    /// The gitlink at `path` on a superproject branch of the remote (nil when none).
    func pin(_ branch: String, _ path: String) throws -> String? {
        try sandbox.gitlinks(on: branch, in: "\(remotes)/App.git")[path]
    }

    /// A tenant branch `customer/x` that moves `other` to its own place, `plugins/other` (git mv: its .gitmodules and
    /// its gitlink), with `readme` as its README if given, pushed; the work tree is back on master afterwards.
    func moveOtherOnCustomerX(readme: String? = nil) throws {
        try sandbox.git(["checkout", "-q", "-b", "customer/x"], in: work)
        try sandbox.git(["submodule", "update", "-q", "--init"], in: work)
        try FileManager.default.createDirectory(atPath: work + "/plugins", withIntermediateDirectories: true)
        try sandbox.git(["mv", "deps/other/src", "plugins/other"], in: work)
        if let readme {
            try readme.write(toFile: work + "/README", atomically: true, encoding: .utf8)
            try sandbox.git(["add", "README"], in: work)
        }
        try sandbox.git(["commit", "-q", "-m", "x keeps other in plugins"], in: work)
        try sandbox.git(["push", "-q", "origin", "customer/x"], in: work)
        try sandbox.git(["checkout", "-q", "master"], in: work)
    }

    /// `init`, then the files committed with `git add -f` and pushed on master.
    func adopt() throws {
        let result = sandbox.tenantctl(["init"], in: work)
        guard result.status == 0 else { throw SandboxError(description: "init: \(result.stderr)") }
        try sandbox.git(["add", "-f", "--", "modules.json", "Tenants"], in: work)
        try sandbox.git(["commit", "-q", "-m", "tenantctl files"], in: work)
        try sandbox.git(["push", "-q", "origin", "master"], in: work)
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}

@Suite(.tags(.slow), .notInTheFastSet) struct PublishedSuperprojectTests {
    @Test func initNamesModulesAfterTheirRepositoriesNotAfterAPathEndingInSrc() throws {
        let sandbox = try GitSandbox()
        let app = try PublishedSuperproject(sandbox: sandbox)
        let result = sandbox.tenantctl(["init"], in: app.work)
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try app.json(try sandbox.read("app/modules.json"))
        let modules = try #require(manifest["modules"] as? [[String: Any]])
        #expect(modules.map { $0["name"] as? String } == ["libdshowcapture", "other"])
        #expect(modules.map { $0["path"] as? String } == [PublishedSuperproject.newPath, "deps/other/src"])
        let tenant = try app.json(try sandbox.read("app/Tenants/release-30.0.json"))
        #expect(tenant["modules"] as? [String] == ["libdshowcapture", "other"])
    }

    @Test func initRefusesTwoRepositoriesOfOneNameAndPrintsTheCommandThatNamesThemApart() throws {
        let sandbox = try GitSandbox()
        let remotes = sandbox.path("remotes")
        for owner in ["one", "two"] {
            let seed = try sandbox.makeRepository("seed-\(owner)", branch: "main", files: ["README": "\(owner)\n"])
            try sandbox.git(["init", "-q", "--bare", "-b", "main", "\(remotes)/\(owner)/json.git"])
            try sandbox.git(["push", "-q", "\(remotes)/\(owner)/json.git", "main"], in: seed)
        }
        try sandbox.git(["init", "-q", "--bare", "-b", "main", "\(remotes)/App.git"])
        let work = sandbox.path("work dir")
        try sandbox.git(["clone", "-q", "\(remotes)/App.git", work])
        try sandbox.git(["submodule", "add", "-q", "../one/json.git", "third party/a/src"], in: work)
        try sandbox.git(["submodule", "add", "-q", "../two/json.git", "third party/b/src"], in: work)
        try sandbox.git(["commit", "-q", "-m", "two json modules"], in: work)
        try sandbox.git(["push", "-q", "origin", "main"], in: work)

        let refused = sandbox.tenantctl(["init", "-C", work, "--tenants", "release/*"], in: sandbox.root)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                ".gitmodules: submodules third party/a/src (../one/json.git) and third party/b/src (../two/json.git) "
                    + "would all be module json"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work + "/modules.json"))
        #expect(try sandbox.git(["status", "--porcelain", "-uall"], in: work).isEmpty)
        // The printed command runs as printed, from where init was run.
        let command = try #require(
            refused.stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first {
                $0.hasPrefix("tenantctl init ")
            })
        #expect(
            command
                == "tenantctl init -C '\(work)' --tenants 'release/*' --module-name 'third party/a/src=third-party-a-src' "
                + "--module-name 'third party/b/src=third-party-b-src'")
        let binary = try #require(TenantctlBinary.path())
        let bin = URL(fileURLWithPath: binary).deletingLastPathComponent().path
        let rerun = try sandbox.run(
            "/bin/sh", ["-c", "cd \(GitSandboxShell.quote(sandbox.root)) && \(command)"],
            extraEnvironment: ["PATH": bin + ":" + (sandbox.environment["PATH"] ?? "")])
        #expect(rerun.status == 0, "\(rerun.stdout)\(rerun.stderr)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: work + "/modules.json")))
                as? [String: Any])
        let modules = try #require(manifest["modules"] as? [[String: Any]])
        #expect(modules.map { $0["name"] as? String } == ["third-party-a-src", "third-party-b-src"])
        #expect(modules.map { $0["url"] as? String } == ["../one/json.git", "../two/json.git"])
    }

    @Test func moduleNameOptionsAreChecked() throws {
        let sandbox = try GitSandbox()
        let app = try PublishedSuperproject(sandbox: sandbox)
        let noPath = sandbox.tenantctl(["init", "--module-name", "deps/none=x"], in: app.work)
        #expect(noPath.status == 1)
        #expect(noPath.stderr.contains("--module-name deps/none=…: .gitmodules has no submodule at deps/none"))
        let badName = sandbox.tenantctl(["init", "--module-name", "deps/other/src=a b"], in: app.work)
        #expect(badName.status != 0)
        #expect(badName.stderr.contains("--module-name deps/other/src=a b: the name a b contains whitespace"))
        #expect(!FileManager.default.fileExists(atPath: app.work + "/modules.json"))
        // Control: a usable name for an existing path is taken.
        let named = sandbox.tenantctl(["init", "--module-name", "deps/other/src=obs-other"], in: app.work)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(try sandbox.read("app/modules.json").contains(#""name": "obs-other""#))
    }

    /// The printed lines of `output` that follow `marker`, indented by two spaces, without the indentation.
    static func indented(after marker: String, in output: String) -> [String] {
        let lines = output.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix(marker) }) else { return [] }
        return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }
    }

    @Test func initSaysGitIgnoresItsFilesAndPrintsACommandThatAddsThem() throws {
        let sandbox = try GitSandbox()
        let app = try PublishedSuperproject(sandbox: sandbox)
        let result = sandbox.tenantctl(["init"], in: app.work)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "git ignores modules.json and Tenants/ (.gitignore:1: /*): `git add modules.json Tenants` refuses them"),
            "\(result.stderr)")
        // The guide's plain command refuses, as the warning says.
        let plain = try sandbox.gitResult(["add", "modules.json", "Tenants"], in: app.work)
        #expect(plain.status != 0)
        #expect(plain.stderr.contains("ignored"))
        // The printed command works as printed.
        let commands = Self.indented(after: "add them anyway", in: result.stdout)
        #expect(commands == ["git add -f -- modules.json Tenants"], "\(result.stdout)")
        let add = try sandbox.run(
            "/bin/sh", ["-c", "cd \(GitSandboxShell.quote(app.work)) && \(try #require(commands.first))"])
        #expect(add.status == 0, "\(add.stderr)")
        let staged = try sandbox.git(["diff", "--cached", "--name-only"], in: app.work)
        #expect(staged.split(separator: "\n") == ["Tenants/release-30.0.json", "modules.json"])
        let json = sandbox.tenantctl(["init", "--json"], in: app.work)
        let files = try #require(try app.json(json.stdout)["files"] as? [[String: Any]])
        #expect(files.allSatisfy { $0["ignored"] as? Bool == false }, "tracked files are not ignored: \(files)")
    }

    @Test func thePrintedGitignoreLinesLetThePlainAddWork() throws {
        let sandbox = try GitSandbox()
        let app = try PublishedSuperproject(sandbox: sandbox)
        let result = sandbox.tenantctl(["init"], in: app.work)
        let lines = Self.indented(after: "or let git see them", in: result.stdout)
        #expect(lines == ["!/modules.json", "!/Tenants/", "!/Tenants/*.json"], "\(result.stdout)")
        let gitignore = try sandbox.read("app/.gitignore")
        try sandbox.write("app/.gitignore", gitignore + lines.joined(separator: "\n") + "\n")
        try sandbox.git(["add", ".gitignore", "modules.json", "Tenants"], in: app.work)
        let json = sandbox.tenantctl(["init", "--json"], in: app.work)
        #expect(json.status == 0)
        let files = try #require(try app.json(json.stdout)["files"] as? [[String: Any]])
        #expect(files.count == 2)
        #expect(files.allSatisfy { $0["ignored"] as? Bool == false })
    }

    @Test func initSaysNothingAboutIgnoredFilesWhenGitSeesThem() throws {
        let sandbox = try GitSandbox()
        let app = try PublishedSuperproject(sandbox: sandbox, ignoreEverything: false)
        let result = sandbox.tenantctl(["init", "--json"], in: app.work)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try #require(try app.json(result.stdout)["files"] as? [[String: Any]])
        #expect(files.map { $0["ignored"] as? Bool } == [false, false])
        let text = sandbox.tenantctl(["init"], in: app.work)
        #expect(!text.stderr.contains("git ignores"))
        #expect(!text.stdout.contains("git add -f"))
        // Control: the same project with the root rule reports both files.
        try sandbox.write("app/.gitignore", PublishedSuperproject.gitignore)
        let ignored = sandbox.tenantctl(["init", "--json"], in: app.work)
        let both = try #require(try app.json(ignored.stdout)["files"] as? [[String: Any]])
        #expect(both.map { $0["ignored"] as? Bool } == [true, true])
        // Started elsewhere with -C, the printed command runs from there too.
        let elsewhere = sandbox.tenantctl(["init", "-C", app.work], in: sandbox.root)
        let commands = Self.indented(after: "add them anyway", in: elsewhere.stdout)
        #expect(commands == ["git -C \(app.work) add -f -- modules.json Tenants"], "\(elsewhere.stdout)")
        let add = try sandbox.run(
            "/bin/sh", ["-c", "cd \(GitSandboxShell.quote(sandbox.root)) && \(try #require(commands.first))"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try sandbox.git(["diff", "--cached", "--name-only"], in: app.work).contains("modules.json"))
    }

    @Test func aModuleThatMovedIsFoundAtItsOldPathByAuditVerifyAndRoll() throws {
        let sandbox = try GitSandbox()
        let app = try PublishedSuperproject(sandbox: sandbox)
        try app.adopt()
        let old = PublishedSuperproject.oldPath
        let new = PublishedSuperproject.newPath
        let backport = try #require(try app.pin("release/30.0", old))
        #expect(try app.pin("release/30.0", new) == nil)

        // audit: the pin at the old path, compared with master, and a finding that says where it is.
        let audit = sandbox.tenantctl(["audit", "--json"], in: app.work)
        #expect(audit.status == 0, "\(audit.stderr)")
        var cells: [String: [String: Any]] = [:]
        for tenant in try #require(try app.json(audit.stdout)["tenants"] as? [[String: Any]]) {
            for module in try #require(tenant["modules"] as? [[String: Any]]) {
                cells["\(tenant["id"] ?? "")/\(module["module"] ?? "")"] = module
            }
        }
        let cell = try #require(cells["release-30.0/libdshowcapture"])
        let findings = cell["findings"] as? [[String: Any]] ?? []
        #expect(cell["pin"] as? String == backport)
        #expect(cell["branch"] as? String == "master")
        #expect(cell["ahead"] as? Int == 0)
        #expect(cell["behind"] as? Int == 1)
        #expect(findings.compactMap { $0["code"] as? String } == ["moved-path"], "\(findings)")
        #expect(
            findings.first?["message"] as? String
                == "branch release/30.0 has libdshowcapture at \(old), master at \(new) (the module moved); roll "
                + "moves the gitlink")
        // Control: a module the release line really lacks is still not pinned.
        let other = (cells["release-30.0/other"]?["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] }
        #expect(other as? [String] == ["not-pinned"])
        let text = sandbox.tenantctl(["audit"], in: app.work)
        #expect(text.stdout.contains("moved-path"), "\(text.stdout)")

        // verify agrees: the pin is checked where it is, the old .gitmodules entry is no drift.
        let verify = sandbox.tenantctl(["verify", "--json"], in: app.work)
        let verifyFindings = try #require(try app.json(verify.stdout)["findings"] as? [[String: Any]])
        let dshow = verifyFindings.filter { ($0["message"] as? String ?? "").contains("libdshowcapture") }
        #expect(dshow.compactMap { $0["code"] as? String } == ["moved-path"], "\(dshow)")
        #expect(
            verifyFindings.contains {
                $0["code"] as? String == "not-pinned" && $0["module"] as? String == "other"
            })

        // roll: the release line merges master and pins the module at the path the merged .gitmodules gives.
        let roll = sandbox.tenantctl(["roll"], in: app.work)
        #expect(roll.status == 0, "\(roll.stdout)\(roll.stderr)")
        let tip = try app.tip("libdshowcapture")
        #expect(try app.pin("release/30.0", new) == tip)
        #expect(try app.pin("release/30.0", old) == nil)
        #expect(try app.pin("release/30.0", "deps/other/src") == (try app.tip("other")))
        let gitmodules = try sandbox.git(
            ["config", "--blob", "release/30.0:.gitmodules", "--get-regexp", "^submodule\\..*\\.path$"],
            in: "\(app.remotes)/App.git")
        #expect(gitmodules.contains("submodule.\(old).path \(new)"), "\(gitmodules)")
        #expect(!gitmodules.contains(" \(old)"))
        #expect(try sandbox.git(["show", "release/30.0:README"], in: "\(app.remotes)/App.git") == "app 30.0.1")
        let check = sandbox.tenantctl(["audit", "--check"], in: app.work)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func aModuleATenantBranchMovedItselfStaysWhereItsGitmodulesPutsIt() throws {
        let sandbox = try GitSandbox()
        let app = try PublishedSuperproject(sandbox: sandbox)
        // customer/x moves `other` to its own place (git mv: its .gitmodules and its gitlink), master does not.
        try app.moveOtherOnCustomerX()
        try app.adopt()
        let pinned = try #require(try app.pin("customer/x", "plugins/other"))

        let audit = sandbox.tenantctl(["audit", "--json"], in: app.work)
        let tenant = try #require(
            (try app.json(audit.stdout)["tenants"] as? [[String: Any]])?.first { $0["id"] as? String == "customer-x" })
        let cell = try #require((tenant["modules"] as? [[String: Any]])?.first { $0["module"] as? String == "other" })
        #expect(cell["pin"] as? String == pinned)
        #expect((cell["findings"] as? [[String: Any]])?.compactMap { $0["code"] as? String } == ["moved-path"])

        // roll: the merged .gitmodules keeps other in plugins/other, so the gitlink stays there (not a second one at
        // deps/other/src that no .gitmodules entry names); the moved libdshowcapture of the release line still moves.
        let roll = sandbox.tenantctl(["roll"], in: app.work)
        #expect(roll.status == 0, "\(roll.stdout)\(roll.stderr)")
        let links = try sandbox.gitlinks(on: "customer/x", in: "\(app.remotes)/App.git")
        #expect(links["plugins/other"] == (try app.tip("other")))
        #expect(links["deps/other/src"] == nil)
        #expect(links[PublishedSuperproject.newPath] == (try app.tip("libdshowcapture")))
        let paths = try sandbox.git(
            ["config", "--blob", "customer/x:.gitmodules", "--get-regexp", "^submodule\\..*\\.path$"],
            in: "\(app.remotes)/App.git")
        #expect(paths.contains("plugins/other"), "\(paths)")
        #expect(!paths.contains(".path deps/other/src"), "\(paths)")
        #expect(try app.pin("release/30.0", PublishedSuperproject.newPath) == (try app.tip("libdshowcapture")))
        #expect(try app.pin("release/30.0", PublishedSuperproject.oldPath) == nil)
    }
}
