import ArgumentParser
import Foundation
import TenantKit

/// When to colour output.
public enum ColorChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto, always, never

    /// Whether colour is on: `always`; or `auto` on a terminal without `NO_COLOR` and with a capable `TERM`.
    func enabled(environment: CommandEnvironment) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment.variables["NO_COLOR"], !noColor.isEmpty { return false }
            if environment.variables["TERM"] == "dumb" { return false }
            return environment.stdoutIsTerminal
        }
    }
}

/// Options shared by every command (`@OptionGroup`).
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(name: .customShort("C"), help: ArgumentHelp("Run as if tenantctl was started in <dir>.", valueName: "dir"))
    public var directory: String?

    @Option(
        help: ArgumentHelp(
            "The superproject's remote to read from and push to.", valueName: "name"))
    public var remote: String = Workspace.defaultRemoteName

    @Flag(help: "Print the report as JSON (sorted keys, stable order).")
    public var json = false

    @Flag(
        name: .shortAndLong,
        help: "Print nothing but errors (and the data --json asks for); the exit status tells the rest.")
    public var quiet = false

    @Flag(name: .shortAndLong, help: "Print every git command on stderr.")
    public var verbose = false

    @Flag(help: "Never wrap or cut tables, also on a terminal (off a terminal they never are).")
    public var wide = false

    @Flag(
        help: ArgumentHelp(
            "Never page the output (on a terminal long reports go through $TENANTCTL_PAGER, $GIT_PAGER, core.pager, "
                + "$PAGER or less)."))
    public var noPager = false

    @Option(help: "When to colour output; auto colours on a terminal unless NO_COLOR is set.")
    public var color: ColorChoice = .auto

    @Option(
        help: ArgumentHelp(
            "The git executable to run (default: $TENANTCTL_GIT, else git from PATH).", valueName: "path"))
    public var git: String?

    @Flag(help: "Allow local-path and file:// remotes (also TENANTCTL_ALLOW_LOCAL_REMOTES=1).")
    public var allowLocalRemotes = false

    @Option(
        help: ArgumentHelp(
            "Stop a fetch, clone, push or ls-remote that takes longer than <seconds>, with an error naming the "
                + "remote; nothing of that call is written. Example: tenantctl roll --network-timeout 60",
            valueName: "seconds"))
    public var networkTimeout: Int = GlobalOptions.defaultNetworkTimeout

    /// `--network-timeout` when not given: generous, but a hung connection does not block a CI runner for hours.
    public static let defaultNetworkTimeout = 300

    public init() {}

    public func validate() throws {
        if let problem = GlobalOptions.remoteNameProblem(remote) {
            throw ValidationError("--remote \(remote): \(problem)")
        }
        guard networkTimeout > 0 else {
            throw ValidationError("--network-timeout \(networkTimeout): give a number of seconds greater than 0")
        }
    }

    /// Why `name` cannot be a remote's name (git's rule: `refs/remotes/<name>/x` must be a valid ref), or nil.
    static func remoteNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "a remote name cannot be empty" }
        if name.hasPrefix("-") { return "a remote name cannot start with '-'" }
        if let reason = RefName.validateBranch(name + "/x") { return "not a valid remote name: \(reason)" }
        return nil
    }

    /// Global options taking a value, by spelling.
    static let valuedNames: Set<String> = ["-C", "--remote", "--color", "--git", "--network-timeout"]
    /// Global flags, by spelling.
    static let flagNames: Set<String> = [
        "--json", "-q", "--quiet", "-v", "--verbose", "--wide", "--no-pager", "--allow-local-remotes",
    ]

    /// `arguments` with the global options written before the subcommand (`tenantctl -C ../app audit`, as git
    /// accepts them) moved behind the subcommand's name (`audit -C ../app`), where every command parses them.
    /// Anything else is left as it is, so a wrong command line still gets the parser's own message.
    static func movingLeadingOptions(_ arguments: [String], root: ParsableCommand.Type) -> [String] {
        var leading: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if flagNames.contains(argument) || ["-qv", "-vq"].contains(argument) {
                leading.append(argument)
                index += 1
            } else if valuedNames.contains(argument), index + 1 < arguments.endIndex {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else if valuedNames.contains(where: { $0.hasPrefix("--") && argument.hasPrefix($0 + "=") })
                || (argument.hasPrefix("-C") && argument.count > 2)
            {
                leading.append(argument)
                index += 1
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.endIndex else { return arguments }
        var rest = Array(arguments[index...])
        var command = root
        var position = 0
        while position < rest.count,
            let next = command.configuration.subcommands.first(where: {
                $0._commandName == rest[position] || $0.configuration.aliases.contains(rest[position])
            })
        {
            command = next
            position += 1
        }
        guard position > 0 else { return arguments }
        rest.insert(contentsOf: leading, at: position)
        return rest
    }
}
