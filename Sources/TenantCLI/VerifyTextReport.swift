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
    static func lines(
        _ findings: [Finding], general: String = ModuleManifest.defaultGeneralBranch, mark: (Bool) -> String
    ) -> [String] {
        let groups = groups(findings)
        var lines = groups.map { mark($0.finding.code.isInformation) + line($0) }
        var kinds: [FindingCode] = []
        for group in groups where !kinds.contains(group.finding.code) { kinds.append(group.finding.code) }
        for kind in kinds {
            // The first finding of the kind fills in its command (tenant, module, branch); the others of the kind
            // take the same step with their own names, which their lines give.
            let ofKind = groups.filter { $0.finding.code == kind }
            guard let first = ofKind.first?.finding else { continue }
            let others = ofKind.dropFirst().contains {
                $0.finding.tenant != first.tenant || $0.finding.module != first.module
                    || $0.finding.repository != first.repository
            }
            lines.append(
                "next (\(kind.rawValue)): " + TerminalText.escaped(VerifyNextStep.text(first, general: general))
                    + (others ? " (and the same for the other findings of the kind, with their names)" : ""))
        }
        return lines
    }
}
