import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Runs one tenantctl command of a sequence as a child process: plainly, killed (SIGKILL) at a git call, or sent
/// SIGTERM during one; with a remote that rejects every push for this step only.
struct InterleaveCommand {
    let sequence: InterleaveSequence

    var lab: FaultLab { sequence.lab }

    func run(_ symbolic: [String], in directory: String, fault: InterleaveFault, rejecting: String?) throws
        -> String
    {
        let arguments = try resolve(symbolic)
        var hook: String?
        if let rejecting {
            let path = "\(sequence.copy.remotes)/\(rejecting).git/hooks/pre-receive"
            try RunWaysOutTests.pre.write(toFile: path, atomically: false, encoding: .utf8)
            _ = try lab.sandbox.run("/bin/chmod", ["+x", path])
            hook = path
        }
        defer { if let hook { try? FileManager.default.removeItem(atPath: hook) } }
        var outcome = try execute(arguments, in: directory, fault: fault)
        let left = try lab.waitForProcesses(mentioning: sequence.copy.root + "/")
        if !left.isEmpty { outcome += " (processes left: \(left))" }
        return "`\(arguments.joined(separator: " "))` " + outcome
    }

    /// The arguments with the symbolic run ids read from `runs --json`.
    private func resolve(_ symbolic: [String]) throws -> [String] {
        guard symbolic.contains(where: { $0.hasPrefix("<") }) else { return symbolic }
        let runs = try lab.sandbox.runs(in: sequence.copy.workspace)
        let lastRoll = runs.last {
            $0["command"] as? String == "roll" && !(($0["arguments"] as? [String]) ?? []).contains("--undo")
        }
        let unfinished = runs.last { $0["state"] as? String == "unfinished" } ?? runs.last
        return symbolic.map { word in
            switch word {
            case "<last-roll>": lastRoll?["runId"] as? String ?? "no-roll-yet"
            case "<unfinished>": unfinished?["runId"] as? String ?? "no-run-yet"
            default: word
            }
        }
    }

    private func execute(_ arguments: [String], in directory: String, fault: InterleaveFault) throws -> String {
        let copy: FaultLab.Copy = (sequence.copy.root, directory, sequence.copy.remotes)
        switch fault {
        case .none:
            let result = try lab.sandbox.tenantctlProcess(arguments, in: directory, environment: FaultLab.dates)
            return summary(result)
        case .killBefore(let call), .killAfter(let call):
            let key = fault == .killBefore(call) ? "SHIM_KILL_AT" : "SHIM_KILL_AFTER"
            let (result, calls) = try lab.runShimmed(
                arguments, in: copy, environment: FaultLab.dates.merging([key: "\(call)"]) { $1 })
            return result.status == -SIGKILL ? "killed (of \(calls.count) calls)" : summary(result) + ", not killed"
        case .terminate(let call):
            let shim = try GitShim(in: lab.sandbox, name: "shim-term-\(sequence.seed)-\(sequence.log.count + 1)")
            let run = try BackgroundTenantctl(
                arguments + ["--git", shim.path], in: directory, sandbox: lab.sandbox,
                environment: FaultLab.dates.merging(["SHIM_SLEEP_AT": "\(call)", "SHIM_SLEEP_SECONDS": "30"]) { $1 })
            let deadline = Date().addingTimeInterval(180)
            while run.process.isRunning, try shim.calls().count < call, Date() < deadline { usleep(20_000) }
            let reached = run.process.isRunning
            if reached { kill(run.pid, SIGTERM) }
            let result = try #require(run.wait(seconds: 180), "`tenantctl \(arguments)` did not end after SIGTERM")
            return reached ? "SIGTERM → exit \(result.status)" : summary(result) + ", ended before the signal"
        }
    }

    private func summary(_ result: CLIResult) -> String {
        // The error line, not the progress lines before it.
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let first = result.status == 0 ? "" : lines.first { $0.hasPrefix("error") } ?? lines.last ?? ""
        return "exit \(result.status)" + (first.isEmpty ? "" : ": " + first.prefix(240))
    }
}

