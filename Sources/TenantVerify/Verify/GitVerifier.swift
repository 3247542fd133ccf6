import Foundation

/// The git checks of `verify`, against a ``Snapshot`` of the remotes: every finding the ``FindingJudge`` decides
/// from the ``ProjectObservation`` (the same as audit's), `gitmodules-drift` included (`.gitmodules` on a
/// superproject branch disagrees with `modules.json` of the general branch; a module a branch has at another path is
/// no drift there).
///
/// git processes: those of ``ObservationReader`` (without the changed files); no checkout.
public enum GitVerifier {
    /// The repository name used for the superproject in findings.
    public static let superproject = Finding.superproject

    /// Gathers the observation of every tenant (from the snapshot's repositories), then runs every check;
    /// returns the findings in a stable order.
    public static func findings(snapshot: Snapshot, jobs: Int = 4) throws -> [Finding] {
        let observation = try ObservationReader.read(
            snapshot: snapshot, tenants: snapshot.project.tenants,
            options: ObservationReader.Options(jobs: jobs, changedFiles: false))
        return FindingJudge.findings(
            project: snapshot.project, observation: observation, tenants: snapshot.project.tenants)
            + FindingJudge.gitmodulesFindings(project: snapshot.project, observation: observation)
    }
}
