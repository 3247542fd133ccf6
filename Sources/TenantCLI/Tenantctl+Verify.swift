import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl verify`: consistency checks, changing nothing.
    struct Verify: TenantctlCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that modules.json, Tenants/ and .gitmodules are valid and agree.",
            discussion: """
                Reads the files from the working tree and reports every problem at once, changing nothing: \
                invalid JSON (with line and column), unknown or missing fields (with their path, e.g. \
                modules[3].url), unsafe paths, URLs and branch names, duplicate or nested modules, dependency \
                cycles, tenants naming unknown or inactive modules, and .gitmodules entries whose path or URL \
                differ from modules.json. Modules dropped from a tenant's effective active set (a dependency is \
                not active) are listed as notes.

                Exit status: 0 no findings, 2 findings, 1 verify itself could not run.

                Examples:
                  tenantctl verify
                  tenantctl verify -C path/to/superproject --json
                """)

        @OptionGroup var global: GlobalOptions

        func run(context: CommandContext) throws -> ExitStatus {
            let workspace = try context.workspace()
            var findings: [VerifyFinding] = []
            var tenants: [VerifyTenantJSON] = []
            var notes: [String] = []
            do {
                let project = try ProjectReader.workingTree(
                    workspace, options: ValidationOptions(allowLocalRemotes: context.allowLocalRemotes))
                let gitmodules = try readGitmodules(workspace, git: context.git)
                if let gitmodules {
                    findings += FileVerifier.gitmodulesDrift(
                        project: project, gitmodules: gitmodules, where: "working tree")
                } else if try hasGitlinks(workspace, git: context.git) {
                    findings.append(
                        VerifyFinding(
                            code: "gitmodules-drift",
                            message: "working tree: submodules are recorded but there is no .gitmodules file"))
                } else {
                    notes.append("no .gitmodules and no submodules yet: only the files were checked")
                }
                tenants = project.tenants.map { tenant in
                    let active = project.activeSet(for: tenant)
                    return VerifyTenantJSON(
                        id: tenant.id, activeModules: active.effective,
                        droppedModules: active.dropped.map { .init(module: $0.module, missing: $0.missing) })
                }
            } catch let error as ManifestError {
                findings += error.problems.map {
                    VerifyFinding(code: "invalid-file", message: $0.description, repository: "superproject")
                }
            }
            let report = VerifyJSON(findings: findings, tenants: tenants)
            if context.options.json {
                context.console.print(try JSONOutput.encode(report))
            } else {
                for finding in findings { context.console.print(context.console.styled("✗ ", .red) + finding.message) }
                for note in notes { context.console.print("note: " + note) }
                for tenant in tenants {
                    for dropped in tenant.droppedModules {
                        context.console.print(
                            "note: \(tenant.id): \(dropped.module) is not in the effective active set (needs "
                                + "\(dropped.missing.joined(separator: ", ")))")
                    }
                }
                if findings.isEmpty {
                    context.console.print(
                        context.console.styled("✓ ", .green)
                            + "modules.json and \(tenants.count) tenant file\(tenants.count == 1 ? "" : "s") are valid"
                            + (notes.isEmpty ? "; .gitmodules agrees" : ""))
                } else {
                    context.console.print("\(findings.count) finding\(findings.count == 1 ? "" : "s")")
                }
            }
            return findings.isEmpty ? .success : .findings
        }

        private func hasGitlinks(_ workspace: Workspace, git: Git) throws -> Bool {
            let output = try git.run(["ls-files", "--stage", "-z"], in: workspace.root, context: "list the index")
            return output.stdout.split(separator: 0).contains { $0.starts(with: Array("160000 ".utf8)) }
        }

        private func readGitmodules(_ workspace: Workspace, git: Git) throws -> [GitmodulesEntry]? {
            let path = workspace.path(".gitmodules")
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            let output = try git.run(
                ["config", "-z", "--file", path, "--list"], in: workspace.root, context: "read .gitmodules")
            return GitmodulesParser.parse(output.stdout)
        }
    }
}

struct VerifyJSON: Encodable {
    var schemaVersion = 1
    var ok: Bool { findings.isEmpty }
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
