import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// A superproject as real projects publish it, made with plain git: on `main`, over modules whose default branch is
/// `master`; a tenant branch `customer/acme`; a module path with a space; an old tenant branch made before a module
/// was added. Adopted with `init` end to end; every command uses each module's own general branch.
struct RealSuperproject {
    let sandbox: GitSandbox
    /// `remotes/<Name>.git`.
    let remotes: String
    /// The working clone of the superproject (on `main`).
    let work: String

    static let modules = ["Core", "Shop", "Extra"]

    init(sandbox: GitSandbox, workName: String = "app") throws {
        self.sandbox = sandbox
        remotes = sandbox.path("remotes")
        work = sandbox.path(workName)
        for name in Self.modules {
            let seed = try sandbox.seedRepository(name, remotes: remotes)
            if name == "Shop" {
                try sandbox.git(["checkout", "-q", "-b", "customer/acme"], in: seed)
                try sandbox.write("seed-\(name)/Acme.txt", "acme\n")
                try sandbox.git(["add", "Acme.txt"], in: seed)
                try sandbox.git(["commit", "-q", "-m", "acme's shop"], in: seed)
                try sandbox.git(["checkout", "-q", "master"], in: seed)
            }
            try sandbox.git(["push", "-q", "origin", "--all"], in: seed)
        }
        try sandbox.git(["init", "-q", "--bare", "-b", "main", "\(remotes)/App.git"])
        try sandbox.git(["clone", "-q", "\(remotes)/App.git", work])
        try sandbox.git(["submodule", "add", "-q", "../Core.git", "Modules/Core"], in: work)
        try sandbox.git(["submodule", "add", "-q", "../Shop.git", "Modules/Shop"], in: work)
        try sandbox.write("\(workName)/AppName", "App\n")
        try sandbox.git(["add", "AppName"], in: work)
        try sandbox.git(["commit", "-q", "-m", "app with Core and Shop"], in: work)
        // An old tenant branch, made before Extra existed.
        try sandbox.git(["checkout", "-q", "-b", "old"], in: work)
        try sandbox.write("\(workName)/AppName", "Old App\n")
        try sandbox.git(["commit", "-q", "-am", "old's name"], in: work)
        try sandbox.git(["checkout", "-q", "main"], in: work)
        try sandbox.git(["submodule", "add", "-q", "../Extra.git", "Modules/My Extra"], in: work)
        try sandbox.git(["commit", "-q", "-m", "add Extra"], in: work)
        // acme: Shop pinned to acme's branch, its own name.
        try sandbox.git(["checkout", "-q", "-b", "customer/acme"], in: work)
        try sandbox.git(["fetch", "-q", "origin", "customer/acme"], in: work + "/Modules/Shop")
        try sandbox.git(["checkout", "-q", "FETCH_HEAD"], in: work + "/Modules/Shop")
        try sandbox.write("\(workName)/AppName", "Acme App\n")
        try sandbox.git(["commit", "-q", "-am", "acme"], in: work)
        try sandbox.git(["push", "-q", "origin", "main", "old", "customer/acme"], in: work)
        try sandbox.git(["checkout", "-q", "main"], in: work)
        try sandbox.git(["submodule", "update", "-q"], in: work)
        // General development moves on in Core after everything was pinned.
        let seed = sandbox.path("seed-Core")
        try sandbox.write("seed-Core/Feature.txt", "feature\n")
        try sandbox.git(["add", "Feature.txt"], in: seed)
        try sandbox.git(["commit", "-q", "-m", "Core 2"], in: seed)
        try sandbox.git(["push", "-q", "origin", "master"], in: seed)
    }

    /// A module's branch tip on its remote.
    func tip(_ module: String, _ branch: String) throws -> String {
        try sandbox.git(["rev-parse", "refs/heads/\(branch)"], in: "\(remotes)/\(module).git")
    }

    /// The gitlink at `path` on a superproject branch of the remote (nil when none).
    func pin(_ branch: String, _ path: String) throws -> String? {
        let line = try sandbox.git(["ls-tree", branch, "--", path], in: "\(remotes)/App.git")
        guard !line.isEmpty else { return nil }
        return String(line.split(separator: " ")[2].prefix(40))
    }
}

