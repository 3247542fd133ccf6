import Foundation

/// Decides every finding of audit and verify from a ``ProjectObservation``, with one rule per code (docs/audit.md has the
/// table). Pure: values in, findings out, no git.
public enum FindingJudge {
    /// Every finding: the invalid tenant files, the unreachable modules, each of `tenants` (its superproject branch
    /// and every module), the general branch's own pins, and the orphan branches.
    public static func findings(project: Project, observation: ProjectObservation, tenants: [Tenant]) -> [Finding] {
        var findings = invalidTenantFindings(project.invalidTenants, generalBranch: project.manifest.generalBranch)
        for invalid in project.invalidTenants {
            findings += invalidTenantMergedBack(invalid, project: project, observation: observation)
        }
        findings += unreachableFindings(project: project, observation: observation)
        for tenant in tenants {
            let superproject = superprojectFindings(tenant, observation: observation)
            findings += superproject
            guard observation.superproject.tenantTips[tenant.branch] != nil else { continue }
            let active = Set(project.activeSet(for: tenant).effective)
            for module in project.manifest.modules {
                findings += moduleFindings(
                    module, of: .tenant(tenant, active: active.contains(module.name)), project: project,
                    observation: observation)
            }
        }
        findings += generalBranchFindings(project: project, observation: observation)
        findings += orphanFindings(observation.orphans, project: project)
        findings += caseCollisionFindings(observation.caseCollisions, project: project)
        return findings
    }

    /// Whose pins are judged: a tenant's (with whether the module is in its effective active set), or the general
    /// branch's (it tracks every module's general branch).
    public enum Subject: Sendable {
        case tenant(Tenant, active: Bool)
        case general

        var tenant: Tenant? {
            if case .tenant(let tenant, _) = self { return tenant }
            return nil
        }
    }

    /// `invalid-tenant-file`: a tenant file on the general branch does not load.
    public static func invalidTenantFindings(_ invalid: [InvalidTenant], generalBranch: String) -> [Finding] {
        invalid.map {
            Finding(
                code: .invalidTenantFile,
                message: "\($0.file) on \(generalBranch) is invalid (roll blocks the tenant): \($0.summary)",
                tenant: $0.id, repository: Finding.superproject, branch: generalBranch)
        }
    }

    /// `tenant-merged-back` of a tenant whose file does not load: its module branches' commits the modules' general
    /// branches took. Its branches are still its own: roll blocks the other tenants for those modules, as for any
    /// tenant.
    public static func invalidTenantMergedBack(
        _ invalid: InvalidTenant, project: Project, observation: ProjectObservation
    )
        -> [Finding]
    {
        let tenant = invalid.asTenant
        return project.manifest.modules.compactMap { module in
            let moduleBranch = tenant.moduleBranch(for: module.name)
            guard let taken = observation.modules[module.name]?.mergedBack[moduleBranch], !taken.isEmpty else {
                return nil
            }
            return mergedBack(
                taken, tenant: tenant, module: module.name, repository: module.name, branch: moduleBranch,
                general: project.generalBranch(of: module))
        }
    }

    /// The findings that block a roll of `tenant`'s pin of `module` (rolling would drop or spread a
    /// customisation), each as audit and verify report it:
    ///
    /// - the tenant's own `missing-branch` (the module branch it tracks), `missing-commit` and
    ///   `undeclared-customisation` (``moduleFindings(_:of:project:pin:movedTo:facts:unreachable:)``);
    /// - the `tenant-merged-back` of every other tenant (valid or not) whose module branch's commits the module's
    ///   general branch took and the pin does not have yet (they would reach the tenant), unless `acceptMergedBack`;
    ///   the finding lists only those commits.
    public static func rollBlocks(
        _ module: Module, tenant: Tenant, project: Project, pin: String?, facts: ModuleObservation,
        acceptMergedBack: Bool
    ) -> [Finding] {
        let own: Set<FindingCode> = [.missingBranch, .missingCommit, .undeclaredCustomisation]
        var findings = moduleFindings(
            module, of: .tenant(tenant, active: true), project: project, pin: pin, movedTo: nil, facts: facts,
            unreachable: false
        ).filter { own.contains($0.code) && $0.tenant == tenant.id }
        // Asked for every tenant of every module: only a module whose general branch took a tenant's commits
        // looks at the other tenants (at 1000 tenants × 50 modules, a walk over every other tenant per cell was
        // 50 million steps and doubled roll's time).
        guard let pin, !acceptMergedBack, !facts.mergedBack.isEmpty else { return findings }
        let ownBranch = tenant.moduleBranch(for: module.name)
        for other in project.tenants + project.invalidTenants.map(\.asTenant) {
            let otherBranch = other.moduleBranch(for: module.name)
            guard otherBranch != ownBranch, facts.mergedBack[otherBranch] != nil else { continue }
            let reaching = mergedBackReaching(pin, from: otherBranch, facts: facts)
            guard !reaching.isEmpty else { continue }
            findings.append(
                mergedBack(
                    reaching, tenant: other, module: module.name, repository: module.name, branch: otherBranch,
                    general: project.generalBranch(of: module)))
        }
        return findings
    }

