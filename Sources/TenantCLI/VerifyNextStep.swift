import Foundation
import TenantKit

/// What to do about one of verify's findings, filled in with its tenant, module and branch so that every command in
/// it runs as printed; where no single command can fix a kind (a commit only some clone has, a file to correct), it
/// says in words what to do and names the command to run afterwards. Never a placeholder to fill in.
enum VerifyNextStep {
    /// What to do about `finding`, on a project whose general branch is `general`.
    static func text(_ finding: Finding, general: String = ModuleManifest.defaultGeneralBranch) -> String {
        switch finding.code {
        case .undeclaredCustomisation, .missingBranch, .missingCommit, .stalePin, .inactiveButCustomised,
            .notPinned, .gitmodulesDrift:
            pinStep(finding, general: general)
        case .movedPath: "nothing to fix: `tenantctl roll` moves the gitlink"
        case .squashedRoll: "nothing to fix: the proposal's changes are in"
        case .tenantMergedBack:
            "revert the commits' changes on the general branch if they were not meant for every tenant, then accept "
                + "them with `tenantctl roll --accept-merged-back \(quoted(finding.module ?? Finding.superproject))` "
                + "(docs/audit.md, tenant-merged-back)"
        case .invalidTenantFile, .invalidFile: "fix the file as the message says, then `tenantctl verify` again"
        case .unreachableRemote:
            "check module \(finding.module ?? finding.repository ?? "")'s URL in modules.json and your access to it "
                + "(the message has git's words), then `tenantctl verify` again"
        case .orphanBranch: "run the command the finding names"
        case .branchCaseCollision: "rename or delete all but one of the branches on the remote"
        case .unnamedSubmodule:
            "nothing to fix before a switch (it checks the submodule out at its pin); to follow it with tenantctl, "
                + "name it in modules.json with its path and URL (`tenantctl module add --help` shows how)"
        case .pendingReview: "`tenantctl roll --land` once the proposals are merged"
        case .staleReview: "`tenantctl roll --review` updates the proposal"
        case .reviewConflict:
            finding.tenant.map { "`tenantctl resolve \(quoted($0)) --review`" }
                ?? "`tenantctl roll --review` proposes again"
        case .staleTenant:
            finding.tenant.map { "`tenantctl roll --tenant \(quoted($0))` rolls the general branch in" }
                ?? "`tenantctl roll` rolls the general branch in"
        }
    }

    /// The kinds about a module's pin or gitlink on a branch.
    static func pinStep(_ finding: Finding, general: String) -> String {
        let tenant = finding.tenant.map(quoted)
        let module = finding.module.map(quoted)
        let repin = tenant.flatMap { tenant in
            module.map { "`tenantctl switch \(tenant)`, then `tenantctl pin \($0) --push`" }
        }
        switch finding.code {
        case .undeclaredCustomisation:
            if let tenant, let module, let repin {
                return "declare it with `tenantctl customize \(tenant) \(module)`, or pin \(general)'s commit "
                    + "(\(repin))"
            }
            return "pin a commit of the module's general branch on \(general) (check \(general) out, then "
                + "`tenantctl pin\(module.map { " " + $0 } ?? "") --push`)"
        case .missingBranch: return missingBranchStep(finding)
        case .missingCommit:
            return "push the pinned commit to the module's remote from the clone that has it, or pin one that is there"
                + (repin.map { " (\($0))" } ?? "")
        case .stalePin:
            return "pin the branch's head: " + (repin ?? "check the branch out, then `tenantctl pin --push`")
        case .inactiveButCustomised:
            guard let tenant = finding.tenant, let module else { return "activate the module in the tenant's file" }
            return "activate \(module) in Tenants/\(tenant).json, or undo the customisation with `tenantctl "
                + "uncustomize \(quoted(tenant)) \(module)`"
        case .notPinned:
            return tenant == nil
                ? "add the module's submodule on \(general) at the path modules.json gives, then `tenantctl verify` "
                    + "again"
                : "`tenantctl roll` adds the gitlink from \(general)"
        default:
            // A tenant branch gets the general branch's .gitmodules by a roll; the general branch's own (and the
            // working tree's) is corrected by hand.
            guard finding.tenant != nil else {
                return "make .gitmodules agree with modules.json (on \(general) and in the working tree), then "
                    + "`tenantctl verify` again"
            }
            return "`tenantctl roll` brings \(general)'s .gitmodules to the tenant branches"
        }
    }

    /// `missing-branch`: the superproject's branch of a tenant, or a module's branch a branch tracks.
    static func missingBranchStep(_ finding: Finding) -> String {
        let branch = finding.branch ?? ""
        guard finding.module == nil else {
            return "push the branch \(branch) to module \(finding.module ?? "")'s remote from the clone that has it, "
                + "then `tenantctl verify` again"
        }
        return "push the superproject's branch \(branch) from the clone that has it"
            + (finding.tenant.map { ", or remove the tenant with `tenantctl tenant remove \(quoted($0))`" } ?? "")
    }

    static func quoted(_ word: String) -> String { ShellWord.quote(word) }
}
