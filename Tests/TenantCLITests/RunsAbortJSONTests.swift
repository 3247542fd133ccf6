import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// `runs --abort <id> --json` and `runs --forget <id> --json` print one JSON object, as every other command does,
/// that validates against docs/schemas/runs-abort.schema.json: what became of each step of the stopped run.
@Suite struct RunsAbortJSONTests {
    /// A tag run stopped after its push landed (its process gone): the tag is on the remote, the journal unfinished.
    static func stoppedTag(_ name: String, _ example: LifecycleExample) throws -> String {
        let sandbox = example.sandbox
        let head = try sandbox.git(["rev-parse", "HEAD"], in: example.workspace)
        try sandbox.git(["push", "-q", "origin", "\(head):refs/tags/\(name)"], in: example.workspace)
        let workspace = try Workspace.locate(from: example.workspace, git: try sandbox.gitRunner())
        let run = try Transaction.begin(workspace, command: "tag", arguments: [name])
        try run.record(
            repository: "superproject", remote: workspace.remoteName,
            refs: [try RefUpdate(checking: "refs/tags/\(name)", new: head, old: nil)], published: true, landed: nil)
        return run.runId
    }

    @Test func abortAndForgetPrintAJSONObjectThatMatchesTheSchema() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let aborted = try Self.stoppedTag("M8", example)
        let abort = try OutputConventionTests.checkJSON(
            example, ["runs", "--abort", aborted], schema: "runs-abort")
        #expect(abort["action"] as? String == "abort" && abort["runId"] as? String == aborted, "\(abort)")
        let undone = try #require(abort["undone"] as? [[String: Any]])
        #expect(undone.map { $0["ref"] as? String } == ["refs/tags/M8"], "\(abort)")
        #expect(try sandbox.refs(example.remote("Superproject"))["refs/tags/M8"] == nil)

        let forgotten = try Self.stoppedTag("M9", example)
        let forget = try OutputConventionTests.checkJSON(
            example, ["runs", "--forget", forgotten], schema: "runs-abort")
        #expect(forget["action"] as? String == "forget", "\(forget)")
        let kept = try #require(forget["kept"] as? [[String: Any]])
        #expect(kept.map { $0["ref"] as? String } == ["refs/tags/M9"], "\(forget)")
        #expect(try sandbox.refs(example.remote("Superproject"))["refs/tags/M9"] != nil)
        let runs = try sandbox.runs(in: example.workspace)
        #expect(runs.first { $0["runId"] as? String == forgotten }?["state"] as? String == "forgotten")
        #expect(runs.first { $0["runId"] as? String == aborted }?["state"] as? String == "aborted")
    }
}
