import Foundation

/// A CSV syntax error.
struct CSVSyntaxError: Error {
    var line: Int
    var message: String
}
