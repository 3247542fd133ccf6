import Foundation

/// Turns a ``ProjectObservation`` into an ``AuditReport`` (pure: no git).
public enum Auditor {
    /// The report for `tenants` (in the given order) and every module of `project`: the cells' fields from the
    /// observation, every finding from the ``FindingJudge``. `findings` are added to the report's own (the
    /// checked-out files, `.gitmodules` drift). `changedFiles`: the observation has the changed files (read with
    /// ``ObservationReader/Options/changedFiles``); false: every cell's `changedFiles` is nil (not computed).
    public static func report(
        project: Project, tenants: [Tenant], observation: ProjectObservation, invalidTenants: [InvalidTenant] = [],
        findings: [AuditFinding] = [], changedFiles: Bool = true
    ) -> AuditReport {
        let general = project.manifest.generalBranch
        // A cell's list when there is nothing to list: empty, or nil when nothing was computed.
        let none: [String]? = changedFiles ? [] : nil
        // What every cell of a module column looks up, looked up once per module (and per distinct pin), not once
        // per cell.
        let columns = Concurrent.chunkedMap(project.manifest.modules, minimumChunk: 4) { module in
            Column(
                module: module, repository: observation.modules[module.name],
                unreachable: observation.unreachable[module.name] != nil, general: project.generalBranch(of: module),
                changedFiles: changedFiles)
        }
        // Each tenant's effective active set, as whether each column is in it; tenants that declare the same modules
        // (in a row, as most do) share one, instead of computing the dependency closure again for each.
        var activeSets: [[Bool]] = []
        activeSets.reserveCapacity(tenants.count)
        var last: (declared: [String], active: [Bool])?
        for tenant in tenants {
            if let last, last.declared == tenant.modules {
                activeSets.append(last.active)
                continue
            }
            let effective = Set(project.activeSet(for: tenant).effective)
            let active = columns.map { effective.contains($0.module.name) }
            activeSets.append(active)
            last = (tenant.modules, active)
        }
        let actives = activeSets
        // Column by module name: each tenant's declared modules become one flag per column (read once per tenant,
        // not scanned by every rule of every cell).
        var columnIndex: [String: Int] = [:]
        for (index, column) in columns.enumerated() { columnIndex[column.module.name] = index }
        let indexOf = columnIndex
        // Every tenant's row is independent of the others': the rows are shared out over the cores (50,000 cells at
        // 1000 × 50) and taken in the given order.
        var audits = Concurrent.chunkedMap(Array(tenants.indices)) { index in
            let tenant = tenants[index]
            var declared = [Bool](repeating: false, count: columns.count)
            for name in tenant.customised { if let column = indexOf[name] { declared[column] = true } }
            for name in tenant.branches.keys { if let column = indexOf[name] { declared[column] = true } }
            return audit(
                tenant, project: project, observation: observation, columns: columns, active: actives[index],
                declared: declared, none: none)
        }
        for (invalid, finding) in zip(
            invalidTenants, FindingJudge.invalidTenantFindings(invalidTenants, generalBranch: general))
        {
            audits.append(
                TenantAudit(
                    id: invalid.id, branch: invalid.branch,
                    superproject: SuperprojectAudit(
                        ahead: nil, behind: nil, changedFiles: none,
                        findings: ([finding]
                            + FindingJudge.invalidTenantMergedBack(invalid, project: project, observation: observation))
                            .map(AuditFinding.init)),
                    modules: []))
        }
        let global =
            FindingJudge.unreachableFindings(project: project, observation: observation)
            + FindingJudge.generalBranchFindings(project: project, observation: observation)
            + FindingJudge.orphanFindings(observation.orphans, project: project)
            + FindingJudge.caseCollisionFindings(observation.caseCollisions, project: project)
        return AuditReport(
            generalBranch: general, modules: project.manifest.modules.map(\.name), tenants: audits,
            findings: global.map(AuditFinding.init) + findings)
    }

    /// One module column of the report: the module's facts and what its cells share (a class: the cells share it
    /// without copying the module's facts).
    final class Column: Sendable {
        let module: Module
        let repository: ModuleObservation?
        let unreachable: Bool
        let general: String
        /// The head of the module's general branch on its remote (what the cells of the tenants that do not
        /// customise the module track).
        let generalTip: String?
        /// Pin → what the cells pinning it show and what the finding rules know of it, for every pin the module's
        /// facts know: looked up once per distinct pin, not once per cell and rule.
        let pins: [String: PinFacts]
        /// The cells' list when there is nothing to list: empty, or nil when the changed files were not computed.
        let none: [String]?

