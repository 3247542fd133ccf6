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
    /// The steps run so far, each with what became of it.
    var log: [String] = []

    init(lab: FaultLab, seed: UInt64) throws {
        self.lab = lab
        self.seed = seed
        copy = try lab.copy("seed-\(seed)")
    }

    var sandbox: GitSandbox { lab.sandbox }

    /// Runs `count` steps drawn from the seed, checking the invariants after each; the first violation, with the
    /// seed and the steps so far, or nil.
    func run(steps count: Int) throws -> String? {
        var generator = InterleaveGenerator(seed: seed)
        for index in 0..<count {
            let step = generator.next(index: index)
            let outcome: String
            do {
                outcome = try perform(step, index: index)
            } catch {
                log.append("\(index + 1). \(step) → the harness could not carry it out")
                return report(["the harness stopped: \(error)"])
            }
            log.append("\(index + 1). \(step) → \(outcome)")
            var violations = try InterleaveCheck(sequence: self).violations()
            if violations.isEmpty { violations = try InterleaveProbe(sequence: self).violations() }
            if !violations.isEmpty { return report(violations) }
        }
        return nil
    }

    /// The failure message: how to replay it, the steps, what broke.
    func report(_ violations: [String]) -> String {
        "interleave: seed \(seed) FAILED after \(log.count) steps (replay: TENANTCTL_INTERLEAVE_SEED=\(seed) "
            + "TENANTCTL_INTERLEAVE_STEPS=\(log.count) scripts/interleave --replay)\n"
            + log.map { "  " + $0 }.joined(separator: "\n") + "\nviolated:\n"
            + violations.map { "  - " + $0 }.joined(separator: "\n")
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
