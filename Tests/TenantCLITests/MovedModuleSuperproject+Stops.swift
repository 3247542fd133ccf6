import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// A switch to the release line stopped inside the move of Cap's checkout (deps/cap/src to plugins/cap): the move
/// points `core.worktree` at plugins/cap with a `git config`, renames the directory, then writes its `.git` file,
/// with no git call after the first. A kill as that `git config` ends stops it after its first step; the rename done
/// by hand after that kill is exactly the state a kill after the second step leaves.
extension MovedModuleSuperproject {
    /// The 0-based index, among the calls of an uninterrupted `switch release-1.0` (``switchToTheReleaseLine()``), of
    /// the move's `git config` that points `core.worktree` at plugins/cap.
    func moveConfigWrite() throws -> (calls: [String], write: Int) {
        let (calls, move, _) = try switchToTheReleaseLine()
        let write = try #require(
            calls.indices.first {
                $0 > move && calls[$0].contains(" core.worktree ") && !calls[$0].contains(" --get ")
            },
            "\(calls)")
        return (calls, write)
    }

    /// `switch release-1.0` in `dev` killed as the move's `git config` (0-based call `write`) ends: `core.worktree`
    /// names plugins/cap, the checkout is still at deps/cap/src. `renamed`: then the directory is renamed as the move
    /// does next (the empty directory the superproject's checkout left at plugins/cap replaced), so that the
    /// checkout is at plugins/cap and its `.git` file still names the git directory from deps/cap/src.
    func killInsideTheMove(write: Int, renamed: Bool, label: String) throws {
        let shim = try GitShim(in: sandbox, name: "shim-stop-\(label)")
        let killed = try sandbox.tenantctlProcess(
            ["switch", "release-1.0", "--git", shim.path], in: dev,
            environment: ["SHIM_KILL_AFTER": "\(write + 1)"])
        #expect(killed.status == -SIGKILL, "\(label): \(killed.stderr)")
        let fileManager = FileManager.default
        try #require(fileManager.fileExists(atPath: dev + "/deps/cap/src/.git"), "\(label)")
        try #require(!fileManager.fileExists(atPath: dev + "/plugins/cap/.git"), "\(label)")
        guard renamed else { return }
        let destination = dev + "/plugins/cap"
        if fileManager.fileExists(atPath: destination) {
            try #require(try fileManager.contentsOfDirectory(atPath: destination).isEmpty, "\(label)")
            try fileManager.removeItem(atPath: destination)
        }
        try fileManager.createDirectory(atPath: dev + "/plugins", withIntermediateDirectories: true)
        try fileManager.moveItem(atPath: dev + "/deps/cap/src", toPath: destination)
        // The .git file names the git directory from three levels down, plugins/cap is two: it leads nowhere.
        #expect(try sandbox.gitResult(["status", "--porcelain"], in: destination).status != 0, "\(label)")
    }
}
