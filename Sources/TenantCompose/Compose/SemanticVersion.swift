import Foundation

/// A `major.minor.patch` version (pre-release and build suffixes kept for ordering only as text).
struct SemanticVersion: Comparable, Sendable {
    var major: Int
    var minor: Int
    var patch: Int
    var suffix: String

    init?(_ text: String) {
        var core = Substring(text)
        var suffix = ""
        if let cut = core.firstIndex(where: { $0 == "-" || $0 == "+" }) {
            suffix = String(core[cut...])
            core = core[..<cut]
            if suffix.count < 2 { return nil }
        }
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            parts.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }),
            let major = Int(parts[0]), let minor = Int(parts[1]), let patch = Int(parts[2])
        else { return nil }
        let suffixOK = suffix.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-+.".unicodeScalars.contains($0))
        }
        guard suffixOK else { return nil }
        self.major = major
        self.minor = minor
        self.patch = patch
        self.suffix = suffix
    }

    static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if lhs.major != rhs.major { return lhs.major < rhs.major }
        if lhs.minor != rhs.minor { return lhs.minor < rhs.minor }
        if lhs.patch != rhs.patch { return lhs.patch < rhs.patch }
        // A pre-release sorts before its release.
        if lhs.suffix.isEmpty != rhs.suffix.isEmpty { return !lhs.suffix.isEmpty }
        return lhs.suffix < rhs.suffix
    }
}
