import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// What the user and their colleagues made, which no step may lose: commits (each in its repository or on its
/// remote) and uncommitted edits (file → content).
struct InterleaveWork {
    struct Commit {
        /// The git directory it was made in (nil: made in a colleague's clone, only its remote counts).
        var repository: String?
        var remote: String
        var commit: String
        var label: String
    }

    var commits: [Commit] = []
    /// Absolute path → the content the user left there.
    var edits: [String: String] = [:]
}

/// One sequence: a copy of the example, the steps run so far, and the user's work to check after each.
final class InterleaveSequence {
    let lab: FaultLab
    let copy: FaultLab.Copy
    let seed: UInt64
    var work = InterleaveWork()
    /// What the invariant checks already know (so that each step asks git only about what changed).
    let checkCache = InterleaveCheckCache()
    /// The steps run so far, each with what became of it.
    var log: [String] = []

    init(lab: FaultLab, seed: UInt64) throws {
        self.lab = lab
        self.seed = seed
        let start = Date()
        copy = try lab.copy("seed-\(seed)")
        seconds["copy"] = Date().timeIntervalSince(start)
    }

    var sandbox: GitSandbox { lab.sandbox }

    /// Where the time of the sequence went, in seconds: preparing its copy, the tenantctl commands, the user's
    /// actions, the invariant checks, and the probes of the unfinished runs' ways out.
    var seconds: [String: Double] = [:]
    /// Whether the last probe found an unfinished run (none at the start).
    private var unfinishedRuns = false
    /// The last step taken (for the failure's kind).
    private var lastStep: InterleaveStep?

    /// Runs `count` steps drawn from the seed, checking the invariants after each; the first violation, with the
    /// seed and the steps so far, or nil.
    func run(steps count: Int) throws -> String? {
        var generator = InterleaveGenerator(seed: seed)
        for index in 0..<count {
            let step = generator.next(index: index)
            lastStep = step
            let outcome: String
            do {
                outcome = try timed(step.isCommand ? "commands" : "user") { try perform(step, index: index) }
            } catch {
                log.append("\(index + 1). \(step) → the harness could not carry it out")
                return report(["the harness stopped: \(error)"])
            }
            log.append("\(index + 1). \(step) → \(outcome)")
            var violations = try timed("checks") { try InterleaveCheck(sequence: self).violations() }
            // Only a command writes a journal: after a user's action, runs are unfinished only when they were
            // before (then their ways out are tried again, since the action may have changed what they find).
            if violations.isEmpty && (step.isCommand || unfinishedRuns) {
                violations = try timed("probes") { try probe() }
            }
            if !violations.isEmpty { return report(violations) }
        }
        return nil
    }

    /// The state last probed without a violation (``InterleaveState``).
    private var probed: String?
    /// How many probes found the state they would try equal to the one tried last, and were skipped.
    var probesSkipped = 0

    /// The probe of the unfinished runs' ways out, skipped when the state is the one last probed (a command refused
    /// because of the unfinished run changes nothing, and the ways out would do what they did then).
    private func probe() throws -> [String] {
        // The journals are read first, in this process, as every writing command reads them before it refuses: with
        // no run unfinished there is nothing to probe, and no `tenantctl runs` needs to start.
        let journals = try RunJournal.unfinished(gitDirectory: copy.workspace + "/.git")
        guard !journals.isEmpty else {
            unfinishedRuns = false
            return []
        }
        let probe = InterleaveProbe(sequence: self)
        let runs = probe.unfinished()
        unfinishedRuns = !runs.isEmpty
        guard !runs.isEmpty else { return [] }
        let state = try InterleaveState.read(self)
        if state == probed {
            probesSkipped += 1
            return []
        }
        let violations = try probe.violations(of: runs)
        probed = violations.isEmpty ? state : nil
        return violations
    }

    /// `body`, its time added to `seconds[phase]`.
    func timed<T>(_ phase: String, _ body: () throws -> T) rethrows -> T {
        let start = Date()
        defer { seconds[phase, default: 0] += Date().timeIntervalSince(start) }
        return try body()
    }

