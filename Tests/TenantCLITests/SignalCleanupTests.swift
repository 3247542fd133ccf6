import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// SIGTERM while a command has a temporary directory and a git child → the child is stopped
/// and reaped, the main thread unwinds (its cleanups run), exit 130 with "interrupted".
@Suite(.tags(.slow), .notInTheFastSet) struct SignalCleanupTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        /// A substring of the git call the shim sleeps in (the first one that has it).
        var call: String
        /// The temporary directory that exists during that call (nil: the command has none).
        var temporary: String?
        /// Whether the copy needs a module remote `Invoice.git` (for `module add`).
        var invoiceRemote = false
        var testDescription: String { "\(arguments.joined(separator: " ")) at \(call)" }
    }

    @Test(arguments: [
        // roll and customize write their commits through fast-import's standard input: no temporary directory.
        Case(arguments: ["roll", "--jobs", "1"], call: "fast-import", temporary: nil),
        Case(arguments: ["customize", "t1", "Article"], call: "fast-import", temporary: nil),
        // module add edits .gitmodules with `git config --file` on a temporary copy: signalled in a call on it.
        Case(
            arguments: ["module", "add", "Invoice", "--url", "../Invoice.git"], call: "tenantctl-gitmodules-",
            temporary: "tenantctl-gitmodules-", invoiceRemote: true),
    ])
    func sigtermMidCommandLeavesNoTemporaryDirectoryAndNoChild(_ signalCase: Case) throws {
        let lab = try FaultLab()
        // An uninterrupted run of a copy: the number of the call to sleep in.
        let reference = try lab.copy("reference")
        if signalCase.invoiceRemote { try Self.invoiceRemote(reference.remotes, lab: lab) }
        let (done, calls) = try lab.runShimmed(signalCase.arguments, in: reference, environment: FaultLab.dates)
        #expect(done.status == 0, "\(done.stderr)")
        let index = try #require(calls.firstIndex { $0.contains(signalCase.call) }) + 1

        let copy = try lab.copy("signalled")
        if signalCase.invoiceRemote { try Self.invoiceRemote(copy.remotes, lab: lab) }
        let temporary = lab.sandbox.path("tmp-signalled")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let run = try lab.terminate(
            signalCase.arguments, in: copy, at: index,
            environment: FaultLab.dates.merging(["TMPDIR": temporary + "/"]) { $1 }
        ) {
            // Positive control: the command is inside the call and its temporary directory exists now.
            if let expected = signalCase.temporary {
                let during = try FileManager.default.contentsOfDirectory(atPath: temporary)
                #expect(during.contains { $0.hasPrefix(expected) }, "\(during)")
            }
            // (The git child runs in the copy, or on a file in the temporary directory: `config --file`.)
            let inCopy = try lab.processes(mentioning: copy.root + "/")
            let onTemporary = try lab.processes(mentioning: temporary + "/")
            #expect(!inCopy.isEmpty || !onTemporary.isEmpty)
        }
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
        #expect(try lab.waitForProcesses(mentioning: temporary + "/", seconds: 5).isEmpty, "git children left")
        #expect(lab.staleLocks(copy.root).isEmpty, "\(lab.staleLocks(copy.root))")
    }

    /// A module remote `Invoice.git` with a general_dev branch in `remotes`.
    static func invoiceRemote(_ remotes: String, lab: FaultLab) throws {
        let source = remotes + "/../invoice-src"
        try lab.sandbox.git(["init", "-q", "-b", "general_dev", source])
        try "// invoice\n".write(toFile: source + "/Invoice.swift", atomically: true, encoding: .utf8)
        try lab.sandbox.git(["add", "-A"], in: source)
        try lab.sandbox.git(["commit", "-q", "-m", "Invoice"], in: source)
        try lab.sandbox.git(["clone", "-q", "--bare", source, remotes + "/Invoice.git"])
    }

    /// SIGTERM while roll pushes the superproject, after both module pushes landed: exit 130, and the journal lists
    /// the module pushes as landed and the superproject's as unknown, so `roll --undo` restores exactly what landed.
    @Test func sigtermDuringTheSuperprojectPushLeavesAJournalOfWhatLanded() throws {
        let lab = try FaultLab()
        let (done, calls) = try lab.runShimmed(
            ["roll", "--jobs", "1"], in: try lab.copy("reference"), environment: FaultLab.dates)
        #expect(done.status == 0, "\(done.stderr)")
        let index = try FaultLab.superprojectPush(in: calls)

        let copy = try lab.copy("signalled")
        let before = try lab.remoteRefs(copy.root)
        let run = try lab.terminate(["roll", "--jobs", "1"], in: copy, at: index, environment: FaultLab.dates)
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
