import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl compose [<tenant>]`: a tenant's build inputs from its active modules.
    struct Compose: LockingCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Generate a tenant's strings, ActiveModules.json, dependency files and Tenant.xcconfig from its active "
                + "modules.",
            discussion: """
                The thesis' stringsbuilder and combinepods for today's Xcode. From the tenant's effective \
                active modules (dropped modules are reported) it writes into --out:
                  ActiveModules.json                active modules in dependency order, dropped
                                                    ones and why
                  <lang>.lproj/Localizable.strings  the strings, one file per language
                  Localizable.xcstrings             the same strings as one String Catalog
                  TenantDependencies/Package.swift  an umbrella package of every product in
                                                    `packages`, with the strictest `platforms`
                                                    of the active modules and the tenant
                  Podfile                           only when an active module lists `pods`
                  Tenant.xcconfig                   the tenant file's `build` section (bundle
                                                    id, display name, app icon set, marketing
                                                    version, settings) and the platforms'
                                                    deployment targets

                Strings: every active module's Strings.csv in dependency order, then the tenant's `strings` \
                files; a later table overrides a key (reported); a key without a value in a language is \
                reported, never written empty. Dependencies: the active modules' ModuleDescription.json; two \
                modules requiring one package incompatibly is an error naming both, and nothing is written. \
                Exports.swift re-exports only the modules a product is declared to bring \
                ({"name": "GoogleSignInSwift", "modules": ["GoogleSignIn", "GoogleSignInSwift"]}); a product \
                named alone is linked, not imported. A pod is a name ("SBJson") or {"name", "version"}.

                Without a tenant: the working copy's tenant (the superproject branch checked out), with each \
                active module's files as checked out. With a tenant: read from the fetched refs, no working \
                copy needed (a CI build matrix): the tenant's files at origin/<branch>, each module at the \
                tenant's pin from tenantctl's module mirrors; --no-fetch, --jobs and --wait apply to this fetch.

                The output directory belongs to compose: it is replaced as a whole (built next to it, then \
                renamed), and only when something changed, so an Xcode build phase running compose on every \
                build does not touch unchanged files. A non-empty directory compose did not write is refused.

                Exit status: 0 written or up to date; 2 with --check when --out is stale (nothing written); \
                1 on an error (nothing written).

                Examples:
                  tenantctl example /tmp/erp && cd /tmp/erp/workspace
                  tenantctl switch t2 && tenantctl compose
                  tenantctl compose t1 --out /tmp/erp/build/t1
                  tenantctl compose t2 --out /tmp/erp/build/t2 --json
                  tenantctl compose t2 --out /tmp/erp/build/t2 --check    # CI gate
                  grep BUNDLE /tmp/erp/build/t2/Tenant.xcconfig           # com.example.erp.t2
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Argument(
            help: "The tenant (id or branch), read from the fetched refs; default: the working copy's tenant.",
            completion: NameCompletion.tenants())
        var tenant: String?

        @Option(
            help: ArgumentHelp(
                "The output directory (default: Generated in the superproject root).", valueName: "dir"))
        var out: String?

        @Flag(help: "Write nothing; exit 2 when --out differs from what compose would write (a CI gate).")
        var check = false

        @OptionGroup var fetchOptions: FetchOptions

        @OptionGroup var jobsOptions: JobsOptions

        @OptionGroup var lockOptions: LockOptions

        func run(context: CommandContext) throws -> ExitStatus {
            let workspace = try context.workspace()
            let compose = ComposeRun(
                tenant: tenant,
                outputDirectory: out.map {
                    URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: context.directory, isDirectory: true))
                        .standardizedFileURL.path
                }, check: check, fetch: fetchOptions.fetch, jobs: jobsOptions.jobs, wait: lockOptions.wait)
            let report: ComposeReport
            do {
                report = try compose.run(workspace: workspace, console: context.console)
            } catch let error as ComposeError {
                context.console.error(error.description)
                return .failure
            }
            for warning in report.warnings { context.console.warn(warning) }
            if context.options.json {
                context.console.data(try JSONOutput.encode(report))
            } else {
                context.console.print(report.render())
            }
            return report.isStale ? .findings : .success
        }
    }
}