/// The invariants after every step: no commit of the user's or a colleague's lost, no uncommitted edit lost, no
/// superproject pin (on any remote branch) on a commit that its module's remote branches lack.
struct InterleaveCheck {
    let sequence: InterleaveSequence

    var sandbox: GitSandbox { sequence.sandbox }

    func violations() throws -> [String] {
        try lostCommits() + lostEdits() + missingPins()
    }

    /// Whether a ref of `repository` reaches `commit` (false when the repository or the commit is not there).
    /// Asked of git once per state of the repository's refs: while they are as they were, the answer is too.
    private func reached(_ commit: String, in repository: String?) throws -> Bool {
        guard let repository, FileManager.default.fileExists(atPath: repository) else { return false }
        let cache = sequence.checkCache
        let refs = InterleaveCheckCache.refs(of: repository)
        let key = repository + "\0" + commit
        if let known = cache.reached[key], known.refs == refs { return known.answer }
        let result = try sandbox.gitResult(
            ["for-each-ref", "--contains", commit, "--format=%(refname)"], in: repository)
        let answer = result.status == 0 && !result.stdout.isEmpty
        cache.reached[key] = (refs, answer)
        return answer
    }

    private func lostCommits() throws -> [String] {
        try sequence.work.commits.filter {
            try !reached($0.commit, in: $0.repository) && !reached($0.commit, in: $0.remote)
        }.map { "commit lost: \($0.label) is on no ref of its repository nor of its remote" }
    }

    private func lostEdits() throws -> [String] {
        var lost: [String] = []
        for (path, content) in sequence.work.edits.sorted(by: { $0.key < $1.key }) {
            let now = try? String(contentsOfFile: path, encoding: .utf8)
            if now == content { continue }
            if try inAStash(path, content) { continue }
            let relative = path.dropFirst(sequence.copy.root.count + 1)
            lost.append(
                "uncommitted edit lost: \(relative) "
                    + (now == nil ? "is gone" : "no longer holds the user's content (now: \(now?.suffix(80) ?? ""))"))
        }
        return lost
    }

    /// Whether a stash entry of the checkout holding `path` keeps `content` there (kept, not lost).
    private func inAStash(_ path: String, _ content: String) throws -> Bool {
        var directory = (path as NSString).deletingLastPathComponent
        while !sequence.isCheckout(directory) && directory.count > sequence.copy.root.count {
            directory = (directory as NSString).deletingLastPathComponent
        }
        guard sequence.isCheckout(directory) else { return false }
        let relative = String(path.dropFirst(directory.count + 1))
        let blob = try sandbox.git(["hash-object", "--stdin"], in: directory, input: content)
        let stashes = try sandbox.gitResult(["stash", "list", "--format=%H"], in: directory)
        for stash in stashes.stdout.split(separator: "\n") {
            for tree in ["\(stash)", "\(stash)^3"] {
                let entry = try sandbox.gitResult(
                    ["rev-parse", "--verify", "-q", "\(tree):\(relative)"], in: directory)
                if entry.stdout.trimmingCharacters(in: .newlines) == blob { return true }
            }
        }
        return false
    }

