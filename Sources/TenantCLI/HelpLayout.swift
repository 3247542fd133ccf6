import Foundation

/// The layout of `--help`, as gh lays it out: what to type first (the one-line overview, USAGE, the arguments, the
/// command's own options, then the global options every command shares), then the prose (DESCRIPTION), then
/// EXAMPLES. The argument parser prints the prose first and the titled global section before the command's own
/// options; every command's help goes through here, so no command file lays out its own help. `-h` is the short help:
/// the overview, USAGE, the arguments and the command's own options. `--version` is listed on the root command only.
enum HelpLayout {
    /// The title of the global options' section (`@OptionGroup(title: "Global Options")`).
    static let globalTitle = "GLOBAL OPTIONS:"
    /// The title the prose gets after the options.
    static let descriptionTitle = "DESCRIPTION:"
    /// The title of the examples, last.
    static let examplesTitle = "EXAMPLES:"
    /// The line in a command's discussion that starts its examples (the indented lines after it).
    static let examplesLine = "Examples:"

    /// A help text cut into its parts.
    struct Parts {
        /// `OVERVIEW: …` (the abstract), possibly wrapped over several lines.
        var overview: [String] = []
        /// The discussion without its examples.
        var description: [String] = []
        /// The example lines (indented).
        var examples: [String] = []
        /// USAGE and every titled section after it, in the parser's order.
        var sections: [[String]] = []
    }

    /// The full help: overview, USAGE, arguments, options, global options, subcommands, DESCRIPTION, EXAMPLES.
    /// A text that is not the parser's help (no `USAGE:` line) is returned unchanged.
    static func arranged(_ help: String) -> String {
        guard let parts = parts(of: help) else { return help }
        var blocks: [[String]] = []
        if !parts.overview.isEmpty { blocks.append(parts.overview) }
        blocks += sectionsInOrder(parts.sections)
        if !parts.description.isEmpty { blocks.append([descriptionTitle] + parts.description) }
        if !parts.examples.isEmpty { blocks.append([examplesTitle] + parts.examples) }
        return blocks.map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
    }

    /// The short help `-h` prints: overview, USAGE, arguments, the command's own options and subcommands, then where
    /// the rest is.
    static func short(_ help: String) -> String {
        guard let parts = parts(of: help) else { return help }
        var blocks: [[String]] = []
        if !parts.overview.isEmpty { blocks.append(parts.overview) }
        blocks += sectionsInOrder(parts.sections).filter { $0.first != globalTitle }
        let usage = parts.sections.first?.first ?? ""
        let command = commandPath(usage: usage)
        blocks.append(["Run `\(command) --help` for the global options, the description and examples."])
        return blocks.map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
    }

    /// `tenantctl switch` from `USAGE: tenantctl switch [<options>] <tenant>`.
    static func commandPath(usage: String) -> String {
        let words = usage.dropFirst("USAGE:".count).split(separator: " ")
        return words.prefix { !$0.hasPrefix("[") && !$0.hasPrefix("<") && !$0.hasPrefix("-") }.joined(
            separator: " ")
    }

    /// The sections with the global options after the command's own and `--version` only on the root command.
    private static func sectionsInOrder(_ sections: [[String]]) -> [[String]] {
        let isRoot = sections.first.map { commandPath(usage: $0[0]) == "tenantctl" } ?? false
        var ordered = sections.filter { $0.first != globalTitle }
        if !isRoot {
            ordered = ordered.map { section in
                section.first == "OPTIONS:" ? section.filter { !isVersionOption($0) } : section
            }
        }
        if let global = sections.first(where: { $0.first == globalTitle }) {
            let options = ordered.firstIndex { $0.first == "OPTIONS:" }
            ordered.insert(global, at: options.map { $0 + 1 } ?? ordered.endIndex)
        }
        return ordered
    }

    /// Whether `line` lists the parser's `--version` flag.
    private static func isVersionOption(_ line: String) -> Bool {
        line.trimmingCharacters(in: .whitespaces).hasPrefix("--version ")
    }

    /// `help` cut into its parts, or nil when it has no `USAGE:` line.
    static func parts(of help: String) -> Parts? {
        let lines = help.components(separatedBy: "\n")
        guard let usage = lines.firstIndex(where: { $0.hasPrefix("USAGE: ") }) else { return nil }
        var parts = Parts()
        var head = Array(lines[..<usage])
        if head.first?.hasPrefix("OVERVIEW: ") == true {
            let end = head.firstIndex(of: "") ?? head.endIndex
            parts.overview = Array(head[..<end])
            head.removeSubrange(..<end)
        }
        if let start = head.firstIndex(of: examplesLine) {
            var end = start + 1
            while end < head.count, head[end].isEmpty || head[end].hasPrefix(" ") { end += 1 }
            parts.examples = trimmed(Array(head[(start + 1)..<end]))
            head.removeSubrange(start..<end)
        }
        parts.description = trimmed(head)
        var section: [String] = []
        for line in lines[usage...] {
            if isTitle(line) || line.hasPrefix("USAGE: ") {
                if !trimmed(section).isEmpty { parts.sections.append(trimmed(section)) }
                section = [line]
            } else {
                section.append(line)
            }
        }
        if !trimmed(section).isEmpty { parts.sections.append(trimmed(section)) }
        return parts
    }

    /// `lines` without the empty lines at either end.
    private static func trimmed(_ lines: [String]) -> [String] {
        var lines = lines
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        while lines.first?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeFirst() }
        return lines
    }

    /// Whether `line` is a section title: `OPTIONS:`, `GLOBAL OPTIONS:`, `SUBCOMMANDS:`.
    private static func isTitle(_ line: String) -> Bool {
        line.hasSuffix(":") && !line.hasPrefix(" ") && line.count > 1
            && line.dropLast().allSatisfy { $0.isUppercase || $0 == " " }
    }
}
