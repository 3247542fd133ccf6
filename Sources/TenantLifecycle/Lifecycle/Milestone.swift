import Foundation

/// `tag <milestone>`: one tag per superproject branch, the thesis' `DEV-…`, `T1-…` tags.
public enum Milestone {
    /// The default tag name pattern.
    public static let defaultPattern = "{TENANT}-{MILESTONE}"

    /// The tag name for one branch: `{TENANT}` is `DEV` for the general branch and the upper-cased tenant id
    /// otherwise, `{MILESTONE}` the milestone as given, `{BRANCH}` the branch name.
    public static func tagName(pattern: String, milestone: String, tenant: String, branch: String) -> String {
        pattern.replacingOccurrences(of: "{TENANT}", with: tenant)
            .replacingOccurrences(of: "{MILESTONE}", with: milestone)
            .replacingOccurrences(of: "{BRANCH}", with: branch)
    }

    /// Plans the tags (general branch first, then the tenants in file order) at the branches' remote tips; refuses
    /// an invalid or duplicate tag name, a missing tenant branch, and a tag the remote already has at another commit
    /// (`existingTags`: name → object). A tag the remote has at its branch's tip is what a run left that stopped
    /// after its push: it is left out, so that the re-run finishes instead of refusing.
    public static func plan(milestone: String, pattern: String, state: Snapshot, existingTags: [String: String])
        throws -> LifecyclePlan
    {
        var targets: [(tag: String, branch: String)] = [
            (
                tagName(pattern: pattern, milestone: milestone, tenant: "DEV", branch: state.generalBranch),
                state.generalBranch
            )
        ]
        for tenant in state.project.tenants {
            targets.append(
                (
                    tagName(
                        pattern: pattern, milestone: milestone, tenant: tenant.id.uppercased(), branch: tenant.branch),
                    tenant.branch
                ))
        }
        var problems: [String] = []
        var seen: Set<String> = []
        for target in targets {
            if let problem = RefName.validateBranch(target.tag) {
                problems.append("tag \(target.tag) (for \(target.branch)): \(problem)")
            }
            if !seen.insert(target.tag).inserted {
                problems.append("tag \(target.tag) would name two branches; put {TENANT} or {BRANCH} in --pattern")
            }
            if let existing = existingTags[target.tag], existing != state.branches[target.branch] {
                problems.append("tag \(target.tag) exists on the superproject's remote")
            }
            if state.branches[target.branch] == nil {
                problems.append("the superproject's remote has no branch \(target.branch)")
            }
        }
        guard problems.isEmpty else {
            throw LifecycleError(
                "refusing to tag milestone \(milestone); nothing was tagged:\n"
                    + problems.map { "  " + $0 }.joined(separator: "\n"))
        }
        var plan = LifecyclePlan()
        plan.superprojectRefs = try targets.filter { existingTags[$0.tag] == nil }.map {
            try RefUpdate(checking: "refs/tags/\($0.tag)", new: try state.branch($0.branch), old: nil)
        }
        return plan
    }

    /// The tags of the superproject's remote (`ls-remote --tags --refs origin`): name → the object it names.
    public static func remoteTags(_ workspace: Workspace) throws -> [String: String] {
        try workspace.superproject.remoteTags(
            of: workspace.remoteName, context: "list the tags of the superproject's remote")
    }
}
