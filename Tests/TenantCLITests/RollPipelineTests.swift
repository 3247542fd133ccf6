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
            \(GitShim.directoryOfTheCall)
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

    /// A stand-in for git in which a module mirror's `update-ref` after that mirror's push (the record of what
    /// landed) waits until this run's journal says that push landed, or gives up after 30 s and says so in `events`.
    /// Module pushes and records are logged as they start.
    static func recordShim(_ sandbox: GitSandbox, name: String) throws -> (path: String, events: String) {
        let events = sandbox.path("\(name).events")
        let marks = sandbox.path("\(name).marks")
        try FileManager.default.createDirectory(atPath: marks, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            \(GitShim.directoryOfTheCall)
            case "$here" in
            */tenantctl/mirrors/*) mirror=$(basename "$here") ;;
            *) exec git "$@" ;;
            esac
            module=${mirror%.git}
            journal=$(dirname "$(dirname "$here")")/journal
            case " $* " in
            *" push "*)
                echo "module push $module" >> '\(events)'
                touch '\(marks)/pushed-'"$module" ;;
            *" update-ref "*)
                if [ -e '\(marks)/pushed-'"$module" ]; then
                    waited=0
                    # This run's journal: the newest (the copy has the journals of the commands that made it).
                    current=$(ls -t "$journal"/*.json | head -n 1)
                    while ! grep -q '"published":true.*"repository":"'"$module"'"}' "$current"; do
                        [ "$waited" -lt 300 ] || break
                        sleep 0.1
                        waited=$((waited + 1))
                    done
                    if [ "$waited" -ge 300 ]; then echo "record waited in vain $module" >> '\(events)'; fi
                    echo "record $module" >> '\(events)'
                fi ;;
            esac
            exec git "$@"

            """
        return (try sandbox.writeExecutable("bin/\(name)", script), events)
    }

    /// A mirror's record of its landed push is not on the path of the push: the push's answer is journalled (and the
    /// push slot freed) before the mirror records it. With `--jobs 2` and every mirror's record held until the
    /// journal says its push landed, every record is made and the end state is the serial roll's, every mirror
    /// holding what its remote now has.
    @Test(.tags(.slow), .notInTheFastSet) func aModulePushDoesNotWaitForAMirrorsRecord() throws {
        let lab = try FaultLab()
        let reference = try lab.copy("serial")
        let serial = lab.sandbox.tenantctl(
            ["roll", "--jobs", "1"], in: reference.workspace, environment: FaultLab.dates)
        #expect(serial.status == 0, "\(serial.stderr)")
        let journal = try #require(
            try RunJournal.all(gitDirectory: reference.workspace + "/.git").runs.last { $0.commandName == "roll" })
        let pushed = Set(journal.entries.map(\.repository)).subtracting([RollPublication.superproject])
        #expect(!pushed.isEmpty, "\(pushed)")

        let copy = try lab.copy("lane")
        let shim = try Self.recordShim(lab.sandbox, name: "record-shim")
        // The built executable, as a process of its own (`TENANTCTL_BINARY` names another build).
        let rolled = try lab.sandbox.tenantctlProcess(
            ["roll", "--jobs", "2", "--git", shim.path], in: copy.workspace, environment: FaultLab.dates)
        #expect(rolled.status == 0, "\(rolled.stderr)")
        let events = try String(contentsOfFile: shim.events, encoding: .utf8).split(separator: "\n").map(String.init)
        // Positive control: the stand-in saw every module push and held every mirror's record.
        #expect(
            Set(events.filter { $0.hasPrefix("module push ") }.map { $0.dropFirst(12) })
                == Set(pushed.map { Substring($0) }), "\(events)")
        #expect(
            Set(events.filter { $0.hasPrefix("record ") }.map { $0.dropFirst(7) }) == Set(pushed.map { Substring($0) }),
            "\(events)")
        #expect(
            !events.contains { $0.hasPrefix("record waited in vain") },
            "a module push waited for its mirror's record before its answer was journalled: \(events)")
        #expect(try lab.remoteRefs(copy.root) == (try lab.remoteRefs(reference.root)))
        // Every mirror holds what its remote now has (the records made beside the pushes landed).
        for module in pushed {
            let remote = try lab.sandbox.git(["for-each-ref", "refs/heads/"], in: "\(copy.root)/remotes/\(module).git")
            let mirror = try lab.sandbox.git(
                ["for-each-ref", "refs/heads/"], in: "\(copy.workspace)/.git/tenantctl/mirrors/\(module).git")
            #expect(mirror == remote, "\(module)")
        }
    }
}
