import Foundation

/// The shell completion scripts (`--generate-completion-script bash|zsh|fish`) with the global options known
/// before the subcommand too.
///
/// The global options belong to every subcommand (`@OptionGroup`), and the parser generates the scripts from
/// that: at the top level a script knows only `--version` and `--help`, so in `tenantctl -C ../app switch <TAB>`
/// it takes `../app` for the subcommand and offers subcommands. Here the top level of each script gets the global
/// options as a subcommand has them (copied from `status`: from its `-C`, the first global option, on; status's own
/// `--short` and `--fetch` come before it), so `-C ../app` is skipped with
/// its value, `switch` is found and its tenants are offered (from `../app`: ``NameCompletion`` reads `-C`).
enum CompletionScript {
    /// `script` (the parser's, for any shell) with the global options at the top level; unchanged when it does not
    /// have the expected shape.
    static func withGlobalOptions(_ script: String) -> String {
        if script.hasPrefix("#compdef") { return zsh(script) }
        if script.contains("function __tenantctl_parse_tokens") { return fish(script) }
        if script.hasPrefix("#!/bin/bash") { return bash(script) }
        return script
    }

    /// The global options, as bash's arrays list them.
    private static var bashFlags: String {
        GlobalOptions.flagNames.sorted().joined(separator: " ")
    }
    private static var bashOptions: String {
        GlobalOptions.valuedNames.sorted().joined(separator: " ")
    }

    /// bash: the top-level function's arrays of flags and of options that take a value.
    static func bash(_ script: String) -> String {
        let root = "_tenantctl() {\n"
        guard let start = script.range(of: root),
            let end = script.range(of: "\n}\n", range: start.upperBound..<script.endIndex)
        else { return script }
        var body = String(script[start.upperBound..<end.lowerBound])
        body = body.replacingOccurrences(
            of: "local -a non_repeating_flags=(--version -h --help)",
            with: "local -a non_repeating_flags=(\(bashFlags) --version -h --help)")
        body = body.replacingOccurrences(
            of: "local -a non_repeating_options=()", with: "local -a non_repeating_options=(\(bashOptions))")
        return script.replacingCharacters(in: start.upperBound..<end.lowerBound, with: body)
    }

    /// zsh: the top-level `_arguments` specifications get `status`'s global ones (and its `--color` values).
    static func zsh(_ script: String) -> String {
        guard let status = script.range(of: "_tenantctl_status() {\n"),
            let statusSpecs = script.range(of: "local -ar arg_specs=(\n", range: status.upperBound..<script.endIndex),
            let statusVersion = script.range(
                of: "        '--version[Show the version.]'\n", range: statusSpecs.upperBound..<script.endIndex),
            let root = script.range(of: "_tenantctl() {\n"),
            let rootSpecs = script.range(
                of: "    local -ar arg_specs=(\n", range: root.upperBound..<script.endIndex)
        else { return script }
        let first = script.range(of: "        '-C[", range: statusSpecs.upperBound..<statusVersion.lowerBound)
        let globals = script[(first?.lowerBound ?? statusSpecs.upperBound)..<statusVersion.lowerBound]
        let colours = script[status.upperBound..<statusSpecs.lowerBound].split(separator: "\n")
            .filter { $0.contains("local -ar ___color=") }.map { $0 + "\n" }.joined()
        return script.replacingCharacters(
            in: rootSpecs, with: colours + "    local -ar arg_specs=(\n" + globals)
    }

    /// fish: the top-level token parser skips `status`'s global options (with their values).
    static func fish(_ script: String) -> String {
        let root = "    case 'tenantctl'\n        __tenantctl_parse_subcommand 0 'version' 'h/help'\n"
        guard let rootRange = script.range(of: root),
            let status = script.range(of: "        case 'status'\n            __tenantctl_parse_subcommand 0 "),
            let whole = script[status.upperBound...].split(separator: "\n", maxSplits: 1).first,
            let globals = whole.range(of: "'C='")
        else { return script }
        let line = whole[globals.lowerBound...]
        return script.replacingCharacters(
            in: rootRange, with: "    case 'tenantctl'\n        __tenantctl_parse_subcommand 0 \(line)\n")
    }
}