    /// The findings that keep the general branch from re-pinning `module` to its general tip: the general branch's
    /// own `missing-commit` (its pin is on no branch or tag of the module's remote, e.g. a bump made with plain git
    /// whose module commit was not pushed). Re-pinning would move that pin back, and the bump would be lost for
    /// every tenant; the general branch is blocked instead, as a tenant is.
    public static func generalRollBlocks(_ module: Module, project: Project, pin: String?, facts: ModuleObservation)
        -> [Finding]
    {
        moduleFindings(module, of: .general, project: project, pin: pin, movedTo: nil, facts: facts, unreachable: false)
            .filter { $0.code == .missingCommit }
    }

    /// The findings that block a roll of `tenant` for `module`, whose remote could not be fetched (`error`): its
    /// `unreachable-remote` when the tenant customises the module (its branch cannot be checked or merged); none
    /// otherwise (the tenant keeps its pin of the module, as the general branch does).
    public static func unreachableRollBlocks(_ module: Module, tenant: Tenant, error: String) -> [Finding] {
        tenant.customises(module.name) ? [unreachable(module, error: error)] : []
    }

    /// The `tenant-merged-back` findings that block a roll of `tenant`'s superproject branch: every other tenant
    /// whose superproject branch's commits the general branch took (`mergedBack`, tenant branch → commits) and the
    /// tenant's branch does not contain yet (`contained`): merging the general branch would bring them, that
    /// tenant's customisation, to `tenant`. None when `acceptMergedBack` (the merge-back was promoted on purpose);
    /// each finding lists only those commits.
    public static func superprojectRollBlocks(
        _ tenant: Tenant, project: Project, mergedBack: [String: [String]], contained: Set<String>,
        acceptMergedBack: Bool
    ) -> [Finding] {
        guard !acceptMergedBack, !mergedBack.isEmpty else { return [] }
        return project.tenants.filter { $0.branch != tenant.branch }.compactMap { other -> Finding? in
            let reaching = (mergedBack[other.branch] ?? []).filter { !contained.contains($0) }
            guard !reaching.isEmpty else { return nil }
            return Self.mergedBack(
                reaching, tenant: other, module: nil, repository: Finding.superproject, branch: other.branch,
                general: project.manifest.generalBranch)
        }
    }

    /// The commits of the module branch `branch` that the module's general branch took (merged back) and `pin`
    /// does not contain: what the general branch would bring to a superproject branch pinning `pin`.
    public static func mergedBackReaching(_ pin: String, from branch: String, facts: ModuleObservation) -> [String] {
        let pinned = facts.pinCommits[pin]
        return (facts.mergedBack[branch] ?? []).filter { commit in
            pinned.map { !facts.graph.isAncestor(commit, of: $0) } ?? true
        }
    }

    /// `unreachable-remote`: a module's remote could not be fetched; its checks are skipped.
    public static func unreachableFindings(project: Project, observation: ProjectObservation) -> [Finding] {
        project.manifest.modules.compactMap { module in
            observation.unreachable[module.name].map { unreachable(module, error: $0) }
        }
    }

    /// The `unreachable-remote` finding of `module`, whose fetch failed with `error`.
    static func unreachable(_ module: Module, error: String) -> Finding {
        Finding(
            code: .unreachableRemote,
            message: "module \(module.name) could not be fetched; its checks were skipped: "
                + error.replacingOccurrences(of: "\n", with: " "),
            module: module.name, repository: module.name)
    }

    /// The tenant's superproject branch: `missing-branch` when the remote lacks it (nothing else of the tenant is
    /// judged then), else `tenant-merged-back` when the general branch took its commits.
    public static func superprojectFindings(_ tenant: Tenant, observation: ProjectObservation) -> [Finding] {
        let superproject = observation.superproject
        guard superproject.tenantTips[tenant.branch] != nil else { return [missingSuperprojectBranch(tenant)] }
        let unnamed = unnamedFindings(branch: tenant.branch, tenant: tenant, observation: observation)
        guard let taken = superproject.mergedBack[tenant.branch], !taken.isEmpty else { return unnamed }
        return [
            mergedBack(
                taken, tenant: tenant, module: nil, repository: Finding.superproject, branch: tenant.branch,
                general: superproject.generalBranch)
        ] + unnamed
    }

