import Foundation

/// One change of a ref, with the value it must have before (a lease).
public struct RefUpdate: Sendable, Equatable, Hashable, Codable {
    /// Full ref name (`refs/heads/t2`).
    public var ref: RefName
    /// New object id; nil deletes the ref.
    public var new: ObjectID?
    /// Expected old object id; nil means "must not exist yet".
    public var old: ObjectID?

    public init(ref: RefName, new: ObjectID?, old: ObjectID?) {
        self.ref = ref
        self.new = new
        self.old = old
    }

    /// The change of `ref` given by a name and ids still held as text (read from git or a file); throws
    /// ``RefUpdateError`` naming the value that is not a full ref name or a full object id.
    public init(checking ref: String, new: String?, old: String?) throws(RefUpdateError) {
        guard let name = RefName(ref) else { throw RefUpdateError(ref: ref, value: ref, what: "a full ref name") }
        func id(_ text: String?) throws(RefUpdateError) -> ObjectID? {
            guard let text else { return nil }
            guard let id = ObjectID(text) else { throw RefUpdateError(ref: ref, value: text, what: "a full object id") }
            return id
        }
        self.init(ref: name, new: try id(new), old: try id(old))
    }

    /// The change of the branch `branch` (`refs/heads/<branch>`), from ids still held as text; throws
    /// ``RefUpdateError`` naming the branch or the id git would refuse.
    public init(branch: String, new: String?, old: String?) throws(RefUpdateError) {
        try self.init(checking: "refs/heads/" + branch, new: new, old: old)
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

/// A ref change that cannot be made: its ref name or one of its ids is not what git accepts (a bug or a damaged
/// file: tenantctl reads names and ids from git).
public struct RefUpdateError: Error, Equatable, CustomStringConvertible {
    /// The ref the change was for.
    public var ref: String
    /// The value that is not valid.
    public var value: String
    /// What it should have been.
    public var what: String

    public var description: String {
        "refusing to change \(ref): \(value.debugDescription) is not \(what)"
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
