import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// `pin --push` when a colleague pushed to a module branch it would push: the branch is behind its remote, so its
/// push would be refused after the earlier module pushes landed. The pre-flight finds it after its fetch and refuses
/// before any write, naming the module, the branch and the merge that fixes it (run as printed); without the
/// colleague's push the same pin publishes.
@Suite(.tags(.slow), .notInTheFastSet) struct PinBehindRemoteTests {
    /// A copy on t2 with a new commit in each module t2 customises (Infrastructure, then Customer in manifest
    /// order); with `colleague`, someone else has pushed a commit to Customer's t2 meanwhile.
    static func copyWithCommits(_ lab: FaultLab, _ name: String, colleague: Bool) throws -> FaultLab.Copy {
        let copy = try lab.copy(name)
        let switched = lab.sandbox.tenantctl(["switch", "t2"], in: copy.workspace)
        try #require(switched.status == 0, "\(switched.stderr)")
        for module in ["Infrastructure", "Customer"] {
            try lab.sandbox.commit(
                in: "\(name)/workspace/Modules/\(module)", file: "Mine.swift", content: "// mine\n",
                message: "my \(module) work")
        }
        guard colleague else { return copy }
        let url = try lab.sandbox.git(["remote", "get-url", "origin"], in: copy.workspace + "/Modules/Customer")
        let clone = lab.sandbox.path("\(name)-colleague")
        try lab.sandbox.git(["clone", "-q", "--branch", "t2", url, clone])
        try lab.sandbox.commit(
            in: "\(name)-colleague", file: "Theirs.swift", content: "// theirs\n", message: "colleague's work")
        try lab.sandbox.git(["push", "-q", "origin", "t2"], in: clone)
        return copy
    }

    @Test func aModuleBranchBehindItsRemoteIsRefusedBeforeAnyPushWithTheMergeThatFixesIt() throws {
        let lab = try FaultLab()
        let copy = try Self.copyWithCommits(lab, "behind", colleague: true)
        let before = try lab.remoteRefs(copy.root)
        let refused = lab.sandbox.tenantctl(["pin", "--push"], in: copy.workspace, environment: FaultLab.dates)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("Customer") && refused.stderr.contains("behind origin/t2"), "\(refused.stderr)")
        // Nothing was pushed (not even Infrastructure, which comes first), and no run is left unfinished.
        #expect(try lab.remoteRefs(copy.root) == before)
        #expect(try RunJournal.unfinished(gitDirectory: copy.workspace + "/.git").isEmpty)
        // The printed merge runs as printed, and then the pin publishes both modules and the pin commit.
        let commands = refused.stderr.components(separatedBy: "`").filter {
            $0.hasPrefix("git -C") || $0.hasPrefix("tenantctl pin")
        }
        try #require(commands.count == 2, "\(refused.stderr)")
        let merged = try PinConvergenceTests.runPrinted(commands[0], in: copy.workspace, lab: lab)
        #expect(merged.status == 0, "\(commands[0]): \(merged.stderr)")
        let pin = lab.sandbox.tenantctl(
            commands[1].split(separator: " ").dropFirst().map(String.init), in: copy.workspace,
            environment: FaultLab.dates)
        #expect(pin.status == 0, "\(pin.stderr)")
        let customer = try lab.sandbox.git(["rev-parse", "HEAD"], in: copy.workspace + "/Modules/Customer")
        let superRemote = copy.remotes + "/Superproject.git"
        let tip = try lab.sandbox.git(["rev-parse", "refs/heads/t2"], in: superRemote)
        #expect(try lab.sandbox.git(["rev-parse", "\(tip):Modules/Customer"], in: superRemote) == customer)
    }

    /// Positive control: nobody pushed, the same pin publishes at once.
    @Test func aModuleBranchNotBehindIsPushed() throws {
        let lab = try FaultLab()
        let copy = try Self.copyWithCommits(lab, "control", colleague: false)
        let pin = lab.sandbox.tenantctl(["pin", "--push"], in: copy.workspace, environment: FaultLab.dates)
        #expect(pin.status == 0, "\(pin.stderr)")
        let customer = try lab.sandbox.git(["rev-parse", "HEAD"], in: copy.workspace + "/Modules/Customer")
        let superRemote = copy.remotes + "/Superproject.git"
        let tip = try lab.sandbox.git(["rev-parse", "refs/heads/t2"], in: superRemote)
        #expect(try lab.sandbox.git(["rev-parse", "\(tip):Modules/Customer"], in: superRemote) == customer)
    }
}
