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
                mirrors): .gitmodules agrees with modules.json on general_dev and every tenant branch \
                (gitmodules-drift); every tenant branch and every declared module tenant branch exists on its \
                remote (missing-branch); every module a tenant uses is pinned (missing-pin); every pin is on the \
                module's remote (missing-commit) and reachable from the branch it should come from: the tenant \
                branch when customised, else general_dev (pin-off-branch); no commit made on a tenant branch is \
                reachable from general_dev (tenant-merged-back); no module branch is named after a tenant that \
                does not declare the module customised, or after a removed tenant (orphan-branch: what a \
                customize, customize --undo or tenant remove stopped between its pushes leaves; the finding \
                names the command that finishes the job). Every finding names repository, branch and, where it \
                applies, tenant and module.

                Exit status: 0 no findings, 2 findings, 1 verify itself could not run.

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
            var findings: [VerifyFinding] = []
            var tenants: [VerifyTenantJSON] = []
            var notes: [String] = []
            var filesOnly = false
            var workingTreeProject: Project?
            do {
                let project = try ProjectReader.workingTree(
                    workspace, options: ValidationOptions(allowLocalRemotes: context.allowLocalRemotes))
                workingTreeProject = project
                let gitmodules = try readGitmodules(workspace, git: context.git)
                if let gitmodules {
                    findings += FileVerifier.gitmodulesDrift(
                        project: project, gitmodules: gitmodules, where: "working tree")
                } else if try hasGitlinks(workspace, git: context.git) {
                    findings.append(
                        VerifyFinding(
                            code: .gitmodulesDrift,
                            message: "working tree: submodules are recorded but there is no .gitmodules file"))
                } else {
                    filesOnly = true
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
                    VerifyFinding(code: .invalidFile, message: $0.description, repository: "superproject")
                }
            }
            if filesOnly {
                // A description of modules and tenants without submodules (such as tenantctl's own repository, or
                // a project before `module add`): there is nothing in git to check the files against.
            } else if try SuperprojectRemote.originURL(workspace, git: context.git) != nil {
                findings += try gitFindings(workspace, project: workingTreeProject, notes: &notes, context: context)
            } else {
                notes.append("the superproject has no remote \(workspace.remoteName): the git checks were skipped")
            }
            let report = VerifyJSON(findings: findings, tenants: tenants)
            if context.options.json {
                context.console.data(try JSONOutput.encode(report))
            } else {
                for finding in findings {
                    let location = [
                        finding.repository.map { "repository \($0)" }, finding.branch.map { "branch \($0)" },
                        finding.module.map { "module \($0)" },
                    ].compactMap { $0 }
                    context.console.print(
                        context.console.styled("✗ ", .red)
                            + TerminalText.escaped(
                                finding.message
                                    + (location.isEmpty
                                        ? "" : " [\(finding.code.rawValue): \(location.joined(separator: ", "))]")))
                }
                for note in notes { context.console.print("note: " + TerminalText.escaped(note)) }
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
                            + (notes.isEmpty ? "; .gitmodules agrees; the repositories agree with the files" : ""))
                } else {
                    context.console.print("\(findings.count) finding\(findings.count == 1 ? "" : "s")")
                }
            }
            return findings.isEmpty ? .success : .findings
        }

        private func gitFindings(
            _ workspace: Workspace, project: Project?, notes: inout [String], context: CommandContext
        ) throws -> [VerifyFinding] {
            let lock = try context.lock(workspace, wait: lockOptions.wait)
            defer { lock.release() }
            var state: Snapshot
            do {
                do {
                    state = try context.snapshot(workspace, fetch: fetchOptions.fetch, partial: true)
                } catch let error as ManifestError {
                    throw error
                } catch {
                    // Before the files' first push (adopting, docs/adopting.md step 2): check the working tree's
                    // files against the remotes.
                    let branch =
                        project?.manifest.generalBranch ?? ProjectReader.generalBranchHint(workspace).branch
                        ?? ModuleManifest.defaultGeneralBranch
                    guard try !Snapshot.remoteHasProjectFiles(workspace, branch: branch, git: context.git) else {
                        throw error
                    }
                    guard let project else {
                        notes.append(
                            "\(workspace.remoteName)/\(branch) has no modules.json yet and the working tree's files "
                                + "are invalid: the git checks were skipped")
                        return []
                    }
                    notes.append(
                        "\(workspace.remoteName)/\(project.manifest.generalBranch) has no modules.json yet: the git "
                            + "checks used the working tree's files")
                    state = try context.snapshot(
                        workspace, fetch: fetchOptions.fetch, partial: true, project: project)
                }
            } catch let error as ManifestError {
                return error.problems.map {
                    VerifyFinding(
                        code: .invalidFile, message: $0.description, repository: GitVerifier.superproject,
                        branch: ModuleManifest.defaultGeneralBranch)
                }
            }
            return try GitVerifier.findings(snapshot: state, git: context.git)
        }

        private func hasGitlinks(_ workspace: Workspace, git: Git) throws -> Bool {
            try !GitRepository(workspace.root, git: git).indexGitlinks(what: "the superproject").isEmpty
        }

        private func readGitmodules(_ workspace: Workspace, git: Git) throws -> [GitmodulesEntry]? {
            let path = workspace.path(".gitmodules")
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            return try GitRepository(workspace.root, git: git).gitmodules(file: path)
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
