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

            Global options (-C <dir>, --remote <name>, --json, --quiet, --verbose, --color, --git, \
            --allow-local-remotes) go before or after the subcommand, as in git: \
            `tenantctl -C ../app --remote upstream audit`.

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
        let command: ParsableCommand
        do {
            command = try parseAsRoot(GlobalOptions.movingLeadingOptions(arguments, root: Tenantctl.self))
        } catch {
            return report(error, environment: environment)
        }
        if let command = command as? any TenantctlCommand {
            return execute(command, environment: environment)
        }
        do {
            var command = command
            try command.run()
            return 0
        } catch {
            return report(error, environment: environment)
        }
    }

    private static func report(_ error: Error, environment: CommandEnvironment) -> Int32 {
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { environment.stdout.write(message + "\n") }
        } else {
            environment.stderr.write(message + "\n")
        }
        return code.rawValue
    }

    /// Runs a parsed command: builds its context, runs it, and turns errors into messages and exit codes.
    static func execute(_ command: any TenantctlCommand, environment: CommandEnvironment) -> Int32 {
        let console = Console(
            out: environment.stdout, err: environment.stderr, quiet: command.global.quiet,
            verbose: command.global.verbose,
            color: command.global.color.enabled(environment: environment),
            width: TerminalWidth.columns(
                variables: environment.variables, isTerminal: environment.stdoutIsTerminal))
        do {
            let context = try CommandContext(options: command.global, environment: environment, console: console)
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
            console.error(error.message)
            return ExitStatus.usage.rawValue
        } catch {
            console.error(String(describing: error))
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

/// Exit statuses (SPEC §7).
public enum ExitStatus: Int32, Sendable {
    /// Everything done.
    case success = 0
    /// Nothing, or only a reported part, done.
    case failure = 1
    /// Completed with conflicts or findings (`roll`, `audit --check`, `verify`).
    case findings = 2
    /// The command line was wrong.
    case usage = 64
    /// Stopped by SIGINT or SIGTERM.
    case interrupted = 130
}

/// A tenantctl subcommand: runs in an injected ``CommandContext`` so tests can run it in-process.
public protocol TenantctlCommand: ParsableCommand {
    /// The options every command has.
    var global: GlobalOptions { get }
    /// Does the work; returns the exit status.
    func run(context: CommandContext) throws -> ExitStatus
}

extension TenantctlCommand {
    public mutating func run() throws {
        let status = Tenantctl.execute(self, environment: .process())
        if status != 0 { throw ExitCode(status) }
    }
}
