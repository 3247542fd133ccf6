import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// A tenantctl process started in the background (for signals and concurrent runs).
final class BackgroundTenantctl: @unchecked Sendable {
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let collected = DispatchGroup()
    nonisolated(unsafe) private var stdoutData = Data()
    nonisolated(unsafe) private var stderrData = Data()

    init(_ arguments: [String], in directory: String, sandbox: GitSandbox, environment: [String: String]) throws {
        let binary = try #require(TenantctlBinary.path(), "the tenantctl executable is not built")
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = sandbox.environment.merging(environment) { $1 }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let out = output.fileHandleForReading
        let err = errors.fileHandleForReading
        DispatchQueue.global().async(group: collected) { self.stdoutData = out.readDataToEndOfFile() }
        DispatchQueue.global().async(group: collected) { self.stderrData = err.readDataToEndOfFile() }
    }

    var pid: Int32 { process.processIdentifier }

    /// Waits for the exit (at most `seconds`); returns status, stdout, stderr, or nil on a timeout.
    func wait(seconds: Double = 60) -> CLIResult? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else { return nil }
        collected.wait()
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// Waits until the shim has logged `count` calls.
    static func waitForCalls(_ shim: GitShim, _ count: Int, seconds: Double = 60) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try shim.calls().count < count {
            try #require(Date() < deadline, "the shim never reached call \(count)")
            usleep(20_000)
        }
    }
}

