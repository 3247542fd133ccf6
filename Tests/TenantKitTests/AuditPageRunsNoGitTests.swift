import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// The HTML page is a pure function of what the audit gathered: rendering it runs no git.
@Suite struct AuditPageRunsNoGitTests {
    @Test func thePageIsRenderedWithoutAnyRepository() throws {
        let sandbox = try GitSandbox()
        let git = try sandbox.gitRunner()
        let example = try ExampleBuilder(git: git).build(in: sandbox.path("erp"), stage: .afterUpdates)
        let workspace = try Workspace.locate(from: example.workspace, git: git)
        let audit = AuditRun(generatedAt: Date(timeIntervalSince1970: 0), page: true)
        let (report, gathered) = try audit.run(workspace: workspace, fetch: true, wait: false, console: nil)
        let page = try #require(gathered)
        let html = AuditHTMLRenderer.render(report, page: page)
        // Positive control: the page lists commits (every tenant is behind general_dev after the updates).
        let subject = try sandbox.git(
            ["log", "-1", "--format=%s", "general_dev"], in: example.remotes + "/Infrastructure.git")
        #expect(!subject.isEmpty && html.contains(subject), "\(subject)")
        #expect(!page.commits.lists.isEmpty)
        // Without `page` nothing of it is read.
        #expect(try AuditRun().run(workspace: workspace, fetch: true, wait: false, console: nil).page == nil)
        // No repository at all: the same page.
        try FileManager.default.removeItem(atPath: sandbox.path("erp"))
        #expect(!FileManager.default.fileExists(atPath: example.workspace))
        #expect(AuditHTMLRenderer.render(report, page: page) == html)
    }
}
