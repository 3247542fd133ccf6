import Foundation

/// Where `pin` puts its commit when the remote branch is not where the local branch is (with and without `--push`).
///
/// - the local branch is at the remote tip or ahead of it: the pin commit goes on the local branch (ahead of the
///   remote with nothing to pin: a pin commit whose push failed, published as it is by `pin --push`);
/// - the remote moved on (a roll ran) and the local branch has no commits of its own: the pin lands on the remote
///   tip, when the moved branch changed no pin that this pin changes (or the module's HEAD already contains the
///   new pin); otherwise a refusal, before any change, with the command that merges the new pin into the module;
/// - diverged: a refusal with the command that merges the remote branch.
///
/// The local branch never ends diverged from its remote.
struct PinLanding: Sendable, Equatable {
    /// The remote tip the pin commit is made on.
    var remoteTip: String
    /// The changes against the remote tip's pins.
    var changes: [PinReport.Change]
    /// Modules whose pins the remote branch moved: behind their new pins in the working copy.
    var behind: [String]

    enum Relation: Sendable, Equatable {
        /// Local and remote branch are at the same commit.
        case published
        /// The local branch holds commits the remote lacks, and nothing is behind.
        case ahead
        /// The remote moved on, and there is nothing to pin.
        case behindWithNothingToPin
        /// The remote moved on: land the pin on its tip.
        case moved(PinLanding)
        /// Cannot land: the problem names the command to run.
        case refused(WorkingCopyProblem)
    }

    static func relation(
        head: String, remoteTip: String, branch: String, changes: [PinReport.Change], pins: [String: String],
        modules: [Module], push: Bool, workspace: Workspace
    ) throws -> Relation {
        if head == remoteTip { return .published }
        // The command that pins again, as the user ran it; what the refusal left unchanged.
        let pin = push ? "tenantctl pin --push" : "tenantctl pin"
        let unchanged = push ? "nothing was pushed" : "nothing was changed"
        let (ahead, behindCount) = try workspace.superproject.counts(head, remoteTip)
        if behindCount == 0 { return .ahead }
        if ahead > 0 {
            return .refused(
                WorkingCopyProblem(
                    repository: "superproject", path: "",
                    reason: "branch \(branch) has \(English.count(ahead, "commit")) the remote's \(branch) lacks, and "
                        + "lacks \(English.count(behindCount, "commit")) of it (diverged); \(unchanged); merge the "
                        + "remote's first: `git pull --no-rebase --no-edit --no-recurse-submodules "
                        + "\(workspace.remoteName) \(branch)`, then "
                        + (changes.isEmpty
                            ? "publish it: `git push \(workspace.remoteName) \(branch)`"
                            : "pin the modules you changed: "
                                + "`\(pin) \(changes.map(\.module).joined(separator: " "))`")))
        }
        if changes.isEmpty { return .behindWithNothingToPin }
        let remotePins = try workspace.superproject.pins(at: remoteTip, paths: modules.map(\.path))
        var landed: [PinReport.Change] = []
        for var change in changes {
            let remotePin = remotePins[change.path]
            if remotePin == change.old {
                landed.append(change)
                continue
            }
            guard let remotePin else {
                return .refused(
                    WorkingCopyProblem(
                        repository: change.module, path: change.path,
                        reason: "the remote's \(branch) moved on and no longer pins \(change.module); run "
                            + "`tenantctl switch \(branch)` and pin again"))
            }
            if remotePin == change.new { continue }
            let checkout = workspace.checkout(at: change.path)
            if try checkout.hasCommit(remotePin), try checkout.isAncestor(remotePin, of: change.new) {
                change.old = remotePin
                landed.append(change)
                continue
            }
            return .refused(
                WorkingCopyProblem(
                    repository: change.module, path: change.path,
                    reason: "the remote's \(branch) moved on (a roll?) and pins \(change.module) at "
                        + "\(ObjectID.short(remotePin)), which \(change.module)'s HEAD \(ObjectID.short(change.new)) "
                        + "does not contain; \(unchanged); merge it first: "
                        + "`git -C \(change.path) merge --no-edit \(remotePin)`, then run `\(pin)` again"
                ))
        }
        let changed = Set(changes.map(\.path))
        let behind = modules.filter { !changed.contains($0.path) && remotePins[$0.path] != pins[$0.path] }.map(\.name)
        return .moved(PinLanding(remoteTip: remoteTip, changes: landed, behind: behind))
    }
}
