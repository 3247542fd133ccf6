import Foundation

/// Turns the observed state into an ``AuditReport`` (pure: no git).
public enum Auditor {
    /// The report for `tenants` (in the given order) and every module of `project`.
    public static func report(project: Project, tenants: [Tenant], state: AuditState) -> AuditReport {
        let general = project.manifest.generalBranch
        let audits = tenants.map { tenant in
            audit(tenant, project: project, state: state, general: general)
        }
        return AuditReport(
            generalBranch: general, modules: project.manifest.modules.map(\.name), tenants: audits)
    }

    static func audit(_ tenant: Tenant, project: Project, state: AuditState, general: String) -> TenantAudit {
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
        let superAudit = SuperprojectAudit(
            ahead: comparison?.ahead, behind: comparison?.behind,
            changedFiles: (superproject.changedFiles[tenant.branch] ?? []).sorted(), findings: [])
        let active = Set(project.activeSet(for: tenant).effective)
        let customised = Set(tenant.customised)
        let modules = project.manifest.modules.map { module in
            audit(
                module: module, tenant: tenant, pin: superproject.pins[tenant.branch]?[module.path],
                declared: customised.contains(module.name), active: active.contains(module.name),
                repository: state.modules[module.name], general: project.generalBranch(of: module))
        }
        return TenantAudit(id: tenant.id, branch: tenant.branch, superproject: superAudit, modules: modules)
    }

    static func audit(
        module: Module, tenant: Tenant, pin: String?, declared: Bool, active: Bool,
        repository: AuditModuleState?, general: String
    ) -> ModuleAudit {
        let branch = declared ? tenant.branch : general
        var result = ModuleAudit(
            module: module.name, pin: pin, branch: branch, customised: declared, ahead: nil, behind: nil,
            pinIsTip: false, active: active, changedFiles: [], findings: [])
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
        result.pinIsTip = branchTip == pin
        if !repository.pinsOnRemote.contains(pin) {
            result.findings.append(
                AuditFinding(
                    .missingCommit, "pinned commit \(short(pin)) is on no branch of the remote of \(module.name)"))
        }
        let comparison = repository.comparisons[pin]
        result.ahead = comparison?.ahead
        result.behind = comparison?.behind
        result.changedFiles = (repository.changedFiles[pin] ?? []).sorted()
        let customisedInFact = comparison.map { $0.mergeBase != pin } ?? false
        if customisedInFact && !declared {
            result.findings.append(
                AuditFinding(
                    .undeclaredCustomisation,
                    "pin \(short(pin)) is not on \(general) but \(tenant.file) does not declare \(module.name) "
                        + "customised"))
        }
        if declared, let branchTip, branchTip != pin, repository.graph.contains(pin) {
            let relation =
                repository.graph.isAncestor(pin, of: branchTip)
                ? "\(branch) is ahead of it" : "it is not on \(branch)"
            result.findings.append(
                AuditFinding(
                    .stalePin,
                    "pin \(short(pin)) is not the head of \(branch) (\(short(branchTip))); \(relation)"))
        }
        if (declared || customisedInFact) && !active {
            result.findings.append(
                AuditFinding(
                    .inactiveButCustomised,
                    "\(module.name) is customised but not in the effective active set of \(tenant.id)"))
        }
        return result
    }

    /// The first 10 hex digits of a commit id.
    static func short(_ id: String) -> String { String(id.prefix(10)) }
}
