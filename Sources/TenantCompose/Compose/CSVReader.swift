import Foundation

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
