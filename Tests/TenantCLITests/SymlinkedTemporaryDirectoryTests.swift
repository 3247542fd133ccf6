import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// On macOS the temporary directory is reached through a symbolic link (`/var/folders/…` is
/// `/private/var/folders/…`) and git prints resolved paths. The same layout is made here inside a sandbox — a
/// relative link in the middle of the path, as macOS's `/var -> private/var` — and tenantctl works through it: the
/// workspace given by its linked path, and the temporary directory (TMPDIR) a linked one.
@Suite(.tags(.slow), .notInTheFastSet) struct SymlinkedTemporaryDirectoryTests {
    /// `<sandbox>/var` → `private/var`; returns the linked spelling of `<sandbox>/private/var/folders/T`.
    static func macLikeTemporaryDirectory(_ sandbox: GitSandbox) throws -> String {
        try FileManager.default.createDirectory(
            atPath: sandbox.path("private/var/folders/T"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("var"), withDestinationPath: "private/var")
        return sandbox.path("var/folders/T")
    }

    /// The sandbox's root is the path git prints (every symbolic link resolved, `/private` kept on macOS), so tests
    /// can compare git's paths with it.
    @Test func theSandboxRootIsThePathGitPrints() throws {
        let sandbox = try GitSandbox()
        let repository = try sandbox.makeRepository("repo")
        #expect(try sandbox.git(["rev-parse", "--show-toplevel"], in: repository) == repository)
        #expect(try GitSandbox.realPath(sandbox.root) == sandbox.root)
        let linked = try Self.macLikeTemporaryDirectory(sandbox)
        #expect(try GitSandbox.realPath(linked) == sandbox.path("private/var/folders/T"))
    }

    @Test func commandsWorkOnAWorkspaceReachedThroughASymbolicLink() throws {
        let sandbox = try GitSandbox()
        let linked = try Self.macLikeTemporaryDirectory(sandbox)
        let example = sandbox.tenantctl(["example", linked + "/erp"])
        #expect(example.status == 0, "\(example.stdout)\(example.stderr)")
        let workspace = linked + "/erp/workspace"
        #expect(
            try sandbox.git(["rev-parse", "--show-toplevel"], in: workspace)
                == sandbox.path(
                    "private/var/folders/T/erp/workspace"))

        let switched = sandbox.tenantctl(["-C", workspace, "switch", "t2"])
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
        let status = sandbox.tenantctl(["status"], in: workspace + "/Modules/Customer")
        #expect(status.status == 0, "\(status.stdout)\(status.stderr)")
        #expect(status.stdout.contains("t2"), "\(status.stdout)")
        let verify = sandbox.tenantctl(["-C", workspace, "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let back = sandbox.tenantctl(["-C", workspace, "switch", "general_dev"])
        #expect(back.status == 0, "\(back.stdout)\(back.stderr)")
        #expect(try sandbox.git(["branch", "--show-current"], in: workspace + "/Modules/Customer") == "general_dev")
    }

    /// The demo builds its repositories in TMPDIR, runs every command there and removes them: with TMPDIR a
    /// linked directory, as on macOS.
    @Test(.tags(.slow), .notInTheFastSet)
    func theDemoRunsWithALinkedTemporaryDirectory() throws {
        let sandbox = try GitSandbox()
        let linked = try Self.macLikeTemporaryDirectory(sandbox)
        let demo = try sandbox.tenantctlProcess(
            ["demo"], environment: ["TMPDIR": linked, "TENANTCTL_ALLOW_LOCAL_REMOTES": "0", "NO_COLOR": "1"])
        #expect(demo.status == 0, "\(demo.stdout)\(demo.stderr)")
        #expect(demo.stdout.contains("resolved t2: published"), "\(demo.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("private/var/folders/T")).isEmpty)
    }
}
