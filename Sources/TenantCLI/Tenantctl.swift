import ArgumentParser
import Foundation
import TenantKit

/// The `tenantctl` root command.
public struct Tenantctl: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tenantctl",
        abstract:
            "Ship one modular app to many customers: switch, roll and audit tenant branches of a submodule superproject.",
        discussion: """
            A superproject holds every app module as a git submodule. `general_dev` carries general \
            development; every tenant has a superproject branch, and a module has a tenant branch only where \
            that tenant customised it. tenantctl drives git to switch a working copy to a tenant, roll \
            general_dev to every tenant, and audit what each tenant customised.

            Global options (-C <dir>, --remote <name>, --json, --quiet, --verbose, --wide, --no-pager, --color, \
            --git, --allow-local-remotes, --network-timeout <seconds>) go before or after the subcommand, as in \
            git: `tenantctl -C ../app --remote upstream audit`. Off a terminal (a pipe, a file) tables are never \
            wrapped or cut; --wide does the same on a terminal.

            On a terminal, a report taller than the window (audit, status, runs, tenant list) goes through a \
            pager, as git's does: $TENANTCTL_PAGER, else $GIT_PAGER, core.pager, $PAGER, else less (with \
            LESS=FRX unless LESS is set); an empty pager or cat, --no-pager, --json or output that is not a \
            terminal prints it directly. A pager that cannot start is a warning naming it, and the report is \
            printed directly.

            Reports use the glyphs ✎ · ↓ × under a UTF-8 locale (the first of $LC_ALL, $LC_CTYPE and $LANG \
            that is set), else their ASCII stand-ins + . - x.

            Exit codes: 0 success, 1 failure, 2 completed with conflicts or findings, 64 usage error, \
            130 interrupted.

            Start with:
              tenantctl demo                 the whole story on a generated example
              tenantctl example /tmp/erp     the thesis' ERP example as real repositories
            """,
        version: TenantKitInfo.version,
        subcommands: Tenantctl.subcommandTypes
    )

    public init() {}

    /// Runs tenantctl as a program: parses the process arguments, runs, and exits with the right code.
    public static func runMain() -> Never {
        let environment = CommandEnvironment.process()
        SignalHandling.install()
        let status = run(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
        SignalHandling.exitIfInterrupted()
        Foundation.exit(status)
    }

    /// Parses `arguments` and runs the command in `environment`; returns the exit status.
    /// Tests call this in-process with a captured environment.
    public static func run(arguments: [String], environment: CommandEnvironment) -> Int32 {
        if let unknown = unknownHelpTopic(in: arguments) ?? versionAfterSubcommand(in: arguments) {
            environment.stderr.write("error: " + unknown + "\n")
            return ExitStatus.usage.rawValue
        }
        let command: ParsableCommand
        var environment = environment
        environment.arguments = GlobalOptions.movingLeadingOptions(arguments, root: Tenantctl.self)
        do {
            command = try parseAsRoot(environment.arguments)
        } catch {
            return report(error, arguments: arguments, environment: environment)
        }
        if let command = command as? any TenantctlCommand {
            return execute(command, environment: environment)
        }
        do {
            var command = command
            try command.run()
            return 0
        } catch {
            // `-h`, `--help` and `help` end here (the parser's help command): the arguments decide the layout.
            return report(error, arguments: arguments, environment: environment)
        }
    }

    /// Prints a parse error or help: help and `--version` on stdout; errors on stderr starting `error: ` (the
    /// parser's own `Error: ` is rewritten), a mistyped subcommand with "did you mean …?"; usage errors exit 64.
    private static func report(_ error: Error, arguments: [String] = [], environment: CommandEnvironment) -> Int32 {
        let code = exitCode(for: error)
        var message = fullMessage(for: error)
        if code == .success {
            if arguments.contains(where: { $0.hasPrefix("--generate-completion-script") }) {
                message = CompletionScript.withGlobalOptions(message)
            }
            if !message.isEmpty {
                let short = arguments.prefix(while: { $0 != "--" }).contains("-h") && !arguments.contains("--help")
                environment.stdout.write((short ? HelpLayout.short(message) : HelpLayout.arranged(message)) + "\n")
            }
            return code.rawValue
        }
        if let unknown = unknownSubcommand(in: arguments) {
            message = "error: " + unknown + "\n" + message.split(separator: "\n").dropFirst().joined(separator: "\n")
        } else if message.hasPrefix("Error: ") {
            message = "error: " + message.dropFirst("Error: ".count)
        }
        environment.stderr.write(message + "\n")
        // With --json the usage error is a JSON object on stdout too (its first line, without `error: `).
        if arguments.prefix(while: { $0 != "--" }).contains("--json") {
            writeJSONError(
                CommandErrorJSON(
                    code: "usage",
                    message: String(message.split(separator: "\n").first ?? "").replacingOccurrences(
                        of: "error: ", with: "", options: .anchored)),
                environment: environment)
        }
        return code.rawValue
    }

    /// The error for `tenantctl help <command>` naming a command that does not exist (the parser would print the
    /// top-level help and exit 0), else nil.
    static func unknownHelpTopic(in arguments: [String]) -> String? {
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-") {
            index += GlobalOptions.valuedNames.contains(arguments[index]) ? 2 : 1
        }
        guard index < arguments.count, arguments[index] == "help" else { return nil }
        let topic = arguments[(index + 1)...].filter { !$0.hasPrefix("-") }
        guard !topic.isEmpty else { return nil }
        return unknownSubcommand(in: Array(topic))
    }

    /// The error for `--version` after a subcommand (`tenantctl switch --version`): the version is the root
    /// command's option only, else nil.
    static func versionAfterSubcommand(in arguments: [String]) -> String? {
        let words = Array(arguments.prefix { $0 != "--" })
        guard let version = words.firstIndex(of: "--version") else { return nil }
        var index = 0
        while index < version, words[index].hasPrefix("-") {
            index += GlobalOptions.valuedNames.contains(words[index]) ? 2 : 1
        }
        guard index < version else { return nil }
        return "--version is an option of tenantctl itself, not of '\(words[index])'; run `tenantctl --version`"
    }

    /// "unknown command 'swich'; did you mean switch?" when `arguments` name a subcommand that does not exist
    /// (the first word that is not an option, under the root or a command group), else nil.
    static func unknownSubcommand(in arguments: [String]) -> String? {
        var command: ParsableCommand.Type = Tenantctl.self
        var path = ["tenantctl"]
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word.hasPrefix("-") {
                // A global option's value is not a subcommand.
                index += GlobalOptions.valuedNames.contains(word) ? 2 : 1
                continue
            }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            let names = subcommands.flatMap { [$0._commandName] + $0.configuration.aliases }
            if let next = subcommands.first(where: {
                $0._commandName == word || $0.configuration.aliases.contains(word)
            }) {
                command = next
                path.append(word)
                index += 1
                continue
            }
            // A group with a default subcommand takes arguments of its own (`tenant list`'s none): still a typo.
            var text = "unknown command '\(word)' for '\(path.joined(separator: " "))'"
            if let guess = NameSuggestions.closest(to: word, among: names) {
                text += "; did you mean \(guess)?"
            } else {
                text += "; commands: " + names.joined(separator: ", ")
            }
            return text
        }
        return nil
    }

    /// Runs a parsed command: builds its context, runs it, and turns errors into messages and exit codes. With
    /// `--json`, a command that fails (exit 1 or 64) without printing its JSON report prints a JSON error object
    /// on stdout too (``CommandErrorJSON``), besides the error on stderr.
    static func execute(_ command: any TenantctlCommand, environment: CommandEnvironment) -> Int32 {
        let failure = CommandFailure()
        guard command.global.json else { return execute(command, environment: environment, failure: failure) }
        let stdout = WatchedOutputSink(environment.stdout)
        var watched = environment
        watched.stdout = stdout
        let status = execute(command, environment: watched, failure: failure)
        if status == ExitStatus.failure.rawValue || status == ExitStatus.usage.rawValue, !stdout.wroteSomething,
            !failure.log.all.isEmpty
        {
            writeJSONError(CommandErrorJSON(failure), environment: environment)
        }
        return status
    }

    /// Writes the JSON error object `report` on stdout. The error itself is already on stderr; should the object not
    /// encode, stderr says so too, and stdout stays empty rather than silently missing its report.
    static func writeJSONError(_ report: some Encodable, environment: CommandEnvironment) {
        do {
            environment.stdout.write(try JSONOutput.encode(report) + "\n")
        } catch {
            environment.stderr.write(
                "error: the JSON error object could not be written on stdout (\(error)); the error is the text above\n")
        }
    }

    /// ``execute(_:environment:)`` without the JSON error object; what failed is kept in `failure`.
    private static func execute(
        _ command: any TenantctlCommand, environment: CommandEnvironment, failure: CommandFailure
    ) -> Int32 {
        var console = Console(
            out: environment.stdout, err: environment.stderr, quiet: command.global.quiet,
            verbose: command.global.verbose,
            color: command.global.color.enabled(environment: environment),
            width: command.global.wide
                ? TerminalWidth.unlimited
                : TerminalWidth.columns(variables: environment.variables, isTerminal: environment.stdoutIsTerminal))
        console.errorLog = failure.log
        console.ascii = !TerminalLocale.isUTF8(environment.variables)
        let paged = PagedOutput.begin(command, environment: environment)
        if let paged { console.out = paged.buffer }
        var repository: GitRepository?
        defer { paged?.finish(columns: console.width, repository: repository) }
        do {
            let context = try CommandContext(options: command.global, environment: environment, console: console)
            repository = context.directoryRepository
            let status = try command.run(context: context)
            // A command that reported the failures an interrupt caused (a roll's rejected tenants) was interrupted.
            return Cancellator.shared.isCancelled ? ExitStatus.interrupted.rawValue : status.rawValue
        } catch let error where isCancellation(error) {
            // Not an error of its own: `runMain` prints "interrupted" once the children are stopped.
            console.debug(String(describing: error))
            return ExitStatus.interrupted.rawValue
        } catch let error as ExitCode {
            return error.rawValue
        } catch let error as ValidationError {
            failure.code = "usage"
            console.error(error.message)
            return ExitStatus.usage.rawValue
        } catch let error as UnknownNameError {
            failure.code = "unknown-\(error.kind)"
            failure.names = error.names
            console.error(error.description)
            return ExitStatus.usage.rawValue
        } catch {
            if error is GitError { failure.code = "git" }
            console.error(String(describing: error))
            if let error = error as? GitError, error.userCommand != error.command {
                // The runner's hardening settings, left out of the message above.
                console.debug("  full command: " + error.command.map(GitError.quote).joined(separator: " "))
            }
            return ExitStatus.failure.rawValue
        }
    }
}

/// Whether `error` ended a command because the run was interrupted (then the exit status is 130, not 1): any
/// failure once the process-wide cancellator is cancelled (a git child killed by the interrupt's SIGTERM), or a git
/// process refused because of it.
func isCancellation(_ error: any Error) -> Bool {
    if Cancellator.shared.isCancelled || error is CancellationError { return true }
    if let error = error as? GitError, case .cancelled = error.kind { return true }
    return false
}