    /// `unnamed-submodule`: the branch pins a submodule at a path `modules.json` does not name (a repository
    /// renamed or added with plain git): switch checks it out at its pin, roll and pin leave it as it is.
    public static func unnamedFindings(branch: String, tenant: Tenant?, observation: ProjectObservation)
        -> [Finding]
    {
        (observation.superproject.unnamed[branch] ?? [:]).sorted { $0.key < $1.key }.map { path, pin in
            Finding(
                code: .unnamedSubmodule,
                message: "branch \(branch) pins a submodule at \(path) (\(ObjectID.short(pin))) that modules.json "
                    + "does not name (a repository renamed or added with plain git?); switch checks it out at its "
                    + "pin, roll and pin leave it as the branch has it",
                tenant: tenant?.id, repository: Finding.superproject, branch: branch)
        }
    }

    /// The `missing-branch` finding of a tenant whose superproject branch the remote lacks.
    package static func missingSuperprojectBranch(_ tenant: Tenant) -> Finding {
        Finding(
            code: .missingBranch, message: "the superproject has no branch \(tenant.branch) on the remote",
            tenant: tenant.id, repository: Finding.superproject, branch: tenant.branch)
    }

    /// One module of one superproject branch, with the module's facts in `observation`: the subject's pin, the
    /// path it moved to, the module's repository.
    public static func moduleFindings(
        _ module: Module, of subject: Subject, project: Project, observation: ProjectObservation
    ) -> [Finding] {
        let branch = subject.tenant?.branch ?? observation.superproject.generalBranch
        return moduleFindings(
            module, of: subject, project: project, pin: observation.superproject.pins[branch]?[module.path],
            movedTo: observation.superproject.movedPaths[branch]?[module.name],
            facts: observation.modules[module.name], unreachable: observation.unreachable[module.name] != nil)
    }

    /// One module of one superproject branch, in this order:
    ///
    /// - `missing-branch`: the module's remote lacks the branch the subject tracks (the tenant's own module branch,
    ///   ``Tenant/moduleBranch(for:)``, when it customises the module, else the module's general branch);
    /// - `not-pinned`: the branch has no gitlink for the module (the pin checks below are skipped);
    /// - `missing-commit`: the pin is on no branch and no tag of the module's remote (the checks of where it is are
    ///   skipped);
    /// - `undeclared-customisation`: the pin is not on the module's general branch, and the module is not declared
    ///   customised;
    /// - `stale-pin`: the module is declared customised and the pin is not the head of the tenant's module branch
    ///   (behind it, or off it);
    /// - `inactive-but-customised`: the module is customised (declared, or the pin is off the general branch) but
    ///   not in the tenant's effective active set;
    /// - `tenant-merged-back`: the module's general branch took commits of the tenant's module branch;
    /// - `moved-path`: the branch has the module at another path than `modules.json`.
    ///
    /// A module that could not be fetched is not judged (``unreachableFindings(project:observation:)``).
    public static func moduleFindings(
        _ module: Module, of subject: Subject, project: Project, pin: String?, movedTo: String?,
        facts: ModuleObservation?, unreachable: Bool
    ) -> [Finding] {
        guard !unreachable else { return [] }
        let declared = subject.tenant?.customises(module.name) ?? false
        let tracked = project.branch(of: module, for: subject.tenant)
        return moduleFindings(
            module, of: subject,
            cell: Cell(
                declared: declared, tracked: tracked, trackedTip: facts?.branches[tracked],
                general: project.generalBranch(of: module), superprojectGeneral: project.manifest.generalBranch),
            pin: pin.map { pin in (pin, facts.map { PinFacts(pin, facts: $0) }) }, movedTo: movedTo, facts: facts)
    }

    /// What ``moduleFindings(_:of:project:pin:movedTo:facts:unreachable:)`` knows of a cell besides its pin: whether
    /// the subject declares the module customised, the module branch it tracks and that branch's head on the remote,
    /// the module's and the superproject's general branches. A caller judging many cells of one module (audit's
    /// report) works these out once per tenant or column instead of once per rule.
    package struct Cell: Sendable {
        package var declared: Bool
        package var tracked: String
        package var trackedTip: String?
        package var general: String
        package var superprojectGeneral: String

        package init(declared: Bool, tracked: String, trackedTip: String?, general: String, superprojectGeneral: String)
        {
            self.declared = declared
            self.tracked = tracked
            self.trackedTip = trackedTip
            self.general = general
            self.superprojectGeneral = superprojectGeneral
        }
    }

