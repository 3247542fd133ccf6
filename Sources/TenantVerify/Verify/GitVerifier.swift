import Foundation

/// The git checks of `verify`, against a ``Snapshot`` of the remotes: every finding the ``FindingJudge`` decides
/// from the ``ProjectObservation`` (the same as audit's), and `gitmodules-drift` (`.gitmodules` on a superproject branch
/// disagrees with `modules.json` of the general branch; a module a branch has at another path is no drift there).
///
/// git processes: those of ``ObservationReader`` (without the changed files), and one `config --blob` per
/// superproject branch with a `.gitmodules` (looked up in one `cat-file --batch`); no checkout.
public enum GitVerifier {
    /// The repository name used for the superproject in findings.
    public static let superproject = Finding.superproject

    /// Gathers the observation of every tenant, then runs every check; returns the findings in a stable order.
    public static func findings(snapshot: Snapshot, git: Git, jobs: Int = 4) throws -> [Finding] {
        let observation = try ObservationReader.read(
            snapshot: snapshot, tenants: snapshot.project.tenants, git: git,
            options: ObservationReader.Options(jobs: jobs, changedFiles: false))
        return FindingJudge.findings(
            project: snapshot.project, observation: observation, tenants: snapshot.project.tenants)
            + (try gitmodulesFindings(snapshot: snapshot, observation: observation, git: git))
    }

    /// `gitmodules-drift` on the general branch and every tenant branch the observation has.
    public static func gitmodulesFindings(snapshot: Snapshot, observation: ProjectObservation, git: Git) throws
        -> [Finding]
    {
        let project = snapshot.project
        let superprojectObservation = observation.superproject
        var branches: [(tenant: Tenant?, branch: String, tip: String)] = [
            (nil, superprojectObservation.generalBranch, superprojectObservation.generalTip)
        ]
        for tenant in project.tenants {
            if let tip = superprojectObservation.tenantTips[tenant.branch] {
                branches.append((tenant, tenant.branch, tip))
            }
        }
        let batch = try CatFileBatch(git: git, repository: snapshot.workspace.root)
        defer { try? batch.close() }
        var findings: [Finding] = []
        for (tenant, branch, tip) in branches {
            let found: [Finding]
            if let gitmodules = try GitRepository(snapshot.workspace.root, git: git).gitmodules(at: tip, batch: batch) {
                // A submodule the branch pins that modules.json does not name is its own finding
                // (`unnamed-submodule`), not drift.
                let unnamed = Set((superprojectObservation.unnamed[branch] ?? [:]).keys)
                found = FileVerifier.gitmodulesDrift(
                    project: project, gitmodules: gitmodules.entries.filter { !unnamed.contains($0.path ?? "") },
                    where: "branch \(branch)", moved: superprojectObservation.movedPaths[branch] ?? [:])
            } else if !project.manifest.modules.isEmpty {
                found = [Finding(code: .gitmodulesDrift, message: "branch \(branch): there is no .gitmodules file")]
            } else {
                found = []
            }
            for var finding in found {
                finding.tenant = tenant?.id
                finding.repository = superproject
                finding.branch = branch
                findings.append(finding)
            }
        }
        try batch.close()
        return findings
    }
}
