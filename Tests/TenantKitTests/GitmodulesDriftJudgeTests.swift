import Foundation
import TenantKit
import Testing

/// `gitmodules-drift` is the judge's: decided from the `.gitmodules` files the observation holds, no git.
@Suite struct GitmodulesDriftJudgeTests {
    static func id(_ value: Int) -> String { String(format: "%040x", value) }

    func project() throws -> Project {
        try ProjectLoader.load(
            manifest: source("modules.json", erpManifest()),
            tenantFiles: [
                source("Tenants/t1.json", tenantJSON("t1", modules: ["Infrastructure", "Customer"], customised: []))
            ])
    }

    /// Every module of the manifest in `.gitmodules`, at its path with its URL.
    func agreeing(_ project: Project) -> Gitmodules {
        Gitmodules(
            entries: project.manifest.modules.map { GitmodulesEntry(name: $0.name, path: $0.path, url: $0.url) })
    }

    func observation(_ project: Project, general: Gitmodules?, t1: Gitmodules?) throws -> ProjectObservation {
        var superproject = SuperprojectObservation(
            generalBranch: "general_dev", generalTip: Self.id(1), tenantTips: ["t1": Self.id(2)],
            pins: ["general_dev": [:], "t1": [:]])
        var files: [String: Gitmodules] = [:]
        files["general_dev"] = general
        files["t1"] = t1
        superproject.gitmodules = files
        return ProjectObservation(superproject: superproject, modules: [:])
    }

    @Test func theJudgeFindsDriftInTheObservedGitmodules() throws {
        let project = try project()
        let agreeing = agreeing(project)
        // Positive control: files that agree with modules.json are no drift.
        #expect(
            FindingJudge.gitmodulesFindings(
                project: project, observation: try observation(project, general: agreeing, t1: agreeing)
            ).isEmpty)
        var other = agreeing
        other.entries[0].url = "https://example.invalid/elsewhere.git"
        let findings = FindingJudge.gitmodulesFindings(
            project: project, observation: try observation(project, general: agreeing, t1: other))
        #expect(findings.map(\.code) == [.gitmodulesDrift], "\(findings)")
        #expect(findings.first?.tenant == "t1" && findings.first?.branch == "t1")
        #expect(findings.first?.repository == Finding.superproject)
        #expect(findings.first?.message.contains("branch t1: .gitmodules gives") == true, "\(findings)")
        // A branch without the file.
        let missing = FindingJudge.gitmodulesFindings(
            project: project, observation: try observation(project, general: nil, t1: agreeing))
        #expect(missing.map(\.message) == ["branch general_dev: there is no .gitmodules file"])
        // Files the reader was not asked to read judge nothing.
        var unread = try observation(project, general: nil, t1: nil)
        unread.superproject.gitmodules = nil
        #expect(FindingJudge.gitmodulesFindings(project: project, observation: unread).isEmpty)
    }
}