/// SIGINT/SIGTERM during a roll; two rolls at once.
@Suite(.tags(.slow), .notInTheFastSet) struct SignalConcurrencyTests {
    /// The first call index of `subcommand` in an uninterrupted roll of a copy, and that roll's remote end state.
    static func reference(_ lab: FaultLab, _ subcommand: String) throws -> (
        index: Int, after: [String: [String: String]]
    ) {
        let copy = try lab.copy("reference")
        let shim = try GitShim(in: lab.sandbox, name: "shim-reference")
        let result = lab.sandbox.tenantctl(
            ["roll", "--jobs", "1", "--git", shim.path], in: copy.workspace, environment: FaultLab.dates)
        #expect(result.status == 0, "\(result.stderr)")
        let index = try #require(try shim.calls().firstIndex { FaultLab.subcommand($0) == subcommand })
        return (index + 1, try lab.remoteRefs(copy.root))
    }

    struct SignalCase: Sendable, CustomTestStringConvertible {
        var signal: Int32
        var name: String
        var at: String
        var testDescription: String { "\(name) at the first \(at)" }
    }

    @Test(arguments: [
        SignalCase(signal: SIGINT, name: "SIGINT", at: "push"),
        SignalCase(signal: SIGTERM, name: "SIGTERM", at: "merge-tree"),
    ])
    func aSignalStopsGitChildrenExits130AndARerunConverges(_ signalCase: SignalCase) throws {
        let lab = try FaultLab()
        let reference = try Self.reference(lab, signalCase.at)
        let copy = try lab.copy("signalled")
        let before = try lab.remoteRefs(copy.root)
        let shim = try GitShim(in: lab.sandbox, name: "shim-signal")
        let run = try BackgroundTenantctl(
            ["roll", "--jobs", "1", "--git", shim.path], in: copy.workspace, sandbox: lab.sandbox,
            environment: FaultLab.dates.merging([
                "SHIM_SLEEP_AT": "\(reference.index)", "SHIM_SLEEP_SECONDS": "30",
            ]) { $1 })
        try BackgroundTenantctl.waitForCalls(shim, reference.index)
        // The long-lived cat-file --batch of the superproject is running now, next to the sleeping call.
        #expect(try lab.processes(mentioning: copy.root + "/").count >= 2)
        kill(run.pid, signalCase.signal)
        let result = try #require(run.wait(seconds: 20), "tenantctl did not stop on \(signalCase.name)")
        #expect(result.status == 130, "\(result.stderr)")
        #expect(run.process.terminationReason == .exit)
        #expect(result.stderr.contains("interrupted"))
        #expect(try lab.waitForProcesses(mentioning: copy.root + "/", seconds: 5).isEmpty, "git children left")
        #expect(lab.staleLocks(copy.root).isEmpty, "\(lab.staleLocks(copy.root))")
        #expect(try lab.remoteRefs(copy.root) == before)
        // The lock is not held: this process can take it.
        let lock = try WorkspaceLock(gitDirectory: copy.workspace + "/.git")
        lock.release()

        let rerun = lab.sandbox.tenantctl(["roll"], in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try lab.remoteRefs(copy.root) == reference.after)
    }

    @Test func aSecondRollFailsFastNamingTheHolderAndWaitWaits() throws {
        let lab = try FaultLab()
        let reference = try Self.reference(lab, "merge-tree")
        let copy = try lab.copy("concurrent")
        // The first roll holds the lock and stops at its first merge-tree until the test opens the gate, so "fails
        // fast" means: ends while the holder is still stopped (no clock involved).
        let gate = lab.sandbox.path("gate")
        let gated = try lab.sandbox.writeExecutable(
            "bin/gated-git",
            """
            #!/bin/sh
            case " $* " in
            *" merge-tree "*) while [ ! -e '\(gate)' ]; do sleep 0.05; done;;
            esac
            exec git "$@"

            """)
        let shim = try GitShim(in: lab.sandbox, name: "shim-first", realGit: gated)
        let first = try BackgroundTenantctl(
            ["roll", "--jobs", "1", "--git", shim.path], in: copy.workspace, sandbox: lab.sandbox,
            environment: FaultLab.dates)
        try BackgroundTenantctl.waitForCalls(shim, reference.index)

        let secondShim = try GitShim(in: lab.sandbox, name: "shim-second")
        let secondRun = try BackgroundTenantctl(
            ["roll", "--git", secondShim.path], in: copy.workspace, sandbox: lab.sandbox,
            environment: FaultLab.dates)
        let second = try #require(secondRun.wait(), "the second roll waited for the lock without --wait")
        #expect(first.process.isRunning, "the first roll is still stopped at the gate")
        #expect(second.status == 1, "\(second.stderr)")
        #expect(second.stderr.contains("process \(first.pid)"), "\(second.stderr)")
        #expect(second.stderr.contains("--wait"))
        let secondCalls = try secondShim.calls()
        #expect(!secondCalls.isEmpty, "the second roll did not use its shim")
        #expect(!secondCalls.contains { $0.contains(" fetch ") }, "fetched without the lock: \(secondCalls)")

        let waiting = try BackgroundTenantctl(
            ["roll", "--wait"], in: copy.workspace, sandbox: lab.sandbox, environment: FaultLab.dates)
        try LockOptionsTests.waitUntilBlockedOnLock(waiting)
        #expect(first.process.isRunning && waiting.process.isRunning)
        #expect(FileManager.default.createFile(atPath: gate, contents: nil))
        let firstResult = try #require(first.wait(), "the first roll did not finish")
        #expect(firstResult.status == 0, "\(firstResult.stderr)")
        let waited = try #require(waiting.wait(), "the waiting roll did not finish")
        #expect(waited.status == 0, "\(waited.stderr)")
        #expect(waited.stdout.contains("0 rolled, 3 up to date"), "\(waited.stdout)")
        #expect(try lab.remoteRefs(copy.root) == reference.after)
    }

    @Test func twoClonesRollingAtOnceTheLoserIsRejectedAndConverges() throws {
        let fixture = try RollFixture()
        let sandbox = fixture.sandbox
        let before = try fixture.remoteBranches()
        let other = sandbox.path("other-clone")
        try sandbox.git(["clone", "-q", "-b", "general_dev", fixture.remote("Superproject"), other])
        let binary = try #require(TenantctlBinary.path())
        // When this clone's roll starts publishing, the other clone rolls completely (other dates: other commits).
        let marker = sandbox.path("other-rolled")
        let shim = try sandbox.writeExecutable(
            "bin/other-rolls-first",
            """
            #!/bin/sh
            case " $* " in
            *" push "*)
                if [ ! -e '\(marker)' ]; then
                    (cd '\(other)' && GIT_AUTHOR_DATE='1700000500 +0000' GIT_COMMITTER_DATE='1700000500 +0000' \\
                        '\(binary)' roll) > '\(marker)' 2>&1
                    echo "exit $?" >> '\(marker)'
                fi;;
            esac
            exec git "$@"

            """)
        // One module push at a time, so that the other clone's roll lands before any of this clone's pushes.
        let loser = fixture.roll(["--git", shim, "--json", "--jobs", "1"])
        let otherLog = try String(contentsOfFile: marker, encoding: .utf8)
        #expect(otherLog.hasSuffix("exit 0\n"), "\(otherLog)")
        #expect(loser.status == 2, "\(loser.stderr)")
        let report = try JSONDecoder().decode(RollReport.self, from: Data(loser.stdout.utf8))
        #expect(report.pushes.allSatisfy { !$0.accepted }, "\(report.pushes)")
        #expect(report.tenants.allSatisfy { $0.status == "rejected" })
        let winner = try fixture.remoteBranches()
        #expect(winner != before)

        // The loser's re-run converges on the winner's result: nothing to do, nothing duplicated.
        let rerun = fixture.roll()
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.contains("0 rolled, 3 up to date"), "\(rerun.stdout)")
        #expect(try fixture.remoteBranches() == winner)
        try ServerFaultTests.expectConverged(fixture, before: before)
    }
}
