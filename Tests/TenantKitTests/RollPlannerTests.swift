import Foundation
import TenantKit
import Testing

@Suite struct RollPlannerTests {
    static let a = String(repeating: "a", count: 40)
    static let b = String(repeating: "b", count: 40)
    static let c = String(repeating: "c", count: 40)
    static let d = String(repeating: "d", count: 40)
    static let g = String(repeating: "1", count: 40)
    static let t = String(repeating: "2", count: 40)

    /// `text` as an id (the fixtures' ids are all full).
    static func id(_ text: String) throws -> ObjectID { try #require(ObjectID(text)) }

    static let modules = [
        Module(name: "Infrastructure", path: "Modules/Infrastructure", url: "../Infrastructure.git"),
        Module(name: "Article", path: "Modules/Article", url: "../Article.git"),
    ]

    /// general_dev pins Infrastructure@a, Article@c; Infrastructure general_dev moved to b; t2 customises
    /// Infrastructure (branch at d, not containing b) and already contains superproject general_dev.
    static func tenants(t2Customises customised: [String] = ["Infrastructure"]) -> [Tenant] {
        [
            Tenant(id: "t1", modules: ["Infrastructure", "Article"], customised: [], file: "Tenants/t1.json"),
            Tenant(id: "t2", modules: ["Infrastructure", "Article"], customised: customised, file: "Tenants/t2.json"),
        ]
    }

    static func state(infrastructureGeneral: String = b, t2ContainsModuleGeneral: Bool = false) throws -> RollState {
        RollState(
            project: try Project(manifest: ModuleManifest(modules: modules), tenants: tenants()),
            superproject: SuperprojectState(
                branches: ["general_dev": g, "t1": t, "t2": t], containGeneral: ["general_dev", "t1", "t2"],
                pins: [
                    "general_dev": ["Modules/Infrastructure": a, "Modules/Article": c],
                    "t1": ["Modules/Infrastructure": a, "Modules/Article": c],
                    "t2": ["Modules/Infrastructure": d, "Modules/Article": c],
                ],
                modulePaths: ["general_dev": modules.map(\.path), "t1": modules.map(\.path), "t2": modules.map(\.path)]),
            repositories: [
                "Infrastructure": try repository(
                    branches: ["general_dev": infrastructureGeneral, "t2": d], graph: "\(b) \(a)\n\(d) \(a)\n\(a)\n",
                    containGeneral: t2ContainsModuleGeneral ? ["general_dev", "t2"] : ["general_dev"]),
                "Article": try repository(
                    branches: ["general_dev": c], graph: "\(c)\n", containGeneral: ["general_dev"]),
            ])
    }

    /// A module's state as roll reads it: its branches and commit graph (`rev-list --parents` lines), every
    /// commit of the graph on the remote.
    static func repository(branches: [String: String], graph: String, containGeneral: Set<String>) throws
        -> ModuleRepositoryState
    {
        let commits = Set(graph.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        return ModuleRepositoryState(
            facts: ModuleObservation(
                generalBranch: "general_dev", branches: branches, graph: try #require(CommitGraph(listing: graph)),
                pinsOnRemote: commits),
            containGeneral: containGeneral)
    }

    @Test func plansModuleMergesRepinAndThePinRule() throws {
        let plan = try RollPlanner.plan(try Self.state())
        #expect(
            plan.repin?.changes == [
                PinChange(
                    module: "Infrastructure", path: "Modules/Infrastructure", old: ObjectID(Self.a),
                    new: try #require(ObjectID(Self.b)))
            ])
        #expect(
            plan.moduleMerges.map { "\($0.module) \($0.branch) \($0.ours) \($0.theirs)" } == [
                "Infrastructure t2 \(Self.d) \(Self.b)"
            ])
        let t1 = try #require(plan.tenants.first { $0.tenant.id == "t1" })
        let t2 = try #require(plan.tenants.first { $0.tenant.id == "t2" })
        #expect(t1.mergeGeneral && t2.mergeGeneral)  // general_dev gets a new commit
        #expect(try t1.pins["Modules/Infrastructure"] == .commit(Self.id(Self.b)))
        #expect(try t2.pins["Modules/Infrastructure"] == .tenantBranch(module: "Infrastructure", tip: Self.id(Self.d)))
        #expect(try t2.pins["Modules/Article"] == .commit(Self.id(Self.c)))
    }

    /// `--tenant` names a tenant by its id or by its branch, as in audit and verify; an unknown name is refused.
    @Test func filterNamesATenantByIdOrBranch() throws {
        var state = try Self.state()
        let tenants = [
            Self.tenants()[0],
            Tenant(
                id: "t2", branch: "acme", modules: ["Infrastructure", "Article"], customised: ["Infrastructure"],
                file: "Tenants/t2.json"),
        ]
        state.project = try Project(manifest: ModuleManifest(modules: Self.modules), tenants: tenants)
        state.superproject.branches["acme"] = Self.t
        state.superproject.pins["acme"] = state.superproject.pins["t2"]
        state.superproject.modulePaths["acme"] = Self.modules.map(\.path)
        state.superproject.containGeneral.insert("acme")
        for name in ["t2", "acme"] {
            let plan = try RollPlanner.plan(state, filter: RollFilter(tenants: [name]))
            #expect(plan.tenants.map(\.tenant.id) == ["t2"], "\(name)")
        }
        #expect(throws: UnknownNameError.self) { try RollPlanner.plan(state, filter: RollFilter(tenants: ["acm"])) }
    }

    @Test func anIdThatIsNoneFailsThePlanNamingItsRepository() throws {
        // Positive control: the same state with full ids plans t2's merge.
        #expect(try RollPlanner.plan(try Self.state()).moduleMerges.map(\.tenant) == ["t2"])
        var state = try Self.state()
        state.repositories["Infrastructure"] = try Self.repository(
            branches: ["general_dev": Self.b, "t2": "ddddddd"],
            graph: "\(Self.b) \(Self.a)\n\(Self.d) \(Self.a)\n\(Self.a)\n",
            containGeneral: ["general_dev"])
        let error = try #require(throws: RollError.self) { try RollPlanner.plan(state) }
        #expect(error.description.contains("Infrastructure") && error.description.contains("t2"), "\(error)")
        #expect(error.description.contains("'ddddddd'"), "\(error)")
        // A tenant's superproject pin that is no id fails it naming the tenant and the path.
        var pins = try Self.state()
        pins.superproject.pins["t1"]?["Modules/Article"] = "HEAD"
        let pinError = try #require(throws: RollError.self) { try RollPlanner.plan(pins) }
        #expect(pinError.description.contains("t1") && pinError.description.contains("Modules/Article"), "\(pinError)")
    }

    @Test func nothingToDoWhenEverythingIsCurrent() throws {
        var state = try Self.state(infrastructureGeneral: Self.a, t2ContainsModuleGeneral: true)
        state.superproject.pins["t1"] = ["Modules/Infrastructure": Self.a, "Modules/Article": Self.c]
        let plan = try RollPlanner.plan(state)
        #expect(plan.repin == nil)
        #expect(plan.moduleMerges.isEmpty)
        // Both tenants are planned (an empty plan would satisfy `allSatisfy`), with nothing to merge and their pins
        // as they are.
        #expect(plan.tenants.map(\.tenant.id).sorted() == ["t1", "t2"])
        #expect(plan.tenants.allSatisfy { !$0.mergeGeneral && $0.problems.isEmpty })
        let t1 = try #require(plan.tenants.first { $0.tenant.id == "t1" })
        let t2 = try #require(plan.tenants.first { $0.tenant.id == "t2" })
        #expect(try t1.pins["Modules/Infrastructure"] == .commit(Self.id(Self.a)))
        #expect(try t1.pins["Modules/Article"] == .commit(Self.id(Self.c)))
        #expect(try t2.pins["Modules/Infrastructure"] == .tenantBranch(module: "Infrastructure", tip: Self.id(Self.d)))
    }

    @Test func moduleFilterKeepsTheOtherPins() throws {
        let plan = try RollPlanner.plan(try Self.state(), filter: RollFilter(modules: ["Article"]))
        #expect(plan.repin == nil)
        #expect(plan.moduleMerges.isEmpty)
        let t2 = try #require(plan.tenants.first { $0.tenant.id == "t2" })
        #expect(try t2.pins["Modules/Infrastructure"] == .commit(Self.id(Self.d)))
    }

    @Test func tenantFilterSelectsTenantsAndRejectsUnknownNames() throws {
        let plan = try RollPlanner.plan(try Self.state(), filter: RollFilter(tenants: ["t1"]))
        #expect(plan.tenants.map(\.tenant.id) == ["t1"])
        #expect(plan.moduleMerges.isEmpty)
        // Unknown names are usage errors (exit 64 in the CLI), listing the known ones.
        #expect(throws: UnknownNameError.self) {
            try RollPlanner.plan(try Self.state(), filter: RollFilter(tenants: ["t9"]))
        }
        #expect(throws: UnknownNameError.self) {
            try RollPlanner.plan(try Self.state(), filter: RollFilter(modules: ["Nope"]))
        }
    }

    @Test func aCustomisedModuleRemovedOnGeneralIsAConflictOfThatTenant() throws {
        var state = try Self.state()
        state.project.tenants[1].customised.append("Payment")
        state.superproject.modulePaths["t2"]?.append("Modules/Payment")
        let plan = try RollPlanner.plan(state)
        let t2 = try #require(plan.tenants.first { $0.tenant.id == "t2" })
        #expect(t2.problems.map(\.repository) == ["Payment"])
        #expect(t2.removedPaths == ["Modules/Payment"])
        #expect(plan.tenants.first { $0.tenant.id == "t1" }?.problems.isEmpty == true)
    }

    @Test func aMissingTenantBranchIsReportedAsMissingNotAsAConflict() throws {
        var state = try Self.state()
        state.repositories["Infrastructure"]?.facts.branches["t2"] = nil
        let plan = try RollPlanner.plan(state)
        let t2 = try #require(plan.tenants.first { $0.tenant.id == "t2" })
        #expect(t2.problems.isEmpty, "nothing to resolve")
        let reason = try #require(t2.blocked.first)
        #expect(reason.code == .missingBranch && reason.module == "Infrastructure")
        #expect(reason.message.contains("module Infrastructure has no branch t2 on its remote"))
        #expect(reason.fix.hasPrefix("git -C Modules/Infrastructure push origin "))
        #expect(reason.fix.hasSuffix(":refs/heads/t2"))
        #expect(plan.tenants.first { $0.tenant.id == "t1" }?.blocked.isEmpty == true, "positive control")
    }
}

