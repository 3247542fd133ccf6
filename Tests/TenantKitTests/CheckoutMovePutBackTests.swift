import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantTransaction

/// A module checkout move that stopped between its steps: `core.worktree` is pointed at the new path, the directory
/// renamed, the `.git` file written again, with no git call between them. Stopped after the first, `core.worktree`
/// already names the new path while the directory is still at the old one; stopped after the second, the directory is
/// at the new path and its `.git` file still names the git directory from the old one. Either way git finds no
/// working tree for the checkout. The repair points the wrong pointer at where the checkout is; a checkout as git
/// left it, or a pointer the move did not write, is left as it is. (The same stops, with a killed switch, are
/// `SwitchStepRecoveryTests`; after `runs --forget`, `RunsForgetSwitchTests`.)
@Suite struct CheckoutMovePutBackTests {
    /// A superproject `app` with a submodule at `deps/cap`; its git directory and `core.worktree` as git wrote it.
    struct Checkout {
        let sandbox: GitSandbox
        let app: String
        let source: String
        let gitDirectory: String
        let config: String
        let worktree: String
        let outside: GitRepository

        init() throws {
            sandbox = try GitSandbox()
            let lib = try sandbox.makeRepository("lib")
            app = try sandbox.makeRepository("app")
            try sandbox.git(["submodule", "add", "-q", lib, "deps/cap"], in: app)
            try sandbox.git(["commit", "-q", "-m", "cap"], in: app)
            source = app + "/deps/cap"
            outside = try sandbox.gitRunner().repository(at: app)
            gitDirectory = try sandbox.git(["rev-parse", "--absolute-git-dir"], in: source)
            config = gitDirectory + "/config"
            worktree = try sandbox.git(["config", "--file", config, "core.worktree"])
        }

        /// `core.worktree` now.
        func worktreeNow() throws -> String { try sandbox.git(["config", "--file", config, "core.worktree"]) }

        /// The first step of a move to `destination`: `core.worktree` names it.
        func pointAt(_ destination: String) throws {
            try sandbox.git(
                [
                    "config", "--file", config, "core.worktree",
                    StoppedCheckoutMove.relativePath(from: gitDirectory, to: destination),
                ])
        }

        /// The second step of a move to `destination`: the directory renamed there.
        func rename(to destination: String) throws {
            try FileManager.default.createDirectory(
                atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: source, toPath: destination)
        }
    }

    @Test func aMoveStoppedAfterItsConfigWriteIsPutBackAndNothingElseIs() throws {
        let checkout = try Checkout()
        let sandbox = checkout.sandbox
        let source = checkout.source
        let destination = checkout.app + "/plugins/cap"

        // A checkout as git left it: nothing to put back.
        #expect(try StoppedCheckoutMove.repair(between: source, and: destination, outside: checkout.outside) == nil)
        #expect(try checkout.worktreeNow() == checkout.worktree)

        // The first half of a move to plugins/cap: git no longer finds the checkout's files.
        try checkout.pointAt(destination)
        #expect(try sandbox.gitResult(["status", "--porcelain"], in: source).status != 0)
        #expect(
            try StoppedCheckoutMove.repair(between: source, and: destination, outside: checkout.outside)
                == .worktreePointedBack(checkout: source, gitDirectory: checkout.gitDirectory))
        #expect(try checkout.worktreeNow() == checkout.worktree)
        #expect(try sandbox.git(["rev-parse", "--show-toplevel"], in: source) == source)
        #expect(try sandbox.git(["status", "--porcelain"], in: source) == "")

        // A value the move did not write is not the move's: left as it is.
        try sandbox.git(["config", "--file", checkout.config, "core.worktree", "../../../../elsewhere"])
        #expect(try StoppedCheckoutMove.repair(between: source, and: destination, outside: checkout.outside) == nil)
        #expect(try checkout.worktreeNow() == "../../../../elsewhere")
    }

    /// Stopped after the rename, to a path at another depth (so that the `.git` file's relative path leads nowhere):
    /// the `.git` file is written for the new place, the user's edit in the checkout is untouched, and git works
    /// there again. Controls: a `core.worktree` naming neither path, and a checkout left at the old path too, are
    /// not the move's: nothing is changed.
    @Test func aMoveStoppedAfterItsRenameIsFinishedAndNothingElseIs() throws {
        let checkout = try Checkout()
        let sandbox = checkout.sandbox
        let source = checkout.source
        let destination = checkout.app + "/plugins/more/cap"
        let dotGit = destination + "/.git"
        try checkout.pointAt(destination)
        try checkout.rename(to: destination)
        let stale = try String(contentsOfFile: dotGit, encoding: .utf8)
        try "mine\n".write(toFile: destination + "/README", atomically: true, encoding: .utf8)
        #expect(try sandbox.gitResult(["status", "--porcelain"], in: destination).status != 0)

        // Control: core.worktree names neither path: not the move's.
        try sandbox.git(["config", "--file", checkout.config, "core.worktree", "../../../../elsewhere"])
        #expect(try StoppedCheckoutMove.repair(between: source, and: destination, outside: checkout.outside) == nil)
        #expect(try String(contentsOfFile: dotGit, encoding: .utf8) == stale)

        // Control: something with a .git at the old path: not the move's either.
        try checkout.pointAt(destination)
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        try "gitdir: elsewhere\n".write(toFile: source + "/.git", atomically: true, encoding: .utf8)
        #expect(try StoppedCheckoutMove.repair(between: source, and: destination, outside: checkout.outside) == nil)
        #expect(try String(contentsOfFile: dotGit, encoding: .utf8) == stale)
        try FileManager.default.removeItem(atPath: source)

        #expect(
            try StoppedCheckoutMove.repair(between: source, and: destination, outside: checkout.outside)
                == .gitFileRewritten(checkout: destination, gitDirectory: checkout.gitDirectory))
        #expect(try sandbox.git(["rev-parse", "--show-toplevel"], in: destination) == destination)
        #expect(try sandbox.git(["rev-parse", "--absolute-git-dir"], in: destination) == checkout.gitDirectory)
        #expect(try sandbox.git(["status", "--porcelain"], in: destination) == " M README")
        #expect(try String(contentsOfFile: destination + "/README", encoding: .utf8) == "mine\n")
        // Done once: a second look finds nothing to do.
        #expect(try StoppedCheckoutMove.repair(between: source, and: destination, outside: checkout.outside) == nil)
    }
}
