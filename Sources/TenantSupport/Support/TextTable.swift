import Foundation

/// A plain-text table with left-aligned columns, two spaces apart: the one table layout every command uses.
/// Titles are written in UPPERCASE by the caller (module names in the audit's header are data and keep their case).
///
/// Nothing a person may need to copy is ever cut: a row key, an id, a branch or a run id is printed whole. Only the
/// columns marked as free text (names, details, lists) give way: `render(width:)` first wraps them at spaces
/// within their column (a word is never broken); when the table still does not fit, it is printed in another
/// form (``Overflow``). Off a terminal the width is unlimited (``TerminalWidth``) and nothing wraps.
public struct TextTable: Sendable {
    /// Column titles.
    public var header: [String]
    /// Cells, row by row.
    public var rows: [[String]]
    /// The columns of free text, wrapped at spaces when the table is too wide; every other column is never cut.
    public var textColumns: Set<Int>

    /// What a table does that does not fit even with its free text wrapped.
    public enum Overflow: Sendable {
        /// One block of `TITLE  value` lines per row (a list of things: branches, modules, runs).
        case records
        /// The columns in blocks that fit, each repeating the first column (a matrix, whose cells stay on their
        /// row).
        case columnBlocks
    }

    /// A table whose `text` columns (default: the last one) are free text.
    public init(header: [String], rows: [[String]], text: Set<Int>? = nil) {
        self.header = header
        self.rows = rows
        self.textColumns = text ?? (header.isEmpty ? [] : [header.count - 1])
    }

    /// The table as lines of text (no trailing newline), at most `width` columns wide where nothing has to be cut
    /// for it (a single id wider than `width` makes its line wider). With `ascii` (a terminal without UTF-8) the
    /// cells get their ASCII stand-ins before the columns are measured: `…` is three columns then, `→` two, and the
    /// columns after them stay aligned.
    public func render(width: Int = Int.max, overflow: Overflow = .records, ascii: Bool = false) -> String {
        if ascii {
            var shown = self
            shown.header = header.map(TerminalLocale.ascii)
            shown.rows = rows.map { $0.map(TerminalLocale.ascii) }
            return shown.render(width: width, overflow: overflow)
        }
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        guard columns > 0 else { return "" }
        var widths = Array(repeating: 0, count: columns)
        var minimums = Array(repeating: 0, count: columns)
        for row in all {
            for (index, cell) in row.enumerated() {
                widths[index] = max(widths[index], TextWidth.of(cell))
                minimums[index] = max(
                    minimums[index],
                    textColumns.contains(index) ? Self.longestWord(cell) : TextWidth.of(cell))
            }
        }
        let separators = 2 * (columns - 1)
        func total() -> Int { widths.reduce(0, +) + separators }
        // Narrow the widest free-text column, one column at a time, down to its longest word.
        while total() > width,
            let widest = widths.indices.filter({ widths[$0] > minimums[$0] }).max(by: { widths[$0] < widths[$1] })
        {
            widths[widest] -= 1
        }
        if total() <= width { return Self.grid(all, widths: widths).joined(separator: "\n") }
        switch overflow {
        case .records: return records(width: width)
        case .columnBlocks: return columnBlocks(width: width, columns: columns)
        }
    }

    /// Lines of `rows` in columns of `widths`: a cell wider than its column is wrapped at spaces onto more lines of
    /// its row (without its ANSI styles), the last column is not padded.
    static func grid(_ rows: [[String]], widths: [Int]) -> [String] {
        var lines: [String] = []
        for row in rows {
            let cells = row.enumerated().map { index, cell -> [String] in
                TextWidth.of(cell) > widths[index] ? wrapWords(TextWidth.plain(cell), width: widths[index]) : [cell]
            }
            let height = cells.map(\.count).max() ?? 1
            for lineIndex in 0..<height {
                let parts = cells.enumerated().map { index, cell -> String in
                    let text = lineIndex < cell.count ? cell[lineIndex] : ""
                    return index == cells.count - 1
                        ? text : text + String(repeating: " ", count: max(0, widths[index] - TextWidth.of(text)))
                }
                var line = parts.joined(separator: "  ")
                while line.hasSuffix(" ") { line.removeLast() }
                lines.append(line)
            }
        }
        return lines
    }

