import Foundation

extension WorkingCopySwitch {
    /// Refuses while a `tenantctl resolve` is in progress, naming its two ways out: its conflicted and staged
    /// files are the resolution's, not changes to commit or stash. (For the switch command; resolve itself
    /// switches while its resolution is open.)
    public func refuseDuringResolution(target name: String) throws {
        guard let resolution = try ResolutionStatus.inspect(workspace: workspace) else { return }
        throw WorkingCopyRefusal(
            action: "switch to \(name)",
            problems: [
                WorkingCopyProblem(
                    repository: "superproject", path: "",
                    reason: "a resolution of \(resolution.tenant) is in progress (tenantctl resolve); finish it "
                        + "with `\(resolution.command) --continue` or undo it with `\(resolution.command) --abort` first"
                )
            ])
    }
}
