import Foundation

/// Turns the observed state into an ``AuditReport`` (pure: no git).
public enum Auditor {
    /// The report for `tenants` (in the given order) and every module of `project`.
    public static func report(
        project: Project, tenants: [Tenant], state: AuditState, invalidTenants: [InvalidTenant] = [],
        findings: [AuditFinding] = []
    ) -> AuditReport {
        let general = project.manifest.generalBranch
        // What every cell of a module column looks up, looked up once per module (and per distinct pin), not once
        // per cell.
        let columns = Concurrent.chunkedMap(project.manifest.modules, minimumChunk: 4) { module in
            Column(
                module: module, repository: state.modules[module.name],
                unreachable: state.unreachable[module.name] != nil, general: project.generalBranch(of: module))
        }
        // Every tenant's row is independent of the others': the rows are shared out over the cores (50,000 cells at
        // 1000 × 50) and taken in the given order.
        var audits = Concurrent.chunkedMap(tenants) { tenant in
            audit(tenant, project: project, state: state, general: general, columns: columns)
        }
        for invalid in invalidTenants {
            let finding = AuditFinding(
                .invalidTenantFile,
                "\(invalid.file) on \(general) is invalid (roll blocks the tenant): \(invalid.summary)")
            audits.append(
                TenantAudit(
                    id: invalid.id, branch: invalid.branch,
                    superproject: SuperprojectAudit(ahead: nil, behind: nil, changedFiles: [], findings: [finding]),
                    modules: []))
        }
        var global: [AuditFinding] = []
        for module in project.manifest.modules {
            if let error = state.unreachable[module.name] {
                global.append(
                    AuditFinding(
                        .unreachableRemote,
                        "module \(module.name) could not be fetched; its cells are unknown: "
                            + error.replacingOccurrences(of: "\n", with: " ")))
            }
        }
        return AuditReport(
            generalBranch: general, modules: project.manifest.modules.map(\.name), tenants: audits,
            findings: global + findings)
    }

    /// One module column of the report: the module's state and what its cells share (a class: the cells share it
    /// without copying the module's state).
    final class Column: Sendable {
        let module: Module
        let repository: AuditModuleState?
        let unreachable: Bool
        let general: String
        /// Pin → what the cells pinning it show, for every pin the module's state knows.
        let pins: [String: PinFacts]

        init(module: Module, repository: AuditModuleState?, unreachable: Bool, general: String) {
            self.module = module
            self.repository = repository
            self.unreachable = unreachable
            self.general = general
            var pins: [String: PinFacts] = [:]
            if let repository {
                let known = Set(repository.pinCommits.keys).union(repository.pinsOnRemote)
                    .union(repository.comparisons.keys).union(repository.changedFiles.keys)
                pins.reserveCapacity(known.count)
                for pin in known {
                    pins[pin] = PinFacts(
                        commit: repository.pinCommits[pin] ?? pin, onRemote: repository.pinsOnRemote.contains(pin),
                        comparison: repository.comparisons[pin],
                        changedFiles: (repository.changedFiles[pin] ?? []).sorted())
                }
            }
            self.pins = pins
        }

        /// The facts of `pin`; for a pin the state does not know, what the state's lookups give for it.
        func facts(_ pin: String) -> PinFacts {
            pins[pin] ?? PinFacts(commit: pin, onRemote: false, comparison: nil, changedFiles: [])
        }
    }

    /// What a module's state says about one pin.
    struct PinFacts: Sendable {
        /// The commit the pin names (annotated tags peeled).
        var commit: String
        var onRemote: Bool
        var comparison: Comparison?
        /// Sorted.
        var changedFiles: [String]
    }

    static func audit(_ tenant: Tenant, project: Project, state: AuditState, general: String, columns: [Column])
        -> TenantAudit
    {
        let superproject = state.superproject
        guard superproject.tenantTips[tenant.branch] != nil else {
            let finding = AuditFinding(
                .missingBranch, "the superproject has no branch \(tenant.branch) on the remote")
            return TenantAudit(
                id: tenant.id, branch: tenant.branch,
                superproject: SuperprojectAudit(ahead: nil, behind: nil, changedFiles: [], findings: [finding]),
                modules: [])
        }
        let comparison = superproject.comparisons[tenant.branch]
        var superAudit = SuperprojectAudit(
            ahead: comparison?.ahead, behind: comparison?.behind,
            changedFiles: (superproject.changedFiles[tenant.branch] ?? []).sorted(), findings: [])
        if let taken = superproject.mergedBack[tenant.branch] {
            superAudit.findings.append(mergedBack(taken, of: tenant, repository: "the superproject", general: general))
        }
        let active = Set(project.activeSet(for: tenant).effective)
        let customised = Set(tenant.customised)
        let pins = superproject.pins[tenant.branch]
        let moved = superproject.movedPaths[tenant.branch]
        let modules = columns.map { column in
            var cell = audit(
                column: column, tenant: tenant, pin: pins?[column.module.path],
                declared: customised.contains(column.module.name), active: active.contains(column.module.name))
            if let path = moved?[column.module.name] {
                cell.findings.append(movedPath(column.module, branch: tenant.branch, path: path, general: general))
            }
            return cell
        }
        return TenantAudit(id: tenant.id, branch: tenant.branch, superproject: superAudit, modules: modules)
    }

