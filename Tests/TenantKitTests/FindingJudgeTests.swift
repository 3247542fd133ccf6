import Foundation
import TenantKit
import Testing

/// The judge alone, on observations written by hand: one rule per code, no git.
@Suite struct FindingJudgeTests {
    static func id(_ value: Int) -> String { String(format: "%040x", value) }

    /// Customer's history: `general_dev` at g; t2's branch g ← b1 ← b2; an experiment c1 off g; g2 on top of g.
    let g = id(1)
    let b1 = id(2)
    let b2 = id(3)
    let c1 = id(4)

    func project() throws -> Project {
        try ProjectLoader.load(
            manifest: source("modules.json", erpManifest()),
            tenantFiles: [
                source(
                    "Tenants/t1.json", tenantJSON("t1", modules: ["Infrastructure", "Customer"], customised: [])),
                source(
                    "Tenants/t2.json",
                    tenantJSON("t2", modules: ["Infrastructure", "Customer"], customised: ["Customer"])),
            ])
    }

    func customer() throws -> ModuleObservation {
        let listing = "\(b2) \(b1)\n\(b1) \(g)\n\(c1) \(g)\n\(g)\n"
        let graph = try #require(CommitGraph(listing: listing))
        return ModuleObservation(
            generalBranch: "general_dev", branches: ["general_dev": g, "t2": b2, "experiment": c1], graph: graph,
            pinCommits: [g: g, b1: b1, b2: b2, c1: c1], pinsOnRemote: [g, b1, b2, c1])
    }

    /// The codes the judge gives the Customer cell of `tenant` pinning `pin`.
    func codes(_ tenant: String, pin: String?, active: Bool = true) throws -> [FindingCode] {
        let project = try project()
        let module = try #require(project.module(named: "Customer"))
        let tenant = try #require(project.tenant(id: tenant))
        return FindingJudge.moduleFindings(
            module, of: .tenant(tenant, active: active), project: project, pin: pin, movedTo: nil,
            facts: try customer(), unreachable: false
        ).map(\.code)
    }

    /// The superproject's general branch took t2's commits b1, b2: they block t1 until t1 contains them or the
    /// merge-back is accepted; never t2 itself.
    @Test func aSuperprojectMergeBackBlocksTheOtherTenantsOnly() throws {
        let project = try project()
        let t1 = try #require(project.tenant(id: "t1"))
        let t2 = try #require(project.tenant(id: "t2"))
        let taken = ["t2": [b2, b1]]
        func blocks(_ tenant: Tenant, contained: Set<String> = [], accept: Bool = false) -> [Finding] {
            FindingJudge.superprojectRollBlocks(
                tenant, project: project, mergedBack: taken, contained: contained, acceptMergedBack: accept)
        }
        let finding = try #require(blocks(t1).first)
        #expect(blocks(t1).count == 1)
        #expect(finding.code == .tenantMergedBack && finding.tenant == "t2" && finding.module == nil)
        #expect(finding.repository == Finding.superproject && finding.branch == "t2")
        #expect(
            finding.message.contains("until it is accepted with --accept-merged-back superproject ("),
            "\(finding.message)")
        #expect(blocks(t2).isEmpty)  // its own commits
        #expect(blocks(t1, accept: true).isEmpty)
        #expect(blocks(t1, contained: [b1, b2]).isEmpty)  // t1 has them already
        #expect(try #require(blocks(t1, contained: [b1]).first).message.contains("1 commit of"))
        // Positive control: nothing merged back blocks nobody.
        #expect(
            FindingJudge.superprojectRollBlocks(
                t1, project: project, mergedBack: [:], contained: [], acceptMergedBack: false
            ).isEmpty)
    }

    @Test func stalePinIsAPinThatIsNotTheHeadOfTheTenantBranch() throws {
        #expect(try codes("t2", pin: b2) == [])  // positive control: the head
        #expect(try codes("t2", pin: b1) == [.stalePin])  // behind the head (an unpinned push)
        #expect(try codes("t2", pin: c1) == [.stalePin])  // not on the branch at all
        #expect(try codes("t2", pin: g) == [.stalePin])
    }

    @Test func undeclaredCustomisationIsAPinOffTheGeneralBranch() throws {
        #expect(try codes("t1", pin: g) == [])  // positive control
        #expect(try codes("t1", pin: c1) == [.undeclaredCustomisation])
        #expect(try codes("t1", pin: c1, active: false) == [.undeclaredCustomisation, .inactiveButCustomised])
        #expect(try codes("t1", pin: nil) == [.notPinned])
    }

    @Test func missingCommitSkipsWhereThePinIs() throws {
        let unknown = Self.id(99)
        #expect(try codes("t1", pin: unknown) == [.missingCommit])
        #expect(try codes("t2", pin: unknown) == [.missingCommit])
    }

    @Test func mergedBackIsJudgedFromTheObservedCommits() throws {
        let project = try project()
        let module = try #require(project.module(named: "Customer"))
        let tenant = try #require(project.tenant(id: "t2"))
        var facts = try customer()
        let observation = { (facts: ModuleObservation) in
            ProjectObservation(
                superproject: SuperprojectObservation(
                    generalBranch: "general_dev", generalTip: Self.id(50), tenantTips: ["t2": Self.id(51)],
                    pins: ["t2": [module.path: self.b2]]),
                modules: ["Customer": facts])
        }
        #expect(
            FindingJudge.moduleFindings(
                module, of: .tenant(tenant, active: true), project: project,
                observation: observation(facts)
            ).isEmpty)
        // Ids whose short forms differ.
        func commit(_ value: Int) -> String { String(format: "%07x", value) + String(repeating: "0", count: 33) }
        facts.mergedBack = ["t2": (10..<17).map(commit)]
        let findings = FindingJudge.moduleFindings(
            module, of: .tenant(tenant, active: true), project: project, observation: observation(facts))
        #expect(findings.map(\.code) == [.tenantMergedBack])
        let message = try #require(findings.first?.message)
        #expect(message.hasPrefix("7 commits of Customer's branch t2 are reachable from general_dev"), "\(message)")
        // The first five are named.
        #expect((10..<15).allSatisfy { message.contains(ObjectID.short(commit($0))) })
        #expect(!message.contains(ObjectID.short(commit(15))))
    }
}
