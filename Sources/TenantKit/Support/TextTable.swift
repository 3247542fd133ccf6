import Foundation

/// A plain-text table with left-aligned columns, two spaces apart.
public struct TextTable: Sendable {
    /// Column titles.
    public var header: [String]
    /// Cells, row by row.
    public var rows: [[String]]

    public init(header: [String], rows: [[String]]) {
        self.header = header
        self.rows = rows
    }

    /// The table as lines of text (no trailing newline).
    public func render() -> String {
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: columns)
        for row in all {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], TextWidth.of(cell)) }
        }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - TextWidth.of(cell))
            }.joined(separator: "  ")
        }.joined(separator: "\n")
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
}
