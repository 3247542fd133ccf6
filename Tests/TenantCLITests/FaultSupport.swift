import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// Copies of one `example` build, repository snapshots and process checks for the fault-injection suites.
///
/// Each test starts from its own copy of the example (`template`, which the test may prepare further) and copies that
/// for every injected fault (``DirectoryTemplates/copyTree(from:to:)``: absolute paths point into the copy).
struct FaultLab {
    static let modules = RollFixture.modules
    static let dates = RollFixture.dates

    let sandbox: GitSandbox
    let template: String

    init(stage: ExampleStage = .afterUpdates, function: String = #function) throws {
        sandbox = try GitSandbox(function: function)
        template = sandbox.path("template")
        _ = try sandbox.exampleCopy(in: template, stage: stage)
    }

    /// A lab in `sandbox` whose template is `template` (the preparation of a ``prepared(_:stage:function:prepare:)``
    /// template).
    private init(sandbox: GitSandbox, template: String) {
        self.sandbox = sandbox
        self.template = template
    }

    /// A lab whose template is the example at `stage` after `prepare` ran on it, and the value `prepare` returned.
    ///
    /// The prepared template is made once per test process under `key` (a ``DirectoryTemplates`` template: the cases
    /// of a split sweep share it) and copied into each lab, so `key` must name everything `prepare` does. `prepare`
    /// gets a lab whose `template` is the directory to prepare (use `lab.template`, never a path relative to the
    /// sandbox) and may run commands through `lab.sandbox`; what it returns must not depend on the asking test.
    /// tenantctl's own files in the copy (the run journals, resolve's state) name the lab's template, as they would
    /// had the preparation run there.
    static func prepared<Value: Sendable>(
        _ key: String, stage: ExampleStage = .afterUpdates, function: String = #function,
        prepare: (FaultLab) throws -> Value
    ) throws -> (lab: FaultLab, value: Value) {
        let sandbox = try GitSandbox(function: function)
        let template = sandbox.path("template")
        let (value, source) = try DirectoryTemplates.shared.copy(
            "fault-lab-\(stage.rawValue)-\(Self.fileName(key))", to: template
        ) { directory in
            _ = try sandbox.exampleCopy(in: directory, stage: stage)
            return try prepare(FaultLab(sandbox: sandbox, template: directory))
        }
        if source != template { try renameInTenantctlFiles(of: template + "/workspace", from: source, to: template) }
        return (FaultLab(sandbox: sandbox, template: template), value)
    }