    /// What a module's facts say about one pin, whichever branch pins it: the commit it names, whether the remote
    /// has it on a branch or tag, whether it is off the general branch, whether the graph has it. The same for every
    /// cell pinning it: audit's report looks it up once per distinct pin of a module.
    package struct PinFacts: Sendable {
        package var commit: String
        package var onRemote: Bool
        package var customisedInFact: Bool
        package var inGraph: Bool

        package init(_ pin: String, facts: ModuleObservation) {
            commit = facts.commit(pin)
            onRemote = facts.pinsOnRemote.contains(pin)
            customisedInFact = onRemote && FindingJudge.isCustomisedInFact(pin, facts: facts)
            inGraph = facts.graph.contains(commit)
        }
    }

    /// The rule of ``moduleFindings(_:of:project:pin:movedTo:facts:unreachable:)`` for a cell of a fetched module,
    /// with what it looks up given: `cell`, and the pin with its ``PinFacts`` (nil facts: the module has no
    /// repository facts).
    package static func moduleFindings(
        _ module: Module, of subject: Subject, cell: Cell, pin: (id: String, facts: PinFacts?)?, movedTo: String?,
        facts: ModuleObservation?
    ) -> [Finding] {
        let tenant = subject.tenant
        let superprojectGeneral = cell.superprojectGeneral
        let branch = tenant?.branch ?? superprojectGeneral
        let (declared, general, tracked) = (cell.declared, cell.general, cell.tracked)
        var findings: [Finding] = []
        func add(_ code: FindingCode, _ message: String, repository: String, branch: String) {
            // The general branch's findings name it: no tenant does.
            findings.append(
                Finding(
                    code: code, message: tenant == nil ? "\(superprojectGeneral): " + message : message,
                    tenant: tenant?.id, module: module.name, repository: repository, branch: branch))
        }
        if cell.trackedTip == nil {
            add(
                .missingBranch, "module \(module.name) has no branch \(tracked) on its remote", repository: module.name,
                branch: tracked)
        }
        if let pinned = pin, let pinFacts = pinned.facts, let facts {
            let pin = pinned.id
            let commit = pinFacts.commit
            if !pinFacts.onRemote {
                add(
                    .missingCommit,
                    "pinned commit \(ObjectID.short(pin)) is on no branch or tag of the remote of \(module.name)",
                    repository: module.name, branch: tracked)
            } else {
                let customisedInFact = pinFacts.customisedInFact
                if customisedInFact && !declared {
                    add(
                        .undeclaredCustomisation,
                        "pin \(ObjectID.short(pin)) is not on \(general)"
                            + (tenant.map { " but \($0.file) does not declare \(module.name) customised" }
                                ?? " (the general branch pins no customisation)"),
                        repository: module.name, branch: general)
                }
                if declared, let trackedTip = cell.trackedTip, trackedTip != commit, pinFacts.inGraph {
                    let relation =
                        facts.graph.isAncestor(commit, of: trackedTip)
                        ? "\(tracked) is ahead of it" : "it is not on \(tracked)"
                    add(
                        .stalePin,
                        "pin \(ObjectID.short(pin)) is not the head of \(tracked) (\(ObjectID.short(trackedTip))); "
                            + relation, repository: module.name, branch: tracked)
                }
                if case .tenant(let tenant, let active) = subject, !active, declared || customisedInFact {
                    add(
                        .inactiveButCustomised,
                        "\(module.name) is customised but not in the effective active set of \(tenant.id)",
                        repository: module.name, branch: tracked)
                }
            }
        } else if pin == nil {
            add(
                .notPinned, "branch \(branch) has no gitlink at \(module.path)", repository: Finding.superproject,
                branch: branch)
        }
        if let tenant, let takenBack = facts?.mergedBack, !takenBack.isEmpty,
            let taken = takenBack[tenant.moduleBranch(for: module.name)], !taken.isEmpty
        {
            findings.append(
                mergedBack(
                    taken, tenant: tenant, module: module.name, repository: module.name,
                    branch: tenant.moduleBranch(for: module.name), general: general))
        }
        if let movedTo {
            add(
                .movedPath,
                "branch \(branch) has \(module.name) at \(movedTo), \(superprojectGeneral) at \(module.path) (the "
                    + "module moved); roll moves the gitlink", repository: Finding.superproject, branch: branch)
        }
        return findings
    }