    static func audit(column: Column, tenant: Tenant, pin: String?, declared: Bool, active: Bool) -> ModuleAudit {
        let module = column.module
        let general = column.general
        let branch = declared ? tenant.branch : general
        var result = ModuleAudit(
            module: module.name, pin: pin, branch: branch, customised: declared, ahead: nil, behind: nil,
            pinIsTip: false, active: active, changedFiles: [], findings: [])
        guard !column.unreachable else {
            result.findings.append(
                AuditFinding(
                    .unreachableRemote, "module \(module.name)'s remote could not be fetched: this cell is unknown"))
            return result
        }
        let repository = column.repository
        let branchTip = repository?.branches[branch]
        if branchTip == nil {
            result.findings.append(
                AuditFinding(.missingBranch, "module \(module.name) has no branch \(branch) on its remote"))
        }
        guard let pin else {
            result.findings.append(
                AuditFinding(.notPinned, "branch \(tenant.branch) has no gitlink at \(module.path)"))
            return result
        }
        guard let repository else { return result }
        let facts = column.facts(pin)
        let commit = facts.commit
        result.pinIsTip = branchTip == pin || branchTip == commit
        if !facts.onRemote {
            result.findings.append(
                AuditFinding(
                    .missingCommit,
                    "pinned commit \(ObjectID.short(pin)) is on no branch of the remote of \(module.name)"))
        }
        let comparison = facts.comparison
        result.ahead = comparison?.ahead
        result.behind = comparison?.behind
        result.changedFiles = facts.changedFiles
        let customisedInFact = comparison.map { $0.mergeBase != commit } ?? false
        if customisedInFact && !declared {
            result.findings.append(
                AuditFinding(
                    .undeclaredCustomisation,
                    "pin \(ObjectID.short(pin)) is not on \(general) but \(tenant.file) does not declare \(module.name) "
                        + "customised"))
        }
        if declared, let branchTip, branchTip != commit, repository.graph.contains(commit) {
            let relation =
                repository.graph.isAncestor(commit, of: branchTip)
                ? "\(branch) is ahead of it" : "it is not on \(branch)"
            result.findings.append(
                AuditFinding(
                    .stalePin,
                    "pin \(ObjectID.short(pin)) is not the head of \(branch) (\(ObjectID.short(branchTip))); \(relation)"
                ))
        }
        if (declared || customisedInFact) && !active {
            result.findings.append(
                AuditFinding(
                    .inactiveButCustomised,
                    "\(module.name) is customised but not in the effective active set of \(tenant.id)"))
        }
        if let taken = repository.mergedBack[tenant.branch] {
            result.findings.append(mergedBack(taken, of: tenant, repository: module.name, general: general))
        }
        return result
    }

    /// `moved-path`: the tenant branch has the module at another path than `modules.json` gives.
    static func movedPath(_ module: Module, branch: String, path: String, general: String) -> AuditFinding {
        AuditFinding(
            .movedPath,
            "branch \(branch) has \(module.name) at \(path), \(general) at \(module.path) (the module moved); roll "
                + "moves the gitlink")
    }

    /// `tenant-merged-back`: the general branch took commits of the tenant's branch.
    static func mergedBack(_ commits: [String], of tenant: Tenant, repository: String, general: String)
        -> AuditFinding
    {
        let count = commits.count
        return AuditFinding(
            .tenantMergedBack,
            "\(count) commit\(count == 1 ? "" : "s") of \(repository)'s branch \(tenant.branch) "
                + "\(count == 1 ? "is" : "are") reachable from \(general) (merged back: "
                + commits.prefix(3).map { ObjectID.short($0) }.joined(separator: ", ") + (count > 3 ? ", …" : "")
                + "); roll blocks the other tenants until it is reverted or accepted with --accept-merged-back")
    }

}
