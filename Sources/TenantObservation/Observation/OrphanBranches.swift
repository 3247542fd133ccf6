import Foundation

/// A module branch named after a tenant that does not declare the module customised, or after a tenant that was
/// removed: what `customize`, `customize --undo` or `tenant remove` leave on a module's remote when they stop between
/// their pushes. The re-run of the same command finishes; `verify` reports it meanwhile.
public struct OrphanBranch: Sendable, Equatable {
    /// The module whose remote has the branch.
    public var module: String
    /// The branch name (the tenant's branch).
    public var branch: String
    /// Its tip on the module's remote.
    public var tip: String
    /// The tenant whose branch name it is; nil when that tenant was removed from the general branch.
    public var tenant: String?
}

/// Finds ``OrphanBranch``es in a ``Snapshot``.
public enum OrphanBranches {
    /// Number of commits reachable from `tip` and from no other ref matching `glob`.
    package static func onlyOn(_ tip: String, branchRef: String, glob: String, repository: GitRepository) throws
        -> Int
    {
        try repository.countCommits(
            from: tip, notOn: glob, except: branchRef, context: "count the commits only \(branchRef) has")
    }

    /// Every orphan branch: of current tenants (undeclared), then of removed tenants; modules in manifest order.
    public static func all(state: Snapshot) throws -> [OrphanBranch] {
        all(state: state, removed: try removedTenantIDs(state: state))
    }

    /// ``all(state:)`` with the removed tenants' ids read before (``removedTenantIDs(state:)``).
    static func all(state: Snapshot, removed: Set<String>) -> [OrphanBranch] {
        undeclared(state: state) + ofRemovedTenants(state: state, removed: removed)
    }

    /// Module branches named after a current tenant's branch whose module that tenant does not declare customised.
    public static func undeclared(state: Snapshot) -> [OrphanBranch] {
        var found: [OrphanBranch] = []
        for module in state.project.manifest.modules {
            guard let branches = state.moduleBranches[module.name] else { continue }
            for tenant in state.project.tenants
            where !tenant.customises(module.name) && tenant.branch != state.project.generalBranch(of: module) {
                let name = tenant.moduleBranch(for: module.name)
                if let tip = branches[name] {
                    found.append(OrphanBranch(module: module.name, branch: name, tip: tip, tenant: tenant.id))
                }
            }
        }
        return found
    }

    /// Module branches named after a tenant whose file the general branch's history deleted and that is no tenant
    /// now.
    public static func ofRemovedTenants(state: Snapshot) throws -> [OrphanBranch] {
        ofRemovedTenants(state: state, removed: try removedTenantIDs(state: state))
    }

    /// ``ofRemovedTenants(state:)`` with the removed tenants' ids read before.
    static func ofRemovedTenants(state: Snapshot, removed: Set<String>) -> [OrphanBranch] {
        guard !removed.isEmpty else { return [] }
        var found: [OrphanBranch] = []
        for module in state.project.manifest.modules {
            guard let branches = state.moduleBranches[module.name] else { continue }
            for id in removed.sorted() where id != state.project.generalBranch(of: module) {
                if let tip = branches[id] {
                    found.append(OrphanBranch(module: module.name, branch: id, tip: tip, tenant: nil))
                }
            }
        }
        return found
    }

    /// Ids of tenant files that a commit of the general branch deleted and that no tenant uses now (one `git log`).
    static func removedTenantIDs(state: Snapshot) throws -> Set<String> {
        let tip = try state.branch(state.generalBranch)
        let deleted = try state.superproject.deletedPaths(
            from: tip, under: "Tenants/", context: "look for removed tenants on \(state.generalBranch)")
        var ids: Set<String> = []
        for path in deleted {
            guard path.hasPrefix("Tenants/"), path.hasSuffix(".json") else { continue }
            let id = String(path.dropFirst("Tenants/".count).dropLast(".json".count))
            if !id.isEmpty && !id.contains("/") { ids.insert(id) }
        }
        let current = Set(state.project.tenants.flatMap { [$0.id, $0.branch] })
        return ids.subtracting(current).subtracting([state.generalBranch])
    }
}
