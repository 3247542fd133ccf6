import Foundation

/// The git checks of `verify` (SPEC §6), against the fetched remotes (``RemoteState``):
///
/// - `gitmodules-drift`: `.gitmodules` on a superproject branch disagrees with `modules.json` of the general branch;
/// - `missing-branch`: a tenant's superproject branch, or a declared module tenant branch, is not on its remote;
/// - `missing-pin`: a tenant branch pins no commit of a module the tenant effectively uses;
/// - `missing-commit`: a pin is on no branch of the module's remote;
/// - `pin-off-branch`: a pin is not reachable from the branch it should come from (the tenant branch when
///   customised, else the general branch);
/// - `tenant-merged-back`: commits made on a tenant branch (its first-parent line, merges excluded) are reachable
///   from the general branch of the same repository.
///
/// Git processes: one `ls-tree` and one `config --blob` per superproject branch, and per module one `rev-list` per
/// branch checked; no checkout.
public enum GitVerifier {
    /// The repository name used for the superproject in findings.
    public static let superproject = "superproject"

    /// Runs every check; returns the findings in a stable order.
    public static func findings(state: RemoteState, git: Git) throws -> [VerifyFinding] {
        let project = state.project
        let general = state.generalBranch
        var findings: [VerifyFinding] = []

        // Superproject branches: general plus every tenant's.
        var branches: [(tenant: Tenant?, branch: String)] = [(nil, general)]
        for tenant in project.tenants {
            if state.branches[tenant.branch] == nil {
                findings.append(
                    VerifyFinding(
                        code: "missing-branch",
                        message: "tenant \(tenant.id): the superproject's remote has no branch \(tenant.branch)",
                        tenant: tenant.id, repository: superproject, branch: tenant.branch))
            } else {
                branches.append((tenant, tenant.branch))
            }
        }
        for tenant in project.tenants {
            for module in tenant.customised where state.moduleBranches[module]?[tenant.branch] == nil {
                findings.append(
                    VerifyFinding(
                        code: "missing-branch",
                        message:
                            "tenant \(tenant.id) declares \(module) customised, but module \(module)'s remote has no branch \(tenant.branch)",
                        tenant: tenant.id, module: module, repository: module, branch: tenant.branch))
            }
        }

        // .gitmodules on every branch.
        for (tenant, branch) in branches {
            let commit = try state.branch(branch)
            for var finding in try gitmodulesFindings(commit: commit, branch: branch, state: state, git: git) {
                finding.tenant = tenant?.id
                finding.repository = superproject
                finding.branch = branch
                findings.append(finding)
            }
        }

        // Pins.
        var reach = Reachability(state: state, git: git)
        for (tenant, branch) in branches {
            let pins = try state.pins(at: try state.branch(branch), git: git)
            let active = tenant.map { project.activeSet(for: $0).effective } ?? project.manifest.modules.map(\.name)
            for module in project.manifest.modules {
                let who = tenant.map { "tenant \($0.id)" } ?? general
                guard let pin = pins[module.path] else {
                    if active.contains(module.name) {
                        findings.append(
                            VerifyFinding(
                                code: "missing-pin",
                                message:
                                    "\(who): branch \(branch) pins no commit of \(module.name) at \(module.path), which it uses (run tenantctl roll)",
                                tenant: tenant?.id, module: module.name, repository: superproject, branch: branch))
                    }
                    continue
                }
                let customised = tenant?.customised.contains(module.name) ?? false
                let expected = customised ? branch : general
                guard try reach.all(module.name).contains(pin) else {
                    findings.append(
                        VerifyFinding(
                            code: "missing-commit",
                            message:
                                "\(who): commit \(pin.prefix(10)) of module \(module.name), pinned by branch \(branch), is on no branch of the module's remote",
                            tenant: tenant?.id, module: module.name, repository: module.name, branch: expected))
                    continue
                }
                guard state.moduleBranches[module.name]?[expected] != nil else { continue }  // reported above
                if try !reach.branch(expected, of: module.name).contains(pin) {
                    findings.append(
                        VerifyFinding(
                            code: "pin-off-branch",
                            message:
                                "\(who): commit \(pin.prefix(10)) of module \(module.name), pinned by branch \(branch), is not on \(module.name)'s branch \(expected)"
                                + (customised ? "" : " (an undeclared customisation?)"),
                            tenant: tenant?.id, module: module.name, repository: module.name, branch: expected))
                }
            }
        }

        // Tenant commits merged back into the general branch, in every module and in the superproject.
        for module in project.manifest.modules {
            guard let moduleBranches = state.moduleBranches[module.name], moduleBranches[general] != nil else {
                continue
            }
            for tenant in project.tenants where moduleBranches[tenant.branch] != nil {
                let merged = try reach.mergedBack(tenant.branch, of: module.name)
                if !merged.isEmpty {
                    findings.append(
                        mergedBack(tenant: tenant, repository: module.name, module: module.name, merged, general))
                }
            }
        }
        for tenant in project.tenants where state.branches[tenant.branch] != nil {
            let merged = try reach.mergedBack(tenant.branch, of: nil)
            if !merged.isEmpty {
                findings.append(mergedBack(tenant: tenant, repository: superproject, module: nil, merged, general))
            }
        }
        return findings
    }