        init(module: Module, repository: ModuleObservation?, unreachable: Bool, general: String, changedFiles: Bool) {
            self.module = module
            self.repository = repository
            self.unreachable = unreachable
            self.general = general
            self.generalTip = repository?.branches[general]
            self.none = changedFiles ? [] : nil
            var pins: [String: PinFacts] = [:]
            if let repository {
                let known = Set(repository.pinCommits.keys).union(repository.pinsOnRemote)
                    .union(repository.comparisons.keys).union(repository.changedFiles.keys)
                pins.reserveCapacity(known.count)
                for pin in known {
                    pins[pin] = PinFacts(
                        commit: repository.commit(pin), comparison: repository.comparisons[pin],
                        changedFiles: changedFiles ? (repository.changedFiles[pin] ?? []).sorted() : nil,
                        judged: FindingJudge.PinFacts(pin, facts: repository))
                }
            }
            self.pins = pins
        }

        /// The facts of `pin`; for a pin the module's facts do not know, what their lookups give for it.
        func facts(_ pin: String) -> PinFacts {
            pins[pin]
                ?? PinFacts(
                    commit: pin, comparison: nil, changedFiles: none,
                    judged: repository.map { FindingJudge.PinFacts(pin, facts: $0) })
        }
    }

    /// What a module's facts say about one pin, for the cell's fields and its findings.
    struct PinFacts: Sendable {
        /// The commit the pin names (annotated tags peeled).
        var commit: String
        var comparison: Comparison?
        /// Sorted; nil when not computed.
        var changedFiles: [String]?
        /// What the finding rules know of the pin; nil when the module has no facts.
        var judged: FindingJudge.PinFacts?
    }

    static func audit(
        _ tenant: Tenant, project: Project, observation: ProjectObservation, columns: [Column], active: [Bool],
        declared: [Bool], none: [String]?
    ) -> TenantAudit {
        let superproject = observation.superproject
        let superFindings = FindingJudge.superprojectFindings(tenant, observation: observation).map(AuditFinding.init)
        guard superproject.tenantTips[tenant.branch] != nil else {
            return TenantAudit(
                id: tenant.id, branch: tenant.branch,
                superproject: SuperprojectAudit(
                    ahead: nil, behind: nil, changedFiles: none, findings: superFindings),
                modules: [])
        }
        let comparison = superproject.comparisons[tenant.branch]
        let superAudit = SuperprojectAudit(
            ahead: comparison?.ahead, behind: comparison?.behind,
            changedFiles: none.map { _ in (superproject.changedFiles[tenant.branch] ?? []).sorted() },
            findings: superFindings)
        let pins = superproject.pins[tenant.branch]
        let moved = superproject.movedPaths[tenant.branch]
        let modules = columns.indices.map { index in
            let column = columns[index]
            return audit(
                column: column, tenant: tenant, superprojectGeneral: project.manifest.generalBranch,
                pin: pins?[column.module.path], movedTo: moved?[column.module.name], active: active[index],
                declared: declared[index])
        }
        return TenantAudit(id: tenant.id, branch: tenant.branch, superproject: superAudit, modules: modules)
    }

    /// One cell: `declared` whether the tenant declares the module customised (from its file).
    static func audit(
        column: Column, tenant: Tenant, superprojectGeneral: String, pin: String?, movedTo: String?, active: Bool,
        declared: Bool
    ) -> ModuleAudit {
        let module = column.module
        let branch = declared ? tenant.moduleBranch(for: module.name) : column.general
        var result = ModuleAudit(
            module: module.name, pin: pin, branch: branch, customised: declared, ahead: nil, behind: nil,
            pinIsTip: false, active: active, changedFiles: column.none, findings: [])
        guard !column.unreachable else {
            result.findings.append(
                AuditFinding(
                    .unreachableRemote, "module \(module.name)'s remote could not be fetched: this cell is unknown"))
            return result
        }
        let facts = pin.map { column.facts($0) }
        // The head of the branch the cell tracks: one lookup, for the rules and for `pinIsTip`.
        let branchTip = declared ? column.repository?.branches[branch] : column.generalTip
        let findings = FindingJudge.moduleFindings(
            module, of: .tenant(tenant, active: active),
            cell: FindingJudge.Cell(
                declared: declared, tracked: branch, trackedTip: branchTip, general: column.general,
                superprojectGeneral: superprojectGeneral),
            pin: pin.map { ($0, facts?.judged) }, movedTo: movedTo, facts: column.repository)
        if !findings.isEmpty { result.findings = findings.map(AuditFinding.init) }
        guard let pin, column.repository != nil, let facts else { return result }
        result.pinIsTip = branchTip == pin || branchTip == facts.commit
        result.ahead = facts.comparison?.ahead
        result.behind = facts.comparison?.behind
        result.changedFiles = facts.changedFiles
        return result
    }
}
