import Foundation

/// A failure of a git process, with everything a person needs to act on it.
public struct GitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: Sendable, Equatable {
        /// git exited with a non-zero status.
        case failed(status: Int32)
        /// git was killed by a signal.
        case killed(signal: Int32)
        /// The git executable could not be started.
        case notStarted(reason: String)
        /// git is older than the minimum version.
        case unsupportedVersion(found: String, minimum: String)
        /// git printed something this tool cannot parse.
        case unparseableOutput(detail: String)
        /// A value was refused before it reached git (it would break git's line protocol or name no ref).
        case refusedArgument(detail: String)
        /// The run was interrupted (SIGINT/SIGTERM): git was not started.
        case cancelled
        /// A network call took longer than `--network-timeout` and was stopped; `remote` is redacted.
        case timedOut(seconds: Double, remote: String)
    }

    /// What failed, from the caller's point of view ("fetch module Article").
    public var context: String
    /// The kind of failure.
    public var kind: Kind
    /// The command line (already redacted).
    public var command: [String]
    /// The repository the command ran in, if any.
    public var directory: String?
    /// git's standard error (already redacted, trimmed), with the remote's `remote: …` lines.
    public var stderr: String
    /// The full result of the failed process (status, stdout, stderr as git wrote them), when one ran.
    public var output: GitOutput?

    /// An error without a process result (git did not run, or the caller has only its standard error).
    public init(context: String, kind: Kind, command: [String], directory: String?, stderr: String) {
        self.context = context
        self.kind = kind
        self.command = command.map(Redaction.redact)
        self.directory = directory
        self.stderr = Redaction.redact(stderr).trimmingCharacters(in: .whitespacesAndNewlines)
        self.output = nil
    }

    /// An error carrying the result of the process that failed.
    public init(context: String, kind: Kind, command: [String], directory: String?, output: GitOutput) {
        self.init(context: context, kind: kind, command: command, directory: directory, stderr: output.stderr)
        self.output = output
    }

    /// What the remote said (`remote: …` lines of git's standard error, e.g. a server hook's reasons for a
    /// rejected push), by the one rule of ``ServerMessages``.
    public var remoteMessages: [String] { ServerMessages.parse(stderr) }

    /// The `-c` settings every git call gets from the runner (`Git.argumentVector`): hardening, not part of what
    /// the user would type. Messages leave them out; `--verbose` shows the full vector.
    static let runnerSettings = [
        "core.fsmonitor=false", "core.hooksPath=/dev/null", "protocol.ext.allow=never", "protocol.file.allow=always",
    ]

    /// The command as the user would type it: ``command`` without the runner's own `-c` settings.
    public var userCommand: [String] {
        var result: [String] = []
        var index = command.startIndex
        while index < command.endIndex {
            if command[index] == "-c", index + 1 < command.endIndex, Self.runnerSettings.contains(command[index + 1]) {
                index += 2
                continue
            }
            result.append(command[index])
            index += 1
        }
        return result
    }

    private var isUnsupportedVersion: Bool {
        if case .unsupportedVersion = kind { return true }
        return false
    }

    public var description: String {
        var lines: [String] = []
        switch kind {
        case .failed(let status):
            lines.append("\(context) failed (git exited with status \(status))")
        case .killed(let signal):
            lines.append("\(context) failed (git was killed by signal \(signal))")
        case .notStarted(let reason):
            lines.append("\(context) failed: cannot start git: \(reason)")
        case .unsupportedVersion(let found, let minimum):
            lines.append(
                "git \(found) is too old: tenantctl needs git \(minimum) or newer (for merge-tree --write-tree). "
                    + "Install a newer git or point TENANTCTL_GIT / --git at one.")
        case .unparseableOutput(let detail):
            lines.append("\(context) failed: unexpected output from git: \(detail)")
        case .refusedArgument(let detail):
            lines.append("\(context) failed: \(detail)")
        case .cancelled:
            lines.append("\(context) stopped: tenantctl was interrupted")
        case .timedOut(let seconds, let remote):
            lines.append(
                "\(context): timed out after \(Self.seconds(seconds)) talking to \(remote); raise --network-timeout "
                    + "if the remote is only slow")
        }
        if !command.isEmpty, !isUnsupportedVersion {
            let location = directory.map { " (in \($0))" } ?? ""
            lines.append("  command: \(userCommand.map(Self.quote).joined(separator: " "))\(location)")
        }
        if !stderr.isEmpty {
            lines.append("  git said:")
            lines.append(
                contentsOf: stderr.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" })
        }
        if Self.credentialFailures.contains(where: stderr.contains) {
            lines.append(
                "  hint: tenantctl never prompts for credentials; give them to git non-interactively (a credential "
                    + "helper, an ssh key or agent, GIT_ASKPASS): see docs/network.md")
        }
        if stderr.contains("transport 'file' not allowed") {
            lines.append(
                "  hint: this remote is a local path or file:// URL; allow local remotes with --allow-local-remotes "
                    + "or TENANTCTL_ALLOW_LOCAL_REMOTES=1")
        }
        return lines.joined(separator: "\n")
    }

    /// What git and ssh say when credentials are missing or refused.
    static let credentialFailures = [
        "terminal prompts disabled", "Authentication failed", "Permission denied (publickey",
        "Host key verification failed", "could not read Username", "could not read Password",
    ]

    /// `5 s`, `2.5 s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e12 ? "\(Int(value)) s" : "\(value) s"
    }

    /// Quotes an argument for display (never for a shell: git is always run with an argument vector).
    public static func quote(_ argument: String) -> String {
        if argument.isEmpty { return "''" }
        let safe = argument.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "-_./:=@,+%^{}~".unicodeScalars.contains($0)
        }
        return safe ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Removes credentials from URLs that appear in arbitrary text.
public enum Redaction {
    /// Replaces the password part of every `scheme://user:password@host` in `text` with `***`.
    public static func redact(_ text: String) -> String {
        guard text.contains("://"), text.contains("@") else { return text }
        var result = ""
        var rest = Substring(text)
        while let schemeRange = rest.range(of: "://") {
            result += rest[..<schemeRange.upperBound]
            rest = rest[schemeRange.upperBound...]
            // The authority ends at the first '/', whitespace or end of text.
            let authorityEnd =
                rest.firstIndex(where: { $0 == "/" || $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "'" || $0 == "\"" }
                )
                ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                let userinfo = authority[..<at]
                let scheme = result.dropLast(3).reversed().prefix(while: { $0.isLetter || $0 == "+" }).reversed()
                if let colon = userinfo.firstIndex(of: ":") {
                    result += userinfo[..<colon] + ":***"
                } else if String(scheme).lowercased().hasSuffix("ssh") {
                    result += userinfo  // an ssh user name is not a secret
                } else {
                    result += "***"  // a lone token used as user name is a secret
                }
                result += authority[at...]
            } else {
                result += authority
            }
            rest = rest[authorityEnd...]
        }
        return result + rest
    }
}
