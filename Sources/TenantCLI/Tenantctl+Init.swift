import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl init`: adopt an existing submodule superproject.
    struct Init: LockingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Adopt an existing submodule superproject: write modules.json and Tenants/ from git.",
            discussion: """
                Writes modules.json from .gitmodules (module name = last path component, whitespace replaced by \
                -; URL exactly as in .gitmodules; no dependencies: add dependsOn by hand) and Tenants/<id>.json \
                for every existing branch (local or on the remote, fetched first) matching --tenants, except the \
                general branch, main and master; a branch customer/acme becomes tenant customer-acme on branch \
                customer/acme. Every module is active; `customised` lists the modules whose remote has a branch \
                of the tenant's name (read through tenantctl's module mirrors).

                The general branch is general_dev where it exists, else the remote's default branch (its HEAD). \
                A module whose remote has no such branch gets its own "generalBranch": its remote's default \
                branch (a main superproject over master modules).

                This is the one command that writes into the working tree: it never overwrites an existing file \
                and prints what it wrote and what it kept. It does not commit: review the files, commit them on \
                the general branch and push, then run `tenantctl verify`.

                Examples:
                  tenantctl init
                  tenantctl init --general-branch develop --tenants 'customer-*'
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Option(
            help: ArgumentHelp(
                "The general development branch (default: general_dev where it exists, else the remote's default "
                    + "branch).", valueName: "branch"))
        var generalBranch: String?

        @Option(help: ArgumentHelp("Branches that are tenants (a shell glob).", valueName: "glob"))
        var tenants = "*"

        @OptionGroup var lockOptions: LockOptions

        func validate() throws {
            if let generalBranch, let problem = RefName.validateBranch(generalBranch) {
                throw ValidationError("--general-branch \(generalBranch): \(problem)")
            }
        }

        func run(context: CommandContext) throws -> ExitStatus {
            let git = context.git
            let workspace = try Adoption.locate(from: context.directory, git: git, remote: global.remote)
            let lock = try context.lock(workspace, wait: lockOptions.wait)
            defer { lock.release() }
            let hasRemote = try SuperprojectRemote.originURL(workspace, git: git) != nil
            if hasRemote {
                context.console.progress("fetching the superproject…")
                try SuperprojectRemote.fetch(workspace, git: git, remoteChecked: true)
            }
            let branches = try Adoption.branches(workspace, git: git)
            let general: String
            if let generalBranch {
                guard branches.contains(generalBranch) else {
                    throw LifecycleError(
                        "the superproject has no branch \(generalBranch), locally or on \(workspace.remoteName) "
                            + "(branches: \(branches.sorted().joined(separator: ", "))); create and push it first, or "
                            + "pass the branch your general development happens on")
                }
                general = generalBranch
            } else {
                let detected = try Adoption.detectGeneralBranch(
                    workspace, branches: branches, hasRemote: hasRemote, git: git)
                general = detected.branch
                context.console.progress("general branch: \(general) (\(detected.source); --general-branch to choose)")
            }
            let gitmodules = GitmodulesParser.parse(
                try git.run(
                    ["config", "-z", "--file", workspace.path(".gitmodules"), "--list"], in: workspace.root,
                    context: "read .gitmodules"
                ).stdout)
            // Module branches, to detect customisations: read through the mirrors (local remotes need permission).
            let modules = gitmodules.compactMap { entry -> Module? in
                guard let path = entry.path, let url = entry.url else { return nil }
                return Module(name: Adoption.moduleName(forPath: path), path: path, url: url)
            }
            let specs = try ModuleRemotes.specs(for: modules, workspace: workspace, git: git)
            context.console.progress(
                "fetching \(English.count(specs.count, "module repository", "module repositories"))…")
            let mirrors = try ModuleMirrors(workspace: workspace, git: git).sync(specs, console: context.console)
            var moduleBranches: [String: Set<String>] = [:]
            for (name, mirror) in mirrors {
                let refs = try git.run(
                    ["for-each-ref", "--format=%(refname:lstrip=2)", "refs/heads/"], in: mirror,
                    context: "list the branches of \(name)")
                moduleBranches[name] = Set(refs.lines)
            }
            // A module without the general branch follows its own default branch (its remote's HEAD).
            var moduleDefaults: [String: String] = [:]
            for spec in specs where moduleBranches[spec.name]?.contains(general) == false {
                moduleDefaults[spec.name] = try Adoption.defaultBranch(
                    ofRemote: spec.url, in: workspace.root, git: git)
            }
            let plan = try Adoption.plan(
                workspace: workspace, generalBranch: general, glob: tenants, gitmodules: gitmodules,
                branches: branches, moduleBranches: moduleBranches, moduleDefaults: moduleDefaults)
            let written = try Adoption.write(plan)
            if context.options.json {
                let files = plan.files.map { InitJSON.File(path: $0.path, written: written.contains($0.path)) }
                context.console.data(
                    try JSONOutput.encode(InitJSON(generalBranch: general, files: files, skipped: plan.skipped)))
                return .success
            }
            for file in plan.files {
                context.console.print(
                    (written.contains(file.path) ? "wrote " : "kept  ") + file.path
                        + (written.contains(file.path) ? "" : " (exists; not overwritten)"))
            }
            for skip in plan.skipped { context.console.warn("skipped branch " + skip) }
            if !written.isEmpty {
                context.console.print(
                    "next: review, run `tenantctl verify`, commit the files on \(general), push")
            }
            return .success
        }
    }
}

/// `tenantctl init --json`.
struct InitJSON: Encodable {
    /// A file init wrote or kept.
    struct File: Encodable {
        var path: String
        /// False: it existed and was kept as it is.
        var written: Bool
    }

    var schemaVersion = 1
    var generalBranch: String
    var files: [File]
    /// Branches matching the glob that cannot be tenant ids, with the reason.
    var skipped: [String]
}
