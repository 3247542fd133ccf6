import Foundation

/// Several ref transactions in a row through one `git update-ref --stdin` process: git begins a new transaction at
/// every `start` after a `commit`, so the staging of a push and, once it answered, the removal of the staged refs
/// with the record of what landed are one process, not two or three. Each transaction is atomic as
/// ``RefTransaction/apply(_:in:git:context:beforeCommit:)``'s: every ref is locked and checked (`prepare`) before
/// any changes. Between two transactions the process holds no lock; ended (``close()``) or killed, it changes
/// nothing more.
final class RefTransactionSession {
    let process: GitProcess
    let repository: String
    let git: Git

    /// Starts `update-ref --stdin` in `repository`; `context` names what its transactions do, for errors.
    init(in repository: String, git: Git, context: String) throws(GitError) {
        process = try git.spawn(["update-ref", "--stdin"], in: repository, context: context)
        self.repository = repository
        self.git = git
    }

    /// Applies `updates` as one atomic transaction (nothing when empty). A failure ends the process: a later
    /// ``apply(_:)`` fails too.
    func apply(_ updates: [RefUpdate]) throws(GitError) {
        guard !updates.isEmpty else { return }
        try process.write("start\n")
        try expect("start: ok")
        try process.write(updates.map(\.command).joined() + "prepare\n")
        try expect("prepare: ok")
        try process.write("commit\n")
        try expect("commit: ok")
    }

    /// Ends the process (its input closed); throws when git failed.
    func close() throws(GitError) {
        try process.finish()
    }

    private func expect(_ line: String) throws(GitError) {
        guard let answer = process.readLine() else {
            throw process.failure(detail: "no \"\(line)\" from update-ref")
        }
        guard answer == line else {
            throw process.failure(detail: "expected \"\(line)\", got \"\(answer)\"")
        }
    }
}
