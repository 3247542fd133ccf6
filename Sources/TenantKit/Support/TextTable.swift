import Foundation

/// A plain-text table with left-aligned columns, two spaces apart. Titles are written in UPPERCASE by the caller
/// (module names in the audit's header are data and keep their case).
///
/// `render(width:)` fits the table into `width` columns (``TerminalWidth``): the last column wraps at spaces onto
/// continuation lines indented to the column (a word longer than the column is broken); when even that leaves the
/// last column fewer than 12 columns, the widest other columns are cut with `…`, down to 4 columns each. Only a
/// table whose other columns cannot get that narrow is printed wider than `width`. `--json` keeps the full text.
public struct TextTable: Sendable {
    /// Column titles.
    public var header: [String]
    /// Cells, row by row.
    public var rows: [[String]]

    public init(header: [String], rows: [[String]]) {
        self.header = header
        self.rows = rows
    }

    /// The narrowest a column other than the last one gets.
    static let minimumColumn = 4
    /// The narrowest the last column gets before the others are cut.
    static let minimumLastColumn = 12

    /// The table as lines of text (no trailing newline), at most `width` columns wide where it can be. With
    /// `wrapLastColumn` false (a matrix, whose cells must stay on their row) every column may be cut instead.
    public func render(width: Int = Int.max, wrapLastColumn: Bool = true) -> String {
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        guard columns > 0 else { return "" }
        var widths = Array(repeating: 0, count: columns)
        for row in all {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], TextWidth.of(cell)) }
        }
        let separators = 2 * (columns - 1)
        func total() -> Int { widths.reduce(0, +) + separators }
        var lastWidth = widths[columns - 1]
        if total() > width, !wrapLastColumn {
            while total() > width, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
                widths[widest] > Self.minimumColumn
            {
                widths[widest] -= 1
            }
            lastWidth = widths[columns - 1]
        } else if total() > width {
            let wanted = min(widths[columns - 1], Self.minimumLastColumn)
            // Cut the widest other column one at a time until the last one gets what it wants.
            while columns > 1, width - (total() - widths[columns - 1]) < wanted,
                let widest = widths.indices.dropLast().max(by: { widths[$0] < widths[$1] }),
                widths[widest] > Self.minimumColumn
            {
                widths[widest] -= 1
            }
            lastWidth = max(min(widths[columns - 1], width - (total() - widths[columns - 1])), 1)
        }
        let indent = widths.dropLast().reduce(0, +) + separators
        var lines: [String] = []
        for row in all {
            var cells = row.enumerated().map { index, cell -> String in
                index < columns - 1 ? Self.cut(cell, to: widths[index]) : cell
            }
            var continuation: [String] = []
            if cells.count == columns, !wrapLastColumn {
                cells[columns - 1] = Self.cut(cells[columns - 1], to: lastWidth)
            } else if cells.count == columns {
                let wrapped = Self.wrap(cells[columns - 1], width: lastWidth)
                cells[columns - 1] = wrapped.first ?? ""
                continuation = Array(wrapped.dropFirst())
            }
            let line = cells.enumerated().map { index, cell in
                index == cells.count - 1
                    ? cell : cell + String(repeating: " ", count: max(0, widths[index] - TextWidth.of(cell)))
            }.joined(separator: "  ")
            lines.append(line)
            lines += continuation.map { String(repeating: " ", count: indent) + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// `cell` cut to `width` columns with `…` at the end (ANSI styles are dropped from a cut cell).
    static func cut(_ cell: String, to width: Int) -> String {
        guard TextWidth.of(cell) > width else { return cell }
        let plain = TextWidth.plain(cell)
        return String(plain.prefix(max(width - 1, 0))) + "…"
    }

    /// `text` with every line longer than `width` wrapped at spaces, continuation lines indented two columns more
    /// than the line (prose around a table: totals, next steps, notes).
    public static func fit(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { raw -> [String] in
            let line = String(raw)
            guard TextWidth.of(line) > width else { return [line] }
            let indent = String(line.prefix { $0 == " " })
            let rest = String(repeating: " ", count: min(indent.count + 2, max(width / 2, 0)))
            let wrapped = wrap(String(line.dropFirst(indent.count)), width: max(width - rest.count, 1))
            return wrapped.enumerated().map { ($0.offset == 0 ? indent : rest) + $0.element }
        }.joined(separator: "\n")
    }

    /// `text` wrapped at spaces into lines of at most `width` columns; a longer word is broken.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard TextWidth.of(text) > width else { return [text] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            var word = word
            if line.isEmpty {
                line = word
            } else if TextWidth.of(line) + 1 + TextWidth.of(word) <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
            while TextWidth.of(line) > width {
                let plain = TextWidth.plain(line)
                lines.append(String(plain.prefix(width)))
                word = String(plain.dropFirst(width))
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

/// Display width of text in a terminal (ANSI escapes count zero).
public enum TextWidth {
    /// The number of terminal columns `text` takes.
    public static func of(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                continue
            }
            width += 1
        }
        return width
    }

    /// `text` without its ANSI escapes.
    public static func plain(_ text: String) -> String {
        var result = ""
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                continue
            }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