    /// Found again only when a remote's refs changed since the last check: a branch's pins are read once per
    /// commit, and whether a module's remote has a pinned commit once per state of that remote's refs.
    private func missingPins() throws -> [String] {
        let remotes = sequence.copy.remotes
        let cache = sequence.checkCache
        let state = FaultLab.bareRepositories(in: remotes).map {
            $0 + "\0" + InterleaveCheckCache.refs(of: "\(remotes)/\($0).git")
        }.joined(separator: "\0\0")
        if let last = cache.missingPins, last.remotes == state { return last.missing }
        let superproject = remotes + "/Superproject.git"
        var missing: [String] = []
        let branches = try sandbox.git(
            ["for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads/"], in: superproject)
        for line in branches.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 2 else { continue }
            let (branch, tip) = (fields[0], fields[1])
            if cache.gitlinks[tip] == nil {
                cache.gitlinks[tip] = try sandbox.gitlinks(on: tip, in: superproject)
            }
            for (path, commit) in (cache.gitlinks[tip] ?? [:]).sorted(by: { $0.key < $1.key }) {
                let module = (path as NSString).lastPathComponent
                let remote = "\(remotes)/\(module).git"
                guard FileManager.default.fileExists(atPath: remote) else { continue }
                let refs = InterleaveCheckCache.refs(of: remote)
                let key = module + "\0" + commit
                var onABranch: Bool
                if let known = cache.onABranch[key], known.refs == refs {
                    onABranch = known.answer
                } else {
                    let result = try sandbox.gitResult(
                        ["for-each-ref", "--contains", commit, "--format=%(refname)", "refs/heads/"], in: remote)
                    onABranch = result.status == 0 && !result.stdout.isEmpty
                    cache.onABranch[key] = (refs, onABranch)
                }
                if !onABranch {
                    missing.append(
                        "superproject branch \(branch) pins \(path) at \(commit.prefix(10)), on no branch of \(module)'s remote"
                    )
                }
            }
        }
        cache.missingPins = (state, missing)
        return missing
    }
}

/// What the checks of one sequence already asked git, with the state of the refs each answer holds for. A ref
/// state is read from the files (`packed-refs` and every loose ref), without git: while no ref of a repository
/// changed, its answers stand.
final class InterleaveCheckCache {
    /// Repository and commit → whether a ref reaches it.
    var reached: [String: (refs: String, answer: Bool)] = [:]
    /// Module and commit → whether a branch of the module's remote reaches it.
    var onABranch: [String: (refs: String, answer: Bool)] = [:]
    /// A superproject commit → its gitlinks (a commit never changes).
    var gitlinks: [String: [String: String]] = [:]
    /// The remotes' ref states at the last check, with the missing pins found then.
    var missingPins: (remotes: String, missing: [String])?

    /// The refs of the git directory `repository` as its files hold them: `packed-refs`, then each loose ref under
    /// `refs/` with its content, in order. Equal for equal refs; a changed ref changes it.
    static func refs(of repository: String) -> String {
        let files = FileManager.default
        var state = (try? String(contentsOfFile: repository + "/packed-refs", encoding: .utf8)) ?? ""
        let top = repository + "/refs"
        let paths = (files.enumerator(atPath: top)?.allObjects as? [String] ?? []).sorted()
        for path in paths {
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: top + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let content = (try? String(contentsOfFile: top + "/" + path, encoding: .utf8)) ?? "?"
            state += "\n" + path + " " + content
        }
        return state
    }
}

/// "Never stuck": every unfinished run has a way out that works, and after it a writing command runs. Tried on a
/// copy of the sequence's directory, put back afterwards, so that the sequence goes on from the state it was in;
/// the user's work is checked there too (a way out must not lose it either).
struct InterleaveProbe {
    let sequence: InterleaveSequence

    var sandbox: GitSandbox { sequence.sandbox }

