import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// roll publishes the module branches while it writes the superproject's tenant commits: the module pushes need only
/// the merges and which tenants roll, not those commits. A git stand-in holds the superproject's tenant commits
/// (its `fast-import` after its `merge-tree`) until a module push has started, and logs the order of events; the
/// end state is the one of an uninterrupted roll with `--jobs 1` (no overlap), and the journal lists the module
/// branches first, then the superproject's, every one landed.
@Suite struct RollPipelineTests {
    /// A stand-in for git: `merge-tree` in the superproject marks the superproject merged; a `fast-import` there
    /// after that (the tenant commits) waits up to 120 s for a module push to start (a loaded machine is slow to
    /// start one); each event is one line of `events`.
    static func orderingShim(_ sandbox: GitSandbox, workspace: String, name: String) throws -> (
        path: String, events: String
    ) {
        let events = sandbox.path("\(name).events")
        let marks = sandbox.path("\(name).marks")
        try FileManager.default.createDirectory(atPath: marks, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            here=''
            previous=''
            for argument in "$@"; do
                if [ "$previous" = -C ]; then here=$argument; fi
                previous=$argument
            done
            case " $* " in
            *" merge-tree "*)
                if [ "$here" = '\(workspace)' ]; then touch '\(marks)/merged'; fi ;;
            *" push "*)
                if [ "$here" != '\(workspace)' ]; then
                    touch '\(marks)/pushed'
                    echo "module push" >> '\(events)'
                fi ;;
            *" fast-import "*)
                if [ "$here" = '\(workspace)' ] && [ -e '\(marks)/merged' ]; then
                    waited=0
                    while [ ! -e '\(marks)/pushed' ] && [ "$waited" -lt 1200 ]; do sleep 0.1; waited=$((waited + 1)); done
                    git "$@"
                    status=$?
                    echo "superproject commits written" >> '\(events)'
                    exit $status
                fi ;;
            esac
            exec git "$@"

            """
        return (try sandbox.writeExecutable("bin/\(name)", script), events)
    }

    @Test func modulePushesStartWhileTheSuperprojectsCommitsAreWritten() throws {
        let lab = try FaultLab()
        let reference = try lab.copy("serial")
        let serial = lab.sandbox.tenantctl(
            ["roll", "--jobs", "1"], in: reference.workspace, environment: FaultLab.dates)
        #expect(serial.status == 0, "\(serial.stderr)")

        let copy = try lab.copy("pipelined")
        let shim = try Self.orderingShim(lab.sandbox, workspace: copy.workspace, name: "pipeline-shim")
        let rolled = lab.sandbox.tenantctl(
            ["roll", "--jobs", "2", "--git", shim.path], in: copy.workspace, environment: FaultLab.dates)
        #expect(rolled.status == 0, "\(rolled.stderr)")
        let events = try String(contentsOfFile: shim.events, encoding: .utf8).split(separator: "\n").map(String.init)
        // Positive control: the stand-in saw both events.
        #expect(events.contains("module push"), "\(events)")
        #expect(events.contains("superproject commits written"), "\(events)")
        #expect(
            events.first == "module push",
            "the superproject's commits were written before any module push started: \(events)")

        // The same end state as the roll without overlap.
        #expect(try lab.remoteRefs(copy.root) == (try lab.remoteRefs(reference.root)))
        // The journal: the module branches first, then the superproject's, every one landed.
        let run = try #require(
            try RunJournal.all(gitDirectory: copy.workspace + "/.git").runs.last { $0.commandName == "roll" })
        let entries = run.entries
        let repositories = entries.map(\.repository)
        let firstSuperproject = try #require(repositories.firstIndex(of: RollPublication.superproject))
        #expect(firstSuperproject > 0, "\(repositories)")
        #expect(repositories[firstSuperproject...].allSatisfy { $0 == RollPublication.superproject }, "\(repositories)")
        #expect(entries.allSatisfy { $0.published == true }, "\(entries)")
        #expect(run.state == .finished)
    }
}
