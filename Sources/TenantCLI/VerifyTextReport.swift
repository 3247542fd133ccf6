import Foundation
import TenantKit

/// verify's findings as a person reads them: one line per finding, a finding told the same way on several branches
/// (the same kind, text and repository) once with the branches it was found on; information (`moved-path`,
/// `squashed-roll`) marked `i`, not `✗`; and after them, for each kind found, what to do about it.
struct VerifyTextReport {
    /// One finding, with every branch and tenant it was found on.
    struct Group {
        var finding: Finding
        var branches: [String] = []
        var tenants: [String] = []
    }

    /// `findings` grouped, in the order of their first finding.
    static func groups(_ findings: [Finding]) -> [Group] {
        var groups: [Group] = []
        var index: [String: Int] = [:]
        for finding in findings {
            let key = [
                finding.code.rawValue,
                finding.branch.map { generalised(finding.message, branch: $0) } ?? finding.message,
                finding.repository ?? "", finding.module ?? "", finding.branch == nil ? finding.tenant ?? "" : "",
            ].joined(separator: "\u{0}")
            let at = index[key] ?? groups.count
            if at == groups.count {
                index[key] = at
                groups.append(Group(finding: finding))
            }
            if let branch = finding.branch, !groups[at].branches.contains(branch) { groups[at].branches.append(branch) }
            if let tenant = finding.tenant, !groups[at].tenants.contains(tenant) { groups[at].tenants.append(tenant) }
        }
        return groups
    }

    /// `message` with its own branch's name left out (`branch t1 pins …` → `the branch pins …`): the line names the
    /// branches.
    static func generalised(_ message: String, branch: String) -> String {
        message.replacingOccurrences(of: "branch \(branch) ", with: "the branch ")
            .replacingOccurrences(of: "branch \(branch),", with: "the branch,")
    }

    /// The line of `group`: its text, kind and where (the branches and tenants together when more than one).
    static func line(_ group: Group) -> String {
        let finding = group.finding
        let several = group.branches.count > 1
        let text = several ? generalised(finding.message, branch: finding.branch ?? "") : finding.message
        var location = [finding.repository.map { "repository \($0)" }]
        if several {
            location.append("\(group.branches.count) branches: " + group.branches.joined(separator: ", "))
        } else {
            location.append(finding.branch.map { "branch \($0)" })
        }
        location.append(finding.module.map { "module \($0)" })
        if several, !group.tenants.isEmpty {
            location.append(English.noun(group.tenants.count, "tenant") + " " + group.tenants.joined(separator: ", "))
        } else {
            location.append(finding.tenant.map { "tenant \($0)" })
        }
        let words = location.compactMap { $0 }
        return TerminalText.escaped(
            text + (words.isEmpty ? "" : " [\(finding.code.rawValue): \(words.joined(separator: ", "))]"))
    }

    /// The lines of `findings`: each group's (`✗ ` or `i ` before it, through `mark`), then one `next` line per kind.
    static func lines(_ findings: [Finding], mark: (Bool) -> String) -> [String] {
        let groups = groups(findings)
        var lines = groups.map { mark($0.finding.code.isInformation) + line($0) }
        var kinds: [FindingCode] = []
        for group in groups where !kinds.contains(group.finding.code) { kinds.append(group.finding.code) }
        for kind in kinds {
            // The first finding of the kind fills in the tenant and the module where it names them.
            let first = groups.first { $0.finding.code == kind }?.finding
            var text = next(kind)
            if let tenant = first?.tenant { text = text.replacingOccurrences(of: "<tenant>", with: tenant) }
            if let module = first?.module { text = text.replacingOccurrences(of: "<module>", with: module) }
            lines.append("next (\(kind.rawValue)): " + text)
        }
        return lines
    }

    /// What to do about a finding of `kind`.
    static func next(_ kind: FindingCode) -> String {
        switch kind {
        case .undeclaredCustomisation:
            "declare it with `tenantctl customize <tenant> <module>`, or pin general_dev's commit (`tenantctl switch "
                + "<tenant>`, then `tenantctl pin <module> --push`)"
        case .missingBranch: "push the branch, or remove the tenant with `tenantctl tenant remove <tenant>`"
        case .missingCommit: "push the pinned commit to the module's remote, or pin one that is there (`tenantctl pin`)"
        case .stalePin: "pin the branch's head: `tenantctl switch <tenant>`, then `tenantctl pin <module> --push`"
        case .inactiveButCustomised:
            "activate the module in Tenants/<tenant>.json, or undo the customisation with `tenantctl uncustomize "
                + "<tenant> <module>`"
        case .notPinned: "`tenantctl roll` adds the gitlink from general_dev"
        case .movedPath: "nothing to fix: `tenantctl roll` moves the gitlink"
        case .squashedRoll: "nothing to fix: the proposal's changes are in"
        case .tenantMergedBack: "see docs/audit.md (tenant-merged-back): revert the commits on general_dev or roll them"
        case .invalidTenantFile, .invalidFile: "fix the file as the message says, then `tenantctl verify` again"
        case .unreachableRemote: "check the URL and your access (`git ls-remote <url>`), then `tenantctl verify` again"
        case .gitmodulesDrift: "`tenantctl roll` brings general_dev's .gitmodules to the tenant branches"
        case .orphanBranch: "run the command the finding names"
        case .branchCaseCollision: "rename or delete one of the branches on the remote"
        case .unnamedSubmodule:
            "nothing to fix before a switch (it checks the submodule out at its pin); to follow it, name it in "
                + "modules.json with `tenantctl module add <name> --url <url>`"
        case .pendingReview: "`tenantctl roll --land` once the proposals are merged"
        case .staleReview: "`tenantctl roll --review` updates the proposal"
        case .reviewConflict: "`tenantctl resolve <tenant> --review`"
        }
    }
}
