import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl init`: adopt an existing submodule superproject.
    struct Init: LockingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Adopt an existing submodule superproject: write modules.json and Tenants/ from git.",
            discussion: """
                Writes modules.json from .gitmodules (module name = the repository name of the submodule's URL, \
                without .git, whitespace replaced by -; URL exactly as in .gitmodules; no dependencies: add \
                dependsOn by hand) and Tenants/<id>.json \
                for every existing branch (local or on the remote, fetched first) matching --tenants, except the \
                general branch, main and master; a branch customer/acme becomes tenant customer-acme on branch \
                customer/acme. Every module is active; `customised` lists the modules whose remote has a branch \
                of the tenant's name (read through tenantctl's module mirrors). Where a tenant pins a module off \
                its general branch and the module has no branch of the tenant's name, `branches` maps the module \
                to the one other branch that has the pin (a release line's release/5.5.6): init prints each \
                mapping with its reason, and each pin it could not map (on several branches or on none).

                The general branch is general_dev where it exists, else the remote's default branch (its HEAD). \
                A module whose remote has no such branch gets its own "generalBranch": its remote's default \
                branch (a main superproject over master modules).

                Two submodules whose repositories have the same name are refused, with the command that names \
                them apart: --module-name <path>=<name> names the submodule at <path>.

                This is the one command that writes into the working tree: it never overwrites an existing file \
                and prints what it wrote and what it kept. It does not commit: review the files, commit them on \
                the general branch and push, then run `tenantctl verify`.

                Killed or interrupted while writing its files, init stays unfinished in its journal (`tenantctl runs` \
                lists it): the other writing commands refuse until the same init has run again.

                Examples:
                  tenantctl init
                  tenantctl init --general-branch develop --tenants 'customer-*'
                  tenantctl init --module-name Modules/Order=Orders
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Option(
            help: ArgumentHelp(
                "The general development branch (default: general_dev where it exists, else the remote's default "
                    + "branch).", valueName: "branch"))
        var generalBranch: String?

        @Option(
            help: ArgumentHelp(
                "Branches that are tenants (a shell glob; default: every branch but the general one, and init "
                    + "says how many it took).", valueName: "glob"))
        var tenants: String?

        @Option(
            name: .customLong("module-name"),
            help: ArgumentHelp(
                "Name the submodule at <path> <name> instead of its repository's name (repeatable; for two "
                    + "submodules that would get the same name).", valueName: "path=name"))
        var moduleNames: [String] = []

        @OptionGroup var lockOptions: LockOptions

        func validate() throws {
            if let generalBranch, let problem = RefName.validateBranch(generalBranch) {
                throw ValidationError("--general-branch \(generalBranch): \(problem)")
            }
            var seen = Set<String>()
            for value in moduleNames {
                guard let (path, name) = Self.moduleName(value) else {
                    throw ValidationError(
                        "--module-name \(value): give the submodule's path and the name, as --module-name "
                            + "deps/libfoo/src=libfoo")
                }
                if let problem = ModuleName.validate(name) {
                    throw ValidationError("--module-name \(value): the name \(name) \(problem)")
                }
                guard seen.insert(path).inserted else {
                    throw ValidationError("--module-name: \(path) is named twice")
                }
            }
        }

        /// Says that git ignores tenantctl's files (a root `.gitignore` of `/*`, say) and how to commit them anyway.
        func printIgnored(_ ignored: [IgnoreRules.Match], root: String, console: Console) {
            let paths = Set(ignored.map(\.path))
            var targets: [String] = []
            if paths.contains(ProjectReader.manifestPath) { targets.append(ProjectReader.manifestPath) }
            if paths.contains(where: { $0 != ProjectReader.manifestPath }) { targets.append("Tenants") }
            let rules = Set(ignored.map { "\($0.source):\($0.line): \($0.pattern)" }).sorted()
            console.warn(
                "git ignores " + targets.map { $0 == "Tenants" ? "Tenants/" : $0 }.joined(separator: " and ") + " ("
                    + rules.joined(separator: "; ") + "): `git add " + targets.joined(separator: " ")
                    + "` refuses them")
            console.print("add them anyway (git keeps tracked files, whatever the rules):")
            // Started elsewhere (-C): the command names the superproject, so that it runs where init was started.
            console.print(
                "  "
                    + ShellWord.line(
                        IgnoreRules.forceAddCommand(targets, directory: global.directory == nil ? nil : root)))
            console.print("or let git see them: add these lines at the end of .gitignore and commit it with them:")
            console.print("  !/modules.json")
            console.print("  !/Tenants/")
            console.print("  !/Tenants/*.json")
        }

        /// Without `--tenants` every branch but the general one is a tenant: says how many, and how to take only some
        /// (a glob from the names' own prefix), removing the tenant files first when init wrote them all now.
        func printEveryBranch(_ plan: Adoption.Plan, root: String, general: String, _ context: CommandContext) {
            let tenantFiles = plan.files.filter { $0.path.hasPrefix("Tenants/") }
            guard !tenantFiles.isEmpty else { return }
            // The glob matches branch names: a tenant file's `branch` (release/31.0 for the tenant release-31.0).
            let branches = tenantFiles.map { file in
                ((try? JSONSerialization.jsonObject(with: file.data)) as? [String: Any])?["branch"] as? String
                    ?? String(file.path.dropFirst("Tenants/".count).dropLast(".json".count))
            }
            context.console.print(
                "\(English.count(branches.count, "tenant", "tenants")): every branch but \(general); to take only "
                    + "some, give --tenants a glob:")
            let narrowed = rerun(naming: []) + " --tenants " + ShellWord.quote(Self.exampleGlob(branches))
            // Files init kept were there before: only files it wrote now are removed for the run again.
            let allNew = !tenantFiles.contains(where: \.exists)
            let remove = allNew ? ShellWord.line(["rm", "-r", root + "/Tenants"]) + " && " : ""
            context.console.print("  " + remove + narrowed)
        }

        /// A glob for some of `branches`: the prefix most of them share up to a `/` or `-` (`release/*`), else the
        /// first branch.
        static func exampleGlob(_ branches: [String]) -> String {
            var counts: [String: Int] = [:]
            for branch in branches {
                if let end = branch.firstIndex(where: { $0 == "/" || $0 == "-" }) {
                    counts[String(branch[...end]), default: 0] += 1
                }
            }
            let shared = counts.filter { $0.value >= 2 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.first
            return shared.map { $0.key + "*" } ?? branches.sorted().first ?? "*"
        }

        /// `path=name` split at its last `=` (a module name has no `=`; a path may).
        static func moduleName(_ value: String) -> (path: String, name: String)? {
            guard let equals = value.lastIndex(of: "=") else { return nil }
            let path = String(value[..<equals])
            let name = String(value[value.index(after: equals)...])
            return path.isEmpty || name.isEmpty ? nil : (path, name)
        }

        /// This command again, with `names` (submodule path → module name) added to its `--module-name`s.
        func rerun(naming names: [(path: String, name: String)]) -> String {
            var words = ["tenantctl", "init"]
            if let directory = global.directory { words += ["-C", directory] }
            if global.remote != Workspace.defaultRemoteName { words += ["--remote", global.remote] }
            if let git = global.git { words += ["--git", git] }
            if global.allowLocalRemotes { words.append("--allow-local-remotes") }
            if let generalBranch { words += ["--general-branch", generalBranch] }
            if let tenants { words += ["--tenants", tenants] }
            let renamed = Set(names.map(\.path))
            let kept = moduleNames.filter { Self.moduleName($0).map { !renamed.contains($0.path) } ?? true }
            for value in kept + names.map({ "\($0.path)=\($0.name)" }) { words += ["--module-name", value] }
            return ShellWord.line(words)
        }

        func run(context: CommandContext) throws -> ExitStatus {
            let workspace = try Adoption.adoptable(context.enclosingWorkspace())
            let options = InitRun.Options(
                generalBranch: generalBranch, tenants: tenants ?? "*",
                moduleNames: Dictionary(
                    moduleNames.compactMap(Self.moduleName).map { ($0.path, $0.name) },
                    uniquingKeysWith: { _, last in last }),
                arguments: context.rerunArguments(command: "init"), wait: lockOptions.wait)
            let result = try InitRun.run(workspace, options: options, console: context.console) { clash in
                LifecycleError(
                    clash.description + "; nothing was written. Name them with --module-name <path>=<name>, for "
                        + "example:\n  " + rerun(naming: clash.suggested))
            }
            let plan = result.plan
            let written = Set(result.written)
            let ignoredPaths = Set(result.ignored.map(\.path))
            if context.options.json {
                let files = plan.files.map {
                    InitJSON.File(
                        path: $0.path, written: written.contains($0.path), ignored: ignoredPaths.contains($0.path))
                }
                let mappings = plan.mappings.map {
                    InitJSON.Mapping(
                        tenantBranch: $0.tenantBranch, module: $0.module, branch: $0.branch, pin: $0.pin,
                        reason: $0.reason)
                }
                context.console.data(
                    try JSONOutput.encode(
                        InitJSON(
                            generalBranch: result.generalBranch, files: files, skipped: plan.skipped,
                            branches: mappings, unmapped: plan.unmapped)))
                return .success
            }
            for file in plan.files {
                context.console.print(
                    (written.contains(file.path) ? "wrote " : "kept  ") + file.path
                        + (written.contains(file.path) ? "" : " (exists; not overwritten)"))
            }
            for skip in plan.skipped { context.console.warn("skipped branch " + skip) }
            if !plan.mappings.isEmpty {
                context.console.print("module branches not named after their tenant (\"branches\" in the files):")
                for mapping in plan.mappings {
                    context.console.print(
                        "  \(mapping.tenantBranch): \(mapping.module) follows \(mapping.branch) (\(mapping.reason))")
                }
            }
            for note in plan.unmapped { context.console.warn("not mapped: " + note) }
            if !result.ignored.isEmpty { printIgnored(result.ignored, root: workspace.root, console: context.console) }
            if tenants == nil { printEveryBranch(plan, root: workspace.root, general: result.generalBranch, context) }
            if !written.isEmpty {
                context.console.print(
                    "next: review, run `tenantctl verify`, commit the files on \(result.generalBranch), push")
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
        /// git's ignore rules exclude it: `git add` refuses it without `-f`.
        var ignored: Bool
    }

    var schemaVersion = 1
    var generalBranch: String
    var files: [File]
    /// Branches matching the glob that cannot be tenant ids, with the reason.
    var skipped: [String]
    /// A `branches` entry init wrote: the tenant's superproject branch follows `branch` of `module`.
    struct Mapping: Encodable {
        var tenantBranch: String
        var module: String
        var branch: String
        var pin: String
        var reason: String
    }

    /// The `branches` entries written, with why.
    var branches: [Mapping]
    /// Pins off a module's general branch that init could not map to one module branch.
    var unmapped: [String]
}
