import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl module add <name> --url <url>`.
    struct ModuleAdd: WritingCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a module on general_dev: modules.json, .gitmodules and the gitlink.",
            discussion: """
                One commit on general_dev (pushed; the working copy is not touched) adds the module to \
                modules.json and .gitmodules and pins it to the tip of the module's own general_dev. Tenants \
                receive it with their next `tenantctl roll`; a tenant uses it once its Tenants/<id>.json lists it. \
                Refuses invalid or duplicate names, paths and URLs, unknown dependencies, an occupied path, and a \
                module remote without general_dev. A URL with a password or token in it \
                (https://user:secret@host/...) is refused: it would be committed and pushed for everyone to read. \
                Give the URL without it and let a credential helper supply it, or pass --allow-credentials-in-url.

                Killed or interrupted, the run stays unfinished in its journal (`tenantctl runs` lists it): the other \
                writing commands refuse, naming the command that finishes it, until the same module add has run again.

                Examples:
                  tenantctl module add Invoice --url ../Invoice.git --depends-on Customer
                  tenantctl module add Reports --url https://git.example.com/erp/Reports.git
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Argument(help: "The module name.")
        var name: String

        @Option(help: "The module's remote URL (absolute, or relative to the superproject's remote).")
        var url: String

        @Option(help: "Path in the superproject (default Modules/<name>).")
        var path: String?

        @Option(
            help: ArgumentHelp("Modules this one needs, comma-separated.", valueName: "A,B"),
            transform: { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
        var dependsOn: [String] = []

        @Flag(
            name: .customLong("allow-credentials-in-url"),
            help: "Commit a URL that carries a password or token (it is published with modules.json).")
        var allowCredentialsInURL = false

        @OptionGroup var writeOptions: WriteOptions

        func validate() throws {
            if !allowCredentialsInURL, let redacted = RemoteURL.credentialsRedacted(url) {
                throw ValidationError(
                    "the --url \(redacted) carries a password or token: modules.json and .gitmodules would publish it "
                        + "on general_dev. Give the URL without it (a credential helper supplies the password), "
                        + "or pass --allow-credentials-in-url to commit it anyway.")
            }
        }

        func run(context: CommandContext) throws -> ExitStatus {
            try LifecycleOutput.run(
                .moduleAdd(name: name, url: url, path: path, dependsOn: dependsOn), context: context,
                options: writeOptions,
                headline: LifecycleHeadline(done: "added module \(name)", wouldDo: "would add module \(name)"))
        }
    }
}
