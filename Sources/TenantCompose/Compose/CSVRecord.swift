import Foundation

/// One CSV record: its fields and the line it starts on.
struct CSVRecord: Equatable {
    var fields: [String]
    var line: Int
}
