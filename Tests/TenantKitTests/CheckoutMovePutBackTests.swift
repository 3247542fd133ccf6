import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantWorkingCopy

/// A module checkout move that stopped between its two halves: the checkout's `core.worktree` already names the new
/// path, the directory is still at the old one, and git finds no working tree for it. The put-back points
/// `core.worktree` at the checkout again; a checkout as git left it, or a `core.worktree` the move did not write, is
/// left as it is. (The same stop, with a killed switch, is `SwitchStepRecoveryTests`.)
@Suite struct CheckoutMovePutBackTests {
    @Test func aMoveStoppedAfterItsConfigWriteIsPutBackAndNothingElseIs() throws {
        let sandbox = try GitSandbox()
        let lib = try sandbox.makeRepository("lib")
        let app = try sandbox.makeRepository("app")
        try sandbox.git(["submodule", "add", "-q", lib, "deps/cap"], in: app)
        try sandbox.git(["commit", "-q", "-m", "cap"], in: app)
        let source = app + "/deps/cap"
        let destination = app + "/plugins/cap"
        let outside = try sandbox.gitRunner().repository(at: app + "/deps")
        let gitDirectory = try sandbox.git(["rev-parse", "--absolute-git-dir"], in: source)
        let config = gitDirectory + "/config"
        let before = try sandbox.git(["config", "--file", config, "core.worktree"])

        // A checkout as git left it: nothing to put back.
        #expect(try !ModuleCheckoutMove.putBackStopped(at: source, movingTo: destination, outside: outside))
        #expect(try sandbox.git(["config", "--file", config, "core.worktree"]) == before)

        // The first half of a move to plugins/cap: git no longer finds the checkout's files.
        let moving = ModuleCheckoutMove.relativePath(from: gitDirectory, to: destination)
        try sandbox.git(["config", "--file", config, "core.worktree", moving])
        #expect(try sandbox.gitResult(["status", "--porcelain"], in: source).status != 0)
        #expect(try ModuleCheckoutMove.putBackStopped(at: source, movingTo: destination, outside: outside))
        #expect(try sandbox.git(["config", "--file", config, "core.worktree"]) == before)
        #expect(try sandbox.git(["rev-parse", "--show-toplevel"], in: source) == source)
        #expect(try sandbox.git(["status", "--porcelain"], in: source) == "")

        // A value the move did not write is not the move's: left as it is.
        try sandbox.git(["config", "--file", config, "core.worktree", "../../../../elsewhere"])
        #expect(try !ModuleCheckoutMove.putBackStopped(at: source, movingTo: destination, outside: outside))
        #expect(try sandbox.git(["config", "--file", config, "core.worktree"]) == "../../../../elsewhere")
    }
}
