import Foundation
import TenantKit
import Testing

/// Roll's state is made of the observation audit and verify read, without git: pins where the branch's tree has
/// them, the modules a tenant branch's own `modules.json` moved or removed, which branches contain the general branch.
@Suite struct RollStateFromObservationTests {
    static func id(_ value: Int) -> String { String(format: "%040x", value) }

    @Test func theStateIsMadeOfTheObservation() throws {
        let everything = ["Infrastructure", "Article", "Customer", "Order"]
        let project = try ProjectLoader.load(
            manifest: source("modules.json", erpManifest()),
            tenantFiles: [
                source("Tenants/t1.json", tenantJSON("t1", modules: everything)),
                source("Tenants/t2.json", tenantJSON("t2", modules: everything)),
            ])
        let general = Self.id(1)
        var observed = SuperprojectObservation(
            generalBranch: "general_dev", generalTip: general, tenantTips: ["t1": Self.id(2), "t2": Self.id(3)],
            pins: [
                "general_dev": ["Modules/Infrastructure": Self.id(10)],
                // Order found at its old path by its identity: the reader lists it under today's path.
                "t1": ["Modules/Infrastructure": Self.id(11), "Modules/Order": Self.id(12)],
                // Customer where t2's own modules.json puts it.
                "t2": ["Modules/Infrastructure": Self.id(13), "Old/Customer": Self.id(14)],
            ],
            movedPaths: ["t1": ["Order": "Old/Order"]],
            comparisons: [
                "t1": Comparison(ahead: 1, behind: 0, mergeBase: general),
                "t2": Comparison(ahead: 0, behind: 2, mergeBase: Self.id(9)),
            ])
        observed.manifests = [
            "t1": project.manifest.modules,
            "t2": [
                Module(name: "Customer", path: "Old/Customer", url: "../Customer.git"),
                Module(name: "Gone", path: "Modules/Gone", url: "../Gone.git"),
            ],
        ]
        let branches = ["general_dev": general, "t1": Self.id(2), "t2": Self.id(3), "other": Self.id(4)]
        let state = RollStateLoader.state(
            project: project, observation: ProjectObservation(superproject: observed, modules: [:]),
            branches: branches)
        let superproject = state.superproject
        #expect(superproject.branches == branches)
        // t1 contains the general branch (nothing behind); t2 does not.
        #expect(superproject.containGeneral == ["general_dev", "t1"])
        // The moved module's pin at the path t1's tree has it, and that path renamed.
        #expect(superproject.pins["t1"] == ["Modules/Infrastructure": Self.id(11), "Old/Order": Self.id(12)])
        #expect(superproject.renamedPaths["t1"] == ["Old/Order": "Order"])
        #expect(superproject.pins["t2"] == ["Modules/Infrastructure": Self.id(13), "Old/Customer": Self.id(14)])
        #expect(superproject.renamedPaths["t2"] == ["Old/Customer": "Customer"])
        #expect(superproject.modulePaths["t2"] == ["Old/Customer", "Modules/Gone"])
        #expect(superproject.modulePaths["general_dev"] == project.manifest.modules.map(\.path))
        // A module's pin on a branch: at its path, else where the branch's own file puts it.
        let customer = try #require(project.module(named: "Customer"))
        let t2Pins = try #require(observed.pins["t2"])
        #expect(ObservationReader.pin(of: customer, in: t2Pins, manifest: observed.manifests["t2"]) == Self.id(14))
        #expect(ObservationReader.pin(of: customer, in: t2Pins, manifest: nil) == nil)
        #expect(state.repositories.isEmpty && state.unreachable.isEmpty)
    }
}