@Suite struct RollParserTests {
    @Test func parsesMergeTreeBatchOutput() throws {
        let tree1 = String(repeating: "e", count: 40)
        let tree2 = String(repeating: "f", count: 40)
        let data = Data("0\0\(tree1)\0f\0g\0f\0\01\0\(tree2)\0\0".utf8)
        let results = try #require(MergeTree.parse(data, count: 2))
        #expect(results[0] == MergeTreeResult(clean: false, tree: tree1, paths: ["f", "g"]))
        #expect(results[1] == MergeTreeResult(clean: true, tree: tree2, paths: []))
        #expect(MergeTree.parse(data, count: 3) == nil)
        #expect(MergeTree.parse(Data("x\0\(tree1)\0\0".utf8), count: 1) == nil)
    }

    @Test func parsesPushPorcelain() {
        let text =
            "To /r.git\n \tabc:refs/heads/t1\t[up to date]\n!\tdef:refs/heads/t2\t[rejected] (fetch first)\nDone\n"
        let refs = AtomicPush.parsePorcelain(text)
        #expect(refs["refs/heads/t1"]?.flag == " ")
        #expect(refs["refs/heads/t2"]?.flag == "!")
        #expect(refs["refs/heads/t2"]?.summary == "[rejected] (fetch first)")
    }

    @Test func journalRoundTripsThroughTheFileSystem() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roll-journal-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = RollJournal(
            runId: "20260101-000000-abcdef", createdAt: "2026-01-01T00:00:00Z",
            entries: [.init(repository: "Order", remote: "../Order.git", ref: "refs/heads/t3", old: "a", new: "b")])
        try journal.write(gitDirectory: directory)
        #expect(try RollJournal.read(gitDirectory: directory, runId: journal.runId) == journal)
        #expect(throws: WorkspaceError.self) { try RollJournal.read(gitDirectory: directory, runId: "../x") }
    }
}
