import Foundation

/// A string table (`Strings.csv`, the thesis' stringsbuilder input): a `key` column, then one column per language.
///
/// Parsed as RFC 4180 CSV: fields separated by commas, records by CRLF or LF; a field in double quotes may hold
/// commas, line breaks and doubled quotes (`""`). A UTF-8 byte order mark is skipped. An empty cell means "no
/// translation for this language" (reported by the composer, never written as an empty string).
public struct StringsTable: Sendable, Equatable {
    /// One row: a key and its value per language (empty cells are absent).
    public struct Row: Sendable, Equatable {
        /// The key.
        public var key: String
        /// Language code → value; languages whose cell is empty are absent.
        public var values: [String: String]
        /// The 1-based line the record starts on.
        public var line: Int

        /// Creates a row.
        public init(key: String, values: [String: String], line: Int) {
            self.key = key
            self.values = values
            self.line = line
        }
    }

    /// Where the table came from, for messages (e.g. `Customer: Strings.csv`).
    public var source: String
    /// The language codes of the header, in column order.
    public var languages: [String]
    /// The rows in file order.
    public var rows: [Row]

    /// Creates a table.
    public init(source: String, languages: [String], rows: [Row]) {
        self.source = source
        self.languages = languages
        self.rows = rows
    }

    /// Parses and validates a table; every problem found is thrown at once.
    ///
    /// Rules: the first header cell is `key`; the others are language codes (letters, digits, `-`, `_`; they become
    /// `<lang>.lproj` directory names), each once; every record has as many fields as the header; keys are not
    /// empty and appear once. Blank lines are skipped.
    public static func parse(_ data: Data, source: String) throws(ComposeError) -> StringsTable {
        func problem(_ line: Int?, _ message: String) -> ComposeProblem {
            ComposeProblem(.invalidStringsTable, "\(source)\(line.map { ":\($0)" } ?? ""): \(message)")
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw ComposeError(problems: [problem(nil, "not valid UTF-8")])
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let records: [CSVRecord]
        do {
            records = try CSVReader.records(text)
        } catch {
            throw ComposeError(problems: [problem(error.line, error.message)])
        }
        var problems: [ComposeProblem] = []
        let nonBlank = records.filter { !($0.fields.count == 1 && $0.fields[0].isEmpty) }
        guard let header = nonBlank.first else {
            throw ComposeError(problems: [problem(nil, "empty table (expected a header line \"key,<language>…\")")])
        }
        if header.fields.count == 1, header.fields[0].contains(";") || header.fields[0].contains("\t") {
            throw ComposeError(
                problems: [
                    problem(header.line, "columns must be separated by commas (the header uses ';' or tabs)")
                ])
        }
        if header.fields.first?.lowercased() != "key" {
            problems.append(problem(header.line, "the first column must be \"key\" (found \"\(header.fields[0])\")"))
        }
        let languages = Array(header.fields.dropFirst())
        if languages.isEmpty {
            problems.append(problem(header.line, "no language column after \"key\""))
        }
        var seenLanguages: Set<String> = []
        for language in languages {
            if let reason = LanguageCode.validate(language) {
                problems.append(problem(header.line, "invalid language code \"\(language)\": \(reason)"))
            } else if !seenLanguages.insert(language).inserted {
                problems.append(problem(header.line, "language \"\(language)\" appears twice in the header"))
            }
        }
        var rows: [Row] = []
        var firstLine: [String: Int] = [:]
        for record in nonBlank.dropFirst() {
            guard record.fields.count == header.fields.count else {
                problems.append(
                    problem(
                        record.line,
                        "\(record.fields.count) field\(record.fields.count == 1 ? "" : "s"), the header has "
                            + "\(header.fields.count)"))
                continue
            }
            let key = record.fields[0]
            if key.isEmpty {
                problems.append(problem(record.line, "empty key"))
                continue
            }
            if let other = firstLine[key] {
                problems.append(problem(record.line, "key \"\(key)\" appears twice (also line \(other))"))
                continue
            }
            firstLine[key] = record.line
            var values: [String: String] = [:]
            for (language, value) in zip(languages, record.fields.dropFirst()) where !value.isEmpty {
                values[language] = value
            }
            rows.append(Row(key: key, values: values, line: record.line))
        }
        guard problems.isEmpty else { throw ComposeError(problems: problems) }
        return StringsTable(source: source, languages: languages, rows: rows)
    }
}
