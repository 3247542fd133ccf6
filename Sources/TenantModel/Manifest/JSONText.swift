import Foundation

/// JSON strings written by hand: the project's files (`modules.json`, tenant files) and compose's files.
package enum JSONText {
    /// A JSON string: control characters, DEL and U+2028/U+2029 (which some JavaScript parsers reject) as `\uXXXX`
    /// (``JSONString/Format/file``).
    package static func quoted(_ string: String) -> String { JSONString.quoted(string, .file) }

    package static func inlineArray(_ strings: [String]) -> String {
        "[" + strings.map(quoted).joined(separator: ", ") + "]"
    }
}