    /// The unfinished runs listed in the main worktree, with their printed ways out.
    func unfinished() -> [(id: String, ways: [String])] {
        let listed = sandbox.tenantctl(["runs"], in: sequence.copy.workspace)
        return listed.stdout.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: " is unfinished; its ways out: ") else { return nil }
            let ways = line[range.upperBound...].components(separatedBy: ", or ")
            return (String(line[..<range.lowerBound]), ways)
        }
    }

    func violations() throws -> [String] { try violations(of: unfinished()) }

    /// The violations found taking the ways out of `runs` (the unfinished runs listed now).
    func violations(of runs: [(id: String, ways: [String])]) throws -> [String] {
        guard !runs.isEmpty else { return [] }
        let root = sequence.copy.root
        let saved = root + ".saved"
        try sequence.timed("probe: saving the state") {
            if Interleave.environment["TENANTCTL_INTERLEAVE_SAVE"] == "link" {
                // The object stores hard-linked (measured slower than the plain copy on the example: its stores are
                // a few packs, the time goes to the many small files).
                try InterleaveSavedState.save(root, to: saved, sandbox: sandbox)
            } else {
                let copied = try sandbox.run("/bin/cp", ["-a", root, saved])
                try #require(copied.status == 0, "cp failed: \(copied.stderr)")
            }
        }
        defer {
            sequence.timed("probe: putting the state back") {
                try? FileManager.default.removeItem(atPath: root)
                try? FileManager.default.moveItem(atPath: saved, toPath: root)
            }
        }
        var violations: [String] = []
        var pending = runs
        // A way out that fails (a re-run refused again) can leave a run of its own: its ways out are taken next.
        try sequence.timed("probe: ways out") {
            for _ in 0..<4 where violations.isEmpty && !pending.isEmpty {
                for run in pending { violations += try takeAWayOut(run) }
                pending = unfinished()
            }
        }
        sequence.timed("probe: status and switch") {
            for arguments in [["status"], ["switch", "t1"]] {
                let result = sandbox.tenantctl(arguments, in: sequence.copy.workspace, environment: FaultLab.dates)
                if result.stderr.contains("refusing to run `tenantctl") {
                    violations.append(
                        "stuck: after the ways out, `tenantctl \(arguments.joined(separator: " "))` still refuses: "
                            + result.stderr)
                }
            }
        }
        violations += try InterleaveCheck(sequence: sequence).violations().map { "after the ways out: " + $0 }
        return violations
    }

    private func isUnfinished(_ id: String) throws -> Bool {
        try sandbox.runs(in: sequence.copy.workspace).contains {
            $0["runId"] as? String == id && $0["state"] as? String == "unfinished"
        }
    }

    /// Takes the printed ways out of run `id` in order (not `runs --forget`, which gives up) until it is no longer
    /// unfinished; a violation when none does.
    private func takeAWayOut(_ run: (id: String, ways: [String])) throws -> [String] {
        guard try isUnfinished(run.id) else { return [] }
        var tried: [String] = []
        for way in run.ways where !way.contains("runs --forget") {
            let words = DocsRunTests.words(way)
            guard words.first == "tenantctl" else {
                tried.append("`\(way)`: not a tenantctl command")
                continue
            }
            let result = sandbox.tenantctl(
                Array(words.dropFirst()), in: sequence.copy.workspace, environment: FaultLab.dates)
            tried.append("`\(way)` → exit \(result.status): \(result.stdout)\(result.stderr)")
            if try !isUnfinished(run.id) { return [] }
        }
        return ["stuck: run \(run.id) stays unfinished after every way out:\n    " + tried.joined(separator: "\n    ")]
    }
}

/// A copy of a sequence's directory for a probe to put back afterwards (`TENANTCTL_INTERLEAVE_SAVE=link`; the
/// default is a plain `cp -a`, measured faster on the example). Every file is copied (`tar`, with its
/// permissions and times) but git's object stores, which are hard-linked (`cp -al`): git never writes into an object
/// file or a pack once it exists (it writes a new file and renames it into place, and removes whole files), so what
/// the probe's commands do to the original never reaches the copy. Everything else (refs, reflogs and journals
/// appended to in place, indexes, config, the working trees) is a copy of its own. A directory named `objects` that
/// is no git directory's store is copied like the rest.
enum InterleaveSavedState {
    static let script = """
        set -eo pipefail
        mkdir "$2"
        tar -C "$1" --exclude=objects -cf - . | tar -C "$2" -xf -
        cd "$1"
        find . -name objects -prune -print | while IFS= read -r entry; do
            if [ -d "$entry" ] && [ -f "$entry/../HEAD" ]; then
                cp -al "$entry" "$2/$entry"
            else
                cp -a "$entry" "$2/$entry"
            fi
        done
        """

    static func save(_ root: String, to saved: String, sandbox: GitSandbox) throws {
        let result = try sandbox.run("/bin/bash", ["-c", script, "save", root, saved])
        guard result.status == 0 else {
            throw SandboxError(description: "cannot save \(root) to \(saved) (\(result.status)): \(result.stderr)")
        }
    }
}
