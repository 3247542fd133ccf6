import Foundation
import TenantTestSupport
import Testing

/// Before it changes a repository, tenantctl lists the repository's git directory for lock files a crashed git left.
/// When that listing fails, the error names the directory and the repository, not a git call that never ran.
@Suite(.tags(.slow), .notInTheFastSet) struct LockFileListingTests {
    /// A git that answers `rev-parse --absolute-git-dir` in module `hidden` with a directory that does not exist
    /// (a git directory gone between git's answer and the listing); every other call goes to the real git.
    func git(hiding hidden: String?, in sandbox: GitSandbox) throws -> String {
        let pattern = hidden.map { "*\"/Modules/\($0) \"*\"--absolute-git-dir\"*" } ?? "no-such-call"
        return try sandbox.writeExecutable(
            "bin/git-hiding-\(hidden ?? "nothing")",
            """
            #!/bin/sh
            case " $* " in
                \(pattern)) echo /nonexistent/tenantctl-lock-listing/git; exit 0 ;;
            esac
            exec git "$@"

            """)
    }

    @Test func aGitDirectoryThatCannotBeListedIsNamedWithTheRepository() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)

        // Positive control: the wrapper alone changes nothing.
        let transparent = sandbox.tenantctl(
            ["status", "--git", try git(hiding: nil, in: sandbox)], in: fixture.workspace)
        #expect(transparent.status == 0, "\(transparent.stderr)")

        let result = sandbox.tenantctl(
            ["status", "--git", try git(hiding: "Article", in: sandbox)], in: fixture.workspace)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "cannot list /nonexistent/tenantctl-lock-listing/git, the git directory of \(fixture.module("Article")), "
                    + "to look for lock files: "),
            "\(result.stderr)")
        #expect(result.stderr.contains("check that it exists and can be read, then run the command again"))
        // Not a git failure: no git call failed, none was left unstarted.
        #expect(!result.stderr.contains("cannot start git"), "\(result.stderr)")
    }
}
