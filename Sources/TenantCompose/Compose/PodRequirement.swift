import Foundation

/// A CocoaPods dependency: a pod name and, optionally, a version requirement.
public struct PodRequirement: Sendable, Equatable {
    /// The pod (subspecs as `Name/Sub`).
    public var name: String
    /// The requirement as the Podfile writes it (`~> 1.0`), if any.
    public var version: String?

    /// Creates a requirement.
    public init(name: String, version: String? = nil) {
        self.name = name
        self.version = version
    }

    static func validateName(_ name: String) -> String? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        for part in parts {
            if let reason = PackageRequirement.validateName(String(part)) { return reason }
        }
        return nil
    }

    /// `1.2.3`, `~> 1.0`, `>= 2.0, < 3.0` — operators `=`, `!=`, `>`, `>=`, `<`, `<=`, `~>` and dotted versions.
    static func isValidVersion(_ text: String) -> Bool {
        let clauses = text.split(separator: ",", omittingEmptySubsequences: false)
        return !clauses.isEmpty
            && clauses.allSatisfy { clause in
                var rest = clause.trimmingCharacters(in: .whitespaces)
                for op in ["~>", ">=", "<=", "!=", ">", "<", "="] where rest.hasPrefix(op) {
                    rest = String(rest.dropFirst(op.count)).trimmingCharacters(in: .whitespaces)
                    break
                }
                let pieces = rest.split(separator: ".", omittingEmptySubsequences: false)
                return !rest.isEmpty
                    && pieces.allSatisfy { piece in
                        !piece.isEmpty
                            && piece.unicodeScalars.allSatisfy {
                                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
                            }
                    }
            }
    }
}
