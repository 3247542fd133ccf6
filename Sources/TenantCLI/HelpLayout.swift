import Foundation

/// The layout of `--help`: the global options every command shares get their own section after the command's own
/// options (the argument parser puts a titled section first, where nine shared options would hide the command's).
enum HelpLayout {
    /// The title of the global options' section (`@OptionGroup(title: "Global Options")`).
    static let globalTitle = "GLOBAL OPTIONS:"

    /// `help` with the ``globalTitle`` section moved after the `OPTIONS:` section; unchanged without either.
    static func arranged(_ help: String) -> String {
        var lines = help.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: globalTitle) else { return help }
        let end = sectionEnd(lines, from: start)
        var section = Array(lines[start..<end])
        while section.last?.isEmpty == true { section.removeLast() }
        lines.removeSubrange(start..<end)
        guard let options = lines.firstIndex(of: "OPTIONS:") else { return help }
        var insertion = sectionEnd(lines, from: options)
        while insertion > options, lines[insertion - 1].isEmpty { insertion -= 1 }
        lines.insert(contentsOf: [""] + section, at: insertion)
        return lines.joined(separator: "\n")
    }

    /// The index of the line after the section whose title is at `start` (the next title, or the end).
    private static func sectionEnd(_ lines: [String], from start: Int) -> Int {
        var index = start + 1
        while index < lines.count, !isTitle(lines[index]) { index += 1 }
        return index
    }

    /// Whether `line` is a section title: `OPTIONS:`, `GLOBAL OPTIONS:`, `SUBCOMMANDS:`.
    private static func isTitle(_ line: String) -> Bool {
        line.hasSuffix(":") && !line.hasPrefix(" ") && line.dropLast().allSatisfy { $0.isUppercase || $0 == " " }
    }
}
