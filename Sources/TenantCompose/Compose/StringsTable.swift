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

/// Language codes as used for `.lproj` folders and String Catalog localizations (`en`, `de`, `pt-BR`, `zh-Hans`).
enum LanguageCode {
    /// nil when `code` is usable, else why not.
    static func validate(_ code: String) -> String? {
        if code.isEmpty { return "is empty" }
        if code.utf8.count > 35 { return "is longer than 35 characters" }
        guard
            code.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            })
        else { return "only ASCII letters, digits, '-' and '_' are allowed" }
        guard let first = code.unicodeScalars.first, first.properties.isAlphabetic else {
            return "must start with a letter"
        }
        return nil
    }
}

/// One CSV record: its fields and the line it starts on.
struct CSVRecord: Equatable {
    var fields: [String]
    var line: Int
}

/// A CSV syntax error.
struct CSVSyntaxError: Error {
    var line: Int
    var message: String
}

/// An RFC 4180 reader (with LF as well as CRLF line ends).
enum CSVReader {
    static func records(_ text: String) throws(CSVSyntaxError) -> [CSVRecord] {
        var records: [CSVRecord] = []
        var fields: [String] = []
        var field = ""
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var quoteLine = 1
        var afterQuote = false  // a quoted field just closed; only a separator may follow
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func endField() {
            fields.append(field)
            field = ""
            afterQuote = false
        }
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if inQuotes {
                if scalar == "\"" {
                    if index < scalars.count && scalars[index] == "\"" {
                        field.unicodeScalars.append("\"")
                        index += 1
                    } else {
                        inQuotes = false
                        afterQuote = true
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    if scalar == "\r" {
                        // CRLF inside a quoted value is one line break, kept as "\n".
                        if index < scalars.count && scalars[index] == "\n" { index += 1 }
                        line += 1
                        field.unicodeScalars.append("\n")
                    } else {
                        field.unicodeScalars.append(scalar)
                    }
                }
                continue
            }
            switch scalar {
            case ",":
                endField()
            case "\r", "\n":
                if scalar == "\r" {
                    guard index < scalars.count, scalars[index] == "\n" else {
                        throw CSVSyntaxError(line: line, message: "a carriage return outside quotes not followed by LF")
                    }
                    index += 1
                }
                endField()
                records.append(CSVRecord(fields: fields, line: recordLine))
                fields = []
                line += 1
                recordLine = line
            case "\"":
                guard field.isEmpty, !afterQuote else {
                    throw CSVSyntaxError(
                        line: line,
                        message: "a quote inside an unquoted field (quote the whole field and double the quote)")
                }
                inQuotes = true
                quoteLine = line
            default:
                if afterQuote {
                    throw CSVSyntaxError(line: line, message: "text after a closing quote (expected ',' or a line end)")
                }
                field.unicodeScalars.append(scalar)
            }
        }
        if inQuotes {
            throw CSVSyntaxError(line: quoteLine, message: "a quoted field is not closed")
        }
        if !fields.isEmpty || !field.isEmpty || afterQuote {
            endField()
            records.append(CSVRecord(fields: fields, line: recordLine))
        }
        return records
    }
}
