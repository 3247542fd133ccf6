import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// A resolution is a run like any other: killed, `tenantctl runs` lists it unfinished with `runs --abort <id>` among
/// its ways out, and that abort puts back only what is still as the resolution left it, keeping the user's edit.
@Suite(.tags(.slow), .notInTheFastSet) struct ResolveRunsAbortTests {
    @Test func aKilledResolveIsTakenBackByRunsAbortKeepingTheUsersEdit() throws {
        let lab = try FaultLab(stage: .conflict)
        let rolled = lab.sandbox.tenantctl(["roll"], in: "\(lab.template)/workspace", environment: FaultLab.dates)
        #expect(rolled.status == 2, "\(rolled.stdout)\(rolled.stderr)")
        let probe = try lab.copy("probe")
        let (started, calls) = try lab.runShimmed(["resolve", "t2"], in: probe, environment: FaultLab.dates)
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        // Killed before its last merge: the switch and the merges before it landed.
        let merge = try #require(calls.lastIndex { FaultLab.subcommand($0) == "merge" }) + 1
        let copy = try lab.copy("killed")
        let before = try lab.workingCopy(copy.root)
        try lab.runKilled(["resolve", "t2"], in: copy, at: merge, environment: FaultLab.dates)
        let id = try RunWaysOutTests.lastRunId(lab, "resolve", in: copy.workspace)
        #expect(try RunWaysOutTests.state(lab, id, in: copy.workspace) == "unfinished")
        let listed = lab.sandbox.tenantctl(["runs"], in: copy.workspace)
        #expect(listed.stdout.contains("tenantctl runs --abort \(id)"), "\(listed.stdout)")

        // The user goes on working in a module the killed run had already put on t2.
        let module = "\(copy.workspace)/Modules/Infrastructure"
        let file = "\(module)/Strings.csv"
        try "mine\n".write(toFile: file, atomically: true, encoding: .utf8)

        let aborted = lab.sandbox.tenantctl(["runs", "--abort", id], in: copy.workspace, environment: FaultLab.dates)
        #expect(aborted.status == 0, "\(aborted.stdout)\(aborted.stderr)")
        #expect(aborted.stdout.contains("kept your changes in Infrastructure"), "\(aborted.stdout)")
        #expect(try RunWaysOutTests.state(lab, id, in: copy.workspace) == "aborted")
        let kept = try lab.sandbox.gitResult(["show", "stash@{0}:Strings.csv"], in: module)
        let inPlace = try String(contentsOfFile: file, encoding: .utf8) == "mine\n"
        #expect(inPlace || kept.stdout == "mine\n", "the user's edit is gone")
        // Everything else is back as before the resolution (the edited module apart from its file, when kept in
        // place).
        let after = try lab.workingCopy(copy.root)
        for (repository, view) in before where !(inPlace && repository == "Infrastructure") {
            #expect(after[repository] == view, "\(repository): \(after[repository] ?? [])")
        }
        let switched = lab.sandbox.tenantctl(
            ["switch", "t1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(switched.status == 0 || inPlace, "\(switched.stdout)\(switched.stderr)")
    }
}
