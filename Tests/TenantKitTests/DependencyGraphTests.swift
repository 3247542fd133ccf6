import Foundation
import TenantKit
import Testing

private let erpModules = [
    Module(name: "Infrastructure", path: "Modules/Infrastructure", url: "../Infrastructure.git"),
    Module(name: "Article", path: "Modules/Article", url: "../Article.git", dependsOn: ["Infrastructure"]),
    Module(name: "Customer", path: "Modules/Customer", url: "../Customer.git", dependsOn: ["Infrastructure"]),
    Module(
        name: "Order", path: "Modules/Order", url: "../Order.git",
        dependsOn: ["Infrastructure", "Article", "Customer"]),
]

private func graphError(_ modules: [Module]) -> ManifestError? {
    do {
        _ = try DependencyGraph(modules: modules)
        return nil
    } catch {
        return error
    }
}

@Suite("Dependency graph")
struct DependencyGraphTests {
    @Test func levelsOfTheERPExample() throws {
        let graph = try DependencyGraph(modules: erpModules)
        #expect(graph.levels == [["Infrastructure"], ["Article", "Customer"], ["Order"]])
        #expect(graph.topologicalOrder == ["Infrastructure", "Article", "Customer", "Order"])
        #expect(graph.dependencies(of: "Order") == ["Infrastructure", "Article", "Customer"])
        #expect(graph.dependencies(of: "Nope") == [])
    }

    @Test func levelsFollowTheLongestChainNotManifestOrder() throws {
        let graph = try DependencyGraph(modules: [
            Module(name: "Top", path: "t", url: "../t", dependsOn: ["Mid"]),
            Module(name: "Mid", path: "m", url: "../m", dependsOn: ["Base"]),
            Module(name: "Base", path: "b", url: "../b"),
            Module(name: "Side", path: "s", url: "../s", dependsOn: ["Base"]),
        ])
        #expect(graph.levels == [["Base"], ["Mid", "Side"], ["Top"]])
    }

    @Test func cycleIsPrintedFromTheHighestLevelModule() {
        var modules = erpModules
        modules[1].dependsOn = ["Infrastructure", "Order"]
        let error = graphError(modules)
        #expect(error?.problems.count == 1)
        #expect(error?.problems.first?.message == "dependency cycle: Order → Article → Order")
        #expect(error?.description == "modules.json: dependency cycle: Order → Article → Order")
    }

    @Test func selfDependencyAndLongCycle() {
        let error = graphError([
            Module(name: "A", path: "a", url: "../a", dependsOn: ["A"]),
            Module(name: "B", path: "b", url: "../b", dependsOn: ["C"]),
            Module(name: "C", path: "c", url: "../c", dependsOn: ["D"]),
            Module(name: "D", path: "d", url: "../d", dependsOn: ["B"]),
        ])
        let messages = error?.problems.map(\.message) ?? []
        #expect(messages.contains("dependency cycle: A → A"))
        #expect(messages.contains("dependency cycle: D → B → C → D"))
    }

    @Test func unknownDependencyNamesModuleAndField() {
        let error = graphError([Module(name: "A", path: "a", url: "../a", dependsOn: ["Ghost"])])
        #expect(error?.problems.first?.field == "modules[0].dependsOn[0]")
        #expect(error?.problems.first?.message == "module \"A\" depends on unknown module \"Ghost\"")
    }
}
