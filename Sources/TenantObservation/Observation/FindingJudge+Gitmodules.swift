import Foundation

extension FindingJudge {
    /// `gitmodules-drift` on the general branch and every tenant branch the observation has (in tenant file order),
    /// judged from the `.gitmodules` files the reader read (none when it was not asked to read them). A module a
    /// branch has at another path is no drift there; a submodule the branch pins that `modules.json` does not name is
    /// its own finding (`unnamed-submodule`), not drift.
    public static func gitmodulesFindings(project: Project, observation: ProjectObservation) -> [Finding] {
        let observed = observation.superproject
        guard let files = observed.gitmodules else { return [] }
        var branches: [(tenant: Tenant?, branch: String)] = [(nil, observed.generalBranch)]
        for tenant in project.tenants where observed.tenantTips[tenant.branch] != nil {
            branches.append((tenant, tenant.branch))
        }
        var findings: [Finding] = []
        for (tenant, branch) in branches {
            let found: [Finding]
            if let gitmodules = files[branch] {
                let unnamed = Set((observed.unnamed[branch] ?? [:]).keys)
                found = gitmodulesDrift(
                    project: project, gitmodules: gitmodules.entries.filter { !unnamed.contains($0.path ?? "") },
                    where: "branch \(branch)", moved: observed.movedPaths[branch] ?? [:])
            } else if !project.manifest.modules.isEmpty {
                found = [Finding(code: .gitmodulesDrift, message: "branch \(branch): there is no .gitmodules file")]
            } else {
                found = []
            }
            for var finding in found {
                finding.tenant = tenant?.id
                finding.repository = Finding.superproject
                finding.branch = branch
                findings.append(finding)
            }
        }
        return findings
    }

    /// Compares `.gitmodules` (as read on `where`) with the manifest: every module has a submodule with the same
    /// path and URL, and there is no submodule the manifest does not know. `moved`: module name → the path this
    /// branch has the module at instead (``ModuleLocator``; reported as `moved-path`, not as drift).
    public static func gitmodulesDrift(
        project: Project, gitmodules: [GitmodulesEntry], where label: String, moved: [String: String] = [:]
    ) -> [Finding] {
        var findings: [Finding] = []
        let byPath = Dictionary(
            gitmodules.compactMap { entry in entry.path.map { ($0, entry) } }, uniquingKeysWith: { a, _ in a })
        for var module in project.manifest.modules {
            module.path = moved[module.name] ?? module.path
            guard let entry = byPath[module.path] else {
                findings.append(
                    Finding(
                        code: .gitmodulesDrift,
                        message:
                            "\(label): .gitmodules has no submodule at \(module.path) (module \(module.name) in modules.json)",
                        module: module.name, branch: label))
                continue
            }
            if entry.url != module.url {
                findings.append(
                    Finding(
                        code: .gitmodulesDrift,
                        message:
                            "\(label): .gitmodules gives \(module.path) the URL \(RemoteURL.redacted(entry.url ?? "(none)")), modules.json \(RemoteURL.redacted(module.url))",
                        module: module.name, branch: label))
            }
        }
        let known = Set(project.manifest.modules.map { moved[$0.name] ?? $0.path })
        for entry in gitmodules where !(entry.path.map(known.contains) ?? false) {
            findings.append(
                Finding(
                    code: .gitmodulesDrift,
                    message:
                        "\(label): .gitmodules has submodule \(entry.name) at \(entry.path ?? "(no path)"), which modules.json does not list",
                    branch: label))
        }
        return findings
    }
}
