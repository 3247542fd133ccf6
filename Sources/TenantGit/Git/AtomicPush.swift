import Foundation

/// One atomic push per repository: every ref of the repository changes, or none does. The one place tenantctl
/// writes to a remote; Git LFS objects the pushed commits need are uploaded first (``LFSUpload``). A push that
/// landed is written down in the copies of the remote's branches it is given (``PushTracking``), so that `status`
/// compares with what the remote now has.
public enum AtomicPush {
    /// From this many branches to set on, a push stages them and sends them with one pattern refspec
    /// (``PushStaging``).
    public static let stagingThreshold = 8

    /// A push asked to weigh its staging (`weighStaging`) stages its branches only from this many pairs of a branch
    /// to set and a ref the pushing repository holds: git matches every named branch against every ref (about a
    /// microsecond a pair), while staging costs two more git processes and two ref writes per branch (the ref and
    /// its removal, about 0.3 ms each on ext4, plus some 10 ms per process). Measured with git 2.39: 123 branches
    /// pushed from a repository of 124 refs take 95 ms of CPU by name and 110–160 ms staged; from one of 1024 refs,
    /// 225 ms by name and 110 ms staged. 50,000 pairs (60 ms of matching) is about where the two meet.
    public static let stagingPairs = 50_000

    /// Pushes `updates` (each ref to its `new` commit, or deleted when `new` is nil) from `repository` to `remote`
    /// (a remote name or URL). A rejection is an outcome, not an error; an error means git gave no per-ref answer
    /// (the remote could not be reached, the connection broke). With `weighStaging`, a push of many branches first
    /// counts the refs `repository` holds (one `for-each-ref`) and names its branches instead of staging them when
    /// that is cheaper (``stagingPairs``): a module mirror of a few hundred refs. `tracking`: the copies of the
    /// remote's branches to bring up to date when the push lands (a failure to write them is an error that says the
    /// push landed).
    public static func push(
        _ updates: [RefUpdate], repository name: String, from repository: String, to remote: String,
        mode: PushMode = .fastForward, weighStaging: Bool = false, tracking: [PushTracking] = [], git: Git
    ) throws -> PushOutcome {
        try push(
            updates, repository: name, from: repository, to: remote, mode: mode, weighStaging: weighStaging,
            tracking: tracking, recordingHere: false, git: git
        ).outcome
    }

    /// ``push(_:repository:from:to:mode:weighStaging:tracking:git:)``; with `recordingHere`, a push that lands is
    /// also recorded in the pushing repository itself (a mirror of the remote: each branch set to its new commit,
    /// leased on its old one), in the same `update-ref` transaction that removes the staged branches, or in one of
    /// its own when nothing was staged: one ref transaction after the push, one `update-ref` process for the whole
    /// push. A record that fails is returned (`recordFailure`), not thrown: the push landed all the same.
    public static func push(
        _ updates: [RefUpdate], repository name: String, from repository: String, to remote: String,
        mode: PushMode = .fastForward, weighStaging: Bool = false, tracking: [PushTracking] = [],
        recordingHere: Bool, git: Git
    ) throws -> (outcome: PushOutcome, recordFailure: (any Error)?) {
        let pushed = try push(
            updates, repository: name, from: repository, to: remote, mode: mode, weighStaging: weighStaging,
            tracking: tracking, leavingRecord: recordingHere, git: git)
        return (pushed.outcome, pushed.record?.complete())
    }

