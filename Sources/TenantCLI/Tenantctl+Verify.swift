import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl verify`: consistency checks, changing nothing.
    struct Verify: LockingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that modules.json, Tenants/, .gitmodules and the repositories agree.",
            discussion: """
                File checks read the working tree and report every problem at once, changing nothing: \
                invalid JSON (with line and column), unknown or missing fields (with their path, e.g. \
                modules[3].url), unsafe paths, URLs and branch names, duplicate or nested modules, dependency \
                cycles, tenants naming unknown or inactive modules, and .gitmodules entries whose path or URL \
                differ from modules.json. Modules dropped from a tenant's effective active set (a dependency is \
                not active) are listed as notes.

                Git checks (when the superproject has a remote origin; fetched first unless --no-fetch) read \
                modules.json and Tenants/ from origin/general_dev and the module remotes (through private \
                mirrors), and report the same findings as audit, with the same rules: \
                gitmodules-drift (.gitmodules disagrees with modules.json on general_dev or a tenant branch), \
                missing-branch (a tenant branch, or the module branch a tenant tracks, is not on its remote), \
                not-pinned (a module has no gitlink), moved-path (a module is at another path than \
                modules.json), missing-commit (a pin is on no branch or tag of the module's remote), \
                undeclared-customisation (a pin off the module's general_dev, the module not declared \
                customised), stale-pin (a customised module's pin is not the head of its tenant branch), \
                inactive-but-customised, tenant-merged-back (general_dev took a tenant's commits), \
                orphan-branch (a module branch named after a tenant that does not declare the module, or after \
                a removed tenant; the finding names the command that finishes the job), unnamed-submodule (a \
                branch pins a submodule modules.json does not name: a renamed or added repository), \
                branch-case-collision (branches of one remote whose names differ only in case, as T1 and t1: one \
                file on macOS). Every finding names \
                repository, branch and, where it applies, module and tenant; a finding told the same way on \
                several branches is one line naming them all. Information (moved-path, squashed-roll) is marked \
                i, not ✗, and each kind found is followed by a line saying what to do about it (next (<kind>): …).

                Exit status: 0 no findings (or only moved-path, which informs: roll moves the gitlink), 2 \
                findings, 1 verify itself could not run.

                Examples:
                  tenantctl verify
                  tenantctl verify -C path/to/superproject --json
                  tenantctl verify --no-fetch          # against what was fetched last
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @OptionGroup var fetchOptions: FetchOptions

        @OptionGroup var lockOptions: LockOptions

        func run(context: CommandContext) throws -> ExitStatus {
            let workspace = try context.workspace()
            let verify = VerifyRun(validation: ValidationOptions(allowLocalRemotes: context.allowLocalRemotes))
            let result = try verify.run(
                workspace: workspace, fetch: fetchOptions.fetch, wait: lockOptions.wait,
                console: context.console)
            let findings = result.findings
            let notes = result.notes
            let tenants: [VerifyTenantJSON] = (result.project?.tenants ?? []).map { tenant in
                let active = result.project?.activeSet(for: tenant)
                return VerifyTenantJSON(
                    id: tenant.id, activeModules: active?.effective ?? [],
                    droppedModules: (active?.dropped ?? []).map {
                        TenantRow.DroppedJSON(module: $0.module, missing: $0.missing)
                    })
            }
            let report = VerifyJSON(findings: findings, tenants: tenants)
            if context.options.json {
                context.console.data(try JSONOutput.encode(report))
            } else {
                // One line per finding (told the same way on several branches: once, naming them), information
                // marked `i`, then what to do about each kind.
                let marks = (failure: context.console.styled("✗ ", .red), information: "i ")
                let general = result.project?.manifest.generalBranch ?? ModuleManifest.defaultGeneralBranch
                let lines = VerifyTextReport.lines(
                    findings, general: general, mark: { $0 ? marks.information : marks.failure })
                for line in lines {
                    context.console.print(line)
                }
                for note in notes { context.console.print("note: " + TerminalText.escaped(note)) }
                for tenant in tenants {
                    for dropped in tenant.droppedModules {
                        context.console.print(
                            "note: \(tenant.id): \(dropped.module) is not in the effective active set (needs "
                                + "\(dropped.missing.joined(separator: ", ")))")
                    }
                }
                let failing = FindingCode.failsGate(findings.map(\.code))
                if !findings.isEmpty && !failing {
                    context.console.print(
                        "\(findings.count) finding\(findings.count == 1 ? "" : "s"), information only "
                            + "(\(Set(findings.map(\.code.rawValue)).sorted().joined(separator: ", ")): roll acts on "
                            + "it); nothing to fix")
                } else if findings.isEmpty {
                    context.console.print(
                        context.console.styled("✓ ", .green)
                            + "modules.json and \(tenants.count) tenant file\(tenants.count == 1 ? "" : "s") are valid"
                            + (notes.isEmpty ? "; .gitmodules agrees; the repositories agree with the files" : ""))
                } else {
                    context.console.print("\(findings.count) finding\(findings.count == 1 ? "" : "s")")
                }
            }
            return FindingCode.failsGate(findings.map(\.code)) ? .findings : .success
        }
    }
}

struct VerifyJSON: Encodable {
    var schemaVersion = 1
    /// True when no finding fails the gate (information, such as a moved module path, does not).
    var ok: Bool { !FindingCode.failsGate(findings.map(\.code)) }
    var findings: [VerifyFinding]
    var tenants: [VerifyTenantJSON]

    enum CodingKeys: String, CodingKey { case schemaVersion, ok, findings, tenants }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(ok, forKey: .ok)
        try container.encode(findings, forKey: .findings)
        try container.encode(tenants, forKey: .tenants)
    }
}

struct VerifyTenantJSON: Encodable {
    var id: String
    var activeModules: [String]
    var droppedModules: [TenantRow.DroppedJSON]
}
