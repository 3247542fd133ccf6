import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantCLI

/// Every `next (<kind>):` line verify prints runs as printed: its commands are filled in with the finding's tenant,
/// module and branch (never `<tenant>`, `<name>`, `<url>` to fill in), and where no command fits it says what to do
/// in words.
@Suite struct VerifyNextStepTests {
    /// A placeholder a person would have to fill in: `<tenant>`, `<name> --url <url>`.
    static func placeholders(_ line: some StringProtocol) -> [String] {
        String(line).matches(of: /<[A-Za-z][A-Za-z _-]*>/).map { String($0.output) }
    }

    /// The `next (…)` lines of verify's text report.
    static func nextLines(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("next (") }
    }

    /// The commands of a next line (between backticks), in order.
    static func commands(_ line: String) -> [String] {
        line.matches(of: /`([^`]+)`/).map { String($0.output.1) }
    }

    /// Each kind, with every combination of the names a finding may carry (a tenant's finding, the general branch's,
    /// a module's, the superproject's), as verify's report prints its next line.
    @Test(arguments: FindingCode.allCases)
    func everyKindsNextLineHasNoPlaceholder(_ code: FindingCode) {
        for tenant in ["t1", nil] {
            for module in ["Order", nil] {
                let finding = Finding(
                    code: code, message: "something about it", tenant: tenant, module: module,
                    repository: module ?? Finding.superproject, branch: tenant ?? "general_dev")
                let lines = VerifyTextReport.lines([finding], mark: { _ in "" })
                let next = lines.filter { $0.hasPrefix("next (\(code.rawValue)): ") }
                #expect(next.count == 1, "\(lines)")
                for line in next {
                    #expect(
                        Self.placeholders(line).isEmpty, "tenant \(tenant ?? "-"), module \(module ?? "-"): \(line)")
                    // No name left out of a command either (`tenantctl pin  --push`).
                    for command in Self.commands(line) {
                        #expect(!command.contains("  ") && !command.hasSuffix(" "), "\(line)")
                    }
                }
            }
        }
    }

    @Test func theNextLineIsFilledFromTheFindingsOwnNames() {
        let lines = VerifyTextReport.lines(
            [
                Finding(
                    code: .inactiveButCustomised, message: "m", tenant: "acme", module: "Billing",
                    repository: "Billing",
                    branch: "acme"),
                Finding(
                    code: .missingBranch, message: "m", tenant: "acme", repository: Finding.superproject,
                    branch: "acme"),
            ], general: "main", mark: { _ in "" })
        #expect(
            lines.contains(
                "next (inactive-but-customised): activate Billing in Tenants/acme.json, or undo the customisation "
                    + "with `tenantctl uncustomize acme Billing`"), "\(lines)")
        #expect(
            lines.contains(
                "next (missing-branch): push the superproject's branch acme from the clone that has it, or remove "
                    + "the tenant with `tenantctl tenant remove acme`"), "\(lines)")
    }
}

/// The printed next step of a finding, run as printed, fixes it: verify exits 2 before, 0 after.
@Suite(.tags(.slow), .notInTheFastSet) struct VerifyNextStepRunTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var code: String
        var breakIt: @Sendable (LifecycleExample) throws -> Void
        var testDescription: String { code }
    }

    static let cases: [Case] = [
        Case(
            code: "undeclared-customisation",
            breakIt: { example in
                let t3 = try #require(try example.branches("Order")["t3"])
                try example.editSuperproject("t1", gitlinks: ["Modules/Order": t3])
            }),
        Case(
            code: "not-pinned",
            breakIt: { example in
                let clone = example.sandbox.path("edit-pin")
                try example.sandbox.git(["clone", "-q", "--branch", "t1", example.remote("Superproject"), clone])
                try example.sandbox.git(["rm", "-q", "--cached", "Modules/Order"], in: clone)
                try example.sandbox.git(["commit", "-q", "-m", "drop the Order pin"], in: clone)
                try example.sandbox.git(["push", "-q", "origin", "t1"], in: clone)
            }),
        Case(
            code: "missing-branch",
            breakIt: { example in
                try example.sandbox.git(["update-ref", "-d", "refs/heads/t1"], in: example.remote("Superproject"))
            }),
    ]

    @Test(arguments: cases)
    func theFirstPrintedCommandFixesTheFinding(_ kind: Case) throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        try kind.breakIt(example)
        let broken = example.tenantctl(["verify"])
        #expect(broken.status == 2, "\(broken.stdout)\(broken.stderr)")
        let next = try #require(
            VerifyNextStepTests.nextLines(broken.stdout).first { $0.hasPrefix("next (\(kind.code)): ") },
            "\(broken.stdout)")
        #expect(VerifyNextStepTests.placeholders(next).isEmpty, "\(next)")
        let command = try #require(
            VerifyNextStepTests.commands(next).first { $0.hasPrefix("tenantctl ") }, "\(next)")
        let ran = try ResolveTransactionTests.runAsPrinted(command, in: example.workspace, sandbox: sandbox)
        #expect(ran.status == 0, "\(command): \(ran.stdout)\(ran.stderr)")
        let fixed = example.tenantctl(["verify"])
        #expect(fixed.status == 0, "after \(command): \(fixed.stdout)\(fixed.stderr)")
    }
}