    /// Whether the pin is not on the module's general branch (a customisation in fact); false when the general
    /// branch or the pin's commit is unknown.
    public static func isCustomisedInFact(_ pin: String, facts: ModuleObservation) -> Bool {
        let commit = facts.commit(pin)
        if let comparison = facts.comparisons[pin] { return comparison.mergeBase != commit }
        guard let generalTip = facts.generalTip, facts.graph.contains(commit) else { return false }
        return !facts.graph.isAncestor(commit, of: generalTip)
    }

    /// The general branch's own pins: every module pinned, on its remote, on its general branch, at its path.
    public static func generalBranchFindings(project: Project, observation: ProjectObservation) -> [Finding] {
        project.manifest.modules.flatMap { module in
            moduleFindings(module, of: .general, project: project, observation: observation)
        } + unnamedFindings(branch: observation.superproject.generalBranch, tenant: nil, observation: observation)
    }

    /// `orphan-branch`: each with the command that finishes what stopped.
    public static func orphanFindings(_ orphans: [ObservedOrphan], project: Project) -> [Finding] {
        orphans.map { observed in
            let orphan = observed.branch
            let message: String
            if let id = orphan.tenant {
                message =
                    "module \(orphan.module)'s remote has a branch \(orphan.branch), but tenant \(id) does not "
                    + "declare \(orphan.module) customised (a customize or customize --undo that stopped?); "
                    + "delete it: tenantctl customize --undo \(id) \(orphan.module)"
                    + (observed.tenantPin == orphan.tip
                        ? "; or keep it: tenantctl customize \(id) \(orphan.module)" : "")
            } else {
                message =
                    "module \(orphan.module)'s remote has a branch \(orphan.branch) of the removed tenant "
                    + "\(orphan.branch) (a tenant remove that stopped?); finish the removal: tenantctl tenant remove "
                    + "\(orphan.branch)" + ((observed.uniqueCommits ?? 0) > 0 ? " --archive" : "")
            }
            return Finding(
                code: .orphanBranch, message: message, tenant: orphan.tenant, module: orphan.module,
                repository: orphan.module, branch: orphan.branch)
        }
    }

    /// `branch-case-collision`: one finding per group of names, naming them all and the tenant whose branch one of
    /// them is (the first such, in the order of the tenant files).
    public static func caseCollisionFindings(_ collisions: [BranchCaseCollision], project: Project) -> [Finding] {
        collisions.map { collision in
            let names = collision.names
            let module = collision.repository == Finding.superproject ? nil : collision.repository
            let owner = project.tenants.first { names.contains($0.branch) }
            let listed = names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
            let remote = module.map { "module \($0)'s remote" } ?? "the superproject's remote"
            return Finding(
                code: .branchCaseCollision,
                message: "\(remote) has branches \(listed), whose names differ only in case: on a case-insensitive "
                    + "file system (macOS by default) they are one file and cannot both be fetched; rename or delete "
                    + "all but one of them on the remote",
                tenant: owner?.id, module: module, repository: collision.repository,
                branch: owner?.branch ?? names.first)
        }
    }

    /// `tenant-merged-back`: the general branch of a repository took commits of the tenant's branch there
    /// (`branch`). A module's finding names the module, the superproject's names `superproject`: what
    /// `--accept-merged-back` takes.
    static func mergedBack(
        _ commits: [String], tenant: Tenant, module: String?, repository: String, branch: String, general: String
    ) -> Finding {
        let count = commits.count
        let name = module ?? repository
        return Finding(
            code: .tenantMergedBack,
            message: "\(count) commit\(count == 1 ? "" : "s") of \(name)'s branch \(branch) "
                + "\(count == 1 ? "is" : "are") reachable from \(general) (merged back: \(shortList(commits)))"
                + "; roll blocks the other tenants until it is accepted with --accept-merged-back \(name) (a "
                + "revert on \(general) keeps the commits in its history: revert their changes first if they were "
                + "not meant for every tenant, then accept)",
            tenant: tenant.id, module: module, repository: repository, branch: branch)
    }

    /// Merged-back commits as every finding and block names them: the first five short ids, then `…`.
    package static func shortList(_ commits: [String]) -> String {
        let shown = 5
        return commits.prefix(shown).map { ObjectID.short($0) }.joined(separator: ", ")
            + (commits.count > shown ? ", …" : "")
    }
}
