import Foundation

/// Branch names of one repository that differ only in case or Unicode normalisation (`T1` and `t1`): git keeps
/// them apart, but on a case-insensitive file system (APFS and HFS+ as macOS formats them by default, NTFS) their
/// loose refs are one file, in the remote's repository, in a clone, in tenantctl's own refs of the superproject's
/// branches and in the module mirrors. tenantctl refuses to create such a name and `verify` and `audit` report the
/// ones that exist, on every platform, so that a team on Linux does not create what its Mac users cannot fetch.
public struct BranchCaseCollision: Sendable, Equatable {
    /// `superproject` or the module's name.
    public var repository: String
    /// The colliding names, sorted (two or more).
    public var names: [String]

    public init(repository: String, names: [String]) {
        self.repository = repository
        self.names = names
    }

    /// The names folded for comparison: lower case, Unicode composed (what a case-insensitive file system equates).
    public static func folded(_ name: String) -> String { ProjectLoader.folded(name) }

    /// The name among `existing` that differs from `name` only in case or normalisation (not `name` itself), or nil.
    public static func variant(of name: String, in existing: some Sequence<String>) -> String? {
        let key = folded(name)
        return existing.filter { $0 != name && folded($0) == key }.sorted().first
    }

    /// The groups of `branches` whose names fold to the same one, each sorted, the groups in order of their first
    /// name.
    public static func collisions(repository: String, branches: some Sequence<String>) -> [BranchCaseCollision] {
        var groups: [String: [String]] = [:]
        for name in branches { groups[folded(name), default: []].append(name) }
        return groups.values.filter { $0.count > 1 }.map {
            BranchCaseCollision(repository: repository, names: $0.sorted())
        }
        .sorted { $0.names[0] < $1.names[0] }
    }

    /// The collisions among the superproject's branches and every module's (modules in manifest order).
    public static func all(in snapshot: Snapshot) -> [BranchCaseCollision] {
        var found = collisions(repository: Finding.superproject, branches: snapshot.branches.keys)
        for module in snapshot.project.manifest.modules {
            guard let branches = snapshot.moduleBranches[module.name] else { continue }
            found += collisions(repository: module.name, branches: branches.keys)
        }
        return found
    }
}
