import Foundation

/// One object read through `git cat-file --batch`.
public struct GitObject: Sendable, Equatable {
    /// Object id.
    public var id: String
    /// `blob`, `tree`, `commit` or `tag`.
    public var type: String
    /// Raw contents.
    public var data: [UInt8]

    /// The contents as UTF-8 text.
    public var text: String { String(decoding: data, as: UTF8.self) }
}

/// Reads many objects with one `git cat-file --batch` process.
///
/// Requests are object names (`<oid>`, `<rev>:<path>`); a name that does not resolve gives `nil`.
/// Reads interleave with writes, so a caller can decide what to ask next from what it read.
/// Sendable: each call holds the process for its whole exchange of requests and answers, so calls from several
/// threads are served one after the other and never read each other's answers.
public final class CatFileBatch: Sendable {
    private let locked: Locked<GitProcess>

    /// Starts `git cat-file --batch` in `repository`.
    public init(git: Git, repository: String) throws(GitError) {
        locked = Locked(
            try git.spawn(["cat-file", "--batch"], in: repository, context: "read objects in \(repository)"))
    }

    /// Reads one object; nil when the name does not resolve (missing, ambiguous).
    public func object(_ name: String) throws(GitError) -> GitObject? {
        try locked.withLock { process throws(GitError) in
            try process.write(Self.checked(name, process) + "\n")
            return try Self.response(for: name, from: process)
        }
    }

    /// The most request bytes written before reading answers: well below any pipe buffer (16 KiB on macOS), so the
    /// requests fit into the empty input pipe even while git is blocked writing a large answer.
    static let requestBudget = 8192

    /// Reads many objects: one answer per name, in order. Requests are written while answers are read.
    public func objects(_ names: [String]) throws(GitError) -> [GitObject?] {
        guard !names.isEmpty else { return [] }
        return try locked.withLock { process throws(GitError) in
            var results: [GitObject?] = []
            results.reserveCapacity(names.count)
            var index = 0
            while index < names.count {
                // A chunk of requests (at least one) whose answers are read before the next chunk is written.
                var request = ""
                var end = index
                while end < names.count {
                    let line = try Self.checked(names[end], process) + "\n"
                    if end > index && request.utf8.count + line.utf8.count > Self.requestBudget { break }
                    request += line
                    end += 1
                }
                try process.write(request)
                for name in names[index..<end] { results.append(try Self.response(for: name, from: process)) }
                index = end
            }
            return results
        }
    }

    private static func checked(_ name: String, _ process: GitProcess) throws(GitError) -> String {
        guard !name.contains("\n"), !name.isEmpty else {
            throw process.refused("object name \(name.debugDescription) is empty or has a line break")
        }
        return name
    }

    private static func response(for name: String, from process: GitProcess) throws(GitError) -> GitObject? {
        guard let header = process.readLine() else {
            throw process.failure(detail: "no answer for \(name)")
        }
        if header.hasSuffix(" missing") || header.hasSuffix(" ambiguous") || header.hasSuffix(" dangling")
            || header.hasSuffix(" loop") || header.hasSuffix(" notdir")
        {
            return nil
        }
        let fields = header.split(separator: " ")
        guard fields.count == 3, let size = Int(fields[2]) else {
            if header.hasPrefix("symlink ") || header.hasPrefix("dangling ") || header.hasPrefix("notdir ") {
                _ = process.readLine()
                return nil
            }
            throw process.failure(detail: "unexpected header \(header)")
        }
        guard let data = process.read(count: size), process.read(count: 1) == [UInt8(ascii: "\n")] else {
            throw process.failure(detail: "object \(fields[0]) ended early")
        }
        return GitObject(id: String(fields[0]), type: String(fields[1]), data: data)
    }

    /// Ends the process.
    public func close() throws(GitError) {
        _ = try locked.withLock { process throws(GitError) in try process.finish() }
    }
}
