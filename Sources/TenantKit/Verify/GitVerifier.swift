import Foundation

/// The git checks of `verify` (SPEC §6), against a ``Snapshot`` of the remotes, with the finding codes audit uses:
///
/// - `gitmodules-drift`: `.gitmodules` on a superproject branch disagrees with `modules.json` of the general branch;
/// - `missing-branch`: a tenant's superproject branch, or a declared module tenant branch, is not on its remote;
/// - `not-pinned`: a tenant branch pins no commit of a module of the manifest;
/// - `moved-path`: a tenant branch has a module at another path than the manifest (``ModuleLocator``): its pin is
///   checked there, and its `.gitmodules` entry there is no drift;
/// - `missing-commit`: a pin is on no branch of the module's remote;
/// - `undeclared-customisation`: a module the tenant does not declare customised is pinned off its general branch;
/// - `stale-pin`: a customised module is pinned off its tenant branch;
/// - `tenant-merged-back`: commits made on a tenant branch (its first-parent line, merges excluded) are reachable
///   from the general branch of the same repository;
/// - `orphan-branch`: a module branch named after a tenant that does not declare the module customised, or after a
///   removed tenant (what a stopped `customize`, `customize --undo` or `tenant remove` leaves).
///
/// git processes: one `cat-file --batch` and one `config --blob` per superproject branch with a `.gitmodules`, one
/// `rev-list` for the superproject and one per module (``CommitGraph``); no checkout.
public enum GitVerifier {
    /// The repository name used for the superproject in findings.
    public static let superproject = "superproject"

    /// Runs every check; returns the findings in a stable order.
    public static func findings(snapshot: Snapshot, git: Git) throws -> [VerifyFinding] {
        let project = snapshot.project
        var findings: [VerifyFinding] = []
        for invalid in project.invalidTenants {
            findings.append(
                VerifyFinding(
                    code: .invalidTenantFile,
                    message: "tenant \(invalid.id): \(invalid.file) on \(snapshot.generalBranch) is invalid: "
                        + invalid.summary,
                    tenant: invalid.id, repository: superproject, branch: snapshot.generalBranch))
        }
        for module in project.manifest.modules {
            if let error = snapshot.unreachable[module.name] {
                findings.append(
                    VerifyFinding(
                        code: .unreachableRemote,
                        message: "module \(module.name) could not be fetched; its checks were skipped: "
                            + error.replacingOccurrences(of: "\n", with: " "),
                        module: module.name, repository: module.name))
            }
        }
        var branches: [(tenant: Tenant?, branch: String, tip: String)] = [
            (nil, snapshot.generalBranch, try snapshot.branch(snapshot.generalBranch))
        ]
        for tenant in project.tenants {
            if let tip = snapshot.branches[tenant.branch] {
                branches.append((tenant, tenant.branch, tip))
            } else {
                findings.append(
                    VerifyFinding(
                        code: .missingBranch,
                        message: "tenant \(tenant.id): the superproject's remote has no branch \(tenant.branch)",
                        tenant: tenant.id, repository: superproject, branch: tenant.branch))
            }
        }
        for tenant in project.tenants {
            for module in tenant.customised
            where snapshot.unreachable[module] == nil && snapshot.moduleBranches[module]?[tenant.branch] == nil {
                findings.append(
                    VerifyFinding(
                        code: .missingBranch,
                        message:
                            "tenant \(tenant.id) declares \(module) customised, but module \(module)'s remote has no "
                            + "branch \(tenant.branch)",
                        tenant: tenant.id, module: module, repository: module, branch: tenant.branch))
            }
        }
        let batch = try CatFileBatch(git: git, repository: snapshot.workspace.root)
        var pins = try PinReader.pins(
            of: branches.map(\.tip), paths: project.manifest.modules.map(\.path), batch: batch)
        // A module a branch has at another path (it moved since) is pinned there: its pin is read there.
        let located = try ModuleLocator.moved(
            modules: project.manifest.modules, pins: pins, reference: branches[0].tip, batch: batch,
            repository: snapshot.workspace.root, git: git)
        var moved: [String: [String: String]] = [:]  // commit → module name → path
        for (commit, locations) in located {
            for module in project.manifest.modules {
                guard let location = locations[module.name] else { continue }
                pins[commit, default: [:]][module.path] = location.pin
                moved[commit, default: [:]][module.name] = location.path
            }
        }
        for (tenant, branch, tip) in branches {
            for var finding in try gitmodulesFindings(
                commit: tip, branch: branch, snapshot: snapshot, moved: moved[tip] ?? [:], batch: batch, git: git)
            {
                finding.tenant = tenant?.id
                finding.repository = superproject
                finding.branch = branch
                findings.append(finding)
            }
        }
        try batch.close()
        for (tenant, branch, tip) in branches {
            for module in project.manifest.modules {
                guard let path = moved[tip]?[module.name] else { continue }
                findings.append(
                    VerifyFinding(
                        code: .movedPath,
                        message:
                            "\(tenant.map { "tenant \($0.id)" } ?? snapshot.generalBranch): branch \(branch) has "
                            + "\(module.name) at \(path), modules.json at \(module.path) (the module moved; run "
                            + "tenantctl roll)",
                        tenant: tenant?.id, module: module.name, repository: superproject, branch: branch))
            }
        }
        var graphs: [String: CommitGraph] = [:]
        var resolved: [String: ModulePins] = [:]
        for module in project.manifest.modules where snapshot.unreachable[module.name] == nil {
            let branchTips = Array(Set((snapshot.moduleBranches[module.name] ?? [:]).values)).sorted()
            let pinned = Set(branches.compactMap { pins[$0.tip]?[module.path] }).subtracting(branchTips).sorted()
            let graph = try CommitGraph.load(
                tips: branchTips + pinned, repository: try snapshot.mirror(module.name), git: git,
                what: "module \(module.name)")
            graphs[module.name] = graph
            resolved[module.name] = try ModulePins.resolve(
                Set(branches.compactMap { pins[$0.tip]?[module.path] }), graph: graph, branchTips: Set(branchTips),
                repository: try snapshot.mirror(module.name), git: git, what: "module \(module.name)")
        }
        for (tenant, branch, tip) in branches {
            findings += pinFindings(
                tenant: tenant, branch: branch, pins: pins[tip] ?? [:], snapshot: snapshot, graphs: graphs,
                resolved: resolved)
        }
        findings += try mergedBackFindings(snapshot: snapshot, graphs: graphs, git: git)
        findings += try orphanFindings(snapshot: snapshot, pins: pins, git: git)
        return findings
    }