    private static func mergedBack(
        tenant: Tenant, repository: String, module: String?, _ commits: [String], _ general: String
    ) -> VerifyFinding {
        VerifyFinding(
            code: "tenant-merged-back",
            message:
                "tenant \(tenant.id): \(commits.count) commit\(commits.count == 1 ? "" : "s") of \(repository)'s branch \(tenant.branch) "
                + "\(commits.count == 1 ? "is" : "are") reachable from \(general) (tenant changes must not flow back): "
                + commits.prefix(5).map { String($0.prefix(10)) }.joined(separator: ", ")
                + (commits.count > 5 ? ", …" : ""),
            tenant: tenant.id, module: module, repository: repository, branch: tenant.branch)
    }

    /// `.gitmodules` of a superproject commit compared with the general branch's `modules.json`.
    static func gitmodulesFindings(commit: String, branch: String, state: RemoteState, git: Git) throws
        -> [VerifyFinding]
    {
        let listing = try git.run(
            ["ls-tree", "-z", "--end-of-options", commit, "--", ".gitmodules"], in: state.workspace.root,
            context: "look for .gitmodules on \(branch)")
        if listing.stdout.isEmpty {
            guard !state.project.manifest.modules.isEmpty else { return [] }
            return [
                VerifyFinding(
                    code: "gitmodules-drift", message: "branch \(branch): there is no .gitmodules file")
            ]
        }
        let output = try git.run(
            ["config", "-z", "--blob", "\(commit):.gitmodules", "--list"], in: state.workspace.root,
            context: "read .gitmodules on \(branch)")
        return FileVerifier.gitmodulesDrift(
            project: state.project, gitmodules: GitmodulesParser.parse(output.stdout), where: "branch \(branch)")
    }
}

/// Commit sets of the repositories, computed once per branch.
struct Reachability {
    let state: RemoteState
    let git: Git
    private var cache: [String: Set<String>] = [:]
    private var lists: [String: [String]] = [:]

    init(state: RemoteState, git: Git) {
        self.state = state
        self.git = git
    }

    /// Repository directory and ref prefix: a module mirror, or the superproject's remote-tracking refs.
    private func location(_ module: String?) throws -> (directory: String, prefix: String) {
        guard let module else { return (state.workspace.root, "refs/remotes/origin/") }
        guard let mirror = state.mirrors[module] else { throw LifecycleError("module \(module) has no mirror") }
        return (mirror, "refs/heads/")
    }

    private mutating func revList(_ arguments: [String], module: String?) throws -> [String] {
        let key = (module ?? "") + "\u{0}" + arguments.joined(separator: " ")
        if let list = lists[key] { return list }
        let (directory, _) = try location(module)
        let list = try git.run(
            ["rev-list"] + arguments, in: directory,
            context: "list the commits of \(module ?? "the superproject") (\(arguments.joined(separator: " ")))"
        ).lines
        lists[key] = list
        return list
    }

    /// Every commit on any branch of the module's remote.
    mutating func all(_ module: String) throws -> Set<String> {
        let key = "all\u{0}" + module
        if let set = cache[key] { return set }
        let set = Set(try revList(["--glob=refs/heads/*"], module: module))
        cache[key] = set
        return set
    }

    /// Every commit reachable from one branch.
    mutating func branch(_ branch: String, of module: String?) throws -> Set<String> {
        let key = "branch\u{0}" + (module ?? "") + "\u{0}" + branch
        if let set = cache[key] { return set }
        let set = Set(try revList([try location(module).prefix + branch], module: module))
        cache[key] = set
        return set
    }

    /// Non-merge commits of the tenant branch's first-parent line that are not on the general branch's first-parent
    /// line but are reachable from the general branch.
    mutating func mergedBack(_ tenantBranch: String, of module: String?) throws -> [String] {
        let prefix = try location(module).prefix
        let general = state.generalBranch
        let generalLine = Set(try revList(["--first-parent", prefix + general], module: module))
        let generalAll = try branch(general, of: module)
        let tenantLine = try revList(["--first-parent", "--no-merges", prefix + tenantBranch], module: module)
        return tenantLine.filter { !generalLine.contains($0) && generalAll.contains($0) }
    }
}
