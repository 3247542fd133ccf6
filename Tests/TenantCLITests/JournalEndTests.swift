import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// A run that stops with an error writes how it ended into its journal; when that write fails, the command says so
/// (the original error, and the journal that could not be written, by path) instead of reporting the error alone.
@Suite struct JournalEndTests {
    /// A git in front of the real one that fails the first call holding `push` (status 128, git's fatal error); with
    /// `JOURNAL_BLOCK` set, that call first moves the journal directory aside and puts a file in its place (root
    /// writes through any file mode, so a mode change would not stop the write).
    static func failingGit(_ sandbox: GitSandbox) throws -> String {
        let path = sandbox.environment["PATH"] ?? "/usr/bin:/bin"
        let real = try #require(
            path.split(separator: ":").map { "\($0)/git" }.first { FileManager.default.isExecutableFile(atPath: $0) })
        return try sandbox.writeExecutable(
            "bin/git-fail-push",
            """
            #!/bin/sh
            for word in "$@"; do
                if [ "$word" = push ] && mkdir "$FAIL_MARK" 2>/dev/null; then
                    if [ -n "$JOURNAL_BLOCK" ]; then
                        mv "$JOURNAL_BLOCK" "$JOURNAL_BLOCK.away" && printf 'in the way\\n' > "$JOURNAL_BLOCK"
                    fi
                    echo "git-fail-push: injected failure" >&2
                    exit 128
                fi
            done
            exec '\(real)' "$@"

            """)
    }

    @Test func aJournalThatCannotRecordTheEndIsNamedWithTheError() throws {
        let lab = try FaultLab()
        let git = try Self.failingGit(lab.sandbox)
        for blocked in [false, true] {
            let copy = try lab.copy(blocked ? "blocked" : "writable")
            let journal = "\(copy.workspace)/.git/tenantctl/journal"
            var environment = FaultLab.dates.merging(
                ["TENANTCTL_GIT": git, "FAIL_MARK": copy.root + "/failed-once"]) { $1 }
            if blocked { environment["JOURNAL_BLOCK"] = journal }
            let result = lab.sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: environment)
            #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("injected failure"), "\(result.stderr)")
            if blocked {
                #expect(result.stderr.contains("could not record how the run ended"), "\(result.stderr)")
                #expect(result.stderr.contains(journal + "/"), "\(result.stderr)")
                try FileManager.default.removeItem(atPath: journal)
                try FileManager.default.moveItem(atPath: journal + ".away", toPath: journal)
            } else {
                // The positive control: the end is written, the run ends failed and blocks nothing.
                #expect(!result.stderr.contains("could not record"), "\(result.stderr)")
                let run = try lab.sandbox.lastRun("tag", in: copy.workspace)
                #expect(run["state"] as? String == "failed", "\(run)")
            }
        }
    }
}
