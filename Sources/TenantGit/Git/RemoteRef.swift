import Foundation

/// One line of `git ls-remote`: a ref with its object id, or (with `--symref`) a symbolic ref with its target.
public struct RemoteRef: Sendable, Equatable {
    /// The ref's full name (`refs/heads/t2`, `HEAD`).
    public var name: String
    /// The object id; nil for a symbolic ref's `ref:` line.
    public var id: String?
    /// The ref a symbolic ref points at (`refs/heads/main`); nil for an ordinary line.
    public var target: String?

    /// The lines of `ls-remote` output (`<id>\t<ref>`, `ref: <target>\t<ref>`); lines without a tab are skipped.
    public static func parse(_ lines: [String]) -> [RemoteRef] {
        lines.compactMap { line in
            guard let tab = line.firstIndex(of: "\t") else { return nil }
            let left = line[..<tab]
            let name = String(line[line.index(after: tab)...])
            guard !left.isEmpty, !name.isEmpty, !name.contains("\t") else { return nil }
            if left.hasPrefix("ref: ") {
                return RemoteRef(name: name, id: nil, target: String(left.dropFirst("ref: ".count)))
            }
            return RemoteRef(name: name, id: String(left), target: nil)
        }
    }
}