@Suite(.tags(.slow), .notInTheFastSet) struct AdoptionEndToEndTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func mainSuperprojectOverMasterModulesIsAdoptedEndToEnd() throws {
        let sandbox = try GitSandbox()
        let app = try RealSuperproject(sandbox: sandbox)
        let work = app.work

        // init: general branch detected (no general_dev), modules' own general branch written, customer/acme kept.
        let initResult = sandbox.tenantctl(["init"], in: work)
        #expect(initResult.status == 0, "\(initResult.stderr)")
        #expect(initResult.stderr.contains("general branch: main (the default branch of origin"))
        let manifest = try json(try sandbox.read("app/modules.json"))
        #expect(manifest["generalBranch"] as? String == "main")
        let modules = try #require(manifest["modules"] as? [[String: Any]])
        #expect(modules.map { $0["name"] as? String } == ["Core", "Shop", "Extra"])
        #expect(modules.map { $0["path"] as? String } == ["Modules/Core", "Modules/Shop", "Modules/My Extra"])
        #expect(modules.allSatisfy { $0["generalBranch"] as? String == "master" })
        let acme = try json(try sandbox.read("app/Tenants/customer-acme.json"))
        #expect(acme["id"] as? String == "customer-acme")
        #expect(acme["branch"] as? String == "customer/acme")
        #expect(acme["customised"] as? [String] == ["Shop"])
        let old = try json(try sandbox.read("app/Tenants/old.json"))
        #expect(old["customised"] as? [String] == [])

        // verify before the first push: the working tree's files are checked against the remotes.
        let early = sandbox.tenantctl(["verify"], in: work)
        #expect(early.status == 0 || early.status == 2, "\(early.stderr)")
        #expect(
            early.stdout.contains("origin/main has no modules.json yet: the git checks used the working tree's files"))
        #expect(!early.stderr.contains("has no modules.json"))
        #expect(!early.stdout.contains("missing-branch"), "\(early.stdout)")

        try sandbox.git(["add", "modules.json", "Tenants"], in: work)
        try sandbox.git(["commit", "-q", "-m", "Describe modules and tenants for tenantctl"], in: work)
        try sandbox.git(["push", "-q", "origin", "main"], in: work)

        let verify = sandbox.tenantctl(["verify", "--json"], in: work)
        let verifyJSON = try json(verify.stdout)
        let verifyCodes = (verifyJSON["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(!verifyCodes.contains("missing-branch"), "\(verify.stdout)")

        // audit: every module cell follows master (or acme's branch); Core is behind; Extra is not pinned on old.
        let audit = sandbox.tenantctl(["audit", "--json"], in: work)
        #expect(audit.status == 0, "\(audit.stderr)")
        let report = try json(audit.stdout)
        #expect(report["generalBranch"] as? String == "main")
        var cells: [String: [String: Any]] = [:]
        for tenant in try #require(report["tenants"] as? [[String: Any]]) {
            for module in try #require(tenant["modules"] as? [[String: Any]]) {
                cells["\(tenant["id"] ?? "")/\(module["module"] ?? "")"] = module
            }
        }
        func codes(_ key: String) -> [String] {
            (cells[key]?["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        }
        #expect(cells["customer-acme/Core"]?["branch"] as? String == "master")
        #expect(cells["customer-acme/Core"]?["behind"] as? Int == 1)
        #expect(codes("customer-acme/Core") == [])
        #expect(cells["customer-acme/Shop"]?["branch"] as? String == "customer/acme")
        #expect(cells["customer-acme/Shop"]?["ahead"] as? Int == 1)
        #expect(codes("customer-acme/Shop") == [])
        #expect(codes("old/Extra") == ["not-pinned"])
        #expect(codes("old/Shop") == [])

        // switch to the general branch: every module on its own general branch (master) at the pin. A tenant
        // branch has modules.json and Tenants/ only after the first roll, so switch reads it there after the roll.
        let general = sandbox.tenantctl(["switch", "main"], in: work)
        #expect(general.status == 0, "\(general.stderr)")
        for module in ["Core", "Shop", "My Extra"] {
            #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: work + "/Modules/" + module) == "master")
        }

        // roll: Core's master reaches every tenant; old receives Extra (gitlink and .gitmodules entry).
        #expect(try app.pin("old", "Modules/My Extra") == nil)
        let roll = sandbox.tenantctl(["roll"], in: work)
        #expect(roll.status == 0, "\(roll.stderr)\n\(roll.stdout)")
        let coreTip = try app.tip("Core", "master")
        for branch in ["main", "old", "customer/acme"] {
            #expect(try app.pin(branch, "Modules/Core") == coreTip, "\(branch)")
        }
        #expect(try app.pin("old", "Modules/My Extra") == (try app.tip("Extra", "master")))
        let gitmodules = try sandbox.git(["show", "old:.gitmodules"], in: "\(app.remotes)/App.git")
        #expect(gitmodules.contains("path = Modules/My Extra"))
        #expect(try app.pin("customer/acme", "Modules/Shop") == (try app.tip("Shop", "customer/acme")))
        let check = sandbox.tenantctl(["audit", "--check"], in: work)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        // After the roll, switch: every module on its own branch at the pin.
        let switched = sandbox.tenantctl(["switch", "customer-acme"], in: work)
        #expect(switched.status == 0, "\(switched.stderr)")
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: work) == "customer/acme")
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: work + "/Modules/Shop") == "customer/acme")
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: work + "/Modules/Core") == "master")
        #expect(
            try sandbox.git(["rev-parse", "HEAD"], in: work + "/Modules/Shop")
                == (try app.tip("Shop", "customer/acme")))
        for target in ["old", "customer-acme", "main"] {
            let result = sandbox.tenantctl(["switch", target], in: work)
            #expect(result.status == 0, "\(target): \(result.stderr)")
        }
        let toOld = sandbox.tenantctl(["switch", "old"], in: work)
        #expect(toOld.status == 0, "\(toOld.stderr)")
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: work + "/Modules/My Extra") == "master")
    }

    @Test func initRefusesAGeneralBranchThatExistsNowhere() throws {
        let sandbox = try GitSandbox()
        let app = try RealSuperproject(sandbox: sandbox)
        let result = sandbox.tenantctl(["init", "--general-branch", "general_dev"], in: app.work)
        #expect(result.status == 1)
        #expect(result.stderr.contains("the superproject has no branch general_dev, locally or on origin"))
        #expect(!FileManager.default.fileExists(atPath: app.work + "/modules.json"))
        // Control: the branch that exists is accepted.
        #expect(sandbox.tenantctl(["init", "--general-branch", "main"], in: app.work).status == 0)
    }

    @Test func tenantFileWithAnUpperCaseExtensionIsReported() throws {
        let sandbox = try GitSandbox()
        let app = try RealSuperproject(sandbox: sandbox)
        #expect(sandbox.tenantctl(["init"], in: app.work).status == 0)
        let control = sandbox.tenantctl(["verify", "--no-fetch"], in: app.work)
        #expect(!control.stdout.contains("must end in .json"))
        try FileManager.default.moveItem(atPath: app.work + "/Tenants/old.json", toPath: app.work + "/Tenants/old.JSON")
        let result = sandbox.tenantctl(["verify"], in: app.work)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.contains("must end in .json (lower case), as Tenants/old.json"), "\(result.stdout)")
    }
}

