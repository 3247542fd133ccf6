import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// `init` on a plain submodule superproject (``LifecycleInitTests/plainProject(_:)``), run once uninterrupted (the
/// reference: its git calls and end state) and in copies stopped at a chosen git call (SIGKILL or a failing call).
struct InitKillLab {
    /// What `init` can change: the files it writes, the status of the superproject, the refs of every repository
    /// (superproject, remotes, complete module mirrors).
    struct State: Equatable {
        var files: [String: String]
        var status: String
        var refs: [String: [String: String]]
    }

    let sandbox: GitSandbox
    let before: State
    let after: State
    let calls: [String]

    init(function: String = #function) throws {
        sandbox = try GitSandbox(function: function)
        _ = try LifecycleInitTests.plainProject(sandbox)
        before = try Self.state(sandbox.root, sandbox: sandbox)
        let reference = try Self.copy("reference", sandbox: sandbox)
        let shim = try GitShim(in: sandbox, name: "shim-reference")
        let run = sandbox.tenantctl(["init", "--git", shim.path], in: reference + "/work")
        try #require(run.status == 0, "\(run.stderr)")
        after = try Self.state(reference, sandbox: sandbox)
        calls = try shim.calls()
    }

    /// A copy of the remotes and the working copy under `copies/<name>`, its absolute remote URLs rewritten.
    static func copy(_ name: String, sandbox: GitSandbox) throws -> String {
        let target = sandbox.path("copies/\(name)")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        for directory in ["remotes", "work"] {
            let copied = try sandbox.run("/bin/cp", ["-a", sandbox.path(directory), target + "/"])
            try #require(copied.status == 0, "cp failed: \(copied.stderr)")
        }
        for config in ["work/.git/config", "work/.git/modules/Modules/A/config", "work/.git/modules/Modules/B/config"]
        where FileManager.default.fileExists(atPath: "\(target)/\(config)") {
            let path = "\(target)/\(config)"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try text.replacingOccurrences(of: sandbox.path("remotes") + "/", with: target + "/remotes/").write(
                toFile: path, atomically: true, encoding: .utf8)
        }
        return target
    }

    static func state(_ root: String, sandbox: GitSandbox) throws -> State {
        let work = root + "/work"
        var files: [String: String] = [:]
        for path in ["modules.json", "Tenants/t1.json", "Tenants/t2.json"] {
            if let text = try? String(contentsOfFile: "\(work)/\(path)", encoding: .utf8) { files[path] = text }
        }
        var refs = ["work": try sandbox.refs(work)]
        for name in FaultLab.bareRepositories(in: root + "/remotes") {
            refs["remote/\(name)"] = try sandbox.refs("\(root)/remotes/\(name).git")
        }
        let mirrors = "\(work)/.git/tenantctl/mirrors"
        for name in FaultLab.bareRepositories(in: mirrors) {
            refs["mirror/\(name)"] = try sandbox.refs("\(mirrors)/\(name).git").filter { $0.key != "HEAD" }
        }
        let status = try sandbox.git(["status", "--porcelain=v2", "-uall"], in: work)
        return State(files: files, status: status, refs: refs)
    }

    /// Stops `init` at every sampled git call (a SIGKILL, or with `failing` a call that fails with git's status 128);
    /// after each: the remotes untouched, no lock left, the files written whole or not at all; the re-run reaches
    /// the uninterrupted end state. Returns the calls whose re-run did not converge. `shard`: only that share of the
    /// stops (a sweep split into test cases, `SweepShard`).
    func sweep(failing: Bool, shard: SweepShard = SweepShard(index: 0, count: 1)) throws -> [String] {
        var unconverged: [String] = []
        let indices = shard.take(failing ? FaultLab.failureIndices(for: calls) : FaultLab.indices(for: calls))
        for index in indices {
            let root = try Self.copy("\(failing ? "fail" : "kill")-\(index)", sandbox: sandbox)
            let shim = try GitShim(in: sandbox, name: "shim-\(failing ? "fail" : "kill")-\(index)")
            let label = "\(failing ? "failure" : "SIGKILL") at call \(index) (\(FaultLab.subcommand(calls[index - 1])))"
            let fault =
                failing ? ["SHIM_FAIL_AT": "\(index)", "SHIM_FAIL_STATUS": "128"] : ["SHIM_KILL_AT": "\(index)"]
            let stopped = try sandbox.tenantctlProcess(
                ["init", "--git", shim.path], in: root + "/work", environment: fault)
            if failing {
                #expect(stopped.status == 1, "\(label): \(stopped.status) \(stopped.stderr)")
                #expect(stopped.stderr.contains("injected failure"), "\(label): \(stopped.stderr)")
            } else {
                #expect(stopped.status == -SIGKILL, "\(label): \(stopped.status) \(stopped.stderr)")
            }
            let now = try Self.state(root, sandbox: sandbox)
            #expect(
                now.refs.filter { $0.key.hasPrefix("remote/") } == before.refs.filter { $0.key.hasPrefix("remote/") },
                "\(label): a remote changed")
            for (path, text) in now.files {
                #expect(before.files[path] == text || after.files[path] == text, "\(label): \(path) is partial")
            }
            let locks = FaultLab.staleLocks(in: root)
            #expect(locks.isEmpty, "\(label): \(locks)")
            let rerun = sandbox.tenantctl(["init"], in: root + "/work")
            let converged = try Self.state(root, sandbox: sandbox) == after
            if rerun.status != 0 || !converged {
                unconverged.append("\(label): re-run exit \(rerun.status): \(rerun.stderr)")
            }
        }
        print(
            "init \(failing ? "failure" : "kill") sweep, \(shard.testDescription): \(indices.count) of \(calls.count)")
        return unconverged
    }
}