    /// Replaces directory `old` by `new` in the JSON files tenantctl keeps in `workspace`'s `.git/tenantctl`.
    static func renameInTenantctlFiles(of workspace: String, from old: String, to new: String) throws {
        let directory = workspace + "/.git/tenantctl"
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return }
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".json") else { continue }
            let path = directory + "/" + relative
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let renamed = text.replacingOccurrences(of: old + "/", with: new + "/")
            if renamed != text { try renamed.write(toFile: path, atomically: true, encoding: .utf8) }
        }
    }

    /// A value every case of a split sweep computes the same way from its lab (the uninterrupted reference run: its
    /// git calls and end state), computed by the first case that asks, in its own lab, once per test process.
    /// `key` must name the lab's template and the run. With `TENANTCTL_TEMPLATES=0` each case computes its own.
    func shared<Value: Sendable>(_ key: String, compute: (FaultLab) throws -> Value) throws -> Value {
        if DirectoryTemplates.buildEveryCopy { return try compute(self) }
        return try DirectoryTemplates.shared.template("value-\(Self.fileName(key))") { _ in try compute(self) }.value
    }

    /// `key` as a file name: characters other than letters, digits, `-` and `.` become `_`.
    static func fileName(_ key: String) -> String {
        String(key.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" })
    }

    /// A copy of the example: its directory, its workspace and its remotes.
    typealias Copy = (root: String, workspace: String, remotes: String)

    /// A fresh copy of the template, named `name`; its workspace and remotes.
    func copy(_ name: String) throws -> Copy {
        let target = sandbox.path(name)
        try DirectoryTemplates.copyTree(from: template, to: target)
        return (target, "\(target)/workspace", "\(target)/remotes")
    }

    /// Every repository of a copy by a stable key: `remote/<name>`, `workspace`, `module/<name>`, `mirror/<name>`.
    /// Every `<name>.git` under `remotes/` counts (a module remote a test adds, such as `Invoice.git`, too), and every
    /// complete mirror (`<name>.git` with a HEAD; not a `.partial-` directory a killed run left).
    func repositories(_ root: String) -> [String: String] {
        var result = ["workspace": "\(root)/workspace"]
        for name in Self.bareRepositories(in: "\(root)/remotes") {
            result["remote/\(name)"] = "\(root)/remotes/\(name).git"
        }
        for module in Self.modules {
            result["module/\(module)"] = "\(root)/workspace/.git/modules/\(module)"
        }
        let mirrors = "\(root)/workspace/.git/tenantctl/mirrors"
        for name in Self.bareRepositories(in: mirrors) { result["mirror/\(name)"] = "\(mirrors)/\(name).git" }
        return result
    }

    /// The names of the `<name>.git` repositories (with a HEAD) directly in `directory`.
    static func bareRepositories(in directory: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter {
            $0.hasSuffix(".git") && FileManager.default.fileExists(atPath: "\(directory)/\($0)/HEAD")
        }.map { String($0.dropLast(4)) }.sorted()
    }

    /// Repository key → ref → value, for every repository of a copy.
    func refs(_ root: String) throws -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for (key, path) in repositories(root) { result[key] = try sandbox.refs(path) }
        return result
    }

    /// Only the remotes' refs.
    func remoteRefs(_ root: String) throws -> [String: [String: String]] {
        try refs(root).filter { $0.key.hasPrefix("remote/") }
    }

    /// The user's view of one repository of the working copy: HEAD, its commit, local branches with upstreams,
    /// and the working tree (submodule changes ignored: each module is checked on its own).
    func userState(_ directory: String) throws -> [String] {
        [
            try sandbox.gitResult(["symbolic-ref", "-q", "HEAD"], in: directory).stdout,
            try sandbox.git(["rev-parse", "HEAD"], in: directory),
            try sandbox.git(
                ["for-each-ref", "--format=%(refname) %(objectname) %(upstream)", "refs/heads/"], in: directory),
            try sandbox.git(["status", "--porcelain=v2", "--ignore-submodules=all"], in: directory),
        ]
    }

    /// `userState` of the superproject and every module of a copy, by repository.
    func workingCopy(_ root: String) throws -> [String: [String]] {
        var result = ["superproject": try userState("\(root)/workspace")]
        for module in Self.modules { result[module] = try userState("\(root)/workspace/Modules/\(module)") }
        return result
    }

    /// Runs the built tenantctl with `arguments` in `copy` through a new `GitShim` (`--git`; named after the copy),
    /// uninterrupted unless `environment` asks the shim for a fault: the result and the git calls the run made.
    func runShimmed(_ arguments: [String], in copy: Copy, environment: [String: String] = [:]) throws -> (
        result: CLIResult, calls: [String]
    ) {
        let shim = try GitShim(in: sandbox, name: "shim-" + (copy.root as NSString).lastPathComponent)
        let result = try sandbox.tenantctlProcess(
            arguments + ["--git", shim.path], in: copy.workspace, environment: environment)
        return (result, try shim.calls())
    }

    /// Runs the built tenantctl with `arguments` in `copy`, killed (SIGKILL, by the `GitShim`) at git call `index`:
    /// before the call runs, or with `afterTheCall` once it has run (a push that landed). Expects the kill, and that
    /// no process of the copy outlives it; `label` starts each failure's message.
    func runKilled(
        _ arguments: [String], in copy: Copy, at index: Int, afterTheCall: Bool = false,
        environment: [String: String] = [:], label: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let killAt = [(afterTheCall ? "SHIM_KILL_AFTER" : "SHIM_KILL_AT"): "\(index)"]
        let (killed, _) = try runShimmed(arguments, in: copy, environment: environment.merging(killAt) { $1 })
        let label = label ?? "SIGKILL at call \(index)"
        #expect(
            killed.status == -SIGKILL, "\(label): not killed: \(killed.status) \(killed.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            try waitForProcesses(mentioning: copy.root + "/").isEmpty, "\(label): processes left",
            sourceLocation: sourceLocation)
    }

    /// Starts the built tenantctl with `arguments` in `copy` through a new `GitShim` that sleeps (30 s) in git call
    /// `index`, waits until the run is in that call, runs `during`, then sends the run SIGTERM (or `signal`).
    /// Returns the run: its result is the caller's to wait for.
    func terminate(
        _ arguments: [String], in copy: Copy, at index: Int, environment: [String: String] = [:],
        signal: Int32 = SIGTERM, during: () throws -> Void = {}
    ) throws -> BackgroundTenantctl {
        let shim = try GitShim(in: sandbox, name: "shim-" + (copy.root as NSString).lastPathComponent)
        let run = try BackgroundTenantctl(
            arguments + ["--git", shim.path], in: copy.workspace, sandbox: sandbox,
            environment: environment.merging(["SHIM_SLEEP_AT": "\(index)", "SHIM_SLEEP_SECONDS": "30"]) { $1 })
        try BackgroundTenantctl.waitForCalls(shim, index)
        try during()
        kill(run.pid, signal)
        return run
    }

    /// What `pin --push` writes besides what every sample covers: the gitlink it stages (`update-index`), its pin
    /// commit, and the move of the local branch to the remote tip after a roll (`reset`, `merge`). Its sample is the
    /// first call of each of these too, so a kill between staging and committing and around the move is in it.
    static let pinSteps: Set<String> = ["update-index", "commit", "reset", "merge"]

    /// The 1-based index of a switch's first module checkout among its git `calls` (the superproject has moved by
    /// then).
    static func firstModuleCheckout(in calls: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
        -> Int
    {
        try #require(
            calls.firstIndex { $0.contains("/Modules/") && subcommand($0) == "switch" }, "\(calls)",
            sourceLocation: sourceLocation) + 1
    }

    /// The 1-based index of a roll's superproject push among its git `calls`: the last push to the remote named
    /// origin (the module pushes go to URLs), after every module push.
    static func superprojectPush(in calls: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        try #require(
            calls.lastIndex { $0.contains(" push ") && $0.contains(" -- origin ") }, "\(calls)",
            sourceLocation: sourceLocation) + 1
    }

    /// Lock files left anywhere under `root` (`tenantctl.lock` is the flock file and stays by design).
    func staleLocks(_ root: String) -> [String] { Self.staleLocks(in: root) }

    /// Lock files left anywhere under `root`, but the flock file `tenantctl.lock`.
    static func staleLocks(in root: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var locks: [String] = []
        while let path = walker.nextObject() as? String {
            if path.hasSuffix(".lock") && !path.hasSuffix("tenantctl.lock") { locks.append(path) }
        }
        return locks.sorted()
    }

    /// Processes whose command line mentions `root` (git children a killed tenantctl left behind).
    func processes(mentioning root: String) throws -> [String] {
        let listing = try sandbox.run("/bin/ps", ["-eo", "pid=,args="])
        return listing.stdout.split(separator: "\n").map(String.init).filter { $0.contains(root) }
    }

    /// Waits (up to `seconds`) until no process mentions `root`; returns those still running.
    @discardableResult
    func waitForProcesses(mentioning root: String, seconds: Double = 15) throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var left = try processes(mentioning: root)
        while !left.isEmpty && Date() < deadline {
            usleep(50_000)
            left = try processes(mentioning: root)
        }
        return left
    }

    /// Refs of `now` that are neither their value in `old` nor in `new` (`nil` = absent), as readable lines.
    /// A mirror did not exist before the run: its refs may also hold the remote's old values (after the fetch).
    static func refsNeitherOldNorNew(
        now: [String: [String: String]], old: [String: [String: String]], new: [String: [String: String]]
    ) -> [String] {
        var bad: [String] = []
        for key in Set(now.keys).union(new.keys).sorted() {
            var before = old[key] ?? [:]
            if key.hasPrefix("mirror/"), let remote = old["remote/" + key.dropFirst("mirror/".count)] {
                before = remote.filter { $0.key.hasPrefix("refs/heads/") }
            }
            let current = now[key] ?? [:]
            let after = new[key] ?? [:]
            for ref in Set(current.keys).union(before.keys).union(after.keys).sorted() {
                if key.hasPrefix("mirror/") && ref == "HEAD" { continue }
                let value = current[ref]
                // A mirror is created during the run: absent is its old state.
                if value == nil && key.hasPrefix("mirror/") { continue }
                if value != before[ref] && value != after[ref] {
                    bad.append(
                        "\(key) \(ref) = \(value ?? "absent"), old \(before[ref] ?? "absent"), new \(after[ref] ?? "absent")"
                    )
                }
            }
        }
        return bad
    }

    /// The git subcommand of a logged shim call (the word after `-C <dir>` and the `-c <config>` pairs).
    static func subcommand(_ call: String) -> String {
        var words = call.split(separator: " ").map(String.init)[...]
        while let first = words.first, first == "-C" || first == "-c" { words = words.dropFirst(2) }
        return words.first ?? ""
    }

    /// The call indices a sweep injects a fault at.
    ///
    /// `TENANTCTL_FAULT_SWEEP=all` (see `scripts/fault-sweep`): every index `1…calls.count`. Otherwise a sample
    /// that keeps the suite within its time budget: the first call of every phase that writes something (fetch,
    /// mirror init, clone, config, merge-tree, mktree, hash-object, fast-import, branch, and the subcommands in
    /// `alsoFirst`), every call that publishes or moves a working tree (push, update-ref, switch, submodule) and the
    /// last call.
    static func indices(for calls: [String], alsoFirst: Set<String> = []) -> [Int] {
        if ProcessInfo.processInfo.environment["TENANTCTL_FAULT_SWEEP"] == "all" { return Array(1...calls.count) }
        let firsts: Set<String> = alsoFirst.union([
            "fetch", "init", "clone", "config", "merge-tree", "mktree", "hash-object", "fast-import", "branch",
        ])
        let every: Set<String> = ["push", "update-ref", "switch", "submodule"]
        var seen: Set<String> = []
        var result: [Int] = []
        for (offset, call) in calls.enumerated() {
            let command = subcommand(call)
            // Making a module mirror (`init`, `config`, `fetch` in `<Module>.git.partial-<id>`) that fails is a
            // module that could not be fetched: roll keeps its pins and rolls the rest (exit 2), by design, as for a
            // failed `clone` before; the sweep injects its faults at the calls after it.
            if call.contains(".git.partial-") { continue }
            let first = firsts.contains(command) && seen.insert(command).inserted
            if first || every.contains(command) || offset == calls.count - 1 {
                result.append(offset + 1)
            }
        }
        return result
    }

    /// The kind of a logged shim call, for the samples that take one call of each kind: its subcommand, and for a
    /// push whether it goes to the superproject's remote (`origin`) or to a module's.
    static func kind(_ call: String) -> String {
        let command = subcommand(call)
        guard command == "push" else { return command }
        return call.contains(" -- origin ") ? "push origin" : "push module"
    }

    /// The call indices a failure sweep makes fail (a git call exiting 128, which the command must report and stop
    /// at; the re-run must converge).
    ///
    /// `TENANTCTL_FAULT_SWEEP=all`: every index, as ``indices(for:alsoFirst:)``. Otherwise less of the kill sample,
    /// because a failing call takes the command's one way out wherever it comes: before the run's first push nothing is
    /// published whichever call fails, so of the sampled calls before it the first and the last fail (and the first of
    /// each `alsoFirst` subcommand: the steps a sweep asks for by name); from the first push on, the first and the last
    /// call of each kind (``kind(_:)``: a module push, the superproject's push, `update-ref`, …) and the last call. So
    /// a failure before anything is published, at each kind of publishing step (after earlier pushes of the run
    /// landed, too) and after the last push is in `swift test`; the kill sample's other points fail only under
    /// `scripts/fault-sweep`.
    static func failureIndices(for calls: [String], alsoFirst: Set<String> = []) -> [Int] {
        let sample = indices(for: calls, alsoFirst: alsoFirst)
        if ProcessInfo.processInfo.environment["TENANTCTL_FAULT_SWEEP"] == "all" { return sample }
        let firstPush = sample.first { subcommand(calls[$0 - 1]) == "push" } ?? Int.max
        let preparing = sample.filter { $0 < firstPush }
        var result = Set([preparing.first, preparing.last].compactMap { $0 })
        var named: Set<String> = []
        for index in preparing where alsoFirst.contains(subcommand(calls[index - 1])) {
            if named.insert(subcommand(calls[index - 1])).inserted { result.insert(index) }
        }
        var first: [String: Int] = [:]
        var last: [String: Int] = [:]
        for index in sample where index >= firstPush {
            let kind = Self.kind(calls[index - 1])
            if first[kind] == nil { first[kind] = index }
            last[kind] = index
        }
        result.formUnion(first.values)
        result.formUnion(last.values)
        if let final = sample.last { result.insert(final) }
        return result.sorted()
    }
}