    /// The failure message: its kind and how to replay it, the steps, what broke.
    func report(_ violations: [String]) -> String {
        "interleave: seed \(seed) FAILED after \(log.count) steps: \(kind(of: violations)) "
            + "(replay: scripts/interleave --replay \(seed) --steps \(log.count))\n"
            + log.map { "  " + $0 }.joined(separator: "\n") + "\nviolated:\n"
            + violations.map { "  - " + $0 }.joined(separator: "\n")
    }

    /// What broke, and after which step (a command without its run ids and fault; a user's action by its kind):
    /// the failures of one kind in a by-hand run usually share their cause.
    func kind(of violations: [String]) -> String {
        let first = violations.first ?? ""
        let prefix = first.hasPrefix("after the ways out: ") ? "after a way out, " : ""
        let rest = first.hasPrefix("after the ways out: ") ? String(first.dropFirst(20)) : first
        let what: String
        if rest.hasPrefix("commit lost") {
            what = "a commit lost"
        } else if rest.hasPrefix("uncommitted edit lost") {
            what = "an uncommitted edit lost"
        } else if rest.hasPrefix("superproject branch") {
            what = "a pin missing from its module's remote"
        } else if rest.hasPrefix("stuck: after the ways out") {
            what = "a writing command still refused after the ways out"
        } else if rest.hasPrefix("stuck") {
            what = "a run stuck (no way out ends it)"
        } else if rest.hasPrefix("the harness stopped") {
            what = "the harness stopped"
        } else {
            what = String(rest.prefix(60))
        }
        return prefix + what + (lastStep.map { " after " + $0.kind } ?? "")
    }

    /// The time line of a passing sequence.
    var timing: String {
        let main = ["copy", "commands", "user", "checks", "probes"]
        let total = main.compactMap { seconds[$0] }.reduce(0, +)
        let phases = main.map { String(format: "%@ %.1f s", $0, seconds[$0] ?? 0) }
        let parts = seconds.keys.filter { !main.contains($0) }.sorted().map {
            String(format: "%@ %.1f s", $0, seconds[$0] ?? 0)
        }
        return String(format: "%.1f s; ", total) + phases.joined(separator: ", ") + " (\(probesSkipped) skipped"
            + (parts.isEmpty ? "" : "; " + parts.joined(separator: ", ")) + ")"
    }

    /// Removes the copy (a sequence that passed).
    func remove() { try? FileManager.default.removeItem(atPath: copy.root) }

    // MARK: - Places

    func worktreePath(_ name: String?) -> String {
        guard let name else { return copy.workspace }
        let path = copy.root + "/" + name
        return FileManager.default.fileExists(atPath: path) ? path : copy.workspace
    }

    func directory(_ place: InterleavePlace) -> String {
        worktreePath(place.worktree) + (place.module.map { "/Modules/\($0)" } ?? "")
    }

    /// Whether `directory` is the top of a checkout of its own (a cloned module, or the superproject).
    func isCheckout(_ directory: String) -> Bool {
        guard let top = try? sandbox.gitResult(["rev-parse", "--show-toplevel"], in: directory), top.status == 0
        else { return false }
        return top.stdout.trimmingCharacters(in: .newlines) == directory
    }

    func remote(_ place: InterleavePlace) -> String { copy.remotes + "/" + (place.module ?? "Superproject") + ".git" }

    // MARK: - Steps

    func perform(_ step: InterleaveStep, index: Int) throws -> String {
        switch step {
        case .command(let arguments, let worktree, let fault, let rejecting):
            return try InterleaveCommand(sequence: self).run(
                arguments, in: worktreePath(worktree), fault: fault, rejecting: rejecting)
        case .edit(let place, let untracked, let pick): return try edit(place, untracked: untracked, pick: pick, index)
        case .commit(let place): return try commitNewFile(place, index: index)
        case .commitEdits(let place): return try commitEdits(place, index: index)
        case .discardEdits(let place): return try discardEdits(place)
        case .colleaguePush(let repository, let pick): return try colleaguePush(repository, pick: pick, index: index)
        case .worktreeAdd(let name):
            let result = try sandbox.gitResult(
                ["worktree", "add", "-q", "--detach", copy.root + "/" + name], in: copy.workspace)
            return result.status == 0 ? "added" : "git refused: \(result.stderr)"
        case .worktreeRemove(let name): return try removeWorktree(name)
        }
    }

