import Foundation
import TenantExample
import TenantKit
import Testing

@Suite struct ExampleScenarioTests {
    /// The package root, found from this file's location (`Tests/TenantKitTests/…`).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func topLevel(_ relative: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(relative), encoding: .utf8)
    }

    /// The state of a module branch's files after all its commits (fork point included).
    static func files(of repo: ExampleModuleRepo, branch name: String, withUpdates: Bool = false) -> [String: String] {
        guard let branch = repo.branches.first(where: { $0.name == name }) else { return [:] }
        var state = branch.from.map { Self.files(of: repo, branch: $0) } ?? [:]
        var commits = branch.commits
        if withUpdates && name == ExampleScenario.generalBranch { commits += repo.updates }
        for commit in commits {
            for (path, content) in commit.files { state[path] = content }
        }
        return state
    }

    @Test func embeddedModulesJSONEqualsTheTopLevelFile() throws {
        #expect(ExampleScenario.modulesJSON == (try Self.topLevel("modules.json")))
    }

    @Test func embeddedTenantFilesEqualTheTopLevelFiles() throws {
        let onDisk = try FileManager.default.contentsOfDirectory(
            atPath: Self.packageRoot.appendingPathComponent("Tenants").path
        ).filter { $0.hasSuffix(".json") }.sorted()
        #expect(onDisk == ExampleScenario.tenantJSON.map { "\($0.id).json" })
        for tenant in ExampleScenario.tenantJSON {
            #expect(tenant.json == (try Self.topLevel("Tenants/\(tenant.id).json")), "\(tenant.id)")
        }
    }

    @Test func modulesMatchTheManifestAndTheirModuleDescriptions() throws {
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(ExampleScenario.modulesJSON.utf8)) as? [String: Any])
        let entries = try #require(manifest["modules"] as? [[String: Any]])
        let dependsOn = Dictionary(
            uniqueKeysWithValues: entries.compactMap { entry in
                (entry["name"] as? String).map { ($0, entry["dependsOn"] as? [String] ?? []) }
            })
        #expect(ExampleScenario.modules.map(\.name) == ["Infrastructure", "Article", "Customer", "Order"])
        #expect(Set(dependsOn.keys) == Set(ExampleScenario.modules.map(\.name)))
        for repo in ExampleScenario.modules {
            for branch in repo.branches {
                let description = try #require(Self.files(of: repo, branch: branch.name)["ModuleDescription.json"])
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(description.utf8)) as? [String: Any])
                #expect(object["name"] as? String == repo.name)
                #expect(object["dependsOn"] as? [String] == dependsOn[repo.name], "\(repo.name)@\(branch.name)")
            }
        }
    }

    @Test func everyModuleHasAGeneralHistoryOfAtLeastThreeCommits() {
        for repo in ExampleScenario.modules {
            let general = repo.branches.first
            #expect(general?.name == ExampleScenario.generalBranch, "\(repo.name)")
            #expect(general?.from == nil)
            #expect((general?.commits.count ?? 0) >= 3, "\(repo.name)")
            let files = Self.files(of: repo, branch: ExampleScenario.generalBranch)
            for required in ["Strings.csv", "ModuleDescription.json", "Project.yml"] {
                #expect(files[required] != nil, "\(repo.name) lacks \(required)")
            }
            #expect(files.keys.contains { $0.hasPrefix("Sources/\(repo.name)/") && $0.hasSuffix(".swift") })
            #expect(files["Strings.csv"]?.hasPrefix("key,en") == true)
        }
    }

    @Test func branchesForkFromEarlierBranchesAndCommitsChangeSomething() {
        for repo in ExampleScenario.modules {
            var seen: Set<String> = []
            for branch in repo.branches {
                #expect(!seen.contains(branch.name), "\(repo.name) has \(branch.name) twice")
                if let from = branch.from { #expect(seen.contains(from), "\(repo.name)/\(branch.name) from \(from)") }
                #expect(!branch.commits.isEmpty)
                seen.insert(branch.name)
            }
            for commit in repo.branches.flatMap(\.commits) + repo.updates {
                #expect(!commit.files.isEmpty && !commit.message.isEmpty && !commit.message.contains("\n"))
            }
        }
    }

    @Test func tenantBranchesMatchTheDeclaredCustomisations() throws {
        for tenant in ExampleScenario.tenantJSON {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(tenant.json.utf8)) as? [String: Any])
            let customised = Set(object["customised"] as? [String] ?? [])
            let withBranch = Set(
                ExampleScenario.modules.filter { $0.branches.contains { $0.name == tenant.id } }.map(\.name))
            #expect(customised == withBranch, "\(tenant.id)")
            #expect(ExampleScenario.tenantBranding[tenant.id]?.isEmpty == false)
        }
        #expect(Set(ExampleScenario.tenantBranding.keys) == Set(ExampleScenario.tenantJSON.map(\.id)))
    }

    @Test func updatesTouchNoFileATenantBranchChanges() {
        let updated = ExampleScenario.modules.filter { !$0.updates.isEmpty }.map(\.name)
        #expect(updated == ["Infrastructure", "Article", "Order"])
        for repo in ExampleScenario.modules {
            let tenantFiles = Set(
                repo.branches.filter { $0.name != ExampleScenario.generalBranch }.flatMap(\.commits).flatMap(
                    \.files.keys))
            let updateFiles = Set(repo.updates.flatMap(\.files.keys))
            // ModuleDescription.json is shared on purpose: AF.6 changes its `packages` line, t3 its `pods` line
            // (ExampleBuilderTests proves the merge is clean).
            #expect(
                tenantFiles.intersection(updateFiles).isSubset(of: ["ModuleDescription.json"]),
                "\(repo.name): \(tenantFiles.intersection(updateFiles))")
            #expect(repo.updates.count <= 1, "one update commit per module")
        }
    }

    @Test func tenantBrandingChangesOnlyFilesThatExistOnGeneralDev() {
        let general = Set(ExampleScenario.superprojectGeneralFiles.keys)
        for (tenant, files) in ExampleScenario.tenantBranding {
            for (path, content) in files {
                #expect(general.contains(path), "\(tenant) brands \(path), which general_dev lacks")
                #expect(ExampleScenario.superprojectGeneralFiles[path] != content, "\(tenant): \(path) unchanged")
            }
        }
    }

    @Test func theManifestLoaderAcceptsTheExampleWithTheThesisActiveSets() throws {
        let project = try ProjectLoader.load(
            manifest: SourceFile(path: "modules.json", data: Data(ExampleScenario.modulesJSON.utf8)),
            tenantFiles: ExampleScenario.tenantJSON.map {
                SourceFile(path: "Tenants/\($0.id).json", data: Data($0.json.utf8))
            })
        let active = Dictionary(
            uniqueKeysWithValues: project.tenants.map { ($0.id, project.activeSet(for: $0).effective) })
        #expect(active["t1"] == ["Infrastructure", "Article", "Customer", "Order"])
        #expect(active["t2"] == ["Infrastructure", "Customer"])  // AF.2: T2 needs only the customer overview
        #expect(active["t3"] == ["Infrastructure", "Article", "Customer", "Order"])
        #expect(project.tenants.allSatisfy { project.activeSet(for: $0).dropped.isEmpty })
    }
}
