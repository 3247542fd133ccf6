import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `ComposeRun`, compose's one entry point below the command line, on the example's real repositories: the working
/// copy's tenant, a tenant from the fetched refs, the lock around the fetch, and a stale directory under `check`.
@Suite struct ComposeRunTests {
    /// The example's workspace (on general_dev, nothing fetched since the clone) and a runner allowing its local
    /// remotes.
    static func example(_ sandbox: GitSandbox) throws -> (workspace: Workspace, git: Git) {
        let git = try sandbox.gitRunner()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        return (try Workspace.locate(from: example.workspace, git: git), git)
    }

    @Test func composesTheWorkingCopysTenantIntoTheDefaultDirectoryOrTheOneGiven() throws {
        let sandbox = try GitSandbox()
        let (workspace, _) = try Self.example(sandbox)
        // On general_dev (the development view) the working copy is no tenant: refused, nothing written.
        let refused = #expect(throws: ComposeError.self) {
            try ComposeRun().run(workspace: workspace, console: nil)
        }
        #expect(refused?.description.contains("development view") == true, "\(String(describing: refused))")
        #expect(!FileManager.default.fileExists(atPath: workspace.path(ComposeLayout.defaultOutput)))

        // On t1's branch (t1 customises no module: every checkout is at t1's pin).
        try sandbox.git(["checkout", "--quiet", "t1"], in: workspace.root)
        let report = try ComposeRun().run(workspace: workspace, console: nil)
        #expect(report.tenant == "t1")
        #expect(report.source == "the working copy")
        #expect(report.outputDirectory == workspace.path(ComposeLayout.defaultOutput))
        #expect(report.active == ["Infrastructure", "Article", "Customer", "Order"])
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        #expect(!report.check && !report.isStale)
        #expect(!report.files.isEmpty && report.files.allSatisfy { $0.state != .unchanged }, "\(report.files)")
        let written = try String(
            contentsOfFile: workspace.path(ComposeLayout.defaultOutput + "/ActiveModules.json"), encoding: .utf8)
        #expect(written.contains(#""active": ["Infrastructure", "Article", "Customer", "Order"]"#), "\(written)")

        // An output directory given: written there; the same run again finds it up to date.
        let out = sandbox.path("out/t1")
        let elsewhere = try ComposeRun(outputDirectory: out).run(workspace: workspace, console: nil)
        #expect(elsewhere.outputDirectory == out)
        #expect(FileManager.default.fileExists(atPath: out + "/ActiveModules.json"))
        let again = try ComposeRun(outputDirectory: out).run(workspace: workspace, console: nil)
        #expect(again.upToDate && again.files.allSatisfy { $0.state == .unchanged }, "\(again.files)")
    }

    @Test func composesATenantFromTheFetchedRefsAndChecksTheDirectoryWithoutWriting() throws {
        let sandbox = try GitSandbox()
        let (workspace, _) = try Self.example(sandbox)
        let out = sandbox.path("out/t2")
        // The working copy stays on general_dev: t2 is read from origin/t2 and the module mirrors.
        let report = try ComposeRun(tenant: "t2", outputDirectory: out).run(
            workspace: workspace, console: nil)
        #expect(report.tenant == "t2")
        #expect(report.source == "origin/t2")
        #expect(!report.active.contains("Order"), "t2 does not use Order: \(report.active)")
        #expect(report.languages.contains("de"), "\(report.languages)")
        let german = try String(contentsOfFile: out + "/de.lproj/Localizable.strings", encoding: .utf8)
        #expect(german.contains(#""customer.list.title" = "Kunden";"#), "\(german)")

        // check: the directory as written is up to date (exit 0 in the command).
        let check = ComposeRun(tenant: "t2", outputDirectory: out, check: true, fetch: false)
        let fresh = try check.run(workspace: workspace, console: nil)
        #expect(fresh.check && fresh.upToDate && !fresh.isStale, "\(fresh.files)")

        // A file changed by hand and one left over: stale (exit 2 in the command), and nothing is written.
        let strings = out + "/de.lproj/Localizable.strings"
        try Data("edited\n".utf8).write(to: URL(fileURLWithPath: strings))
        try Data("left over\n".utf8).write(to: URL(fileURLWithPath: out + "/old.txt"))
        let stale = try check.run(workspace: workspace, console: nil)
        #expect(stale.isStale)
        #expect(
            stale.files.contains { $0.path == "de.lproj/Localizable.strings" && $0.state != .unchanged },
            "\(stale.files)")
        #expect(stale.files.contains { $0.path == "old.txt" && $0.state != .unchanged }, "\(stale.files)")
        #expect(try String(contentsOfFile: strings, encoding: .utf8) == "edited\n", "check writes nothing")
        #expect(FileManager.default.fileExists(atPath: out + "/old.txt"), "check removes nothing")

        // Without check the same run puts the directory right.
        let rewritten = try ComposeRun(tenant: "t2", outputDirectory: out, fetch: false).run(
            workspace: workspace, console: nil)
        #expect(!rewritten.isStale)
        #expect(try String(contentsOfFile: strings, encoding: .utf8) == german)
        #expect(!FileManager.default.fileExists(atPath: out + "/old.txt"))
    }

    /// The fetch into the mirrors runs under the workspace lock: another holder refuses it (nothing written); without
    /// a fetch no lock is taken.
    @Test func theFetchTakesTheWorkspaceLockAndNoFetchTakesNone() throws {
        let sandbox = try GitSandbox()
        let (workspace, _) = try Self.example(sandbox)
        let out = sandbox.path("out/t2")
        // Positive control: unlocked, the fetch works (and fills the mirrors for the run without fetch below).
        _ = try ComposeRun(tenant: "t2", outputDirectory: out).run(workspace: workspace, console: nil)
        try FileManager.default.removeItem(atPath: out)

        let held = try WorkspaceLock(gitDirectory: workspace.commonDirectory)
        defer { held.release() }
        // Without the fetch no lock is taken: it composes at once while another run holds the lock.
        let unfetchedOut = sandbox.path("out/unfetched")
        let unfetched = try ComposeRun(tenant: "t2", outputDirectory: unfetchedOut, fetch: false).run(
            workspace: workspace, console: nil)
        #expect(unfetched.tenant == "t2")
        #expect(FileManager.default.fileExists(atPath: unfetchedOut + "/ActiveModules.json"))

        // With the fetch it waits for the lock (a read-only command waits up to two minutes before it gives up:
        // `WorkspaceTests` proves the giving up on a short bound). In the background, so that the test sees it wait,
        // with nothing written, and finish once the lock is released, instead of waiting the whole bound.
        let progress = BufferOutputSink()
        let console = Console(out: BufferOutputSink(), err: progress)
        let finished = Locked<Result<ComposeReport, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Result {
                try ComposeRun(tenant: "t2", outputDirectory: out).run(workspace: workspace, console: console)
            }
            finished.withLock { $0 = result }
            done.signal()
        }
        let deadline = Date().addingTimeInterval(60)
        while !progress.text.contains("waiting for another tenantctl run"), finished.current == nil, Date() < deadline {
            usleep(20_000)
        }
        #expect(progress.text.contains("waiting for another tenantctl run"), "\(progress.text)")
        #expect(finished.current == nil, "compose did not wait for the lock")
        #expect(!FileManager.default.fileExists(atPath: out))
        held.release()
        #expect(done.wait(timeout: .now() + 120) == .success)
        let fetched = try #require(finished.current).get()
        #expect(fetched.tenant == "t2")
        #expect(FileManager.default.fileExists(atPath: out + "/ActiveModules.json"))
    }
}