/// The lifecycle commands on modules whose general branch is `master` under a `main` superproject.
@Suite struct ModuleOwnGeneralBranchLifecycleTests {
    @Test func customizeUncustomizeAndModuleAddFollowTheModulesOwnBranch() throws {
        let sandbox = try GitSandbox()
        let app = try RealSuperproject(sandbox: sandbox)
        let work = app.work
        #expect(sandbox.tenantctl(["init"], in: work).status == 0)
        try sandbox.git(["add", "modules.json", "Tenants"], in: work)
        try sandbox.git(["commit", "-q", "-m", "tenantctl files"], in: work)
        try sandbox.git(["push", "-q", "origin", "main"], in: work)

        let customize = sandbox.tenantctl(["customize", "old", "Core"], in: work)
        #expect(customize.status == 0, "\(customize.stderr)")
        // Undoing compares the tenant's branch with Core's master (there is no branch main in Core).
        let undo = sandbox.tenantctl(["uncustomize", "old", "Core"], in: work)
        #expect(undo.status == 0, "\(undo.stderr)")

        // module add: the new module's remote has master only → its own generalBranch, pinned at master.
        let seed = sandbox.path("seed-Billing")
        try sandbox.git(["init", "-q", "--bare", "-b", "master", "\(app.remotes)/Billing.git"])
        try sandbox.git(["init", "-q", "-b", "master", seed])
        try sandbox.write("seed-Billing/README", "billing\n")
        try sandbox.git(["add", "README"], in: seed)
        try sandbox.git(["commit", "-q", "-m", "Billing 1"], in: seed)
        try sandbox.git(["push", "-q", "\(app.remotes)/Billing.git", "master"], in: seed)
        let add = sandbox.tenantctl(["module", "add", "Billing", "--url", "../Billing.git"], in: work)
        #expect(add.status == 0, "\(add.stderr)")
        let manifest = try sandbox.git(["show", "main:modules.json"], in: "\(app.remotes)/App.git")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(manifest.utf8)) as? [String: Any])
        let billing = try #require(
            (object["modules"] as? [[String: Any]])?.first { $0["name"] as? String == "Billing" })
        #expect(billing["generalBranch"] as? String == "master")
        #expect(try app.pin("main", "Modules/Billing") == (try app.tip("Billing", "master")))
    }
}

