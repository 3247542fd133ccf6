import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// The journal records every push's outcome as it lands, and `roll --undo` restores exactly what landed
/// (a module push that fails after another landed; a hook's message reaches the user).
@Suite struct RollJournalTests {
    static func hook(_ fixture: RollFixture, _ repository: String, _ name: String, _ body: String) throws {
        let path = "\(fixture.remote(repository))/hooks/\(name)"
        _ = try fixture.sandbox.writeExecutable(
            String(path.dropFirst(fixture.sandbox.root.count + 1)), "#!/bin/sh\n\(body)\n")
    }

    static func journal(_ fixture: RollFixture, runId: String) throws -> RollJournal {
        try RollJournal.read(gitDirectory: "\(fixture.workspace)/.git", runId: runId)
    }

    /// Order's remote refuses (pre-receive hook with a message); Infrastructure's push lands. The journal says so per
    /// ref, the hook's own words reach the report, and undo puts back exactly the refs that landed.
    @Test func aRejectedModulePushIsJournalledAndUndoRestoresWhatLanded() throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        try Self.hook(fixture, "Order", "pre-receive", "echo 'Order is closed for maintenance' >&2; exit 1")
        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stderr)")
        let report = try JSONDecoder().decode(RollReport.self, from: Data(result.stdout.utf8))
        let orderPush = try #require(report.pushes.first { $0.repository == "Order" })
        #expect(!orderPush.accepted)
        #expect(orderPush.remoteMessages == ["Order is closed for maintenance"])
        #expect(orderPush.detail.contains("Order is closed for maintenance"), "\(orderPush.detail)")
        let t3 = try #require(report.tenants.first { $0.id == "t3" })
        #expect(t3.rejected?.contains("Order is closed for maintenance") == true, "\(t3.rejected ?? "")")

        let runId = try #require(report.runId)
        let journal = try Self.journal(fixture, runId: runId)
        func published(_ repository: String, _ branch: String) -> Bool?? {
            journal.entries.first { $0.repository == repository && $0.ref == "refs/heads/\(branch)" }.map(\.published)
        }
        #expect(published("Infrastructure", "t2") == .some(true))
        #expect(published("Order", "t3") == .some(false))
        #expect(published("superproject", "t1") == .some(true))
        #expect(published("superproject", "t3") == .some(false))
        let after = try fixture.remoteBranches()
        #expect(after["Infrastructure"] != before["Infrastructure"])  // positive control: something landed

        let undone = fixture.roll(["--undo", runId])
        #expect(undone.status == 0, "\(undone.stdout)\(undone.stderr)")
        #expect(try fixture.remoteBranches() == before)
        #expect(try Self.journal(fixture, runId: runId).undoneAt != nil)
    }

    /// Infrastructure's push breaks off with no per-ref answer (its remote's reference-transaction hook aborts), after
    /// Order's push landed. Before the fix the journal was never rewritten and undo said "published nothing" while
    /// Order's t3 had moved on its remote.
    @Test func aPushThatBreaksOffLeavesAJournalThatUndoesTheLandedOnes() throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        try Self.hook(
            fixture, "Infrastructure", "reference-transaction",
            "if [ \"$1\" = prepared ]; then echo 'refs are read-only today' >&2; exit 1; fi")
        let result = fixture.roll()
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("refs are read-only today"), "\(result.stderr)")
        let after = try fixture.remoteBranches()
        #expect(after["Order"] != before["Order"])  // Order's push landed
        #expect(after["Infrastructure"] == before["Infrastructure"])
        #expect(after["Superproject"] == before["Superproject"])

        let directory = "\(fixture.workspace)/.git/tenantctl/journal"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
        #expect(files.count == 1)
        let runId = String(try #require(files.first).dropLast(".json".count))
        let journal = try Self.journal(fixture, runId: runId)
        #expect(journal.entries.first { $0.repository == "Order" }?.published == true)
        #expect(journal.entries.filter { $0.repository == "superproject" }.allSatisfy { $0.published == nil })

        let undone = fixture.roll(["--undo", runId])
        #expect(undone.status == 0, "\(undone.stdout)\(undone.stderr)")
        #expect(try fixture.remoteBranches() == before)
    }

    /// The disk holding the journal fills up while Infrastructure's push lands (its remote's pre-receive hook fills
    /// a small tmpfs mounted on the journal directory), so the journal cannot be written. Before the fix: a raw
    /// Foundation error, a 0-byte `<run>.json.tmp` left behind, no word of what was pushed, and Order pushed after
    /// it unrecorded. Now: a message naming the reason and what already landed, no temporary file, no push after
    /// it; once space is free each printed way on runs as printed: the re-run converges, or the undo puts every
    /// remote back. Skipped, saying so, where no tmpfs can be mounted (not root).
    @Test(arguments: ["rerun", "undo"])
    func aFullDiskWhileTheJournalIsWrittenSaysWhatWasPushedAndTheRerunConverges(ending: String) throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        let directory = "\(fixture.workspace)/.git/tenantctl/journal"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let mounted = try fixture.sandbox.run("/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", directory])
        guard mounted.status == 0 else {
            print("journal disk-full test skipped: cannot mount a tmpfs here (\(mounted.stderr))")
            return
        }
        defer { _ = try? fixture.sandbox.run("/bin/umount", [directory]) }
        let filler = "\(directory)/filler"
        // The journal's last page is filled up first (with empty lines, which a reader skips): a step appended
        // into the room left on a page already held would still fit on a full disk.
        try Self.hook(
            fixture, "Infrastructure", "pre-receive",
            "for f in '\(directory)'/*.json; do s=$(wc -c < \"$f\"); p=$(( (4096 - s % 4096) % 4096 )); "
                + "head -c $p /dev/zero | tr '\\0' '\\n' >> \"$f\"; done; "
                + "dd if=/dev/zero of='\(filler)' bs=4096 2>/dev/null; exit 0")

        let result = fixture.roll(["--jobs", "1"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains("Error Domain="), "\(result.stderr)")
        #expect(result.stderr.contains("cannot record the roll's pushes in its journal"), "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
        #expect(result.stderr.contains("already pushed: Infrastructure (t2)"), "\(result.stderr)")
        #expect(!result.stderr.contains("pushing 1 branch of Order"), "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(!files.contains { $0.hasSuffix(".tmp") }, "\(files)")
        #expect(files.filter { $0.hasSuffix(".json") }.count == 1, "\(files)")
        let after = try fixture.remoteBranches()
        #expect(after["Infrastructure"]?["t2"] != before["Infrastructure"]?["t2"])  // it landed
        #expect(after["Order"] == before["Order"])  // nothing pushed after it
        #expect(after["Superproject"] == before["Superproject"])

        try FileManager.default.removeItem(atPath: filler)
        try FileManager.default.removeItem(atPath: "\(fixture.remote("Infrastructure"))/hooks/pre-receive")
        if ending == "rerun" {
            #expect(result.stderr.contains("then run `tenantctl roll` again"), "\(result.stderr)")
            try ServerFaultTests.expectConverged(fixture, before: before)
        } else {
            let range = try #require(result.stderr.range(of: "or take it back with `"))
            let command = String(result.stderr[range.upperBound...].prefix { $0 != "`" })
            #expect(command.hasPrefix("tenantctl roll --undo "), "\(command)")
            let undone = fixture.sandbox.tenantctl(
                command.split(separator: " ").dropFirst().map(String.init), in: fixture.workspace)
            #expect(undone.status == 0, "\(command): \(undone.stdout)\(undone.stderr)")
            #expect(try fixture.remoteBranches() == before)
        }
    }

    /// A stand-in for git that passes every call to git, except the ref updates in a module mirror: the first, the
    /// mirror's record of its push, fails, so that the mirror tries again beside the superproject's push, the roll's
    /// last step before its journal's end (a mirror that records its push as it lands leaves nothing for after the
    /// superproject's push). At the first one after the superproject's push, with `BREAK_JOURNAL=1`, it first puts a
    /// file where the journal directory was (so no journal can be written, not even by root), then fails the update
    /// (`MIRROR_FAILS=1`) or runs it.
    static func journalBreakingGit(_ fixture: RollFixture) throws -> String {
        let real = try fixture.sandbox.run("/bin/sh", ["-c", "command -v git"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let directory = "\(fixture.workspace)/.git/tenantctl/journal"
        let pushed = fixture.sandbox.path("superproject-pushed")
        let failedOnce = fixture.sandbox.path("mirror-failed-once")
        return try fixture.sandbox.writeExecutable(
            "bin/git-journal-breaker",
            """
            #!/bin/sh
            case " $* " in
            " -C \(fixture.workspace) -c "*" push --atomic "*) touch '\(pushed)' ;;
            *"/tenantctl/mirrors/"*" update-ref --stdin "*)
                if [ -f '\(pushed)' ]; then
                    rm -f '\(pushed)'
                    if [ "$BREAK_JOURNAL" = 1 ]; then
                        mv '\(directory)' '\(directory).away' && echo 'not a directory' > '\(directory)'
                    fi
                    if [ "$MIRROR_FAILS" = 1 ]; then echo 'fatal: injected: the mirror is locked' >&2; exit 128; fi
                elif [ ! -f '\(failedOnce)' ]; then
                    touch '\(failedOnce)'
                    echo 'fatal: injected: the record as the push landed' >&2
                    exit 128
                fi ;;
            esac
            exec '\(real)' "$@"
            """)
    }

    /// The roll's last step fails (the mirrors' bookkeeping) or succeeds, and then its journal cannot be written:
    /// the end of the run is not swallowed. The error names what stopped the roll, the journal file and what
    /// landed, and the printed re-run (once the journal can be written) finishes it. The positive control: with
    /// the journal writable, the failed run ends `failed` in its journal, with the mirror's failure.
    @Test(arguments: ["failed", "finished"])
    func aJournalThatCannotRecordTheRunsEndIsReported(ending: String) throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        let git = try Self.journalBreakingGit(fixture)
        let directory = "\(fixture.workspace)/.git/tenantctl/journal"
        let mirrorFails = ending == "failed" ? "1" : "0"
        if ending == "failed" {
            let control = try RollFixture()
            let controlGit = try Self.journalBreakingGit(control)
            let result = control.roll(
                ["--jobs", "1", "--git", controlGit], environment: ["MIRROR_FAILS": "1", "BREAK_JOURNAL": "0"])
            #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("injected: the mirror is locked"), "\(result.stderr)")
            let runs = try FileManager.default.contentsOfDirectory(
                atPath: "\(control.workspace)/.git/tenantctl/journal"
            )
            .filter { $0.hasSuffix(".json") }
            #expect(runs.count == 1, "\(runs)")
            let runId = String(try #require(runs.first).dropLast(".json".count))
            let journal = try Self.journal(control, runId: runId)
            #expect(journal.state == .failed)
            #expect(journal.error?.contains("injected: the mirror is locked") == true, "\(journal.error ?? "")")
        }

        let result = fixture.roll(
            ["--jobs", "1", "--git", git], environment: ["MIRROR_FAILS": mirrorFails, "BREAK_JOURNAL": "1"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(directory).away"), "the fault was not injected")
        let runs = try FileManager.default.contentsOfDirectory(atPath: "\(directory).away")
            .filter { $0.hasSuffix(".json") }
        #expect(runs.count == 1, "\(runs)")
        let runId = String(try #require(runs.first).dropLast(".json".count))
        #expect(result.stderr.contains("cannot record the end of roll \(runId) in its journal"), "\(result.stderr)")
        #expect(result.stderr.contains("cannot write \(directory)/\(runId).json"), "\(result.stderr)")
        if ending == "failed" {
            #expect(result.stderr.contains("injected: the mirror is locked"), "\(result.stderr)")
        }
        #expect(result.stderr.contains("already pushed: "), "\(result.stderr)")
        #expect(result.stderr.contains("`tenantctl roll --undo \(runId)`"), "\(result.stderr)")
        #expect(try fixture.remoteBranches() != before)  // the pushes landed

        // The journal becomes writable again: the run it kept is unfinished, and the printed re-run finishes it.
        try FileManager.default.removeItem(atPath: directory)
        try FileManager.default.moveItem(atPath: "\(directory).away", toPath: directory)
        #expect(try Self.journal(fixture, runId: runId).state == .running)
        #expect(result.stderr.contains("run `tenantctl roll` again"), "\(result.stderr)")
        try ServerFaultTests.expectConverged(fixture, before: before)
        #expect(try Self.journal(fixture, runId: runId).state == .finished)
    }
}