    /// ``push(_:repository:from:to:mode:weighStaging:tracking:recordingHere:git:)`` that returns the record of a
    /// landed push in the pushing repository instead of making it (`leavingRecord`): the caller completes it
    /// (``PendingPushRecord/complete()``, exactly once) while it pushes another repository, so that the next push
    /// does not wait for this one's bookkeeping. Until then the staged branches stay, with their `update-ref` process.
    public static func push(
        _ updates: [RefUpdate], repository name: String, from repository: String, to remote: String,
        mode: PushMode = .fastForward, weighStaging: Bool = false, tracking: [PushTracking] = [],
        leavingRecord: Bool, git: Git
    ) throws -> (outcome: PushOutcome, record: PendingPushRecord?) {
        guard !updates.isEmpty else { return (PushOutcome(repository: name, accepted: true, detail: ""), nil) }
        var arguments = ["push", "--atomic", "--porcelain", "--no-verify"]
        arguments += try leases(updates, mode: mode, repository: name)
        arguments += ["--", remote]
        // The LFS objects the pushed commits need reach the server before the refs that need them.
        try LFSUpload.upload(updates, repository: name, from: repository, to: remote, git: git)
        // Many branches to set are pushed from refs of their own in the pushing repository, with one pattern refspec:
        // git 2.39 compares every explicit refspec with every local ref (formatting six candidate names each time),
        // so a push of 1000 branches named one by one spends seconds of CPU before it sends anything; a pattern is
        // matched once per ref. A few branches are named as before (no extra git call, nothing written to the
        // pushing repository). Deletions are always explicit (`:ref`).
        let sets = updates.filter { $0.new != nil }
        let localRefs =
            weighStaging && sets.count >= stagingThreshold
            ? try GitRefs.list(["refs/"], in: repository, git: git, what: name).count : nil
        let staging =
            stages(sets.count, localRefs: localRefs)
            ? try PushStaging(sets, in: repository, git: git, repositoryName: name) : nil
        // Removed once the push answered: with the record of what landed when there is one (below).
        var removed = false
        defer { if !removed { staging?.remove() } }
        if let staging {
            arguments.append(staging.refspec)
        } else {
            arguments += sets.map { ($0.new?.hex ?? "") + ":" + $0.ref.name }
        }
        arguments += updates.filter { $0.new == nil }.map { ":" + $0.ref.name }
        let output = try git.runNetwork(
            arguments, in: repository, remote: remote, context: "push \(name) to \(Redaction.redact(remote))",
            accepting: [0, 1])
        let answers = parsePorcelain(output.text)
        let remoteMessages = Self.remoteMessages(output.stderr)
        let refused = updates.filter { answers[$0.ref.name]?.flag == "!" }
        if output.status == 0 && refused.isEmpty {
            for copy in tracking {
                do {
                    try copy.record(updates, repositoryName: name, git: git)
                } catch {
                    throw PushRecordError(
                        "the push to \(name) landed, but recording it in \(copy.prefix) failed: \(error); "
                            + "tenantctl status --fetch reads the remote afresh")
                }
            }
            var record: PendingPushRecord?
            if leavingRecord {
                removed = true
                record = PendingPushRecord(
                    updates: updates, staging: staging, repository: repository, name: name, git: git)
            }
            return (
                PushOutcome(repository: name, accepted: true, detail: "", remoteMessages: remoteMessages), record
            )
        }
        guard !answers.isEmpty else {
            throw GitError(
                context: "push \(name) to \(Redaction.redact(remote))", kind: .failed(status: output.status),
                command: git.command(arguments, in: repository), directory: repository, output: output)
        }
        var detail = refused.map { "\($0.ref): \(answers[$0.ref.name]?.summary ?? "rejected")" }.joined(separator: "; ")
        if detail.isEmpty { detail = "rejected" }
        if !remoteMessages.isEmpty { detail += "; the remote said: " + remoteMessages.joined(separator: " / ") }
        return (
            PushOutcome(
                repository: name, accepted: false, detail: Redaction.redact(detail), remoteMessages: remoteMessages),
            nil
        )
    }

    /// The `--force-with-lease` options of a push: every branch under `.restore` and `.leased`, the deletions
    /// under `.fastForward` (which must know the value they delete).
    static func leases(_ updates: [RefUpdate], mode: PushMode, repository name: String) throws -> [String] {
        var arguments: [String] = []
        for update in updates {
            switch mode {
            case .restore, .leased:
                arguments.append("--force-with-lease=\(update.ref):\(update.old?.hex ?? "")")
            case .fastForward where update.new == nil:
                guard let old = update.old else {
                    throw PushError("refusing to delete \(update.ref) of \(name) without knowing its value (a lease)")
                }
                arguments.append("--force-with-lease=\(update.ref):\(old)")
            case .fastForward:
                break
            }
        }
        return arguments
    }

    /// Whether a push of `branches` branches to set stages them (``stagingThreshold``; with the count of the refs
    /// the pushing repository holds, ``stagingPairs``).
    public static func stages(_ branches: Int, localRefs: Int?) -> Bool {
        guard branches >= stagingThreshold else { return false }
        guard let localRefs else { return true }
        return branches * localRefs >= stagingPairs
    }

    /// Parses `git push --porcelain` output: ref → (flag, summary).
    public static func parsePorcelain(_ text: String) -> [String: (flag: Character, summary: String)] {
        var result: [String: (flag: Character, summary: String)] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, let flag = fields[0].first, let colon = fields[1].lastIndex(of: ":") else {
                continue
            }
            result[String(fields[1][fields[1].index(after: colon)...])] = (flag, String(fields[2]))
        }
        return result
    }

    /// The server's messages in git's standard error (``ServerMessages``).
    public static func remoteMessages(_ stderr: String) -> [String] { ServerMessages.parse(stderr) }
}

/// A push that landed but could not be written down in a copy of the remote's branches (``PushTracking``).
public struct PushRecordError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// A push that tenantctl refuses to make.
public struct PushError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
