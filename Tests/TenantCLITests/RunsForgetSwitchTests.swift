import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// `runs --forget <run-id>` on a stopped switch says where each of its steps is now, reading a module's steps (its
/// HEAD, the branch the switch wrote) in that module's own checkout, not in the superproject.
@Suite struct RunsForgetSwitchTests {
    @Test func theForgetOfASwitchReadsEachModuleStepInItsModule() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let switched = sandbox.tenantctl(["switch", "t2"], in: example.workspace)
        #expect(switched.status == 0, "\(switched.stderr)")
        let gitDirectory = example.workspace + "/.git"
        var run = try #require(
            try RunJournal.all(gitDirectory: gitDirectory).runs.last { $0.commandName == "switch" })
        let moduleSteps = run.entries.filter { $0.landed == true && $0.repository != "superproject" }
        try #require(moduleSteps.contains { $0.repository == "Customer" }, "\(run.entries)")
        // The switch as if killed after its last step: unfinished, every step where it left it.
        run.state = .running
        try run.write(gitDirectory: gitDirectory)

        let forget = try sandbox.tenantctlProcess(["runs", "--forget", run.runId, "--json"], in: example.workspace)
        #expect(forget.status == 0, "\(forget.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: Data(forget.stdout.utf8)) as? [String: Any]
        let object = try #require(parsed, "\(forget.stdout)")
        let kept: [[String: Any]] = object["kept"] as? [[String: Any]] ?? []
        /// The kept step of `repository` and `ref`: its value now and its note.
        func keptStep(_ repository: String, _ ref: String) -> (now: String?, note: String?) {
            let found = kept.first { step in
                step["repository"] as? String == repository && step["ref"] as? String == ref
            }
            return (found?["now"] as? String, found?["note"] as? String)
        }
        for step in moduleSteps {
            let path = example.workspace + "/Modules/" + step.repository
            let now = try sandbox.git(["rev-parse", "--verify", step.ref], in: path)
            #expect(now == step.new, "\(step.repository) \(step.ref)")
            let found = keptStep(step.repository, step.ref)
            #expect(found.now == now, "\(step.repository) \(step.ref): \(forget.stdout)")
            #expect(found.note?.contains("as the run left it") == true, "\(forget.stdout)")
        }
        // Positive control: the superproject's own steps are read in the superproject, as before.
        let superHead = try sandbox.git(["rev-parse", "HEAD"], in: example.workspace)
        #expect(keptStep("superproject", "HEAD").now == superHead, "\(forget.stdout)")
        let runs = try sandbox.runs(in: example.workspace)
        #expect(runs.first { $0["runId"] as? String == run.runId }?["state"] as? String == "forgotten", "\(runs)")
    }
}
