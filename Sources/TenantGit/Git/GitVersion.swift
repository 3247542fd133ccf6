/// A git version such as 2.39.5 (Apple's "2.39.3 (Apple Git-146)" and Windows' "2.45.1.windows.1" parse too).
public struct GitVersion: Sendable, Comparable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public var patch: Int

    public init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses the output of `git version` (or a bare "2.39.5").
    public init?(parsing text: String) {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        if words.count >= 3, words[0] == "git", words[1] == "version" { words.removeFirst(2) }
        guard let first = words.first else { return nil }
        let numbers = first.split(separator: ".").prefix(3).map { Int($0.prefix(while: { $0.isNumber })) }
        guard numbers.count >= 2, let major = numbers[0], let minor = numbers[1] else { return nil }
        self.init(major: major, minor: minor, patch: numbers.count > 2 ? (numbers[2] ?? 0) : 0)
    }

    public var description: String { "\(major).\(minor).\(patch)" }

    public static func < (lhs: GitVersion, rhs: GitVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }
}
