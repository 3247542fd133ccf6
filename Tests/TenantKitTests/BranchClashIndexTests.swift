import Foundation
import TenantKit
import Testing

@testable import TenantModel

/// The tenant-branch clash check uses indexes by name and directory prefix; it reports exactly what comparing every
/// pair (the rule in its plain form) reports, in the same order.
@Suite struct BranchClashIndexTests {
    /// The pairwise rule: each tenant against every earlier one.
    static func pairwise(_ tenants: [Tenant]) -> [String] {
        var messages: [String] = []
        var earlier: [(key: String, tenant: Tenant)] = []
        for tenant in tenants {
            let key = ProjectLoader.folded(tenant.branch)
            for (otherKey, other) in earlier {
                if otherKey == key {
                    messages.append("\(tenant.file): same as \(other.file)")
                } else if key.hasPrefix(otherKey + "/") || otherKey.hasPrefix(key + "/") {
                    messages.append("\(tenant.file): directory of \(other.file)")
                }
            }
            earlier.append((key, tenant))
        }
        return messages
    }

    static func indexed(_ tenants: [Tenant]) -> [String] {
        var decoder = FieldDecoder(file: "Tenants")
        ProjectLoader.validateAcrossTenants(tenants, manifest: nil, positions: [:], into: &decoder)
        return decoder.problems.map { problem in
            let other = tenants.first { candidate in
                candidate.file != problem.file
                    && problem.message.contains("branch \"\(candidate.branch)\" of tenant \"\(candidate.id)\"")
            }
            let kind = problem.message.contains("directory of the other") ? "directory of" : "same as"
            return "\(problem.file): \(kind) \(other?.file ?? "?")"
        }
    }

    @Test func sameProblemsInTheSameOrderAsThePairwiseRule() {
        let branches = [
            "acme", "acme/eu", "ACME", "acme/eu/north", "beta", "acme/us", "be", "beta/x/y", "beta/x", "Acme/EU",
            "gamma", "gamma/", "delta/epsilon", "delta",
        ]
        let tenants = branches.enumerated().map { index, branch in
            Tenant(id: "t\(index)", branch: branch, modules: [], customised: [], file: "Tenants/t\(index).json")
        }
        let expected = Self.pairwise(tenants)
        #expect(expected.count > 10)  // the fixture has many clashes of both kinds
        #expect(Self.indexed(tenants) == expected)
        // Positive control: a fixture without clashes reports nothing.
        let clean = ["a", "b", "c/d", "c-e"].enumerated().map { index, branch in
            Tenant(id: "u\(index)", branch: branch, modules: [], customised: [], file: "Tenants/u\(index).json")
        }
        #expect(Self.indexed(clean).isEmpty)
    }
}