    /// The `orphan-branch` findings alone (audit reports them too): reads the tenant branches' pins only when there
    /// is an orphan.
    public static func orphanBranchFindings(snapshot: Snapshot, git: Git) throws -> [VerifyFinding] {
        guard !(try OrphanBranches.all(state: snapshot, git: git)).isEmpty else { return [] }
        let batch = try CatFileBatch(git: git, repository: snapshot.workspace.root)
        let pins = try PinReader.pins(
            of: snapshot.project.tenants.compactMap { snapshot.branches[$0.branch] },
            paths: snapshot.project.manifest.modules.map(\.path), batch: batch)
        try batch.close()
        return try orphanFindings(snapshot: snapshot, pins: pins, git: git)
    }

    /// Module branches that no tenant declares (``OrphanBranches``), each with the command that finishes the job.
    static func orphanFindings(snapshot: Snapshot, pins: [String: [String: String]], git: Git) throws
        -> [VerifyFinding]
    {
        var findings: [VerifyFinding] = []
        for orphan in try OrphanBranches.all(state: snapshot, git: git) {
            let message: String
            if let id = orphan.tenant, let tenant = snapshot.project.tenant(id: id) {
                let path = snapshot.project.module(named: orphan.module)?.path ?? ""
                let pin = snapshot.branches[tenant.branch].flatMap { pins[$0]?[path] }
                message =
                    "module \(orphan.module)'s remote has a branch \(orphan.branch), but tenant \(id) does not "
                    + "declare \(orphan.module) customised (a customize or customize --undo that stopped?); "
                    + "delete it: tenantctl customize --undo \(id) \(orphan.module)"
                    + (pin == orphan.tip ? "; or keep it: tenantctl customize \(id) \(orphan.module)" : "")
            } else {
                let unique = try snapshot.mirrors[orphan.module].map {
                    try TenantLifecycle.onlyOn(
                        orphan.tip, branchRef: "refs/heads/\(orphan.branch)", glob: "refs/heads/*", repository: $0,
                        git: git)
                }
                message =
                    "module \(orphan.module)'s remote has a branch \(orphan.branch) of the removed tenant "
                    + "\(orphan.branch) (a tenant remove that stopped?); finish the removal: tenantctl tenant remove "
                    + "\(orphan.branch)" + ((unique ?? 0) > 0 ? " --archive" : "")
            }
            findings.append(
                VerifyFinding(
                    code: .orphanBranch, message: message, tenant: orphan.tenant, module: orphan.module,
                    repository: orphan.module, branch: orphan.branch))
        }
        return findings
    }

