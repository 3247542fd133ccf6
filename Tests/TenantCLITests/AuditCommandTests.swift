import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

struct AuditTestError: Error {
    var message: String
}

/// `tenantctl audit` on `example` workspaces; every expectation is computed with plain git.
@Suite(.tags(.slow), .notInTheFastSet) struct AuditCommandTests {
    static let modules = ["Infrastructure", "Article", "Customer", "Order"]

    /// Builds the example and returns it.
    func example(_ sandbox: GitSandbox, stage: ExampleStage = .beforeUpdates) throws -> ExampleResult {
        try sandbox.exampleCopy(in: sandbox.path("erp"), stage: stage)
    }

    /// Runs `tenantctl audit --json` in the workspace and returns the exit status and the decoded JSON.
    func auditJSON(_ sandbox: GitSandbox, _ example: ExampleResult, _ extra: [String] = []) throws -> (
        status: Int32, json: [String: Any]
    ) {
        let result = sandbox.tenantctl(["audit", "--json"] + extra, in: example.workspace)
        #expect(result.status == 0 || result.status == 2, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return (result.status, try #require(object as? [String: Any]))
    }

    /// tenant id → module name → module entry.
    func entries(_ json: [String: Any]) throws -> [String: [String: [String: Any]]] {
        var result: [String: [String: [String: Any]]] = [:]
        for tenant in try #require(json["tenants"] as? [[String: Any]]) {
            let id = try #require(tenant["id"] as? String)
            for module in try #require(tenant["modules"] as? [[String: Any]]) {
                result[id, default: [:]][try #require(module["module"] as? String)] = module
            }
        }
        return result
    }

    func tenant(_ json: [String: Any], _ id: String) throws -> [String: Any] {
        let tenants = try #require(json["tenants"] as? [[String: Any]])
        return try #require(tenants.first { $0["id"] as? String == id })
    }

    func codes(_ entry: [String: Any]?) -> [String] {
        (entry?["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    func count(_ sandbox: GitSandbox, _ range: String, in repository: String, noMerges: Bool = false) throws -> Int {
        Int(try sandbox.git(["rev-list", "--count"] + (noMerges ? ["--no-merges"] : []) + [range], in: repository))
            ?? -1
    }

    /// The pin of `module` on superproject branch `branch`, read with plain git.
    func pin(_ sandbox: GitSandbox, _ example: ExampleResult, _ branch: String, _ module: String) throws -> String {
        let line = try sandbox.git(
            ["ls-tree", branch, "--", "Modules/\(module)"], in: "\(example.remotes)/Superproject.git")
        return String(line.split(separator: " ")[2].prefix(40))
    }

    /// Commits on superproject `branch` (in the bare remote) that set the gitlinks in `pins` (module → commit;
    /// an empty commit removes the gitlink).
    func repin(_ sandbox: GitSandbox, _ example: ExampleResult, _ branch: String, _ pins: [String: String]) throws {
        let repository = "\(example.remotes)/Superproject.git"
        let index = ["GIT_INDEX_FILE": sandbox.path("repin-index")]
        func git(_ arguments: [String], input: String? = nil) throws -> String {
            let result = try sandbox.run(
                "/usr/bin/env", ["git", "-C", repository] + arguments, input: input, extraEnvironment: index)
            guard result.status == 0 else { throw AuditTestError(message: result.stderr) }
            return result.stdout.trimmingCharacters(in: .newlines)
        }
        _ = try git(["read-tree", branch])
        for (module, commit) in pins {
            if commit.isEmpty {
                _ = try git(
                    ["update-index", "--index-info"],
                    input: "0 \(String(repeating: "0", count: 40))\tModules/\(module)\n")
            } else {
                _ = try git(["update-index", "--cacheinfo", "160000,\(commit),Modules/\(module)"])
            }
        }
        let tree = try git(["write-tree"])
        let commit = try git(["commit-tree", tree, "-p", branch, "-m", "re-pin"])
        _ = try git(["update-ref", "refs/heads/\(branch)", commit])
        try FileManager.default.removeItem(atPath: sandbox.path("repin-index"))
    }

    /// A new commit on a module remote's branch (created from `from` when missing); returns its id.
    @discardableResult
    func commitOnModule(
        _ sandbox: GitSandbox, _ example: ExampleResult, _ module: String, branch: String, from: String? = nil,
        file: String = "Extra.txt"
    ) throws -> String {
        let clone = sandbox.path("clone-\(module)-\(UUID().uuidString.prefix(6))")
        try sandbox.git(["clone", "-q", "\(example.remotes)/\(module).git", clone])
        try sandbox.git(["checkout", "-q", "-B", branch, "origin/\(from ?? branch)"], in: clone)
        try sandbox.write(String(clone.dropFirst(sandbox.root.count + 1)) + "/" + file, "extra\n")
        try sandbox.git(["add", "--", file], in: clone)
        try sandbox.git(["commit", "-q", "-m", "extra"], in: clone)
        try sandbox.git(["push", "-q", "origin", "HEAD:refs/heads/\(branch)"], in: clone)
        return try sandbox.git(["rev-parse", "HEAD"], in: clone)
    }

    @Test func beforeUpdatesShowsWhatEachTenantCustomised() throws {
        let sandbox = try GitSandbox()
        let example = try example(sandbox)
        let (status, json) = try auditJSON(sandbox, example, ["--check", "--changed-files"])
        #expect(status == 0)
        #expect(json["schemaVersion"] as? Int == 2)
        #expect(json["generalBranch"] as? String == "general_dev")
        // The report says what it describes: the general branch's commit on the remote, the remote, the version.
        let source = try #require(json["source"] as? [String: Any])
        let general = try sandbox.git(["rev-parse", "origin/general_dev"], in: example.workspace)
        #expect(source["generalCommit"] as? String == general.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(
            source["remote"] as? String == "origin" && source["tenantctlVersion"] as? String == TenantKitInfo.version)
        #expect((source["url"] as? String)?.hasSuffix("Superproject.git") == true, "\(source)")
        #expect((json["tenants"] as? [[String: Any]])?.map { $0["id"] as? String } == ["t1", "t2", "t3"])
        let rows = try entries(json)
        let customised: [String: Set<String>] = ["t1": [], "t2": ["Infrastructure", "Customer"], "t3": ["Order"]]
        for (tenant, modules) in customised {
            #expect(rows[tenant]?.keys.count == 4)
            for module in Self.modules {
                let entry = try #require(rows[tenant]?[module])
                let repository = "\(example.remotes)/\(module).git"
                let pin = try pin(sandbox, example, tenant, module)
                let isCustomised = modules.contains(module)
                #expect(entry["pin"] as? String == pin)
                #expect(entry["customised"] as? Bool == isCustomised, "\(tenant)/\(module)")
                #expect(entry["branch"] as? String == (isCustomised ? tenant : "general_dev"))
                let ahead = try count(sandbox, "general_dev..\(pin)", in: repository, noMerges: true)
                #expect(entry["ahead"] as? Int == ahead, "\(tenant)/\(module)")
                #expect((ahead > 0) == isCustomised, "\(tenant)/\(module)")
                #expect(entry["behind"] as? Int == 0)
                #expect(entry["pinIsTip"] as? Bool == true)
                let base = try sandbox.git(["merge-base", "general_dev", pin], in: repository)
                let files = try sandbox.git(["diff", "--name-only", "-z", base, pin], in: repository)
                    .split(separator: "\0").map(String.init).sorted()
                #expect(entry["changedFiles"] as? [String] == files, "\(tenant)/\(module)")
                #expect(isCustomised == !files.isEmpty)
                #expect(codes(entry).isEmpty, "\(tenant)/\(module)")
                let active = !(tenant == "t2" && (module == "Article" || module == "Order"))
                #expect(entry["active"] as? Bool == active, "\(tenant)/\(module)")
            }
            let superproject = try #require(try self.tenant(json, tenant)["superproject"] as? [String: Any])
            let repository = "\(example.remotes)/Superproject.git"
            #expect(superproject["ahead"] as? Int == (try count(sandbox, "general_dev..\(tenant)", in: repository)))
            #expect(superproject["behind"] as? Int == 0)
            let changed = try sandbox.git(["diff", "--name-only", "general_dev...\(tenant)"], in: repository)
                .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("Modules/") }.sorted()
            #expect(superproject["changedFiles"] as? [String] == changed)
            #expect(!changed.isEmpty)
        }
    }

    @Test func afterUpdatesReportsBehindAndCheckFailsUntilRolled() throws {
        let sandbox = try GitSandbox()
        let example = try example(sandbox, stage: .afterUpdates)
        let (status, json) = try auditJSON(sandbox, example, ["--check"])
        #expect(status == 2)
        let rows = try entries(json)
        var anyBehind = false
        for tenant in ["t1", "t2", "t3"] {
            for module in Self.modules {
                let pin = try pin(sandbox, example, tenant, module)
                let behind = try count(sandbox, "\(pin)..general_dev", in: "\(example.remotes)/\(module).git")
                #expect(rows[tenant]?[module]?["behind"] as? Int == behind, "\(tenant)/\(module)")
                anyBehind = anyBehind || behind > 0
            }
        }
        #expect(anyBehind)
        #expect(rows["t2"]?["Article"]?["behind"] as? Int == 1)
        #expect(rows["t1"]?["Customer"]?["behind"] as? Int == 0)

        let roll = sandbox.tenantctl(["roll"], in: example.workspace)
        #expect(roll.status == 0, "\(roll.stdout)\(roll.stderr)")
        let (rolled, after) = try auditJSON(sandbox, example, ["--check"])
        #expect(rolled == 0, "\(after)")
        for (_, modules) in try entries(after) {
            for (_, entry) in modules { #expect(entry["behind"] as? Int == 0) }
        }
        // The table form of --check agrees.
        #expect(sandbox.tenantctl(["audit", "--check", "--no-fetch"], in: example.workspace).status == 0)
    }

    @Test func eachProblemIsReportedAsItsFinding() throws {
        let sandbox = try GitSandbox()
        let example = try example(sandbox)
        // undeclared-customisation: t1 pins an Article commit that is not on general_dev (but on the remote).
        let offGeneral = try commitOnModule(sandbox, example, "Article", branch: "experiment", from: "general_dev")
        // inactive-but-customised: t2 (Article inactive) pins it too.
        // missing-commit: t1 pins an Infrastructure commit that the remote does not have.
        let unknown = "1234567890123456789012345678901234567890"
        try repin(sandbox, example, "t1", ["Article": offGeneral, "Infrastructure": unknown])
        try repin(sandbox, example, "t2", ["Article": offGeneral])
        // stale-pin: t2's Customer branch moves on without a re-pin.
        let newTip = try commitOnModule(sandbox, example, "Customer", branch: "t2")
        // missing-branch: Order's t3 branch is deleted (its commit stays reachable from a backup branch).
        let order = "\(example.remotes)/Order.git"
        try sandbox.git(["branch", "backup", "t3"], in: order)
        try sandbox.git(["branch", "-D", "t3"], in: order)

        // not-pinned: t3 has no gitlink for Customer. missing-branch (superproject): t4 has a file but no branch.
        try repin(sandbox, example, "t3", ["Customer": ""])
        try addTenants(sandbox, example, upTo: 4)
        try sandbox.git(["branch", "-D", "t4"], in: "\(example.remotes)/Superproject.git")

        let (status, json) = try auditJSON(sandbox, example, ["--check", "--changed-files"])
        #expect(status == 2)
        let rows = try entries(json)
        #expect(codes(rows["t3"]?["Customer"]) == ["not-pinned"])
        #expect(rows["t3"]?["Customer"]?["pin"] is NSNull)
        let t4 = try tenant(json, "t4")
        #expect(codes(t4["superproject"] as? [String: Any]) == ["missing-branch"])
        #expect((t4["modules"] as? [Any])?.isEmpty == true)
        #expect(codes(rows["t1"]?["Article"]) == ["undeclared-customisation"])
        #expect(rows["t1"]?["Article"]?["ahead"] as? Int == 1)
        #expect(rows["t1"]?["Article"]?["changedFiles"] as? [String] == ["Extra.txt"])
        #expect(codes(rows["t1"]?["Infrastructure"]) == ["missing-commit"])
        #expect(rows["t1"]?["Infrastructure"]?["ahead"] is NSNull)
        #expect(rows["t1"]?["Infrastructure"]?["pin"] as? String == unknown)
        #expect(codes(rows["t2"]?["Article"]) == ["undeclared-customisation", "inactive-but-customised"])
        #expect(codes(rows["t2"]?["Customer"]) == ["stale-pin"])
        #expect(rows["t2"]?["Customer"]?["pinIsTip"] as? Bool == false)
        let message = (rows["t2"]?["Customer"]?["findings"] as? [[String: Any]])?.first?["message"] as? String
        #expect(message?.contains(String(newTip.prefix(7))) == true)
        #expect(codes(rows["t3"]?["Order"]) == ["missing-branch"])
        #expect(codes(rows["t1"]?["Customer"]) == [])

        let raw = sandbox.tenantctl(["audit", "--no-fetch", "--format", "json"], in: example.workspace)
        let schemaPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/audit-schema.json").path
        #expect(try JSONSchemaCheck(contentsOf: schemaPath).violations(of: raw.stdout) == [])

        // In a 100-column terminal (findings wrap at the terminal's width).
        let table = sandbox.tenantctl(
            ["audit", "--no-fetch"], in: example.workspace, environment: ["COLUMNS": "100"], terminal: true)
        #expect(table.status == 0)
        #expect(table.stdout.contains("t2/Customer: stale-pin: pin "))
        #expect(table.stdout.contains("t3/Order: missing-branch: module Order has no branch t3 on its remote"))
        #expect(table.stdout.contains("8 findings"))
        for line in table.stdout.split(separator: "\n") { #expect(TextWidth.of(String(line)) <= 100, "\(line)") }
        #expect(!table.stdout.contains("\u{1B}["))
        let coloured = sandbox.tenantctl(["audit", "--no-fetch", "--color", "always"], in: example.workspace)
        #expect(coloured.stdout.contains("\u{1B}[31m!\u{1B}[0m"))
    }

    /// `--tenant t2 --module Infrastructure` lists the commits behind the cell's counts: ids, authors, subjects, in
    /// the terminal and in the JSON; the totals are the matrix's counts.
    @Test func oneCellListsItsCommits() throws {
        let sandbox = try GitSandbox()
        let example = try example(sandbox, stage: .afterUpdates)
        let (_, json) = try auditJSON(sandbox, example, ["--tenant", "t2", "--module", "Infrastructure"])
        let cell = try #require(json["cell"] as? [String: Any], "\(json.keys)")
        let entry = try #require(try entries(json)["t2"]?["Infrastructure"])
        let behind = try #require(cell["behind"] as? [[String: Any]])
        let customised = try #require(cell["customised"] as? [[String: Any]])
        #expect(cell["behindTotal"] as? Int == entry["behind"] as? Int && behind.count == entry["behind"] as? Int)
        #expect(cell["customisedTotal"] as? Int == entry["ahead"] as? Int && !customised.isEmpty)
        #expect(cell["pin"] as? String == entry["pin"] as? String)
        let repository = "\(example.remotes)/Infrastructure.git"
        for commit in behind + customised {
            let id = try #require(commit["id"] as? String)
            let subject = try sandbox.git(["log", "-1", "--format=%s", id], in: repository)
            #expect(subject.trimmingCharacters(in: .newlines) == commit["subject"] as? String)
            #expect((commit["author"] as? String)?.isEmpty == false)
        }
        let raw = sandbox.tenantctl(
            ["audit", "--no-fetch", "--json", "--tenant", "t2", "--module", "Infrastructure"], in: example.workspace)
        let schemaPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/audit-schema.json").path
        #expect(try JSONSchemaCheck(contentsOf: schemaPath).violations(of: raw.stdout) == [])
        // The terminal shows the same commits by short id and subject.
        let text = sandbox.tenantctl(
            ["audit", "--no-fetch", "--tenant", "t2", "--module", "Infrastructure"], in: example.workspace)
        #expect(text.status == 0, "\(text.stderr)")
        for commit in behind + customised {
            let id = try #require(commit["id"] as? String)
            let subject = try #require(commit["subject"] as? String)
            #expect(text.stdout.contains("  \(id.prefix(7))  \(subject)"), "\(text.stdout)")
        }
        // Positive control: without --module no commits; --module needs one --tenant; an unknown module is named.
        let plain = sandbox.tenantctl(["audit", "--no-fetch", "--tenant", "t2"], in: example.workspace)
        #expect(!plain.stdout.contains("customised: the tenant's commits"))
        #expect(text.stdout.contains("customised: the tenant's commits"))
        let noTenant = sandbox.tenantctl(["audit", "--no-fetch", "--module", "Order"], in: example.workspace)
        #expect(noTenant.status == 64 && noTenant.stderr.contains("--tenant"), "\(noTenant.stderr)")
        let unknown = sandbox.tenantctl(
            ["audit", "--no-fetch", "--tenant", "t2", "--module", "Ordr"], in: example.workspace)
        #expect(unknown.status == 64 && unknown.stderr.contains("did you mean Order?"), "\(unknown.stderr)")
    }

    @Test func worksInAPlainCloneWithoutSubmodulesAndFiltersTenants() throws {
        let sandbox = try GitSandbox()
        let example = try example(sandbox)
        let clone = sandbox.path("ci")
        try sandbox.git(["clone", "-q", "-b", "general_dev", "\(example.remotes)/Superproject.git", clone])
        let result = sandbox.tenantctl(["audit", "--tenant", "t3", "--format", "markdown"], in: clone)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("| t3 |"))
        #expect(!result.stdout.contains("| t1 |"))
        #expect(result.stdout.contains("t3/Order: 2 commits"))
        // Submodules stay uninitialised; the working tree is untouched.
        #expect(try sandbox.git(["status", "--porcelain=v2"], in: clone).isEmpty)
        #expect(
            try sandbox.git(["submodule", "status"], in: clone).split(separator: "\n").allSatisfy { $0.hasPrefix("-") })
        let unknown = sandbox.tenantctl(["audit", "--tenant", "t9", "--no-fetch"], in: clone)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("error: unknown tenant t9; known tenants: t1, t2, t3"))
    }

    @Test func gitProcessesDoNotGrowWithTenants() throws {
        let sandbox = try GitSandbox()
        let example = try example(sandbox)
        let shim = try GitShim(in: sandbox)
        func processes(tenants: Int) throws -> Int {
            try addTenants(sandbox, example, upTo: tenants)
            let fetch = sandbox.tenantctl(["audit", "--git", shim.path], in: example.workspace)
            #expect(fetch.status == 0, "\(fetch.stderr)")
            try shim.reset()
            let result = sandbox.tenantctl(
                ["audit", "--json", "--no-fetch", "--git", shim.path], in: example.workspace)
            #expect(result.status == 0, "\(result.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect((json?["tenants"] as? [Any])?.count == tenants)
            return try shim.calls().count
        }
        let few = try processes(tenants: 5)
        let many = try processes(tenants: 50)
        #expect(few == many)
        // 4 superproject reads + 3 per module, plus start-up, workspace and project reads.
        let calls = try shim.calls()
        for module in Self.modules {
            let inMirror = calls.filter { $0.contains("mirrors/\(module).git ") }
            #expect(inMirror.count <= 3, "\(inMirror.joined(separator: "\n"))")
        }
        #expect(many <= 4 + 3 * 4 + 8, "\(calls.joined(separator: "\n"))")
    }

    /// Adds tenants t4…tN (every module active, nothing customised) with a branch each, on the remote.
    func addTenants(_ sandbox: GitSandbox, _ example: ExampleResult, upTo count: Int) throws {
        let clone = sandbox.path("tenants-clone")
        if !FileManager.default.fileExists(atPath: clone) {
            try sandbox.git(["clone", "-q", "-b", "general_dev", "\(example.remotes)/Superproject.git", clone])
        }
        try sandbox.git(["pull", "-q", "--ff-only"], in: clone)
        var refspecs = ["general_dev"]
        for number in 4...count where !FileManager.default.fileExists(atPath: "\(clone)/Tenants/t\(number).json") {
            try sandbox.write(
                "tenants-clone/Tenants/t\(number).json",
                """
                { "id": "t\(number)", "modules": ["Infrastructure", "Article", "Customer", "Order"], "customised": [] }

                """)
            refspecs.append("general_dev:refs/heads/t\(number)")
        }
        try sandbox.git(["add", "-A"], in: clone)
        try sandbox.git(["commit", "-q", "-m", "tenants up to \(count)"], in: clone)
        try sandbox.git(["push", "-q", "origin"] + refspecs, in: clone)
    }

    @Test func helpHasAbstractDiscussionAndExamples() throws {
        let sandbox = try GitSandbox()
        let help = sandbox.tenantctl(["audit", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Show what each tenant customised"))
        #expect(help.stdout.contains("tenantctl audit --check"))
        #expect(help.stdout.contains("--no-fetch"))
        let conflict = sandbox.tenantctl(["audit", "--json", "--format", "table"])
        #expect(conflict.status == 64)
    }
}
