import Foundation

/// One change of a ref, with the value it must have before (a lease).
public struct RefUpdate: Sendable, Equatable, Hashable, Codable {
    /// Full ref name (`refs/heads/t2`).
    public var ref: String
    /// New object id; nil deletes the ref.
    public var new: String?
    /// Expected old object id; nil means "must not exist yet".
    public var old: String?

    public init(ref: String, new: String?, old: String?) {
        self.ref = ref
        self.new = new
        self.old = old
    }

    /// The `update-ref --stdin` command line for this change.
    var command: String {
        switch (new, old) {
        case (let new?, let old?): return "update \(ref) \(new) \(old)\n"
        case (let new?, nil): return "create \(ref) \(new)\n"
        case (nil, let old?): return "delete \(ref) \(old)\n"
        case (nil, nil): return "verify \(ref) \(String(repeating: "0", count: 40))\n"
        }
    }
}

/// Applies ref changes to one repository as a single atomic `git update-ref --stdin` transaction:
/// `start`, every update with its old value, `prepare` (all refs locked and checked), then `commit`.
/// Any failure aborts the whole transaction; no ref changes.
public enum RefTransaction {
    /// Applies `updates` atomically. `beforeCommit` runs after every ref is locked and verified and before
    /// anything changes (e.g. to write a journal); if it throws, the transaction is aborted.
    public static func apply(
        _ updates: [RefUpdate], in repository: String, git: Git, context: String,
        beforeCommit: () throws -> Void = {}
    ) throws {
        guard !updates.isEmpty else { return }
        for update in updates {
            guard !update.ref.contains(" "), !update.ref.contains("\n"), update.ref.hasPrefix("refs/") else {
                throw GitError(
                    context: context, kind: .refusedArgument(detail: "refusing ref name \(update.ref)"),
                    command: ["git"] + git.argumentVector(["update-ref", "--stdin"], in: repository),
                    directory: repository, stderr: "")
            }
        }
        let process = try git.spawn(["update-ref", "--stdin"], in: repository, context: context)
        try process.write("start\n")
        try expect("start: ok", from: process)
        try process.write(updates.map(\.command).joined())
        try process.write("prepare\n")
        try expect("prepare: ok", from: process)
        do {
            try beforeCommit()
        } catch {
            try? process.write("abort\n")
            _ = process.readLine()
            _ = try? process.finish()
            throw error
        }
        try process.write("commit\n")
        try expect("commit: ok", from: process)
        try process.finish()
    }

    private static func expect(_ line: String, from process: GitProcess) throws(GitError) {
        guard let answer = process.readLine() else {
            throw process.failure(detail: "no \"\(line)\" from update-ref")
        }
        guard answer == line else {
            throw process.failure(detail: "expected \"\(line)\", got \"\(answer)\"")
        }
    }
}