    private func edit(_ place: InterleavePlace, untracked: Bool, pick: Int, _ index: Int) throws -> String {
        let directory = directory(place)
        guard isCheckout(directory) else { return "no checkout there" }
        var path = directory + "/scratch-\(index + 1).txt"
        if !untracked {
            let listed = try sandbox.git(["ls-files", "-s"], in: directory).split(separator: "\n")
            // Files only (no gitlinks), and in the superproject no JSON and no .gitmodules: a user's note in a
            // tenant file would be an invalid tenant, a test of something else.
            let files = listed.filter { !$0.hasPrefix("160000") }.compactMap { $0.split(separator: "\t").last }
                .map(String.init).filter {
                    place.module != nil || (!$0.hasSuffix(".json") && !$0.hasPrefix(".git"))
                }
            guard !files.isEmpty else { return "no tracked file" }
            path = directory + "/" + files[pick % files.count]
        }
        let old = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let content = old + "user edit \(index + 1)\n"
        try content.write(toFile: path, atomically: false, encoding: .utf8)
        work.edits[path] = content
        return "edited " + String(path.dropFirst(copy.root.count + 1))
    }

    /// The git directory whose refs hold a commit made in `directory` (the common one of a worktree).
    private func gitDirectory(_ directory: String) throws -> String {
        try sandbox.git(["rev-parse", "--path-format=absolute", "--git-common-dir"], in: directory)
    }

    private func onBranch(_ directory: String) throws -> Bool {
        try sandbox.gitResult(["symbolic-ref", "-q", "HEAD"], in: directory).status == 0
    }

    private func commitNewFile(_ place: InterleavePlace, index: Int) throws -> String {
        let directory = directory(place)
        guard isCheckout(directory) else { return "no checkout there" }
        guard try onBranch(directory) else { return "not on a branch: no commit" }
        let file = "user-\(index + 1).txt"
        try "user commit \(index + 1)\n".write(toFile: directory + "/" + file, atomically: false, encoding: .utf8)
        return try commit([file], in: directory, place: place, index: index)
    }

    private func commit(_ files: [String], in directory: String, place: InterleavePlace, index: Int) throws
        -> String
    {
        let add = try sandbox.gitResult(["add", "--"] + files, in: directory)
        let result = try sandbox.gitResult(
            ["commit", "-q", "-m", "user commit \(index + 1)", "--"] + files, in: directory)
        guard add.status == 0, result.status == 0 else {
            // A refused commit leaves the files as they were: still the user's edits.
            _ = try sandbox.gitResult(["reset", "-q", "--"] + files, in: directory)
            return "git refused the commit: \(result.stderr.split(separator: "\n").first ?? "")"
        }
        let head = try sandbox.git(["rev-parse", "HEAD"], in: directory)
        work.commits.append(
            .init(
                repository: try gitDirectory(directory), remote: remote(place), commit: head,
                label: "the user's commit \(head.prefix(10)) in \(place) (step \(index + 1))"))
        return "committed \(head.prefix(10))"
    }

    /// The edited files of the checkout at `directory` (a superproject's not those in its module checkouts).
    private func edits(under directory: String) -> [String] {
        work.edits.keys.filter { $0.hasPrefix(directory + "/") && !$0.hasPrefix(directory + "/Modules/") }.sorted()
    }

    private func commitEdits(_ place: InterleavePlace, index: Int) throws -> String {
        let directory = directory(place)
        guard isCheckout(directory) else { return "no checkout there" }
        guard try onBranch(directory) else { return "not on a branch: no commit" }
        let paths = edits(under: directory)
        guard !paths.isEmpty else { return "no edits there" }
        let outcome = try commit(
            paths.map { String($0.dropFirst(directory.count + 1)) }, in: directory, place: place, index: index)
        if outcome.hasPrefix("committed") { for path in paths { work.edits[path] = nil } }
        return outcome
    }