    /// Every module pinned, on its remote, and on the branch the branch rule says it comes from.
    static func pinFindings(
        tenant: Tenant?, branch: String, pins: [String: String], snapshot: Snapshot, graphs: [String: CommitGraph],
        resolved: [String: ModulePins]
    ) -> [VerifyFinding] {
        let project = snapshot.project
        let who = tenant.map { "tenant \($0.id)" } ?? snapshot.generalBranch
        var findings: [VerifyFinding] = []
        for module in project.manifest.modules where snapshot.unreachable[module.name] == nil {
            let moduleBranches = snapshot.moduleBranches[module.name] ?? [:]
            let expected = project.branch(of: module, for: tenant)
            guard let pin = pins[module.path] else {
                findings.append(
                    VerifyFinding(
                        code: .notPinned,
                        message:
                            "\(who): branch \(branch) pins no commit of \(module.name) at \(module.path) "
                            + "(run tenantctl roll)",
                        tenant: tenant?.id, module: module.name, repository: superproject, branch: branch))
                continue
            }
            guard let graph = graphs[module.name], let known = resolved[module.name], known.onRemote.contains(pin)
            else {
                findings.append(
                    VerifyFinding(
                        code: .missingCommit,
                        message:
                            "\(who): commit \(ObjectID.short(pin)) of module \(module.name), pinned by branch \(branch), "
                            + "is on no branch or tag of the module's remote",
                        tenant: tenant?.id, module: module.name, repository: module.name, branch: expected))
                continue
            }
            guard let expectedTip = moduleBranches[expected] else { continue }  // missing-branch, reported above
            if !graph.isAncestor(known.commit(pin), of: expectedTip) {
                let customised = tenant?.customises(module.name) ?? false
                findings.append(
                    VerifyFinding(
                        code: customised ? .stalePin : .undeclaredCustomisation,
                        message:
                            "\(who): commit \(ObjectID.short(pin)) of module \(module.name), pinned by branch \(branch), "
                            + "is not on \(module.name)'s branch \(expected)"
                            + (customised ? "" : " (an undeclared customisation?)"),
                        tenant: tenant?.id, module: module.name, repository: module.name, branch: expected))
            }
        }
        return findings
    }

    /// Tenant commits merged back into the general branch, in every module and in the superproject.
    static func mergedBackFindings(snapshot: Snapshot, graphs: [String: CommitGraph], git: Git) throws
        -> [VerifyFinding]
    {
        let project = snapshot.project
        var findings: [VerifyFinding] = []
        for module in project.manifest.modules {
            let branches = snapshot.moduleBranches[module.name] ?? [:]
            guard let graph = graphs[module.name], let generalTip = branches[project.generalBranch(of: module)]
            else { continue }
            for tenant in project.tenants {
                guard let tip = branches[tenant.branch] else { continue }
                let merged = mergedBack(tip, into: generalTip, graph: graph)
                if !merged.isEmpty {
                    findings.append(
                        mergedBack(
                            tenant: tenant, repository: module.name, module: module.name, merged,
                            project.generalBranch(of: module)))
                }
            }
        }
        let general = snapshot.generalBranch
        let generalTip = try snapshot.branch(general)
        let tenantTips = project.tenants.compactMap { tenant in snapshot.branches[tenant.branch].map { (tenant, $0) } }
        guard !tenantTips.isEmpty else { return findings }
        let graph = try CommitGraph.load(
            tips: [generalTip] + tenantTips.map(\.1), repository: snapshot.workspace.root, git: git,
            what: "the superproject")
        for (tenant, tip) in tenantTips {
            let merged = mergedBack(tip, into: generalTip, graph: graph)
            if !merged.isEmpty {
                findings.append(mergedBack(tenant: tenant, repository: superproject, module: nil, merged, general))
            }
        }
        return findings
    }

    /// The tenant's commits the general branch took (``CommitGraph/tenantOnlyCommits(of:reachableFrom:)``).
    static func mergedBack(_ tenantTip: String, into generalTip: String, graph: CommitGraph) -> [String] {
        graph.tenantOnlyCommits(of: tenantTip, reachableFrom: generalTip)
    }

    private static func mergedBack(
        tenant: Tenant, repository: String, module: String?, _ commits: [String], _ general: String
    ) -> VerifyFinding {
        VerifyFinding(
            code: .tenantMergedBack,
            message:
                "tenant \(tenant.id): \(commits.count) commit\(commits.count == 1 ? "" : "s") of \(repository)'s branch "
                + "\(tenant.branch) \(commits.count == 1 ? "is" : "are") reachable from \(general) (tenant changes "
                + "must not flow back): "
                + commits.prefix(5).map { ObjectID.short($0) }.joined(separator: ", ")
                + (commits.count > 5 ? ", …" : ""),
            tenant: tenant.id, module: module, repository: repository, branch: tenant.branch)
    }

    /// `.gitmodules` of a superproject commit compared with the general branch's `modules.json`.
    static func gitmodulesFindings(
        commit: String, branch: String, snapshot: Snapshot, moved: [String: String] = [:], batch: CatFileBatch,
        git: Git
    ) throws -> [VerifyFinding] {
        guard try batch.object("\(commit):.gitmodules") != nil else {
            guard !snapshot.project.manifest.modules.isEmpty else { return [] }
            return [VerifyFinding(code: .gitmodulesDrift, message: "branch \(branch): there is no .gitmodules file")]
        }
        let output = try git.run(
            ["config", "-z", "--blob", "\(commit):.gitmodules", "--list"], in: snapshot.workspace.root,
            context: "read .gitmodules on \(branch)")
        return FileVerifier.gitmodulesDrift(
            project: snapshot.project, gitmodules: GitmodulesParser.parse(output.stdout), where: "branch \(branch)",
            moved: moved)
    }
}
