import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// RELIABILITY 34 and 57: SIGTERM while a command has a temporary directory and a git child → the child is stopped
/// and reaped, the main thread unwinds (its cleanups run), exit 130 with "interrupted".
@Suite struct SignalCleanupTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        /// A substring of the git call the shim sleeps in (the first one that has it).
        var call: String
        /// The temporary directory that exists during that call.
        var temporary: String
        var testDescription: String { "\(arguments.joined(separator: " ")) at \(call)" }
    }

    @Test(arguments: [
        Case(
            arguments: ["roll", "--jobs", "1"], call: "hash-object -t commit",
            temporary: "tenantctl-commits-"),
        Case(
            arguments: ["customize", "t1", "Article"], call: "hash-object -t commit",
            temporary: "tenantctl-commits-"),
    ])
    func sigtermMidCommandLeavesNoTemporaryDirectoryAndNoChild(_ signalCase: Case) throws {
        let lab = try FaultLab()
        // An uninterrupted run of a copy: the number of the call to sleep in.
        let reference = try lab.copy("reference")
        let referenceShim = try GitShim(in: lab.sandbox, name: "shim-reference")
        let done = try lab.sandbox.tenantctlProcess(
            signalCase.arguments + ["--git", referenceShim.path], in: reference.workspace, environment: FaultLab.dates)
        #expect(done.status == 0, "\(done.stderr)")
        let index = try #require(try referenceShim.calls().firstIndex { $0.contains(signalCase.call) }) + 1

        let copy = try lab.copy("signalled")
        let temporary = lab.sandbox.path("tmp-signalled")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let shim = try GitShim(in: lab.sandbox, name: "shim-signal")
        let run = try BackgroundTenantctl(
            signalCase.arguments + ["--git", shim.path], in: copy.workspace, sandbox: lab.sandbox,
            environment: FaultLab.dates.merging([
                "SHIM_SLEEP_AT": "\(index)", "SHIM_SLEEP_SECONDS": "30", "TMPDIR": temporary + "/",
            ]) { $1 })
        try BackgroundTenantctl.waitForCalls(shim, index)
        // Positive control: the command is inside the call and its temporary directory exists now.
        let during = try FileManager.default.contentsOfDirectory(atPath: temporary)
        #expect(during.contains { $0.hasPrefix(signalCase.temporary) }, "\(during)")
        #expect(!(try lab.processes(mentioning: copy.root + "/").isEmpty))

        kill(run.pid, SIGTERM)
        let result = try #require(run.wait(seconds: 20), "tenantctl did not stop on SIGTERM")
        #expect(result.status == 130, "\(result.stderr)")
        #expect(run.process.terminationReason == .exit)
        #expect(result.stderr.contains("tenantctl: interrupted"), "\(result.stderr)")
        // The next step, only where it is true: a roll stopped before it journalled published nothing.
        if signalCase.arguments.first == "roll" {
            #expect(
                result.stderr.contains("nothing was published; run `tenantctl roll` again"), "\(result.stderr)")
        } else {
            #expect(!result.stderr.contains("published"), "\(result.stderr)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("tenantctl-") }
        #expect(left.isEmpty, "temporary directories left: \(left)")
        #expect(try lab.waitForProcesses(mentioning: copy.root + "/", seconds: 5).isEmpty, "git children left")
        #expect(lab.staleLocks(copy.root).isEmpty, "\(lab.staleLocks(copy.root))")
    }

    /// SIGTERM while roll pushes the superproject, after both module pushes landed: exit 130, and the journal lists
    /// the module pushes as landed and the superproject's as unknown, so `roll --undo` restores exactly what landed.
    @Test func sigtermDuringTheSuperprojectPushLeavesAJournalOfWhatLanded() throws {
        let lab = try FaultLab()
        let reference = try lab.copy("reference")
        let referenceShim = try GitShim(in: lab.sandbox, name: "shim-reference")
        let done = try lab.sandbox.tenantctlProcess(
            ["roll", "--jobs", "1", "--git", referenceShim.path], in: reference.workspace, environment: FaultLab.dates)
        #expect(done.status == 0, "\(done.stderr)")
        let calls = try referenceShim.calls()
        // The superproject's push goes to the remote named origin; the module pushes go to URLs.
        let index = try #require(calls.lastIndex { $0.contains(" push ") && $0.contains(" -- origin ") }) + 1

        let copy = try lab.copy("signalled")
        let before = try lab.remoteRefs(copy.root)
        let shim = try GitShim(in: lab.sandbox, name: "shim-signal")
        let run = try BackgroundTenantctl(
            ["roll", "--jobs", "1", "--git", shim.path], in: copy.workspace, sandbox: lab.sandbox,
            environment: FaultLab.dates.merging(["SHIM_SLEEP_AT": "\(index)", "SHIM_SLEEP_SECONDS": "30"]) { $1 })
        try BackgroundTenantctl.waitForCalls(shim, index)
        kill(run.pid, SIGTERM)
        let result = try #require(run.wait(seconds: 20), "tenantctl did not stop on SIGTERM")
        #expect(result.status == 130, "\(result.stderr)")
        let landed = try lab.remoteRefs(copy.root)
        #expect(landed != before)  // positive control: the module pushes landed
        #expect(landed["Superproject"] == before["Superproject"])

        let directory = "\(copy.workspace)/.git/tenantctl/journal"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
        let runId = String(try #require(files.first).dropLast(".json".count))
        // Something may have been published: the message names the run and how to undo it.
        #expect(
            result.stderr.contains("roll \(runId) may have published part of its changes"), "\(result.stderr)")
        #expect(result.stderr.contains("`tenantctl roll --undo \(runId)`"), "\(result.stderr)")
        let journal = try RollJournal.read(gitDirectory: "\(copy.workspace)/.git", runId: runId)
        let modules = journal.entries.filter { $0.repository != "superproject" }
        #expect(!modules.isEmpty && modules.allSatisfy { $0.published == true }, "\(journal.entries)")
        #expect(journal.entries.filter { $0.repository == "superproject" }.allSatisfy { $0.published == nil })

        let undone = lab.sandbox.tenantctl(["roll", "--undo", runId], in: copy.workspace, environment: FaultLab.dates)
        #expect(undone.status == 0, "\(undone.stdout)\(undone.stderr)")
        #expect(try lab.remoteRefs(copy.root) == before)
    }
}