    private func discardEdits(_ place: InterleavePlace) throws -> String {
        let directory = directory(place)
        let paths = edits(under: directory)
        guard !paths.isEmpty else { return "no edits there" }
        for path in paths {
            let relative = String(path.dropFirst(directory.count + 1))
            let tracked = try sandbox.gitResult(["ls-files", "--error-unmatch", "--", relative], in: directory)
            if tracked.status == 0 {
                _ = try sandbox.gitResult(["checkout", "-q", "--", relative], in: directory)
            } else {
                try? FileManager.default.removeItem(atPath: path)
            }
            work.edits[path] = nil
        }
        return "discarded \(paths.count)"
    }

    private func colleaguePush(_ repository: String, pick: Int, index: Int) throws -> String {
        let remote = copy.remotes + "/" + repository + ".git"
        let branches = try sandbox.git(["for-each-ref", "--format=%(refname:short)", "refs/heads/"], in: remote)
            .split(separator: "\n").map(String.init).sorted()
        guard !branches.isEmpty else { return "no branch" }
        let branch = branches[pick % branches.count]
        let clone = copy.root + "/colleague"
        try? FileManager.default.removeItem(atPath: clone)
        defer { try? FileManager.default.removeItem(atPath: clone) }
        try sandbox.git(["clone", "-q", "--branch", branch, "--", remote, clone])
        try "colleague \(index + 1)\n".write(
            toFile: clone + "/colleague-\(index + 1).txt", atomically: false, encoding: .utf8)
        try sandbox.git(["add", "--", "colleague-\(index + 1).txt"], in: clone)
        try sandbox.git(["commit", "-q", "-m", "colleague \(index + 1)"], in: clone)
        let head = try sandbox.git(["rev-parse", "HEAD"], in: clone)
        let pushed = try sandbox.gitResult(["push", "-q", "origin", "HEAD:refs/heads/" + branch], in: clone)
        guard pushed.status == 0 else { return "the push was refused: \(pushed.stderr)" }
        work.commits.append(
            .init(
                repository: nil, remote: remote, commit: head,
                label: "a colleague's commit \(head.prefix(10)) on \(repository) \(branch) (step \(index + 1))"))
        return "pushed \(head.prefix(10)) to \(branch)"
    }

    private func removeWorktree(_ name: String) throws -> String {
        let path = copy.root + "/" + name
        guard FileManager.default.fileExists(atPath: path) else { return "not there" }
        let removed = try sandbox.gitResult(["worktree", "remove", "--force", path], in: copy.workspace)
        var outcome = "removed"
        if removed.status != 0 {
            // git does not remove a worktree holding submodules: the user deletes it and prunes.
            try FileManager.default.removeItem(atPath: path)
            try sandbox.git(["worktree", "prune"], in: copy.workspace)
            outcome = "deleted and pruned (git: \(removed.stderr.split(separator: "\n").first ?? ""))"
        }
        // The user threw away what was in it.
        for edited in work.edits.keys where edited.hasPrefix(path + "/") { work.edits[edited] = nil }
        return outcome
    }
}

/// The state of a sequence's copy as far as tenantctl can see it: the path and content of every file but git's
/// object stores (reached only through the refs, which are files here), the lock file tenantctl holds with flock, and
/// each index, whose stat data git rewrites on a mere status (compared as `git ls-files --stage` of each checkout
/// instead).
enum InterleaveState {
    static func read(_ sequence: InterleaveSequence) throws -> String {
        let root = sequence.copy.root
        let files = FileManager.default
        guard let walker = files.enumerator(atPath: root) else { return "" }
        var state: [String] = []
        var checkouts: [String] = []
        while let path = walker.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            let type = walker.fileAttributes?[.type] as? FileAttributeType
            if type == .typeDirectory && name == "objects" {
                walker.skipDescendants()
                continue
            }
            if name == ".git" { checkouts.append(root + "/" + (path as NSString).deletingLastPathComponent) }
            guard type == .typeRegular, name != "index", name != "tenantctl.lock" else { continue }
            let content = files.contents(atPath: root + "/" + path) ?? Data("unreadable".utf8)
            state.append(path + "\n" + String(decoding: content, as: UTF8.self))
        }
        for checkout in checkouts.sorted() {
            let staged = try sequence.sandbox.gitResult(["ls-files", "--stage"], in: checkout)
            state.append(checkout + " index\n\(staged.status) " + staged.stdout)
        }
        return state.sorted().joined(separator: "\n\0")
    }
}