/// docs/adopting.md, followed literally: its `sh` blocks, in order, as one shell script with the built tenantctl on
/// PATH, on a superproject on `main` over `master` modules.
@Suite(.tags(.slow), .notInTheFastSet) struct AdoptingGuideTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `sh` code blocks of a Markdown file, in order.
    static func shellBlocks(_ markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in markdown.components(separatedBy: "\n") {
            if current == nil, line == "```sh" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n"))
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func theGuideWorksAsWritten() throws {
        let sandbox = try GitSandbox()
        let app = try RealSuperproject(sandbox: sandbox, workName: "superproject")
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/adopting.md"), encoding: .utf8)
        let blocks = Self.shellBlocks(guide)
        #expect(blocks.count == 6)
        #expect(blocks.first?.hasPrefix("cd superproject") == true)
        let binary = try #require(TenantctlBinary.path())
        let bin = URL(fileURLWithPath: binary).deletingLastPathComponent().path
        // Each command's exit status, printed after it, so a failing step is named.
        // Starts in the sandbox (where `superproject` is), never anywhere else.
        var script = "set -u\ncd \(GitSandboxShell.quote(sandbox.root)) || exit 99\n"
        for block in blocks {
            for line in block.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                let command = line.hasPrefix("cd ") ? "\(line) || exit 98" : String(line)
                script += "\(command)\necho \"exit=$? :: \(line.replacingOccurrences(of: "\"", with: "'"))\"\n"
            }
        }
        let result = try sandbox.run(
            "/bin/sh", ["-c", script], extraEnvironment: ["PATH": bin + ":" + (sandbox.environment["PATH"] ?? "")])
        let statuses = result.stdout.split(separator: "\n").filter { $0.hasPrefix("exit=") }
        #expect(statuses.count == blocks.joined(separator: "\n").split(separator: "\n").count)
        for status in statuses {
            // verify before the roll reports the old tenant's missing module (exit 2); everything else succeeds.
            let allowed = status.contains("tenantctl verify") ? ["exit=0 ", "exit=2 "] : ["exit=0 "]
            #expect(allowed.contains { status.hasPrefix($0) }, "\(status)\n\(result.stderr)")
        }
        #expect(result.stdout.contains("has no modules.json yet: the git checks used the working tree's files"))
        #expect(!result.stderr.contains("error:"), "\(result.stderr)")
        // The result: files on main, Core's master rolled to every tenant, the old tenant has Extra.
        let manifest = try sandbox.git(["show", "main:modules.json"], in: "\(app.remotes)/App.git")
        #expect(manifest.contains(#""generalBranch": "master""#))
        for branch in ["main", "old", "customer/acme"] {
            #expect(try app.pin(branch, "Modules/Core") == (try app.tip("Core", "master")), "\(branch)")
        }
        #expect(try app.pin("old", "Modules/My Extra") == (try app.tip("Extra", "master")))
    }
}

enum GitSandboxShell {
    /// `value` as one single-quoted shell word.
    static func quote(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
