import Foundation

/// Words of a command line that tenantctl prints for the user to run, quoted for a POSIX shell.
public enum ShellWord {
    /// `value` unchanged when it has only characters no shell treats specially, otherwise in single quotes
    /// (`deps/a src` → `'deps/a src'`).
    public static func quote(_ value: String) -> String {
        let safe =
            !value.isEmpty
            && value.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "-_./:=@,+%".unicodeScalars.contains(scalar))
            }
        return safe ? value : "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The words quoted and joined by spaces.
    public static func line(_ words: [String]) -> String { words.map(quote).joined(separator: " ") }
}