    /// Every row as a block of `TITLE  value` lines, blocks a blank line apart; values wrap at spaces.
    func records(width: Int) -> String {
        let titleWidth = header.map { TextWidth.of($0) }.max() ?? 0
        let valueWidth = max(width - titleWidth - 2, 1)
        let indent = String(repeating: " ", count: titleWidth + 2)
        return rows.map { row in
            row.enumerated().flatMap { index, cell -> [String] in
                let title = index < header.count ? header[index] : ""
                let values =
                    TextWidth.of(cell) > valueWidth && textColumns.contains(index)
                    ? Self.wrapWords(TextWidth.plain(cell), width: valueWidth) : [cell]
                let first = title + String(repeating: " ", count: titleWidth - TextWidth.of(title)) + "  " + values[0]
                return [first] + values.dropFirst().map { indent + $0 }
            }.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// The columns after the first in blocks that fit `width`, each block with the first column, blocks a blank
    /// line apart.
    func columnBlocks(width: Int, columns: Int) -> String {
        let all = [header] + rows
        var widths = Array(repeating: 0, count: columns)
        for row in all {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], TextWidth.of(cell)) }
        }
        var blocks: [[Int]] = []
        var block: [Int] = []
        var used = widths[0]
        for index in 1..<max(columns, 1) {
            if !block.isEmpty, used + 2 + widths[index] > width {
                blocks.append(block)
                block = []
                used = widths[0]
            }
            block.append(index)
            used += 2 + widths[index]
        }
        if !block.isEmpty || blocks.isEmpty { blocks.append(block) }
        return blocks.map { block in
            let picked = [0] + block
            let rows = all.map { row in picked.map { $0 < row.count ? row[$0] : "" } }
            return Self.grid(rows, widths: picked.map { widths[$0] }).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// The width of the longest word of `cell` (the narrowest its column gets).
    static func longestWord(_ cell: String) -> Int {
        TextWidth.plain(cell).split(separator: " ").map { (word: Substring) in word.count }.max() ?? 0
    }

    /// `text` wrapped at spaces into lines of at most `width` columns; a longer word gets a line of its own, whole.
    /// A list (`M003 ✎3↓1, M013 ✎3↓1 stale-pin`) breaks after its commas first, so that an item that fits a line
    /// stays whole on one; an item wider than the column is wrapped at its spaces.
    static func wrapWords(_ text: String, width: Int) -> [String] {
        let items = text.components(separatedBy: ", ")
        guard items.count > 1 else { return wrapAtSpaces(text, width: width) }
        let pieces = items.enumerated().map { $0.offset < items.count - 1 ? $0.element + "," : $0.element }
        return pack(pieces, width: width).flatMap {
            TextWidth.of($0) <= width ? [$0] : wrapAtSpaces($0, width: width)
        }
    }

    /// `text` wrapped at spaces into lines of at most `width` columns; a longer word gets a line of its own, whole.
    static func wrapAtSpaces(_ text: String, width: Int) -> [String] {
        pack(text.split(separator: " ").map(String.init), width: width)
    }

    /// `pieces` joined by single spaces into lines of at most `width` columns, a new line where the next piece does
    /// not fit; a piece wider than `width` gets a line of its own, whole, or with `breakingLongPieces` is broken
    /// into lines of `width` columns (its ANSI escapes dropped), and an empty last line is left out.
    static func pack(_ pieces: [String], width: Int, breakingLongPieces: Bool = false) -> [String] {
        var lines: [String] = []
        var line = ""
        for piece in pieces {
            if line.isEmpty {
                line = piece
            } else if TextWidth.of(line) + 1 + TextWidth.of(piece) <= width {
                line += " " + piece
            } else {
                lines.append(line)
                line = piece
            }
            while breakingLongPieces && TextWidth.of(line) > width {
                let plain = TextWidth.plain(line)
                lines.append(String(plain.prefix(width)))
                line = String(plain.dropFirst(width))
            }
        }
        if !breakingLongPieces || !line.isEmpty { lines.append(line) }
        return lines
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
        return pack(
            text.split(separator: " ", omittingEmptySubsequences: false).map(String.init), width: width,
            breakingLongPieces: true)
    }
}

/// Display width of text in a terminal (ANSI escapes count zero).
public enum TextWidth {
    /// The number of terminal columns `text` takes.
    public static func of(_ text: String) -> Int {
        var width = 0
        forEachVisibleScalar(of: text) { _ in width += 1 }
        return width
    }

    /// `text` without its ANSI escapes.
    public static func plain(_ text: String) -> String {
        var result = ""
        forEachVisibleScalar(of: text) { result.unicodeScalars.append($0) }
        return result
    }

    /// Calls `body` with each scalar of `text` that is not part of an ANSI escape (`ESC` up to its closing `m`).
    private static func forEachVisibleScalar(of text: String, _ body: (Unicode.Scalar) -> Void) {
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
            body(scalar)
        }
    }
}
